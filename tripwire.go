package hookcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/regularfile"
	"github.com/hookcore/hookcore/state"
)

// The tripwire (stop 32): a condition's `tool changed hook_config` holds at an event when
// a file of the hook config is not as the session's previous event found it. The first
// event whose config has the clause arms the session: it takes a baseline (a snapshot of
// the files) into the session's state. From then on every event of the session, whatever
// the config loaded at it says (the change may have disabled, emptied or broken it),
// compares the files with the baseline and replaces it, in one Update of the store (so
// that concurrent hook processes report a change once). It sees what no reading of a call
// before it runs can: an interpreter that builds a name, a git command that rewrites the
// work tree, a copier no rule knows, a background process that writes later.

// Bounds of one snapshot, by counts: the entries of one directory tree of the set that are
// hashed (tripwireMaxFiles) and that are compared at all (tripwireMaxStat: past the first,
// by size, mtime, ctime and inode; past this one, not compared, and said once), and the
// bytes of one file that are hashed (a file over it is compared by size, mtime, ctime and
// inode).
const (
	tripwireMaxFiles = 2000
	tripwireMaxStat  = 20000
	tripwireMaxHash  = 1 << 20
	// tripwireMaxListed is the number of changes a stop names (listed).
	tripwireMaxListed = 50
)

// changedKey is the key of hook.Input.Extra under which Fire gives the hooks of an event
// what of the hook config changed since the session's previous event (a JSON array of
// strings, "PATH: what"); the command executor exports it as HOOKCORE_CONFIG_CHANGED.
const changedKey = "hookcore_config_changed"

// tripwireSet returns the paths the tripwire compares for an event whose project root is
// root: hookConfigAt(root) (what `changes hook_config` protects), the hook program's files
// (Options.HookProgram) and the directories of hook scripts (Options.HookScripts, taken
// under root and the agent's project directory as the config's are: underRoots).
func (r *Runner) tripwireSet(root string) []string {
	out := slices.Clip(r.hookConfigAt(root))
	out = append(out, r.hookProgram...)
	return append(out, r.underRoots(r.opts.HookScripts, root)...)
}

// tripwireSkip returns the paths that change on every event and are not compared, nor
// anything under them: Options.HookConfigVolatile and the directory of a state.Dir store (a state.Split's too).
func (r *Runner) tripwireSkip() []string {
	skip := slices.Clip(r.opts.HookConfigVolatile)
	for _, d := range stateDirs(r.state) {
		skip = append(skip, filepath.Clean(d))
	}
	return skip
}

// tripwireHit is what an armed session's comparison found at one event.
type tripwireHit struct {
	changed []string // "PATH: what", sorted
	// during is set when the baseline was taken by the PreToolUse of this event's tool call
	// (a PostToolUse or PostToolUseFailure): the change happened during the call.
	during bool
	since  string   // the event that took the baseline
	cut    []string // trees not compared past bound entries
	bound  int      // walkBounds.stat of the snapshot
	// state, when set, is why the baseline could not be compared at all: the session's
	// state could not be read or locked, or held no state (red team round 58: a state file
	// replaced by a directory, garbage, or locked by a background flock switched it off).
	state string
	// record says the comparison was with the workspace's record (a new session's first
	// snapshot, red team round 65; tripwire_record.go), taken by the previous armed session
	// at its event since, at ended (Unix milliseconds). With state set: the record could
	// not be read.
	record bool
	ended  int64
}

// tripwire compares the hook config's files with the session's baseline and replaces it
// (armed when hs has the clause or the session's state says so), and returns in with what
// changed (changedKey) and the hit, or in itself, stripped of any changedKey the agent
// sent, and nil when nothing changed. A session with no state (state.Holder) and a config
// without the clause costs one Holds.
func (r *Runner) tripwire(ctx context.Context, hs *hookSet, event hook.Event, in *hook.Input) (*hook.Input, *tripwireHit) {
	_, sent := in.Extra[changedKey]
	var hit *tripwireHit
	arm := hs.tripwire || r.armTripwire
	if arm || r.mayBeArmed(in.SessionID) || event == hook.SessionStart && r.mayHoldRecord(in) {
		hit = r.compareBaseline(ctx, arm, event, in)
	}
	if hit == nil && !sent {
		return in, nil
	}
	out := in.Clone()
	delete(out.Extra, changedKey)
	if hit != nil {
		changed := hit.changed
		if hit.state != "" {
			changed = []string{"hookcore's session state: " + hit.state}
		}
		b, _ := json.Marshal(changed)
		if out.Extra == nil {
			out.Extra = map[string]json.RawMessage{}
		}
		out.Extra[changedKey] = b
	}
	return out, hit
}

// mayBeArmed reports whether session may have an armed tripwire: its store holds state
// for it, or cannot tell.
func (r *Runner) mayBeArmed(session string) bool {
	if h, ok := r.state.(state.Holder); ok {
		return h.Holds(session)
	}
	return true
}

// compareBaseline is tripwire's Update: with arm (the config has the clause) or an armed
// session, it snapshots the baseline's paths and the config's set, compares with the
// baseline and stores the snapshot as the new one, under the store's lock. A store error is
// logged, and with arm it is a hit of its own (state). With arm and no baseline to compare
// with, the snapshot is the first one, unless the session's transcript shows a finished
// tool call at which hookcore took an earlier baseline (vanished): then that is the hit.
func (r *Runner) compareBaseline(ctx context.Context, arm bool, event hook.Event, in *hook.Input) *tripwireHit {
	var set, skip []string
	if arm {
		set, skip = r.tripwireSet(r.hookConfigRoot(in, r.rootOf(in))), r.tripwireSkip()
	}
	// The workspace's record (tripwire_record.go): read when the session may have no
	// baseline of its own, at an armed event or at SessionStart (whose config may have lost
	// the clause); written at the events after which a session may go quiet.
	var keys recordKeys
	if arm || recordEvent(event) {
		keys = r.recordKeys(in)
	}
	var rec *workspaceRecord
	if (arm || event == hook.SessionStart) && !r.holds(in.SessionID) {
		rec = r.readRecord(ctx, &keys)
	}
	var hit *tripwireHit
	var cutNew []string
	var stored *state.Baseline // the session's baseline as this event leaves it
	var before *state.Baseline // what it was compared with
	fresh := false             // no baseline of the session's own to compare with
	forget := false            // the record is dropped: no clause, and nothing changed since it
	bounds := r.bounds.or()
	err := r.state.Update(ctx, in.SessionID, func(s *state.Session) {
		old := s.Tripwire
		if s.Torn && arm {
			// The file held something that is no state: its baseline, if it had one, is
			// gone. Stop once; the new baseline below is compared from the next event.
			hit = &tripwireHit{state: "the session's state file held no state (damaged, or larger than the bound) and was started over", since: string(event)}
		}
		fresh = old == nil && !s.Torn
		cmp := old // what the snapshot is compared with
		if fresh && rec != nil {
			cmp = rec.base // nil when the record is damaged
		}
		if old == nil && !arm && cmp == nil {
			return
		}
		b := &state.Baseline{At: time.Now().UnixMilli(), Event: string(event), ToolUseID: in.ToolUseID, Paths: set, Skip: skip, Workspace: keys[0]}
		if old != nil && old.Workspace != "" {
			b.Workspace = old.Workspace // the record's key stays the session's first
		}
		var prev map[string]state.FileState
		if cmp != nil {
			b.Paths, b.Skip, prev = union(cmp.Paths, set), union(cmp.Skip, skip), cmp.Files
		}
		b.Files = snapshot(b.Paths, b.Skip, prev, r.bounds)
		cut := cutTrees(b.Files)
		for _, c := range cut {
			if !prev[c].Cut {
				cutNew = append(cutNew, c)
			}
		}
		var changed []string
		switch {
		case old != nil:
			changed = diffFiles(prev, b.Files, b.Paths, bounds.stat)
		case cmp != nil:
			// Only the record's paths: a path this version or config adds is no change.
			changed = diffFiles(prev, filesWithin(b.Files, cmp.Paths), cmp.Paths, bounds.stat)
		}
		if old == nil && !arm && len(changed) == 0 {
			// A config with no tripwire, and nothing changed since the record: the user
			// took the clause out. The session is not armed, and the record goes.
			forget = true
			return
		}
		s.Tripwire, stored, before = b, b, cmp
		if len(changed) == 0 {
			return
		}
		hit = &tripwireHit{changed: listed(changed), cut: cut, bound: bounds.stat}
		if old != nil {
			hit.since = old.Event
			hit.during = old.Event == string(hook.PreToolUse) && old.ToolUseID != "" && old.ToolUseID == in.ToolUseID && (event == hook.PostToolUse || event == hook.PostToolUseFailure)
		} else {
			hit.since, hit.ended, hit.record = cmp.Event, cmp.At, true
		}
	})
	if err != nil {
		// A config that arms the session: a store that cannot be read or locked is no
		// reason to let a change through (red team round 58).
		r.log.Warn("tripwire: the hook config's baseline could not be compared", "err", err.Error())
		if !arm {
			return nil // a session of `once` state, say, whose config has no tripwire
		}
		return &tripwireHit{state: err.Error(), since: string(event)}
	}
	for _, c := range cutNew {
		r.log.Warn(fmt.Sprintf("tripwire: %s has more than %d entries: those past them are not compared", c, bounds.stat))
	}
	if fresh && arm {
		// A new baseline is stored either way; the transcript, read after the lock is
		// released, says whether an earlier one vanished (red team round 60).
		if why := vanished(event, in); why != "" {
			hit = &tripwireHit{state: why, since: string(event)}
		}
	}
	if hit == nil && fresh && rec != nil && rec.damaged != "" {
		hit = &tripwireHit{state: rec.damaged, since: string(event), record: true}
	}
	switch {
	case forget:
		r.forgetRecords(ctx, rec.keys)
	case stored != nil && recordEvent(event):
		key := keys[0]
		if stored.Workspace != "" {
			key = stored.Workspace
		}
		if event == hook.SessionEnd && hit != nil && len(hit.changed) > 0 && before != nil {
			// A change found at SessionEnd is told to no one (its answer changes nothing):
			// the record keeps what the session compared with, so that the next session's
			// start reports it (red team round 66: a write after the last Stop went into the
			// record).
			stored = before
		}
		r.writeRecord(ctx, key, stored)
	}
	return hit
}

// gitHooksDir reports whether p is a repository's hooks directory (…/.git/hooks), which the
// tripwire compares by its files only: `git init` and `git clone` create it full of
// *.sample files, which git never runs (red team round 66: every `git init` in a session
// stopped it). A hook is a file of another name, created, renamed or linked there.
func gitHooksDir(p string) bool {
	return filepath.Base(p) == "hooks" && filepath.Base(filepath.Dir(p)) == ".git"
}

// gitHookSample reports whether p is a sample file of a repository's hooks directory.
func gitHookSample(p string) bool {
	return strings.HasSuffix(p, ".sample") && gitHooksDir(filepath.Dir(p))
}

// listed returns changed with its entries past tripwireMaxListed replaced by one that says
// how many more there are: a tree grown by 20 000 files is one stop reason of a few
// kilobytes, not a megabyte (and HOOKCORE_CONFIG_CHANGED stays under the kernel's bound on
// one environment string, 128 KiB).
func listed(changed []string) []string {
	if len(changed) <= tripwireMaxListed {
		return changed
	}
	return append(changed[:tripwireMaxListed:tripwireMaxListed], fmt.Sprintf("and %d more", len(changed)-tripwireMaxListed))
}

// union returns a with the elements of b it lacks appended.
func union(a, b []string) []string {
	out := slices.Clip(a)
	for _, p := range b {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// cutTrees returns, sorted, the directories of files whose walk stopped at tripwireMaxStat.
func cutTrees(files map[string]state.FileState) []string {
	var out []string
	for p, st := range files {
		if st.Cut {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// tripwireStop makes res the stop hookcore answers by itself when an armed session's
// files changed and no hook of the event stopped the agent: the config loaded now may have
// no rule (the change removed it), none on this event, or one the change rewrote to let it
// pass (the config is the changed file: it cannot decide that a change of itself is fine).
// It is continue false with a stop reason for the user naming the files, and, on a gate
// event and after a tool call, a block whose reason the model sees (a hook's block and its
// reason are kept). It says the change was not undone, and whether it happened during a tool
// call or between events.
func tripwireStop(res *hook.Result, hit *tripwireHit) {
	if hit.state != "" {
		res.Continue = false
		res.StopReason = "hookcore stopped the agent: the tripwire could not compare the hook config with its baseline (" + hit.state + "). Check hookcore's state directory and the hook config files before you resume."
		if !res.Blocked && (res.Event.Kind() == hook.Gate || res.Event == hook.PostToolUse || res.Event == hook.PostToolUseFailure) {
			res.Blocked = true
			res.Reason = "hookcore: the tripwire could not compare the hook config with its baseline (" + hit.state + "); the session is stopped: the user will check it."
		}
		return
	}
	files := strings.Join(hit.changed, "; ")
	where := "during the last tool call (between its PreToolUse and PostToolUse)"
	resume := "check these files before you resume"
	switch {
	case hit.record:
		where = "between sessions (" + sinceRecord(hit) + "): a process the previous session left running, or your own edit"
		resume = "check these files; if you made this change, resume"
	case !hit.during:
		where = "between two events of the session (since its " + hit.since + "): a background process, a tool call still running, or your own edit"
		resume = "check these files; if you made this change, resume"
	}
	cut := ""
	if len(hit.cut) > 0 {
		cut = fmt.Sprintf(" Not compared past %d entries: %s.", hit.bound, strings.Join(hit.cut, ", "))
	}
	res.Continue = false
	res.StopReason = fmt.Sprintf("hookcore stopped the agent: the hook config or the session's environment changed %s (%s). The change was NOT undone: %s.%s", where, files, resume, cut)
	if !res.Blocked && (res.Event.Kind() == hook.Gate || res.Event == hook.PostToolUse || res.Event == hook.PostToolUseFailure) {
		res.Blocked = true
		res.Reason = fmt.Sprintf("hookcore: the hook config or the session's environment changed %s (%s), which the agent must not change. The change was NOT undone and the session is stopped: the user will check it.", where, files)
	}
}

// configChanged returns what changedKey of in holds (tripwire), nil when nothing.
func configChanged(in *hook.Input) []string {
	raw, ok := in.Extra[changedKey]
	if !ok {
		return nil
	}
	var out []string
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// walkBounds are the bounds of one snapshot's walk of a directory tree, by counts: the
// entries hashed (hash) and the entries compared at all (stat). The zero walkBounds is
// tripwireMaxFiles and tripwireMaxStat (a Runner's; a test sets smaller ones on its
// Runner rather than writing 20 000 files).
type walkBounds struct{ hash, stat int }

// or returns b with its zero fields set to the defaults.
func (b walkBounds) or() walkBounds {
	if b.hash <= 0 {
		b.hash = tripwireMaxFiles
	}
	if b.stat <= 0 {
		b.stat = tripwireMaxStat
	}
	return b
}

// snapshot returns the state of the files of paths (absolute, glob components allowed),
// of the directories among them and of the files under those, none at or under a path of
// skip. The paths themselves (and a glob's matches) are taken first, each hashed whatever
// the walks find (red team round 60: a config file under a tree cut at its bound was not
// compared). A path that is a directory, or a symbolic link to one (its target recorded as
// Resolved, red team round 60: ~/.claude/hooks -> ~/dotfiles/hooks), is then walked, its
// files named under the path; links inside it are not followed, and a path of paths inside
// another's tree is walked on its own, with its own bounds. Of one tree, the first b.hash
// entries are hashed, the next up to b.stat are taken by stat only (the tree is marked
// Partial), and the walk stops there (marked Cut). prev, when not nil, is an earlier
// snapshot of the same set: a regular file whose size, mtime, ctime and inode are as it
// recorded takes its digest from it, unhashed.
//
// Only the files that exist are in it: one absent from both snapshots is unchanged, and a
// record stays small (most of the set are candidates that do not exist).
func snapshot(paths, skip []string, prev map[string]state.FileState, b walkBounds) map[string]state.FileState {
	b = b.or()
	out := map[string]state.FileState{}
	seen := map[string]bool{}
	buf := make([]byte, 16<<10) // hashFile's, for every file of the snapshot
	put := func(p string, fi fs.FileInfo, err error) {
		seen[p] = true
		if st := fileState(p, fi, err, prev[p], buf); st.Type != "" {
			out[p] = st
		}
	}
	skipped := func(p string) bool {
		for _, s := range skip {
			if p == s || strings.HasPrefix(p, strings.TrimSuffix(s, "/")+"/") {
				return true
			}
		}
		return false
	}
	type root struct{ path, dir string } // dir: what is walked, the link's target for a link
	var roots []root
	isRoot := map[string]bool{}
	for _, p := range paths {
		matches := []string{p}
		if strings.ContainsAny(p, "*?[") {
			matches, _ = filepath.Glob(p)
		}
		for _, m := range matches {
			if seen[m] || skipped(m) {
				continue
			}
			fi, err := os.Lstat(m)
			if err != nil || !fi.IsDir() || !gitHooksDir(m) {
				put(m, fi, err)
			}
			if err != nil {
				continue
			}
			dir := m
			if fi.Mode()&fs.ModeSymlink != 0 {
				t, err := filepath.EvalSymlinks(m)
				if err != nil || skipped(t) {
					continue
				}
				if ti, err := os.Stat(t); err != nil || !ti.IsDir() {
					continue
				}
				st := out[m]
				st.Resolved = t
				out[m] = st
				dir = t
			} else if !fi.IsDir() {
				continue
			}
			roots = append(roots, root{m, dir})
			isRoot[m] = true
		}
	}
	for _, r := range roots {
		m, dir := r.path, r.dir
		n := 0
		_ = filepath.WalkDir(dir, func(q string, d fs.DirEntry, err error) error {
			if q == dir || err != nil {
				return nil
			}
			p := m + q[len(dir):] // the file named under the root as the set names it
			if skipped(p) || skipped(q) || isRoot[p] || gitHookSample(p) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			n++
			if n > b.hash {
				st := out[m]
				st.Partial = true
				st.Cut = n > b.stat
				out[m] = st
				if st.Cut {
					return filepath.SkipAll
				}
			}
			if !seen[p] {
				fi, err := d.Info()
				if n > b.hash {
					seen[p] = true
					if st := statState(p, fi, err); st.Type != "" {
						out[p] = st
					}
				} else {
					put(p, fi, err)
				}
			}
			return nil
		})
	}
	return out
}

// statState is fileState with no file read: a regular file's size, mtime, ctime and inode,
// no digest; a link's target.
func statState(p string, fi fs.FileInfo, err error) state.FileState {
	if err != nil {
		return state.FileState{}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, _ := os.Readlink(p)
		return state.FileState{Type: "l", Mode: uint32(fi.Mode().Perm()), Target: t}
	}
	return fileState(p, fi, err, state.FileState{}, nil)
}

// fileState returns the state of the file p, whose Lstat gave fi and err; old is its
// state in an earlier snapshot (snapshot's prev), the zero FileState when none; buf is
// hashFile's buffer, nil to hash nothing (statState).
func fileState(p string, fi fs.FileInfo, err error, old state.FileState, buf []byte) state.FileState {
	if err != nil {
		return state.FileState{}
	}
	st := state.FileState{Mode: uint32(fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))}
	switch {
	case fi.Mode().IsRegular():
		st.Type, st.Size = "f", fi.Size()
		st.MTime = fi.ModTime().UnixNano()
		if id, ok := regularfile.Identity(fi); ok {
			st.Inode = id.Ino
		}
		st.CTime, _ = regularfile.ChangeTime(fi)
		switch {
		case st.Size > tripwireMaxHash || buf == nil:
		case old.Type == "f" && old.Sum != "" && old.Size == st.Size && old.MTime == st.MTime && old.CTime == st.CTime && old.Inode == st.Inode && st.CTime != 0:
			st.Sum = old.Sum // not written since (a write sets the ctime, which no one can set back)
		default:
			st.Sum = hashFile(p, buf)
		}
	case fi.IsDir():
		st.Type = "d"
	case fi.Mode()&fs.ModeSymlink != 0:
		st.Type = "l"
		st.Target, _ = os.Readlink(p)
		// What the link leads to, when it is a regular file: a write through the link
		// changes no link. Its size, mtime, ctime and inode always, its hash under the
		// bound (red team round 61: a link to a 2 MB compiled guard recorded nothing, and a
		// write to it went unseen).
		if t, err := os.Stat(p); err == nil && t.Mode().IsRegular() {
			st.Size, st.MTime = t.Size(), t.ModTime().UnixNano()
			if id, ok := regularfile.Identity(t); ok {
				st.Inode = id.Ino
			}
			st.CTime, _ = regularfile.ChangeTime(t)
			if t.Size() <= tripwireMaxHash {
				st.Sum = hashFile(p, buf)
			}
		}
	default:
		st.Type = "o"
	}
	return st
}

// hashFile returns the hex SHA-256 of the first tripwireMaxHash bytes of the file p, "!"
// when it cannot be read; buf is its read buffer.
func hashFile(p string, buf []byte) string {
	f, _, err := regularfile.Open(p) // no FIFO swapped in after the Lstat hangs the hook
	if err != nil {
		return "!"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, io.LimitReader(f, tripwireMaxHash), buf); err != nil {
		return "!"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// diffFiles returns "PATH: what" for each file whose state differs
// between old and now: created, removed (not an empty directory), type changed, mode
// changed, link target changed, content changed; and for a directory tree cut at its
// bound (Cut) in now and not in old, that it grew past it (red team round 60: 20 001
// files created beside hooks.yaml hid its removal), with stat the bound; those first, then
// the paths of explicit, then the files under trees, each sorted by path (so that a list
// cut to its first entries, listed, keeps the ones that matter). Of a tree cut in
// old, a file in now only is not compared (it may have been past old's walk); of one cut
// in now, a file in old only (it may be past now's). A file of explicit (the snapshot's
// paths: a path, or a glob's match) is compared whatever the cut: the snapshot takes
// each of them itself.
func diffFiles(old, now map[string]state.FileState, explicit []string, stat int) []string {
	under := func(m map[string]state.FileState, p string) bool {
		for d, st := range m {
			if st.Cut && strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
	named := func(p string) bool {
		for _, e := range explicit {
			if e == p {
				return true
			}
			if strings.ContainsAny(e, "*?[") {
				if ok, _ := filepath.Match(e, p); ok {
					return true
				}
			}
		}
		return false
	}
	var grew, first, out []string
	seen := map[string]bool{}
	for _, m := range []map[string]state.FileState{old, now} {
		for p := range m {
			if seen[p] {
				continue
			}
			seen[p] = true
			a, inOld := old[p]
			b, inNow := now[p]
			if b.Cut && !a.Cut {
				grew = append(grew, fmt.Sprintf("%s: grew past %d entries (the tripwire cannot compare the files past them)", p, stat))
			}
			what := fileChange(a, b)
			if what == "" {
				continue
			}
			switch {
			case named(p):
				first = append(first, p+": "+what)
			case !inNow && under(now, p) || !inOld && under(old, p):
			default:
				out = append(out, p+": "+what)
			}
		}
	}
	slices.Sort(out)
	slices.Sort(grew)
	slices.Sort(first)
	return slices.Concat(grew, first, out)
}

// fileChange says how the state b of a file differs from its earlier state a, "" when it
// does not: every difference, comma-separated ("mode changed (0600, was 0644), content
// changed"), so a mode change does not hide an edit made in the same call.
func fileChange(a, b state.FileState) string {
	switch {
	case a.Type == b.Type && a.Type == "":
		return ""
	case a.Type == "" && b.Type == "d" || a.Type == "d" && b.Type == "":
		// A directory created or removed loads nothing by itself; the files in it are
		// compared each (Claude Code creates ~/.claude/plugins as a session starts).
		return ""
	case a.Type == "":
		return "created"
	case b.Type == "":
		return "removed"
	case a.Type != b.Type:
		return fmt.Sprintf("replaced (%s, was %s)", typeName(b.Type), typeName(a.Type))
	}
	var what []string
	if a.Type == "l" && a.Target != b.Target {
		what = append(what, fmt.Sprintf("link target changed (%q, was %q)", b.Target, a.Target))
	} else if a.Resolved != b.Resolved {
		what = append(what, fmt.Sprintf("link leads elsewhere (%q, was %q)", b.Resolved, a.Resolved))
	}
	if a.Mode != b.Mode {
		what = append(what, fmt.Sprintf("mode changed (%04o, was %04o)", b.Mode, a.Mode))
	}
	switch {
	case a.Sum != "" && b.Sum != "":
		if a.Sum != b.Sum {
			what = append(what, "content changed")
		}
	case a.Size != b.Size:
		what = append(what, "content changed")
	case (a.Type == "f" || a.Type == "l") && (a.MTime != b.MTime || a.CTime != b.CTime || a.Inode != b.Inode):
		what = append(what, "content may have changed (compared by size, mtime, ctime and inode: over the hashing bounds, its mtime, ctime or inode changed)")
	}
	return strings.Join(what, ", ")
}

func typeName(t string) string {
	switch t {
	case "f":
		return "file"
	case "d":
		return "directory"
	case "l":
		return "symbolic link"
	}
	return "special file"
}

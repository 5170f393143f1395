package hookcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// The tripwire (stop 32): a condition's `tool changed hook_config` holds at a tool call's
// PostToolUse (or PostToolUseFailure) when a file of the hook config is not as the call's
// PreToolUse found it. The PreToolUse records the files (recordCall) in the session's state
// under the call's tool_use_id; the PostToolUse compares and removes the record
// (compareCall). It sees what no reading of the call before it ran can: an interpreter that
// builds a name, a git command that rewrites the work tree, a copier no rule knows.

// Bounds of one recording: the files walked under one directory of the set, and the bytes
// of one file that are hashed (a file over it is compared by size, mtime and inode).
const (
	tripwireMaxFiles = 2000
	tripwireMaxHash  = 1 << 20
)

// changedKey is the key of hook.Input.Extra under which Fire gives the hooks of a
// PostToolUse what of the hook config changed during the call (a JSON array of strings,
// "PATH: what"); the command executor exports it as HOOKCORE_CONFIG_CHANGED.
const changedKey = "hookcore_config_changed"

// tripwireSet returns the paths the tripwire compares for an event whose project root is
// root: hookConfigAt(root), with root from hookConfigRoot, as `changes hook_config` takes it.
func (r *Runner) tripwireSet(root string) []string { return r.hookConfigAt(root) }

// tripwireSkip returns the paths that change on every event and are not compared, nor
// anything under them: Options.HookConfigVolatile and the directory of a state.Dir store.
func (r *Runner) tripwireSkip() []string {
	skip := slices.Clip(r.opts.HookConfigVolatile)
	if d, ok := r.state.(*state.Dir); ok && d.Path != "" {
		skip = append(skip, filepath.Clean(d.Path))
	}
	return skip
}

// recordCall records the hook config's files for the tool call of in (a PreToolUse that
// was not blocked), under its tool_use_id; a call with none is not recorded. An error of
// the store is logged: its PostToolUse will judge nothing.
func (r *Runner) recordCall(ctx context.Context, in *hook.Input) {
	if in.ToolUseID == "" {
		return
	}
	files := snapshot(r.tripwireSet(r.hookConfigRoot(in, r.rootOf(in))), r.tripwireSkip(), nil)
	rec := state.CallRecord{At: time.Now().UnixMilli(), Files: files}
	if err := r.state.Update(ctx, in.SessionID, func(s *state.Session) { s.RecordCall(in.ToolUseID, rec) }); err != nil {
		r.log.Warn("tripwire: recording the hook config failed", "err", err.Error())
	}
}

// compareCall takes the record of the tool call of in (a PostToolUse or
// PostToolUseFailure) and returns in with what changed since (changedKey), or in itself,
// stripped of any changedKey the agent sent, when nothing did or there is no record.
func (r *Runner) compareCall(ctx context.Context, in *hook.Input) *hook.Input {
	_, sent := in.Extra[changedKey]
	var rec state.CallRecord
	found := false
	if in.ToolUseID != "" {
		if err := r.state.Update(ctx, in.SessionID, func(s *state.Session) { rec, found = s.TakeCall(in.ToolUseID) }); err != nil {
			r.log.Warn("tripwire: reading the hook config's record failed", "err", err.Error())
		}
	}
	var changed []string
	if found {
		now := snapshot(r.tripwireSet(r.hookConfigRoot(in, r.rootOf(in))), r.tripwireSkip(), rec.Files)
		changed = diffFiles(rec.Files, now)
	}
	if len(changed) == 0 && !sent {
		return in
	}
	out := in.Clone()
	delete(out.Extra, changedKey)
	if len(changed) > 0 {
		b, _ := json.Marshal(changed)
		if out.Extra == nil {
			out.Extra = map[string]json.RawMessage{}
		}
		out.Extra[changedKey] = b
	}
	return out
}

// configChanged returns what changedKey of in holds (compareCall), nil when nothing.
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

// snapshot returns the state of the files of paths (absolute, glob components allowed),
// of the directories among them and of the files under those, at most tripwireMaxFiles per
// directory, none at or under a path of skip. prev, when not nil, is an earlier snapshot
// of the same set: a regular file whose size, mtime, ctime and inode are as it recorded
// takes its digest from it, unhashed.
//
// Only the files that exist are in it: one absent from both snapshots is unchanged, and a
// record stays small (most of the set are candidates that do not exist).
func snapshot(paths, skip []string, prev map[string]state.FileState) map[string]state.FileState {
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
			put(m, fi, err)
			if err != nil || !fi.IsDir() {
				continue
			}
			n := 0
			_ = filepath.WalkDir(m, func(q string, d fs.DirEntry, err error) error {
				if q == m || err != nil {
					return nil
				}
				if skipped(q) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if n++; n > tripwireMaxFiles {
					st := out[m]
					st.Partial = true
					out[m] = st
					return filepath.SkipAll
				}
				if !seen[q] {
					fi, err := d.Info()
					put(q, fi, err)
				}
				return nil
			})
		}
	}
	return out
}

// fileState returns the state of the file p, whose Lstat gave fi and err; old is its
// state in an earlier snapshot (snapshot's prev), the zero FileState when none; buf is
// hashFile's buffer.
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
		case st.Size > tripwireMaxHash:
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
		// What the link leads to, when it is a small regular file: a write through the link
		// changes no link.
		if t, err := os.Stat(p); err == nil && t.Mode().IsRegular() && t.Size() <= tripwireMaxHash {
			st.Size, st.Sum = t.Size(), hashFile(p, buf)
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

// diffFiles returns, sorted by path, "PATH: what" for each file whose state differs
// between old and now: created, removed, type changed, mode changed, link target changed,
// content changed. A file in one snapshot only, under a directory whose walk stopped at
// the cap in either, is not compared.
func diffFiles(old, now map[string]state.FileState) []string {
	partial := func(p string) bool {
		for d, st := range old {
			if st.Partial && strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		for d, st := range now {
			if st.Partial && strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range []map[string]state.FileState{old, now} {
		for p := range m {
			if seen[p] {
				continue
			}
			seen[p] = true
			a, inOld := old[p]
			b, inNow := now[p]
			if (!inOld || !inNow) && partial(p) {
				continue
			}
			if what := fileChange(a, b); what != "" {
				out = append(out, p+": "+what)
			}
		}
	}
	slices.Sort(out)
	return out
}

// fileChange says how the state b of a file differs from its earlier state a, "" when it
// does not.
func fileChange(a, b state.FileState) string {
	switch {
	case a.Type == b.Type && a.Type == "":
		return ""
	case a.Type == "":
		return "created"
	case b.Type == "":
		return "removed"
	case a.Type != b.Type:
		return fmt.Sprintf("replaced (%s, was %s)", typeName(b.Type), typeName(a.Type))
	case a.Type == "l" && a.Target != b.Target:
		return fmt.Sprintf("link target changed (%q, was %q)", b.Target, a.Target)
	case a.Mode != b.Mode:
		return fmt.Sprintf("mode changed (%04o, was %04o)", b.Mode, a.Mode)
	case a.Sum != "" && b.Sum != "":
		if a.Sum != b.Sum {
			return "content changed"
		}
	case a.Size != b.Size:
		return "content changed"
	case a.Type == "f" && (a.Sum == "") == (b.Sum == "") && (a.MTime != b.MTime || a.Inode != b.Inode):
		return "content may have changed (a file over the hashing cap: its mtime or inode changed)"
	}
	return ""
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

// errTripwireEvent is the error of a `tool changed hook_config` clause on an event that is
// not after a tool call.
var errTripwireEvent = errors.New("`tool changed hook_config` is known only after the tool ran: use it on post_tool_use or post_tool_use_failure")

// tripwireEvent reports whether a condition of a hook of event may read `tool changed
// hook_config`: PostToolUse and PostToolUseFailure.
func tripwireEvent(event hook.Event) bool {
	return event == hook.PostToolUse || event == hook.PostToolUseFailure
}

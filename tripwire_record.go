package hookcore

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// The workspace's record (red team round 65): a session's tripwire compares each event
// with the previous one, so a change made after its last event (a detached child of a tool
// call that writes once the session has ended) was compared by no one: the next session
// took its first baseline from the changed files. The Store keeps, under
// state.WorkspaceKey(the agent's project directory, else the cwd; recordKeys), the snapshot of an armed session's SessionStart, Stop
// and SessionEnd (the events after which a session may go quiet; not every event: one
// more locked write of the snapshot each). A session with no baseline of its own compares
// its first snapshot with it: at SessionStart a change is a message to the user (it is
// often the user's edit or a git pull made between sessions), at another event the
// tripwire's stop. A SessionStart whose config has no tripwire still compares with the
// record, and when something changed the session is armed (the change may have taken the
// clause out); when nothing did, the record is dropped (the user took it out).

// workspaceRecord is what readRecord found: the newest record's snapshot, or why one could
// not be read (damaged is set; base may be another key's), and the keys found (forget).
type workspaceRecord struct {
	base    *state.Baseline
	damaged string
	keys    []string
}

// recordEvent reports whether the record is written at event (when the session is armed).
func recordEvent(event hook.Event) bool {
	return event == hook.SessionStart || event == hook.Stop || event == hook.SessionEnd
}

// recordKeys are the directories whose records an event may read: [0] is the one it writes,
// the agent's project directory when the Runner has one (Options.AgentProjectDir), else the
// input's cwd when absolute, else rootOf(in); then the project root of the input's cwd (what
// the record was keyed by before red team round 66) and the cwd. A key equal to an earlier
// one is "". The project root is not the key written: a `.git` created in a directory above
// moves it (round 66: a detached child created /tmp/par8/.git, and the next session found
// no record), and the agent's project directory is not moved by a file.
type recordKeys [3]string

// recordKeys returns in's recordKeys.
func (r *Runner) recordKeys(in *hook.Input) recordKeys {
	var k recordKeys
	cwd := ""
	if in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		cwd = filepath.ToSlash(filepath.Clean(in.Cwd))
	}
	switch {
	case r.agentDir != "":
		k[0] = r.agentDir
	case cwd != "":
		k[0] = cwd
	default:
		k[0] = r.rootOf(in)
	}
	if cwd != "" {
		k[1] = filepath.ToSlash(config.ProjectRoot(cwd))
		k[2] = cwd
	}
	for i := 1; i < len(k); i++ {
		for j := 0; j < i; j++ {
			if k[i] == k[j] {
				k[i] = ""
			}
		}
	}
	return k
}

// holds reports whether the store holds state for session; a store that cannot tell
// (no state.Holder) is taken to hold none, and the record is read.
func (r *Runner) holds(session string) bool {
	if h, ok := r.state.(state.Holder); ok {
		return h.Holds(session)
	}
	return false
}

// readRecord returns the records of the workspace keys, nil when there is none (or they
// are empty): the newest one's snapshot (a record found under any key is compared; the
// newest is the one a later session left), and, when one cannot be read or holds no state
// (Torn: garbage, larger than state.MaxSessionBytes), why (damaged); the store starts it
// over.
func (r *Runner) readRecord(ctx context.Context, keys *recordKeys) *workspaceRecord {
	var rec workspaceRecord
	for _, root := range keys {
		if root == "" {
			continue
		}
		key := state.WorkspaceKey(root)
		if h, ok := r.state.(state.Holder); ok && !h.Holds(key) {
			continue
		}
		found := false
		err := r.state.Update(ctx, key, func(s *state.Session) {
			if s.Torn {
				rec.damaged = "hookcore's record of this workspace's previous session held no state (damaged, or larger than the bound)"
				return
			}
			if s.Tripwire != nil {
				found = true
				if rec.base == nil || s.Tripwire.At > rec.base.At {
					b := *s.Tripwire // not kept past fn: the Store's contract
					rec.base = &b
				}
			}
		})
		if err != nil {
			r.log.Warn("tripwire: the workspace's record could not be read", "err", err.Error())
			rec.damaged = "hookcore's record of this workspace's previous session could not be read: " + err.Error()
		}
		if found {
			rec.keys = append(rec.keys, key)
		}
	}
	if rec.base == nil && rec.damaged == "" {
		return nil
	}
	return &rec
}

// writeRecord makes b the record of the workspace root.
func (r *Runner) writeRecord(ctx context.Context, root string, b *state.Baseline) {
	if err := r.state.Update(ctx, state.WorkspaceKey(root), func(s *state.Session) { *s = state.Session{Tripwire: b} }); err != nil {
		r.log.Warn("tripwire: the workspace's record could not be written", "err", err.Error())
	}
}

// forgetRecords drops the records of keys (state.WorkspaceKey's).
func (r *Runner) forgetRecords(ctx context.Context, keys []string) {
	for _, key := range keys {
		if f, ok := r.state.(interface{ Forget(string) }); ok {
			f.Forget(key)
			continue
		}
		_ = r.state.Update(ctx, key, func(s *state.Session) { *s = state.Session{} })
	}
}

// filesWithin returns the files of files at or under a path of paths (or a glob's match).
func filesWithin(files map[string]state.FileState, paths []string) map[string]state.FileState {
	out := make(map[string]state.FileState, len(files))
	for p, st := range files {
		for _, e := range paths {
			ok := p == e || strings.HasPrefix(p, strings.TrimSuffix(e, "/")+"/")
			if !ok && strings.ContainsAny(e, "*?[") {
				ok, _ = filepath.Match(e, p)
			}
			if ok {
				out[p] = st
				break
			}
		}
	}
	return out
}

// recordNote is what SessionStart says to the user (its systemMessage) when the session's
// first snapshot differs from the workspace's record, or the record could not be read: the
// session goes on (the change is most often the user's own), and the user is told what
// changed and since when.
func recordNote(hit *tripwireHit) string {
	if hit.state != "" {
		return "hookcore: the tripwire could not compare the hook config and the session's environment with the end of this workspace's previous session (" + hit.state +
			"): a change made since is not known. If you did not expect this, check the hook config files and hookcore's state directory."
	}
	return "hookcore: the hook config or the session's environment changed between sessions, " + sinceRecord(hit) + " (" + strings.Join(hit.changed, "; ") +
		"). If you made this change (an edit, a git pull), ignore this; if not, a process the previous session left running may have made it: check these files before you let the agent work."
}

// sinceRecord says when the record the hit compared with was taken.
func sinceRecord(hit *tripwireHit) string {
	return "since this workspace's previous session's " + hit.since + " at " + time.UnixMilli(hit.ended).Format("2006-01-02 15:04:05 MST")
}

// mayHoldRecord reports whether the store may hold a record of in's workspace under one of
// its keys (a config with no tripwire asks it at SessionStart only: up to three access(2)
// with state.Dir, and the project root's lookup).
func (r *Runner) mayHoldRecord(in *hook.Input) bool {
	if m, ok := r.state.(*state.Memory); ok && m.Len() == 0 {
		return false // nothing held: the root is not looked up (no allocation: DESIGN.md section 5)
	}
	h, ok := r.state.(state.Holder)
	if !ok {
		return true
	}
	for _, root := range r.recordKeys(in) {
		if root != "" && h.Holds(state.WorkspaceKey(root)) {
			return true
		}
	}
	return false
}

// stateDirs returns the directories of the state.Dir stores of st: st itself, or a
// state.Split's (hookcore serve keeps its records in one; red team round 66).
func stateDirs(st state.Store) []string {
	switch s := st.(type) {
	case *state.Dir:
		if s.Path != "" {
			return []string{s.Path}
		}
	case *state.Split:
		return append(stateDirs(s.Sessions), stateDirs(s.Records)...)
	}
	return nil
}

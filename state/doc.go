// Package state keeps the per-session state of a Runner outside its compiled hook set: which
// `once: true` hooks already ran in a session, and how many Stop-type blocks in a row the
// session has seen this turn. Because it lives apart from the hooks, a Runner.Reload (which
// swaps the compiled hooks whole) does not forget it, and because it sits behind the Store
// interface, `hookcore hook AGENT` (one process per event) can keep it on disk while
// `hookcore serve` and embedded Runners keep it in memory.
//
// Two stores are provided: Memory, for one process, and Dir, a directory of one small JSON
// file per session guarded by an advisory file lock (flock(2)), correct when many hook
// processes of one session run at once.
//
// The package is standard library only.
package state

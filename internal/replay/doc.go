// Package replay is the replay engine behind `hookcore replay` and `hookcore coverage`: it
// reads recorded sessions (Claude Code transcripts with their sub-agents, or hookcore session
// logs, through package transcript), fires each event through a hookcore.Runner — hook
// commands run for real, tools do not — and prints, per tool call, what the hooks decided: a
// table and a summary, one JSON line per event, or a coverage report, optionally checked
// against an expectations file (docs/replay.md).
//
// Run is the entry point; Options carries everything the command line sets, so the engine is
// used and tested without cobra. internal/cli only parses the flags, loads the config, builds
// the Runner and calls Run.
//
// Events of one tool call fire in order, and a call's later events see the input as its
// PreToolUse hooks rewrote it and are not fired once it is blocked (DESIGN.md section 7). With
// Options.Jobs > 1 events of different calls fire concurrently; the output order never
// changes. Memory is bounded by the longest line and the rows waiting for their call to end,
// not by the session (BenchmarkReplayLarge).
package replay

// Package transcript reads recorded agent sessions and turns them into the sequence of hook
// events a live agent would have fired, each with the input payload its hooks would have
// received. It is the reader half of `hookcore replay` (DESIGN.md section 2).
//
// Two formats are read, detected by content (never by file name):
//
//   - Claude Code session transcripts, ~/.claude/projects/<slug>/<session-id>.jsonl, with
//     sub-agents in <session-id>/subagents/agent-<agentId>.jsonl (+ .meta.json), replayed
//     in place between SubagentStart and the Agent call's PostToolUse. The derivation rules,
//     and the fields a transcript cannot know, are in docs/transcript.md.
//   - The reference agent's own session log (docs/session-log.md), one event per line.
//
// Files are streamed line by line with no line-length cap, so memory stays flat (bounded by
// the longest line) on transcripts of hundreds of megabytes:
//
//	r, err := transcript.Open(path, transcript.Options{})
//	if err != nil { ... }
//	defer r.Close()
//	for {
//		ev, err := r.Next()
//		if err == io.EOF { break }
//		if err != nil { ... }
//		// ev.Event, ev.Input
//	}
//
// Lines of unknown kinds and malformed lines are skipped and counted in Stats (or, with
// Options.Strict, a malformed line is a *LineError naming the file and line).
package transcript

package transcript

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// flushStop emits the Stop (SubagentStop) of a finished end-of-turn response.
func (r *claudeReader) flushStop() {
	s := r.stop
	if s == nil {
		return
	}
	r.stop = nil
	in := r.stopInput(r.agent)
	in.StopHookActive = r.stopActive
	r.stopActive = false
	setExtra(in, "last_assistant_message", strings.Join(s.texts, "\n"))
	r.emit(in, s.line, s.time)
}

// flushCompact emits the events of a compaction: PreCompact, the SubagentStop of the
// summarising fork (Claude Code 2.1.332 fires it with agent_type "" and no SubagentStart),
// SessionStart(compact) and PostCompact.
func (r *claudeReader) flushCompact(summary string, haveSummary bool) {
	c := r.compact
	if c == nil {
		return
	}
	r.compact = nil
	pre := r.input(hook.PreCompact)
	pre.Trigger = c.trigger
	var instr any // JSON null unless "/compact <instructions>" was queued
	if c.trigger == "manual" {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(r.enqueued), "/compact"); ok && strings.TrimSpace(rest) != "" {
			instr = strings.TrimSpace(rest)
		}
	}
	setExtra(pre, "custom_instructions", instr)
	r.emit(pre, c.line, c.time)

	fork := r.input(hook.SubagentStop)
	fork.PermissionMode = r.sh.permissionMode
	setExtra(fork, "agent_type", "") // present and empty, as Claude Code sends it
	r.setEffort(fork)
	r.emit(fork, c.line, c.time)

	start := r.input(hook.SessionStart)
	start.Source = "compact"
	if r.model != "" {
		setExtra(start, "model", r.model)
	}
	r.emit(start, c.line, c.time)

	post := r.input(hook.PostCompact)
	post.Trigger = c.trigger
	if haveSummary {
		setExtra(post, "compact_summary", summary)
	}
	r.emit(post, c.line, c.time)
}

// input returns an input with the fields every event of this reader carries: session_id,
// transcript_path, cwd, hook_event_name and (once known) prompt_id.
func (r *claudeReader) input(e hook.Event) *hook.Input {
	in := &hook.Input{
		SessionID:      r.sh.sessionID,
		TranscriptPath: r.sh.opts.TranscriptPath,
		Cwd:            r.cwd,
		HookEventName:  string(e),
	}
	if r.promptID != "" {
		setExtra(in, "prompt_id", r.promptID)
	}
	return in
}

func (r *claudeReader) setEffort(in *hook.Input) {
	if r.effort != "" {
		setExtra(in, "effort", map[string]string{"level": r.effort})
	}
}

func (r *claudeReader) emit(in *hook.Input, n int, t time.Time) {
	file := r.file
	if n == 0 {
		file = ""
	}
	r.out = append(r.out, item{ev: &Event{Event: hook.Event(in.HookEventName), Input: in, Time: t, File: file, Line: n}})
}

// setExtra stores v, as JSON without HTML escaping, under key in in.Extra.
func setExtra(in *hook.Input, key string, v any) {
	if in.Extra == nil {
		in.Extra = make(map[string]json.RawMessage)
	}
	in.Extra[key] = marshal(v)
}

package transcript

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// call is one tool call, from its tool_use block to its tool_result.
type call struct {
	id, name string
	input    json.RawMessage // as the transcript holds it (before any hook rewrite)
	updated  json.RawMessage // a PreToolUse hook's updatedInput, nil when none
	msgID    string          // the assistant response that made the call
	safe     bool            // may run in parallel with its neighbours
	asked    bool            // a PermissionRequest hook decided on it
	started  bool
	line     int
	time     time.Time
}

// concurrencySafe reports whether Claude Code runs a tool in parallel with the other
// parallel-safe calls of the same response. Claude Code partitions one response's calls into
// runs of consecutive read-only calls (run together: PreToolUse A, PreToolUse B, then the
// Post events in completion order) and single other calls (run one after the other: Pre A,
// Post A, Pre B, Post B). Bash is read-only only for some commands, a judgement the
// transcript does not record, so it is treated as never parallel; when its result shows
// otherwise, PreToolUse is emitted late, just before the result.
func concurrencySafe(tool string) bool {
	switch tool {
	case "Read", "Glob", "Grep", "LS", "NotebookRead", "WebFetch", "WebSearch":
		return true
	}
	return false
}

// toolUse records a tool_use block and starts the call (PreToolUse) when Claude Code would
// have started it: at once if nothing runs, or if it and everything running are
// parallel-safe calls of the same response and no call waits before it.
func (r *claudeReader) toolUse(l *line, b *block, n int) {
	if b.ID == "" {
		return
	}
	r.sh.stats.ToolCalls++
	input := b.Input
	if len(input) == 0 || bytes.Equal(input, []byte("null")) {
		input = json.RawMessage("{}")
	}
	c := &call{id: b.ID, name: b.Name, input: input, msgID: l.Message.ID,
		safe: concurrencySafe(b.Name), line: n, time: l.time()}
	r.calls[c.id] = c
	if len(r.waiting) == 0 && r.canStart(c) {
		r.start(c)
		return
	}
	r.waiting = append(r.waiting, c)
}

func (r *claudeReader) canStart(c *call) bool {
	if len(r.running) == 0 {
		return true
	}
	if !c.safe {
		return false
	}
	for _, o := range r.running {
		if !o.safe || o.msgID != c.msgID {
			return false
		}
	}
	return true
}

func (r *claudeReader) start(c *call) {
	c.started = true
	r.running = append(r.running, c)
	in := r.toolInput(hook.PreToolUse, c, c.input)
	in.ToolUseID = c.id
	r.emit(in, c.line, c.time)
}

// pump starts waiting calls once the calls before them are done.
func (r *claudeReader) pump() {
	for len(r.waiting) > 0 && r.canStart(r.waiting[0]) {
		c := r.waiting[0]
		r.waiting = r.waiting[1:]
		r.start(c)
	}
}

// result handles one tool_result block: PermissionRequest when the transcript shows one,
// the sub-agent for an Agent call, then PostToolUse, PostToolUseFailure, or nothing for a
// call that a hook or rule denied. single says whether the line holds only this result, so
// that the line's toolUseResult belongs to it.
func (r *claudeReader) result(l *line, b *block, single bool, n int) {
	c := r.calls[b.ToolUseID]
	if c == nil {
		r.sh.stats.Orphans++
		return
	}
	delete(r.calls, c.id)
	if !c.started {
		r.waiting = slices.DeleteFunc(r.waiting, func(o *call) bool { return o == c })
		r.start(c)
	}
	r.running = slices.DeleteFunc(r.running, func(o *call) bool { return o == c })
	t := l.time()
	if c.asked || permissionAsked(l) {
		in := r.toolInput(hook.PermissionRequest, c, c.input)
		r.emit(in, n, t)
	}
	var tur json.RawMessage
	if single {
		tur = l.ToolUseResult
	}
	input := c.input
	if c.updated != nil {
		input = c.updated
	}
	switch {
	case l.ToolDenialKind != "":
		// Denied before it ran: no Post event.
	case b.IsError:
		if isAgentTool(c.name) {
			r.subagent(c, l, tur, n)
		}
		in := r.toolInput(hook.PostToolUseFailure, c, input)
		in.ToolUseID = c.id
		in.Error = contentText(b.Content)
		setExtra(in, "is_interrupt", strings.Contains(in.Error, "[Request interrupted by user"))
		r.emit(in, n, t)
	default:
		if isAgentTool(c.name) {
			r.subagent(c, l, tur, n)
		}
		in := r.toolInput(hook.PostToolUse, c, input)
		in.ToolUseID = c.id
		in.ToolResponse = tur
		if len(in.ToolResponse) == 0 {
			// Sub-agent transcripts have no toolUseResult: fall back to the result content.
			in.ToolResponse = b.Content
		}
		if len(in.ToolResponse) == 0 {
			in.ToolResponse = json.RawMessage(`""`)
		}
		r.emit(in, n, t)
	}
	r.pump()
}

// permissionAsked reports whether a result line shows that the call went through a
// permission prompt (where PermissionRequest hooks run): a hook decided it
// ({source: hook, reasonCode} other than a PreToolUse hook's "hook:PreToolUse", as
// "bashMiss:no-rule-match" in session-stop-gate) or the user did.
func permissionAsked(l *line) bool {
	pd := l.PermissionDecision
	if pd == nil {
		return false
	}
	switch pd.Source {
	case "hook":
		return pd.ReasonCode != "" && !strings.HasPrefix(pd.ReasonCode, "hook:")
	case "user":
		return true
	}
	return false
}

// toolInput returns the input of a tool event: the common fields, permission_mode, effort,
// the sub-agent tags, tool_name and tool_input.
func (r *claudeReader) toolInput(e hook.Event, c *call, input json.RawMessage) *hook.Input {
	var in *hook.Input
	if r.agent != nil {
		in = r.agentInput(e, r.agent)
	} else {
		in = r.input(e)
	}
	in.PermissionMode = r.sh.permissionMode
	r.setEffort(in)
	in.ToolName = c.name
	in.ToolInput = input
	return in
}

// marshal encodes v as compact JSON without HTML escaping; v is always encodable here.
func marshal(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v) //nolint:errcheck // strings, bools, nil and string maps always encode
	return bytes.TrimRight(buf.Bytes(), "\n")
}

package transcript

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore/hook"
)

var errNotObject = errors.New("not a JSON object")

// shared is the state of one replay that the main transcript's reader and its sub-agent
// readers have in common.
type shared struct {
	opts           Options
	stats          Stats
	sessionID      string
	permissionMode string
	index          int
	metas          map[string]agentMeta // by toolUseId; nil until the sub-agent folder is read
}

// claudeReader replays one Claude Code transcript file: the main session, or (agent set)
// one sub-agent. The derivation rules are in docs/transcript.md.
type claudeReader struct {
	sh     *shared
	lr     *lineReader
	file   string
	closer io.Closer
	agent  *agentRef // nil for the main transcript

	out  []item // derived but not yet returned, in order
	sub  *claudeReader
	done bool

	started  bool // SessionStart(startup) emitted
	cwd      string
	promptID string
	effort   string
	model    string
	enqueued string // the last queue-operation enqueue text ("/compact ..." included)

	calls   map[string]*call // tool calls without a result yet, by tool_use id
	running []*call          // started: PreToolUse emitted
	waiting []*call          // not started: an earlier call must finish first

	stop       *pendingStop // an end-of-turn response whose Stop is not emitted yet
	stopActive bool         // the next Stop re-enters after a Stop block
	compact    *pendingCompact
}

// item is an event to return, or a sub-agent reader to drain at that point.
type item struct {
	ev  *Event
	sub *claudeReader
}

type pendingStop struct {
	msgID string
	texts []string
	line  int
	time  time.Time
}

type pendingCompact struct {
	trigger string
	line    int
	time    time.Time
}

func newClaudeReader(lr *lineReader, file string, opts Options, closer io.Closer) *claudeReader {
	sh := &shared{opts: opts}
	sh.stats.Format = ClaudeCode
	sh.stats.Files = 1
	return &claudeReader{sh: sh, lr: lr, file: file, closer: closer, calls: map[string]*call{}}
}

func (r *claudeReader) Stats() Stats { return r.sh.stats.clone() }

func (r *claudeReader) Close() error {
	var errs []error
	if r.sub != nil {
		errs = append(errs, r.sub.Close())
		r.sub = nil
	}
	for _, it := range r.out {
		if it.sub != nil {
			errs = append(errs, it.sub.Close())
		}
	}
	r.out = nil
	if r.closer != nil {
		errs = append(errs, r.closer.Close())
		r.closer = nil
	}
	return errors.Join(errs...)
}

func (r *claudeReader) Next() (*Event, error) {
	for {
		if r.sub != nil {
			ev, err := r.sub.Next()
			if err == nil {
				return ev, nil
			}
			cerr := r.sub.Close()
			r.sub = nil
			if err != io.EOF {
				return nil, err
			}
			if cerr != nil {
				return nil, cerr
			}
			continue
		}
		if len(r.out) > 0 {
			it := r.out[0]
			r.out[0] = item{}
			r.out = r.out[1:]
			if it.sub != nil {
				r.sub = it.sub
				continue
			}
			it.ev.Index = r.sh.index
			r.sh.index++
			r.sh.stats.Events++
			return it.ev, nil
		}
		if r.done {
			return nil, io.EOF
		}
		data, n, err := r.lr.next()
		if err == io.EOF {
			r.finish()
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := r.handle(data, n); err != nil {
			return nil, err
		}
	}
}

// finish derives what the end of the file implies: a pending Stop or compaction, and for
// the main transcript SessionEnd, which no line records.
func (r *claudeReader) finish() {
	r.done = true
	r.flushStop()
	r.flushCompact("", false)
	if r.agent == nil && r.started {
		in := r.input(hook.SessionEnd)
		in.Reason = r.sh.opts.EndReason
		r.emit(in, 0, time.Time{})
	}
}

func (r *claudeReader) handle(data []byte, n int) error {
	st := &r.sh.stats
	st.Lines++
	var l line
	err := errNotObject
	if data[0] == '{' {
		err = decodeLine(data, &l)
	}
	if err != nil {
		if r.sh.opts.Strict {
			return &LineError{File: r.file, Line: n, Err: err}
		}
		st.skip("malformed", r.file, n)
		return nil
	}
	if !claudeKinds()[l.Type] {
		k := l.Type
		if k == "" {
			k = "(no type)"
		}
		st.skip(k, r.file, n)
		return nil
	}
	var bs []block
	if l.Type == "user" || l.Type == "assistant" {
		bs = l.blocks()
	}
	st.kind(l.kind(bs))
	if r.sh.sessionID == "" {
		r.sh.sessionID = l.SessionID
	}
	switch l.Type {
	case "user", "assistant", "system", "attachment":
	case "queue-operation":
		if l.Operation == "enqueue" {
			r.enqueued = contentText(l.Content)
		}
		return nil
	case "api-request":
		if l.Params != nil {
			if e := l.Params.OutputConfig.Effort; e != "" {
				r.effort = e
			}
			if l.Params.Model != "" {
				r.model = l.Params.Model
			}
		}
		return nil
	default:
		return nil // bookkeeping lines: no event
	}
	if l.IsSidechain && r.agent == nil {
		st.skip("sidechain", r.file, n) // older versions kept sub-agent lines in the main file
		return nil
	}
	// A conversation line ends a pending Stop, unless it is another block of the same
	// response, and a pending compaction, unless it is the compact summary.
	if r.stop != nil && !(l.Type == "assistant" && l.Message != nil && l.Message.ID == r.stop.msgID) {
		r.flushStop()
	}
	if r.compact != nil && !(l.Type == "user" && l.IsCompactSummary) {
		r.flushCompact("", false)
	}
	if l.Cwd != "" {
		r.cwd = l.Cwd
	}
	if r.agent == nil && !r.started {
		r.started = true
		in := r.input(hook.SessionStart)
		in.Source = "startup"
		r.emit(in, n, l.time())
	}
	if l.PromptID != "" {
		r.promptID = l.PromptID
	}
	switch l.Type {
	case "user":
		r.user(&l, bs, n)
	case "assistant":
		r.assistant(&l, bs, n)
	case "system":
		if l.Subtype == "compact_boundary" && r.agent == nil {
			c := &pendingCompact{trigger: "auto", line: n, time: l.time()}
			if l.CompactMetadata != nil && l.CompactMetadata.Trigger != "" {
				c.trigger = l.CompactMetadata.Trigger
			}
			r.compact = c
		}
	case "attachment":
		r.attachment(&l)
	}
	return nil
}

func (r *claudeReader) user(l *line, bs []block, n int) {
	if l.IsCompactSummary && r.compact != nil {
		s, _ := l.text()
		r.flushCompact(s, true)
		return
	}
	if s, ok := l.text(); ok && l.IsMeta && strings.HasPrefix(s, "Stop hook feedback:") {
		r.stopActive = true
		return
	}
	if r.agent == nil {
		if prompt, ok := l.isPrompt(bs); ok {
			r.stopActive = false
			if l.PermissionMode != "" {
				r.sh.permissionMode = l.PermissionMode
			}
			in := r.input(hook.UserPromptSubmit)
			in.PermissionMode = r.sh.permissionMode
			in.Prompt = prompt
			r.emit(in, n, l.time())
			return
		}
	}
	single := len(bs) == 1
	for i := range bs {
		if bs[i].Type == "tool_result" {
			r.result(l, &bs[i], single, n)
		}
	}
}

// stopReasons end a turn: a response with one of them fires Stop (SubagentStop in a
// sub-agent). "tool_use" and "pause_turn" continue the turn.
var stopReasons = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"end_turn": true, "max_tokens": true, "stop_sequence": true, "refusal": true}
})

func (r *claudeReader) assistant(l *line, bs []block, n int) {
	m := l.Message
	if m == nil {
		return
	}
	if m.Model != "" && m.Model != "<synthetic>" {
		r.model = m.Model
	}
	for i := range bs {
		if bs[i].Type == "tool_use" {
			r.toolUse(l, &bs[i], n)
		}
	}
	// "<synthetic>" responses are Claude Code's own error texts, not model turns.
	if !stopReasons()[m.StopReason] || m.Model == "<synthetic>" {
		return
	}
	if r.stop == nil {
		r.stop = &pendingStop{msgID: m.ID, line: n, time: l.time()}
	}
	for _, b := range bs {
		if b.Type == "text" {
			r.stop.texts = append(r.stop.texts, b.Text)
		}
	}
}

func (r *claudeReader) attachment(l *line) {
	a := l.Attachment
	if a == nil {
		return
	}
	switch a.Type {
	case "hook_permission_decision":
		if c := r.calls[a.ToolUseID]; c != nil {
			c.asked = true
		}
	case "hook_success":
		if c := r.calls[a.ToolUseID]; c != nil && a.HookEvent == string(hook.PreToolUse) {
			if u := updatedInput(a.Stdout); u != nil {
				c.updated = u
			}
		}
	case "hook_blocking_error":
		if a.HookEvent == string(hook.Stop) || a.HookEvent == string(hook.SubagentStop) {
			r.stopActive = true
		}
	}
}

// updatedInput returns hookSpecificOutput.updatedInput from a PreToolUse hook's stdout, or
// nil when it has none.
func updatedInput(stdout string) json.RawMessage {
	var out struct {
		HookSpecificOutput struct {
			UpdatedInput json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(stdout)), &out) != nil {
		return nil
	}
	u := out.HookSpecificOutput.UpdatedInput
	if len(u) == 0 || u[0] != '{' {
		return nil
	}
	return u
}

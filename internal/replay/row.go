package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// decision is what the hooks made of one tool call (or one other event), as the table and
// the expectations file name it. The values are ranked: when several events of a call say
// different things, the row shows the highest.
type decision int

const (
	decAllowed   decision = iota // hooks ran and let it through, or no hook matched
	decContext                   // a hook added context for the model
	decFeedback                  // a PostToolUse hook blocked: the tool ran, the reason goes back to the model
	decRewritten                 // a hook rewrote the tool input (updated_input)
	decAsk                       // a hook asked for the user's permission
	decBlocked                   // a hook blocked the call (or the prompt, or the stop)
)

var decisionNames = [...]string{"allowed", "context", "feedback", "rewritten", "ask", "blocked"}

// String returns the decision's name.
func (d decision) String() string { return decisionNames[d] }

// parseDecision reads a decision name.
func parseDecision(s string) (decision, bool) {
	i := slices.Index(decisionNames[:], s)
	return decision(max(i, 0)), i >= 0
}

// row is one line of the table: a tool call with everything its events' hooks did, or one
// other event that a hook acted on.
type row struct {
	index   int        // tool-call number; 0 for an event row
	event   hook.Event // event rows: the event
	id      string     // tool_use_id
	tool    string
	sub     bool   // made by a sub-agent
	summary string // one line about the input
	hooks   []string
	dec     decision
	reason  string
	wall    time.Duration // hook time of the call's events that ran a hook
	final   bool
}

// add merges what one fired step's hooks did into the row.
func (rw *row) add(s *step) {
	res := &s.res
	for _, h := range res.Hooks {
		name := h.ID
		switch h.Outcome {
		case hook.OutcomeError, hook.OutcomeTimeout:
			name += "!"
		case hook.OutcomeSkipped:
			name += "?"
		}
		if !slices.Contains(rw.hooks, name) {
			rw.hooks = append(rw.hooks, name)
		}
	}
	if len(res.Hooks) > 0 {
		rw.wall += s.wall
	}
	d, why := classify(s)
	if d > rw.dec || rw.reason == "" && d == rw.dec {
		rw.dec = d
		if why != "" {
			rw.reason = why
		}
	}
	if rw.reason == "" && res.Errors > 0 {
		for _, h := range res.Hooks {
			if h.Error != "" {
				rw.reason = "hook " + h.ID + " failed: " + h.Error
				break
			}
		}
	}
}

// classify returns what one event's result amounts to and the reason to show.
func classify(s *step) (decision, string) {
	res := &s.res
	ev := s.ev.Event
	switch {
	case !res.Continue:
		return decBlocked, "stop: " + firstNonEmpty(res.StopReason, res.Reason, "a hook stopped the agent")
	case res.Blocked && (ev == hook.PostToolUse || ev == hook.PostToolUseFailure):
		return decFeedback, res.Reason
	case res.Blocked:
		return decBlocked, res.Reason
	case res.Permission == hook.Ask:
		return decAsk, res.Reason
	case res.UpdatedInput != nil:
		if res.Reason != "" {
			return decRewritten, res.Reason
		}
		return decRewritten, "now: " + summarize(res.UpdatedInput, "")
	case res.AdditionalContext != "":
		return decContext, "context: " + res.AdditionalContext
	}
	return decAllowed, res.Reason
}

// actedOn reports whether a non-tool event's hooks did something worth a row: blocked, added
// context, stopped the agent, or failed.
func actedOn(res *hook.Result) bool {
	return res.Blocked || !res.Continue || res.AdditionalContext != "" || res.Errors > 0
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// eventSummary is the input column of an event row.
func eventSummary(in *hook.Input) string {
	switch {
	case in.Prompt != "":
		return in.Prompt
	case in.Source != "":
		return "source: " + in.Source
	case in.Reason != "":
		return "reason: " + in.Reason
	case in.AgentType != "":
		return "agent: " + in.AgentType
	}
	if m, ok := in.Extra["last_assistant_message"]; ok {
		var s string
		if json.Unmarshal(m, &s) == nil {
			return s
		}
	}
	return ""
}

// summarize returns a one-line description of a tool input: the command of a shell call,
// the pattern of a search (and its path), the path of a file tool (relative to cwd when
// inside it), the URL or query of a web tool, the description of a sub-agent call, else the
// input as compact JSON.
func summarize(input json.RawMessage, cwd string) string {
	var args map[string]any
	if json.Unmarshal(input, &args) != nil {
		return flatLine(string(input))
	}
	str := func(k string) string { s, _ := args[k].(string); return s }
	if c := str("command"); c != "" {
		return flatLine(c)
	}
	if s := str("pattern"); s != "" {
		if p := str("path"); p != "" {
			s += " in " + p
		}
		return flatLine(s)
	}
	if p := hook.FilePathOf(input); p != "" {
		if cwd != "" {
			if rel, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
				p = rel
			}
		}
		return flatLine(p)
	}
	for _, k := range []string{"url", "query", "description", "prompt"} {
		if s := str(k); s != "" {
			return flatLine(s)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, input) != nil {
		return flatLine(string(input))
	}
	return flatLine(buf.String())
}

// flatLine collapses runs of white space (newlines included) into one space.
func flatLine(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' }) && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// cut makes s printable (text.Printable) and fits it in n runes, ending with "…" when it
// was cut (text.Truncate). Every cell of the replay table goes through it.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	s = text.Printable(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return text.Truncate(s, n-1, "…")
}

// pad cuts s to n runes and fills it with spaces to n runes; right aligns it.
func pad(s string, n int, right bool) string {
	s = cut(s, n)
	w := len([]rune(s))
	if w >= n {
		return s
	}
	if right {
		return strings.Repeat(" ", n-w) + s
	}
	return s + strings.Repeat(" ", n-w)
}

// millis formats a duration as milliseconds, "-" for zero.
func millis(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 0.1:
		return "<0.1ms"
	case ms < 10:
		return fmt.Sprintf("%.1fms", ms)
	default:
		return fmt.Sprintf("%.0fms", ms)
	}
}

package hookio

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// Event returns the canonical event of in, or its name as given when unknown.
func Event(in *hook.Input) hook.Event {
	if e, ok := hook.ParseEvent(in.HookEventName); ok {
		return e
	}
	return hook.Event(in.HookEventName)
}

// Excerpt returns ": " and the first lines of s (at most 3 lines, 500 bytes, cut on a
// UTF-8 boundary, "..." marking a cut), or "" when s is empty: the start of a hook's
// stderr or of an http reply in an error message. Control characters but line breaks and
// tabs, invisible format characters and bytes that are not UTF-8 are shown as escapes
// (text.PrintableLines): the message can become the reason that blocks a call, which the
// agent shows on the user's terminal, and a guard's stderr can echo the model's input.
func Excerpt(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitN(s, "\n", 4)
	if len(lines) > 3 {
		lines = append(lines[:3], "...")
	}
	s = strings.Join(lines, "\n")
	if len(s) > 500 {
		s = CutUTF8(s, 500) + "..."
	}
	return ": " + text.PrintableLines(s)
}

// CutUTF8 cuts s to at most n bytes without splitting a UTF-8 sequence.
func CutUTF8[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Stdin is the input JSON a command hook reads on stdin and an http hook posts: the Claude
// Code payload (in.MarshalJSON), plus codebot's own keys (event, tool, args, output,
// is_error) when codebot is set; keys the input already carries are not overwritten. The
// error is in.MarshalJSON's (a tool_input or tool_response that is not valid JSON, or
// nested too deeply).
func Stdin(in *hook.Input, codebot bool) ([]byte, error) {
	if !codebot {
		return in.MarshalJSON()
	}
	cb := in.Clone()
	if cb.Extra == nil {
		cb.Extra = make(map[string]json.RawMessage)
	}
	add := func(k string, v any) {
		if _, ok := cb.Extra[k]; ok {
			return
		}
		if raw, isRaw := v.(json.RawMessage); isRaw {
			cb.Extra[k] = raw
			return
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(v) //nolint:errcheck // strings and bools always encode
		cb.Extra[k] = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	add("event", in.HookEventName)
	if in.ToolName != "" {
		add("tool", in.ToolName)
	}
	if len(in.ToolInput) > 0 {
		add("args", in.ToolInput)
	}
	if len(in.ToolResponse) > 0 {
		add("output", in.ToolResponse)
	}
	add("is_error", Event(in) == hook.PostToolUseFailure)
	return cb.MarshalJSON()
}

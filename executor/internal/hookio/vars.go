package hookio

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/hook"
)

// Context variables (MiniCode, seed 004; DESIGN.md section 6): in a command, an exec-form
// argument or an inject message, $EVENT, $TOOL_NAME, $FILE_PATH, $MESSAGE, $ERROR,
// $SESSION_ID, $CWD, $TOOL_ARGS and $TOOL_ARGS.x (x a key of the tool input, nested keys
// and array indexes joined by dots: $TOOL_ARGS.edits.0.path) are replaced by the event's
// values; the braces form ${NAME} works too. $TOOL_ARGS alone is the whole tool input as
// compact JSON; $TOOL_ARGS.x is the field's string, or its compact JSON when it is not a
// string; an unknown or missing variable is the empty string (the seed: "missing variables
// become empty, never an error"). Every other $ is left alone. NUL bytes are dropped from
// values (no shell or environment can carry them).

// varNames are the context variables, apart from TOOL_ARGS and its dotted forms.
var varNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"EVENT": true, "TOOL_NAME": true, "FILE_PATH": true, "MESSAGE": true,
		"ERROR": true, "SESSION_ID": true, "CWD": true, "TOOL_ARGS": true,
	}
})

// Value returns the value of the context variable name ("FILE_PATH", "TOOL_ARGS.x.0",
// without the $) for in, with NUL bytes dropped; "" for an unknown name or a missing field.
func Value(in *hook.Input, name string) string {
	var v string
	switch name {
	case "EVENT":
		v = in.HookEventName
	case "TOOL_NAME":
		v = in.ToolName
	case "FILE_PATH":
		v = in.FilePath()
	case "MESSAGE":
		v = in.Message
	case "ERROR":
		v = in.Error
	case "SESSION_ID":
		v = in.SessionID
	case "CWD":
		v = in.Cwd
	case "TOOL_ARGS":
		v = CompactJSON(in.ToolInput)
	default:
		if path, ok := strings.CutPrefix(name, "TOOL_ARGS."); ok {
			v = toolArg(in.ToolInput, path)
		}
	}
	return strings.ReplaceAll(v, "\x00", "")
}

// CompactJSON returns raw as compact JSON, or "" when raw is not valid JSON.
func CompactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return ""
	}
	return buf.String()
}

// toolArg walks a dotted path ("a.b.0") through the tool input.
func toolArg(toolInput json.RawMessage, path string) string {
	if len(toolInput) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(toolInput))
	dec.UseNumber()
	var cur any
	if dec.Decode(&cur) != nil {
		return ""
	}
	for _, key := range strings.Split(path, ".") {
		switch node := cur.(type) {
		case map[string]any:
			cur = node[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(node) {
				return ""
			}
			cur = node[i]
		default:
			return ""
		}
	}
	switch v := cur.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return ""
		}
		return strings.TrimSuffix(buf.String(), "\n")
	}
}

// IsNameStart reports whether c may start a shell variable name: an ASCII letter or '_'.
func IsNameStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsNameChar reports whether c may appear in a shell variable name after its first byte:
// an ASCII letter, digit or '_'.
func IsNameChar(c byte) bool { return IsNameStart(c) || '0' <= c && c <= '9' }

// At reports whether s[i] (a '$') starts a context variable ($NAME or ${NAME}), and
// returns its name (without $ and braces) and the index just past it. ${FILE_PATH%.md}
// and the like are not context variables: they are the shell's.
func At(s string, i int) (name string, end int, ok bool) {
	j := i + 1
	braced := j < len(s) && s[j] == '{'
	if braced {
		j++
	}
	k := j
	if k >= len(s) || !IsNameStart(s[k]) {
		return "", 0, false
	}
	for k < len(s) && IsNameChar(s[k]) {
		k++
	}
	name = s[j:k]
	if !varNames()[name] {
		return "", 0, false
	}
	if name == "TOOL_ARGS" {
		for k+1 < len(s) && s[k] == '.' && IsNameChar(s[k+1]) {
			k += 2
			for k < len(s) && IsNameChar(s[k]) {
				k++
			}
		}
		name = s[j:k]
	}
	if braced {
		if k >= len(s) || s[k] != '}' {
			return "", 0, false // ${FILE_PATH%.md} and the like are the shell's
		}
		k++
	}
	return name, k, true
}

// ExpandPlain replaces the context variables in s by their values, as plain text: for
// exec-form arguments and inject messages, where no shell reads the result.
func ExpandPlain(s string, in *hook.Input) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '$' {
			if name, end, ok := At(s, i); ok {
				b.WriteString(Value(in, name))
				i = end
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

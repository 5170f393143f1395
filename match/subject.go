package match

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// Subject is one tool call (or one event) as the `if` filters see it: the canonical event
// name, the tool name and the tool arguments as JSON.
//
// Build one per event with NewSubject and pass it to every filter of that event. It does the
// work the filters need lazily and at most once: compacting the arguments (for /re/ filters),
// decoding them (for conditions and rules) and parsing a Bash command (for Bash(...) rules).
// A Subject is safe for concurrent use by several goroutines.
type Subject struct {
	event string
	tool  string
	args  json.RawMessage
	root  string // the project root path rules are anchored at; "" when unknown
	dir   string // where relative path rules are anchored for permit semantics; "" unknown

	compactOnce sync.Once
	compact     string

	decodeOnce sync.Once
	decoded    any  // the arguments decoded with UseNumber; nil when absent
	argsOK     bool // the arguments are valid JSON (or absent)

	firstOnce sync.Once
	first     string
	firstOK   bool

	bashOnce sync.Once
	bash     bashCommands
}

// NewSubject returns the Subject for one event. event is the canonical event name (as
// registered in package hook, e.g. "PreToolUse"); tool is the tool name ("" on events without
// one); args is the tool's arguments as a JSON object (nil or empty when there are none). The
// Subject keeps args without copying it; the caller must not modify it afterwards.
func NewSubject(event, tool string, args json.RawMessage) *Subject {
	return &Subject{event: event, tool: tool, args: args}
}

// NewSubjectAt is NewSubject for a project whose root is the absolute, clean directory
// root: the relative path rules of `if` ("docs/**", "/src/**") are anchored there, as
// Claude Code anchors them, and do not match paths outside it; a relative file path in the
// arguments is taken relative to root. An empty root is NewSubject.
func NewSubjectAt(root, event, tool string, args json.RawMessage) *Subject {
	return &Subject{event: event, tool: tool, args: args, root: root}
}

// NewSubjectIn is NewSubject for a call made in the directory dir (an absolute path: the
// agent's workspace, the hook input's cwd). Deny semantics (If.Match) ignore dir (they use
// NewSubjectAt's project root); permit
// semantics (AllowedBy) anchor relative path rules there: Edit(src/**) permits dir/src/a.go
// and src/a.go, not dir/vendor/src/a.go nor a path outside dir.
func NewSubjectIn(event, tool string, args json.RawMessage, dir string) *Subject {
	return &Subject{event: event, tool: tool, args: args, dir: dir}
}

// compactArgs returns the arguments as compact JSON (json.Compact); arguments that are not
// valid JSON are returned as given, and absent arguments as "".
func (s *Subject) compactArgs() string {
	s.compactOnce.Do(func() {
		if isCompact(s.args) {
			s.compact = string(s.args) // what json.Compact would write: skip the copy through a buffer
			return
		}
		var b bytes.Buffer
		if err := json.Compact(&b, s.args); err != nil {
			s.compact = string(s.args)
			return
		}
		s.compact = b.String()
	})
	return s.compact
}

// decodedArgs returns the decoded arguments (numbers as json.Number) and whether the
// arguments were valid JSON; absent arguments decode as nil and count as valid.
func (s *Subject) decodedArgs() (any, bool) {
	s.decodeOnce.Do(func() {
		if len(bytes.TrimSpace(s.args)) == 0 {
			s.argsOK = true
			return
		}
		d := json.NewDecoder(bytes.NewReader(s.args))
		d.UseNumber()
		if err := d.Decode(&s.decoded); err != nil {
			s.decoded = nil
			return
		}
		s.argsOK = true
	})
	return s.decoded, s.argsOK
}

// arg returns the argument at a path of object keys and array indexes ("items", "0"), as
// text (see jsonText), and whether it exists.
func (s *Subject) arg(path ...string) (string, bool) {
	v, _ := s.decodedArgs()
	for _, key := range path {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return "", false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	return jsonText(v), true
}

// firstStringArg returns the value of the first top-level argument, in the order written,
// whose value is a JSON string.
func (s *Subject) firstStringArg() (string, bool) {
	s.firstOnce.Do(func() {
		d := json.NewDecoder(bytes.NewReader(s.args))
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return
		}
		for d.More() {
			if _, err := d.Token(); err != nil { // key
				return
			}
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				return
			}
			var str string
			if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &str) == nil {
				s.first, s.firstOK = str, true
				return
			}
		}
	})
	return s.first, s.firstOK
}

// jsonText renders a decoded JSON value as the text filters compare: a string as itself, any
// other value as its compact JSON text (5, true, null, {"a":1}).
func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// normEvent normalises an event name for comparison: lower case, underscores dropped, so
// "PreToolUse" and "pre_tool_use" compare equal.
// Only ASCII letters are folded (event names are ASCII).
func normEvent(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrAmbiguousInput: a tool input that different JSON readers read differently, so that a
// hook and the tool it guards would not see the same call (issue 10.4). An object, at any
// nesting level, holds two keys that are equal once decoded ({"command": "ls", "command":
// "rm -rf x"}: most readers keep the last, some the first) or equal under the case folding
// encoding/json uses to fill struct fields ({"command": "ls", "Command": "rm -rf x"}: a Go
// tool reads the second, a rule or a jq script reads the first); or the input holds more than
// one JSON value. It is a kind of ErrBadInput. On a gate event the Runner blocks such an input
// before any hook sees it, and the reference agent refuses it before any tool does.
var ErrAmbiguousInput error = inputKind("ambiguous tool input")

// CheckToolInput returns nil when raw, a tool input, is empty or is exactly one JSON value
// in which no object has two keys that are equal, or equal under encoding/json's case
// folding (FoldKey), once their escapes are decoded. Otherwise it returns an error that
// wraps ErrAmbiguousInput and names the key's path ("a.b: duplicate key \"command\""), or,
// for raw that is not valid JSON, an error that wraps ErrBadInput only. The check reads
// tokens: it does not recurse, so any nesting depth is checked in memory proportional to it.
func CheckToolInput(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	// frame is one open object or array.
	type frame struct {
		object bool
		keys   map[string]string // objects: folded key → the key as decoded
		key    bool              // objects: a key comes next
		at     string            // the current key, or the current index of an array
		index  int
	}
	var stack []*frame
	path := func() string {
		var parts []string
		for _, f := range stack[:len(stack)-1] {
			parts = append(parts, f.at)
		}
		if len(parts) == 0 {
			return ""
		}
		return strings.Join(parts, ".") + ": "
	}
	done := false // one whole top-level value was read
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err == io.EOF && done {
			return nil
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		if done {
			return fmt.Errorf("%w: more than one JSON value", ErrAmbiguousInput)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.key {
			folded := FoldKey(s)
			if prev, dup := top.keys[folded]; dup {
				if prev == s {
					return fmt.Errorf("%w: %sduplicate key %q", ErrAmbiguousInput, path(), s)
				}
				return fmt.Errorf("%w: %skeys %q and %q differ only in case", ErrAmbiguousInput, path(), prev, s)
			}
			if top.keys == nil {
				top.keys = make(map[string]string)
			}
			top.keys[folded], top.key, top.at = s, false, s
			continue
		}
		if top != nil && !top.object {
			top.at = strconv.Itoa(top.index)
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			stack = append(stack, &frame{object: d == '{', key: d == '{'})
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
		}
		// A value ended (a scalar, or a container just closed).
		if len(stack) == 0 {
			done = true
			continue
		}
		if f := stack[len(stack)-1]; f.object {
			f.key = true
		} else {
			f.index++
		}
	}
}

// FoldKey returns key folded the way encoding/json matches object keys to struct fields
// (bytes.EqualFold: ASCII letters upper-cased, every other rune replaced by the smallest rune
// of its Unicode simple-fold orbit, so "K", "k" and the Kelvin sign U+212A fold alike). Two
// keys with one FoldKey fill the same field of a Go tool's input struct.
func FoldKey(key string) string {
	var b strings.Builder
	b.Grow(len(key))
	for _, r := range key {
		switch {
		case r < utf8.RuneSelf:
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
		default:
			for {
				r2 := unicode.SimpleFold(r)
				if r2 <= r {
					r = r2
					break
				}
				r = r2
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// DecodeToolInput decodes a tool input into v, a pointer to a struct, as a tool should: the
// input must pass CheckToolInput, and a top-level key that is not exactly the JSON name of
// one of v's fields but folds to one ({"Command": ...} for a field `json:"command"`) is an
// error wrapping ErrAmbiguousInput — encoding/json would fill the field from it, while hooks
// and rules, which read the exact key, would not see it. Other unknown keys are ignored, as
// encoding/json ignores them. Errors of json.Unmarshal are returned as they are.
func DecodeToolInput(raw []byte, v any) error {
	if err := CheckToolInput(raw); err != nil {
		return err
	}
	if names := jsonNames(v); len(names) > 0 {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) == nil {
			for k := range obj {
				if _, exact := names[k]; exact {
					continue
				}
				folded := FoldKey(k)
				for name := range names {
					if FoldKey(name) == folded {
						return fmt.Errorf("%w: key %q is not %q (keys are case-sensitive)", ErrAmbiguousInput, k, name)
					}
				}
			}
		}
	}
	return json.Unmarshal(raw, v)
}

// jsonNames returns the JSON names of the fields of the struct v points to.
func jsonNames(v any) map[string]struct{} {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	t = t.Elem()
	names := make(map[string]struct{}, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names[name] = struct{}{}
	}
	return names
}

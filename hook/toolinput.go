package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
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

// MaxToolInputDepth is the deepest nesting of objects and arrays CheckToolInput accepts in a
// tool input. Readers differ past a few hundred levels: Python's json module raises
// RecursionError near 1 000, encoding/json stops at 10 000, and a hook that crashes on an
// input lets the call through (red team, stop 20: `{"command": "rm -rf d", "x": [[[…]]]}`
// 2 000 deep crashed a Python guard). No tool's input nests anywhere near this deep.
const MaxToolInputDepth = 256

// CheckToolInput returns nil when raw, a tool input, is empty or is exactly one JSON value
// in which no object has two keys that are equal, or equal under encoding/json's case
// folding (FoldKey), once their escapes are decoded, no number is too large for a float64
// (Python refuses an integer of over 4 300 digits and reads 1e400 as inf, JavaScript reads
// Infinity, encoding/json fails), and objects and arrays nest at most MaxToolInputDepth
// deep. Otherwise it returns an error that wraps ErrAmbiguousInput and names the key's path
// ("a.b: duplicate key \"command\""), or, for raw that is not valid JSON, an error that
// wraps ErrBadInput only. The check reads tokens: it does not recurse, so any nesting depth
// is checked in memory proportional to it.
func CheckToolInput(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if !json.Valid(raw) {
		return checkTokens(raw)
	}
	return checkValid(raw)
}

// keyFrame is one open container of checkValid.
type keyFrame struct {
	object bool
	n      int                 // keys in small (objects), or the current index (arrays)
	small  [smallObject]string // objects: folded keys, while few
	raw    [smallObject]string // objects: the keys as decoded, while few
	byFold map[string]string   // objects: folded key → decoded key, once many
	at     string              // objects: the current key
}

// checkValid is CheckToolInput on one valid JSON value, scanned byte by byte. A key without
// escapes or non-ASCII bytes is used in place (no copy); others are decoded with
// encoding/json, whose decoding (escapes, U+FFFD for invalid UTF-8) the tools share.
func checkValid(raw []byte) error {
	var buf [8]keyFrame
	stack := buf[:0]
	expectKey := false
	pathTo := func(n int) string {
		var parts []string
		for i := range n {
			if stack[i].object {
				parts = append(parts, stack[i].at)
			} else {
				parts = append(parts, strconv.Itoa(stack[i].n))
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return strings.Join(parts, ".") + ": "
	}
	path := func() string { return pathTo(len(stack) - 1) }  // the object holding a key
	valuePath := func() string { return pathTo(len(stack)) } // a value inside the innermost container
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '{', '[':
			if len(stack) == MaxToolInputDepth {
				return fmt.Errorf("%w: nested more than %d deep", ErrAmbiguousInput, MaxToolInputDepth)
			}
			stack = append(stack, keyFrame{object: c == '{'})
			expectKey = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			j := i + 1
			for j < len(raw) && isNumberByte(raw[j]) {
				j++
			}
			if err := checkNumber(raw[i:j], valuePath); err != nil {
				return err
			}
			i = j - 1
		case ',':
			if top := &stack[len(stack)-1]; top.object {
				expectKey = true
			} else {
				top.n++
			}
		case '"':
			j := i + 1
			plain := true
			for raw[j] != '"' {
				if raw[j] == '\\' {
					j++
					plain = false
				} else if raw[j] >= utf8.RuneSelf {
					plain = false
				}
				j++
			}
			if !plain {
				if at, ok := loneSurrogate(raw[i+1 : j]); ok {
					return fmt.Errorf("%w: %sa lone UTF-16 surrogate (%s) in a string", ErrAmbiguousInput, valuePath(), raw[i+1+at:i+1+at+6])
				}
			}
			if expectKey {
				expectKey = false
				var key string
				if plain {
					key = unsafe.String(&raw[i+1], j-i-1) // raw outlives the call; key does not
					if j == i+1 {
						key = ""
					}
				} else if err := json.Unmarshal(raw[i:j+1], &key); err != nil {
					return fmt.Errorf("%w: %v", ErrBadInput, err)
				}
				if err := addKey(&stack[len(stack)-1], key, path); err != nil {
					return err
				}
			}
			i = j
		}
	}
	return nil
}

// loneSurrogate returns the offset in str (the inside of a valid JSON string) of a \u
// escape of a UTF-16 surrogate that is not half of a pair: a high one (D800–DBFF) not
// followed by a \u escape of a low one (DC00–DFFF), or a low one on its own. Readers differ
// on it: encoding/json reads U+FFFD, JavaScript keeps the lone half, Python keeps it and then
// fails to write it as UTF-8 — a Python guard that logs or prints the command crashes, and a
// crashed hook lets the call through (red team round 39, with Claude Code, which passes the
// model's "\ud800" on as it is).
func loneSurrogate(str []byte) (int, bool) {
	high := -1 // offset of a high surrogate waiting for its low half
	for k := 0; k < len(str); k++ {
		if str[k] != '\\' {
			if high >= 0 {
				return high, true
			}
			continue
		}
		if str[k+1] != 'u' {
			if high >= 0 {
				return high, true
			}
			k++
			continue
		}
		v, _ := strconv.ParseUint(string(str[k+2:k+6]), 16, 16)
		switch {
		case v >= 0xD800 && v <= 0xDBFF:
			if high >= 0 {
				return high, true
			}
			high = k
		case v >= 0xDC00 && v <= 0xDFFF:
			if high < 0 {
				return k, true
			}
			high = -1
		default:
			if high >= 0 {
				return high, true
			}
		}
		k += 5
	}
	return high, high >= 0
}

// replaceLoneSurrogates returns raw (valid JSON) with every \u escape of a lone UTF-16
// surrogate (loneSurrogate) written as \ufffd, the replacement character encoding/json
// reads for it; raw itself when it has none. For the fields of a hook's input other than
// the tool input (which CheckToolInput refuses instead): a hostile model's
// last_assistant_message "... \ud800" crashed a Python Stop guard that logged it, and the
// stop went through (red team round 40).
func replaceLoneSurrogates(raw []byte) []byte {
	var out []byte
	for off := 0; ; {
		at, ok := loneSurrogate(raw[off:]) // a \u escape is only ever inside a string
		if !ok {
			break
		}
		if out == nil {
			out = slices.Clone(raw)
		}
		copy(out[off+at+2:off+at+6], "fffd")
		off += at + 6
	}
	if out == nil {
		return raw
	}
	return out
}

// isNumberByte reports whether b may continue a JSON number literal.
func isNumberByte(b byte) bool {
	return b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-'
}

// checkNumber returns the ambiguity of the JSON number literal num (valid JSON): a value
// past float64's range, which readers turn into inf, Infinity, an error or (Python, over
// 4 300 digits) a refusal. Only a literal long enough or with an exponent can be one, so a
// plain number costs no parse.
func checkNumber(num []byte, path func() string) error {
	if len(num) <= 300 && !bytes.ContainsAny(num, "eE") {
		return nil
	}
	if _, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64); err != nil {
		return fmt.Errorf("%w: %sa number out of a float64's range (%.20s…, %d characters)", ErrAmbiguousInput, path(), num, len(num))
	}
	return nil
}

// addKey records key in the object frame f, or returns the ambiguity it makes.
func addKey(f *keyFrame, key string, path func() string) error {
	folded := FoldKey(key)
	prev, dup := "", false
	if f.byFold != nil {
		prev, dup = f.byFold[folded]
	} else {
		for i := range f.n {
			if f.small[i] == folded {
				prev, dup = f.raw[i], true
				break
			}
		}
	}
	if dup {
		if prev == key {
			return fmt.Errorf("%w: %sduplicate key %q", ErrAmbiguousInput, path(), strings.Clone(key))
		}
		return fmt.Errorf("%w: %skeys %q and %q differ only in case", ErrAmbiguousInput, path(), strings.Clone(prev), strings.Clone(key))
	}
	switch {
	case f.byFold != nil:
		f.byFold[folded] = key
	case f.n < smallObject:
		f.small[f.n], f.raw[f.n] = folded, key
		f.n++
	default: // many keys: a map, so that a hostile object costs linear time
		f.byFold = make(map[string]string, 2*smallObject)
		for i := range f.n {
			f.byFold[f.small[i]] = f.raw[i]
		}
		f.byFold[folded] = key
	}
	f.at = key
	return nil
}

// checkTokens is CheckToolInput on input that is not one valid JSON value: it tells a
// second value (ambiguous) from a syntax error (bad input).
func checkTokens(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	// frame is one open object or array.
	type frame struct {
		object bool
		keys   []string          // objects: the keys so far, folded, while few
		byFold map[string]string // objects: folded key → the key as decoded, once many
		raw    []string          // objects: the keys so far as decoded, while few
		key    bool              // objects: a key comes next
		at     string            // the current key, or the current index of an array
		index  int
	}
	var stack []*frame
	pathTo := func(n int) string {
		var parts []string
		for _, f := range stack[:n] {
			parts = append(parts, f.at)
		}
		if len(parts) == 0 {
			return ""
		}
		return strings.Join(parts, ".") + ": "
	}
	path := func() string { return pathTo(max(len(stack)-1, 0)) } // the object holding a key
	valuePath := func() string { return pathTo(len(stack)) }      // a value inside the innermost container
	done := false                                                 // one whole top-level value was read
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a number too large for float64 is still valid JSON
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
			prev, dup := "", false
			if top.byFold != nil {
				prev, dup = top.byFold[folded]
			} else {
				for i, k := range top.keys {
					if k == folded {
						prev, dup = top.raw[i], true
						break
					}
				}
			}
			if dup {
				if prev == s {
					return fmt.Errorf("%w: %sduplicate key %q", ErrAmbiguousInput, path(), s)
				}
				return fmt.Errorf("%w: %skeys %q and %q differ only in case", ErrAmbiguousInput, path(), prev, s)
			}
			switch {
			case top.byFold != nil:
				top.byFold[folded] = s
			case len(top.keys) < smallObject:
				top.keys, top.raw = append(top.keys, folded), append(top.raw, s)
			default: // many keys: a map, so that a hostile object costs linear time
				top.byFold = make(map[string]string, 2*smallObject)
				for i, k := range top.keys {
					top.byFold[k] = top.raw[i]
				}
				top.byFold[folded] = s
				top.keys, top.raw = nil, nil
			}
			top.key, top.at = false, s
			continue
		}
		if top != nil && !top.object {
			top.at = strconv.Itoa(top.index)
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			if len(stack) == MaxToolInputDepth {
				return fmt.Errorf("%w: nested more than %d deep", ErrAmbiguousInput, MaxToolInputDepth)
			}
			stack = append(stack, &frame{object: d == '{', key: d == '{'})
			continue
		}
		if n, ok := tok.(json.Number); ok {
			if err := checkNumber([]byte(n), valuePath); err != nil {
				return err
			}
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

// smallObject is how many keys an object's keys are compared linearly before a map is
// built.
const smallObject = 16

// FoldKey returns key folded the way encoding/json matches object keys to struct fields
// (bytes.EqualFold): every rune replaced by the smallest rune of its Unicode simple-fold
// orbit, then ASCII upper-case letters lower-cased, so "K", "k" and the Kelvin sign U+212A all
// fold to "k". Two keys with one FoldKey fill the same field of a Go tool's input struct. A
// key of ASCII without upper-case letters is its own fold and costs no allocation.
func FoldKey(key string) string {
	plain := true
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			plain = false
			break
		}
	}
	if plain {
		return key
	}
	var b strings.Builder
	b.Grow(len(key))
	for _, r := range key {
		if r >= utf8.RuneSelf {
			for {
				r2 := unicode.SimpleFold(r)
				if r2 <= r {
					r = r2
					break
				}
				r = r2
			}
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
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

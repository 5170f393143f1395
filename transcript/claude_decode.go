package transcript

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookcore/hookcore/internal/text"
)

// This file is the replay's decoding fast path. Most of a real transcript's bytes are in
// fields no event needs (attachment snapshots, request shapes and blobs: 78 % of the
// recorded sessions' bytes), and encoding/json scans every byte of a line at least twice
// (checkValid, then the decode) and twice more for the message content. The fast path
// validates the line in one pass that skips long strings quickly, decodes only the members
// that line and block declare, and copies json.RawMessage members without re-scanning them.
//
// It gives exactly what json.Unmarshal gives, or it gives up and the caller runs
// json.Unmarshal: on a syntax error (so error values stay those of encoding/json), a type
// error, a key that is not an exact declared name but could match one case-insensitively
// (encoding/json's folding), a key with escapes or non-ASCII bytes, a repeated declared key,
// or nesting deeper than maxFastDepth. TestDecodeFastMatchesUnmarshal and FuzzDecodeLine
// compare the two.

// maxFastDepth bounds the nesting the fast path follows; deeper lines take the slow path
// (encoding/json's own limit is 10 000).
const maxFastDepth = 200

// decodeLine decodes one line, which starts with '{', into l, as json.Unmarshal(data, l).
func decodeLine(data []byte, l *line) error {
	if fastLine(data, l) {
		return nil
	}
	*l = line{}
	return json.Unmarshal(data, l)
}

// fastLine is decodeLine's fast path; false means "use json.Unmarshal", and l is then in
// an undefined state.
func fastLine(data []byte, l *line) bool {
	end, ok := decodeObject(data, text.SkipJSONSpace(data, 0), reflect.ValueOf(l).Elem(), 0, false)
	return ok && text.SkipJSONSpace(data, end) == len(data)
}

// decodeBlocks decodes a message content list, as json.Unmarshal(raw, &bs); ok is false
// when json.Unmarshal would fail. The blocks' raw members (input, content) may point into
// raw, a message's private copy of its content, which must not change afterwards.
func decodeBlocks(raw []byte) (bs []block, ok bool) {
	if fast, ok := decodeBlockList(raw); ok {
		return fast, true
	}
	return bs, json.Unmarshal(raw, &bs) == nil
}

func decodeBlockList(raw []byte) ([]block, bool) {
	i := text.SkipJSONSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	bs := []block{} // json.Unmarshal makes an empty, non-nil slice of "[]"
	i = text.SkipJSONSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return bs, text.SkipJSONSpace(raw, i+1) == len(raw)
	}
	for {
		var b block
		end, ok := decodeObject(raw, i, reflect.ValueOf(&b).Elem(), 1, true)
		if !ok {
			return nil, false
		}
		bs = append(bs, b)
		i = text.SkipJSONSpace(raw, end)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = text.SkipJSONSpace(raw, i+1)
		case ']':
			return bs, text.SkipJSONSpace(raw, i+1) == len(raw)
		default:
			return nil, false
		}
	}
}

// fields is the decoding table of one struct type: its members by JSON name.
type fields struct {
	byName map[string]int // JSON name → field index
	names  []string       // the JSON names, for the case-insensitive collision check
}

var fieldTables sync.Map // reflect.Type → *fields

var rawMessageType = reflect.TypeFor[json.RawMessage]()

func tableOf(t reflect.Type) *fields {
	if f, ok := fieldTables.Load(t); ok {
		return f.(*fields)
	}
	f := &fields{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			name = t.Field(i).Name
		}
		f.byName[name] = i
		f.names = append(f.names, name)
	}
	fieldTables.Store(t, f)
	return f
}

// lookup returns the field index for key: ok with i < 0 when no field can take it, !ok when
// encoding/json might match it case-insensitively or after unescaping (the slow path decides).
func (f *fields) lookup(key []byte) (i int, ok bool) {
	if i, found := f.byName[string(key)]; found {
		return i, true
	}
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return -1, false
		}
	}
	for _, n := range f.names {
		if equalFoldASCII(n, key) {
			return -1, false
		}
	}
	return -1, true
}

func equalFoldASCII(s string, b []byte) bool {
	if len(s) != len(b) {
		return false
	}
	for i := 0; i < len(s); i++ {
		x, y := s[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// decodeObject decodes the object at data[i] into v (a struct) and returns the index after
// it. Members v does not declare are validated and skipped. alias lets json.RawMessage
// members point into data instead of copying it: only for data that is already a private
// copy nobody changes (a message's content, never the reader's line buffer).
func decodeObject(data []byte, i int, v reflect.Value, depth int, alias bool) (int, bool) {
	if depth > maxFastDepth || i >= len(data) || data[i] != '{' {
		return 0, false
	}
	tab := tableOf(v.Type())
	var seen uint64 // field indexes already set (the structs here have fewer than 64)
	i = text.SkipJSONSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return 0, false
		}
		kEnd, ok := skipString(data, i)
		if !ok {
			return 0, false
		}
		key := data[i+1 : kEnd-1]
		i = text.SkipJSONSpace(data, kEnd)
		if i >= len(data) || data[i] != ':' {
			return 0, false
		}
		i = text.SkipJSONSpace(data, i+1)
		fi, ok := tab.lookup(key)
		if !ok || fi >= 64 || (fi >= 0 && seen&(1<<fi) != 0) {
			return 0, false
		}
		var end int
		if fi < 0 {
			end, ok = skipValue(data, i, depth+1)
		} else {
			seen |= 1 << fi
			end, ok = decodeValue(data, i, v.Field(fi), depth+1, alias)
		}
		if !ok {
			return 0, false
		}
		i = text.SkipJSONSpace(data, end)
		if i >= len(data) {
			return 0, false
		}
		switch data[i] {
		case ',':
			i = text.SkipJSONSpace(data, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// decodeValue decodes the value at data[i] into the field f.
func decodeValue(data []byte, i int, f reflect.Value, depth int, alias bool) (int, bool) {
	switch {
	case f.Type() == rawMessageType:
		end, ok := skipValue(data, i, depth)
		switch {
		case ok && alias:
			f.SetBytes(data[i:end:end])
		case ok:
			f.SetBytes(append([]byte(nil), data[i:end]...))
		}
		return end, ok
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct:
		if i < len(data) && data[i] == 'n' {
			end, ok := skipValue(data, i, depth)
			if ok {
				f.SetZero() // null sets a pointer to nil
			}
			return end, ok
		}
		p := reflect.New(f.Type().Elem())
		end, ok := decodeObject(data, i, p.Elem(), depth, alias)
		if ok {
			f.Set(p)
		}
		return end, ok
	case f.Kind() == reflect.Struct:
		if i < len(data) && data[i] == 'n' {
			return skipValue(data, i, depth) // null leaves a struct as it is
		}
		return decodeObject(data, i, f, depth, alias)
	default:
		end, ok := skipValue(data, i, depth)
		if !ok {
			return 0, false
		}
		if decodeScalar(data[i:end], f) {
			return end, true
		}
		if json.Unmarshal(data[i:end], f.Addr().Interface()) != nil {
			return 0, false
		}
		return end, true
	}
}

// decodeScalar decodes the common cases without encoding/json: a string without escapes
// that is valid UTF-8 into a string field, a boolean into a bool field, null into either
// (which leaves it as it is). It reports false for anything else.
func decodeScalar(v []byte, f reflect.Value) bool {
	switch f.Kind() {
	case reflect.String:
		switch v[0] {
		case 'n':
			return true
		case '"':
			s := v[1 : len(v)-1]
			if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
				return false
			}
			f.SetString(string(s))
			return true
		}
	case reflect.Bool:
		switch v[0] {
		case 'n':
			return true
		case 't', 'f':
			f.SetBool(v[0] == 't')
			return true
		}
	}
	return false
}

// skipValue validates the JSON value at data[i] and returns the index after it. It accepts
// exactly what encoding/json accepts (invalid UTF-8 inside strings included), nested at most
// maxFastDepth deep.
func skipValue(data []byte, i int, depth int) (int, bool) {
	if depth > maxFastDepth || i >= len(data) {
		return 0, false
	}
	switch c := data[i]; {
	case c == '"':
		return skipString(data, i)
	case c == '{':
		i = text.SkipJSONSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			return i + 1, true
		}
		for {
			if i >= len(data) || data[i] != '"' {
				return 0, false
			}
			end, ok := skipString(data, i)
			if !ok {
				return 0, false
			}
			i = text.SkipJSONSpace(data, end)
			if i >= len(data) || data[i] != ':' {
				return 0, false
			}
			if i, ok = skipValue(data, text.SkipJSONSpace(data, i+1), depth+1); !ok {
				return 0, false
			}
			i = text.SkipJSONSpace(data, i)
			if i >= len(data) {
				return 0, false
			}
			switch data[i] {
			case ',':
				i = text.SkipJSONSpace(data, i+1)
			case '}':
				return i + 1, true
			default:
				return 0, false
			}
		}
	case c == '[':
		i = text.SkipJSONSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = skipValue(data, i, depth+1); !ok {
				return 0, false
			}
			i = text.SkipJSONSpace(data, i)
			if i >= len(data) {
				return 0, false
			}
			switch data[i] {
			case ',':
				i = text.SkipJSONSpace(data, i+1)
			case ']':
				return i + 1, true
			default:
				return 0, false
			}
		}
	case c == 't':
		return skipLiteral(data, i, "true")
	case c == 'f':
		return skipLiteral(data, i, "false")
	case c == 'n':
		return skipLiteral(data, i, "null")
	default:
		return skipNumber(data, i)
	}
}

func skipLiteral(data []byte, i int, lit string) (int, bool) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// skipNumber validates -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at data[i].
func skipNumber(data []byte, i int) (int, bool) {
	digits := func(i int) int {
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
		return i
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		i = digits(i + 1)
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// skipString validates the string whose opening quote is at data[i] and returns the index
// after its closing quote. It jumps from quote to backslash with bytes.IndexByte and checks
// the runs between them for control characters eight bytes at a time, so a long string costs
// little more than a copy; each byte is looked at a bounded number of times.
func skipString(data []byte, i int) (int, bool) {
	i++
	q := -1 // the index of the next '"' at or after i, once looked up
	for {
		if q < i {
			k := bytes.IndexByte(data[i:], '"')
			if k < 0 {
				return 0, false
			}
			q = i + k
		}
		end := q
		if k := bytes.IndexByte(data[i:q], '\\'); k >= 0 {
			end = i + k
		}
		if hasControl(data[i:end]) {
			return 0, false
		}
		if end == q {
			return q + 1, true
		}
		i = end // a backslash
		if i+1 >= len(data) {
			return 0, false
		}
		switch data[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if len(data)-i < 6 || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
				return 0, false
			}
			i += 6
		default:
			return 0, false
		}
	}
}

// hasControl reports whether b holds a byte below 0x20, which JSON does not allow
// unescaped in a string. It tests eight bytes at a time (the "has less than" word trick:
// exact for the question whether any byte is below the bound).
func hasControl(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-0x20*ones)&^x&highs != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

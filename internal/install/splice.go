package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookcore/hookcore/config"
	"path/filepath"
	"slices"
	"strings"
)

// The settings file is edited in place: only the members hookcore changes are rewritten, and
// every other byte — the user's layout, key order, blank lines — stays as it was (red team
// 12: uninstall re-indented the whole file). The root object and its "hooks" object are
// edited member by member; a changed event's list is written whole, indented like the line
// of its key. An empty object or array ("hooks": {}, "Stop": [], a file that is only {})
// shows no layout of its own and takes its container's; the root's is the new file's (two
// spaces, one member a line). spliced falls back to nothing (ok false) when the file is not laid out in a
// way it can place a member in, and the caller writes the whole file instead.

// member is one "key": value of a JSON object in the file: the offsets of the key's opening
// quote and of the value's first and one-past-last byte.
type member struct {
	key                        string
	keyStart, valStart, valEnd int
}

// members reads the object that starts at data[start] ('{') and returns its members and the
// offset of its closing '}'.
func members(data []byte, start int) ([]member, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, 0, fmt.Errorf("not a JSON object")
	}
	var ms []member
	for dec.More() {
		keyStart := skip(data, start+int(dec.InputOffset()), " \t\r\n,")
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, err
		}
		k, _ := tok.(string)
		valStart := skip(data, start+int(dec.InputOffset()), " \t\r\n:")
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, 0, err
		}
		ms = append(ms, member{k, keyStart, valStart, start + int(dec.InputOffset())})
	}
	if _, err := dec.Token(); err != nil {
		return nil, 0, err
	}
	return ms, start + int(dec.InputOffset()) - 1, nil
}

func skip(data []byte, i int, set string) int {
	for i < len(data) && strings.IndexByte(set, data[i]) >= 0 {
		i++
	}
	return i
}

// edit is one replacement of data[start:end] by text.
type edit struct {
	start, end int
	text       string
}

// spliced returns old with the root object changed into want, touching only the members
// that differ (and, one level down, the members of "hooks" that differ); ok is false when
// old has a shape it does not edit (duplicate keys, members on one line with others in a
// multi-line object, ...), and the caller renders the whole file.
func spliced(old []byte, want *object) (out []byte, ok bool) {
	start := skip(old, 0, " \t\r\n")
	if start == len(old) || old[start] != '{' {
		return nil, false
	}
	var edits []edit
	if err := editObject(old, start, want, 5, newFileLayout, &edits); err != nil {
		return nil, false
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out = slices.Clone(old)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
	}
	return out, sameJSON(out, mustIndent(want))
}

var errShape = errors.New("layout not edited in place")

// layout is how an object or array of the file is written: multi, one member or element a
// line, each indented by unit below its container's line; else on one line, with a space
// after ':' and ',' when spaced.
type layout struct {
	multi  bool
	unit   string
	spaced bool
}

// newFileLayout is the layout indent gives a new settings file.
var newFileLayout = layout{multi: true, unit: "  "}

// layoutOf returns the layout of the container text (from its '{' or '[' to its closing
// byte) whose members or elements start at the offsets starts, indent being the white
// space that starts the container's line; outer is the layout of its container, which an
// empty one takes. In a multi-line container, the members that start a line give the unit;
// others may share a line with the one before (`"model": "opus", "theme": "dark",`: a
// new-user trial saw such a file rewritten whole). The error is errShape for a multi-line
// container where no member starts a line, or where those that do are not at one depth
// below indent.
func layoutOf(data []byte, start, end int, starts []int, indent string, outer layout) (layout, error) {
	if len(starts) == 0 {
		return outer, nil
	}
	l := layout{multi: bytes.IndexByte(data[start:end], '\n') >= 0, unit: "  ", spaced: bytes.Contains(data[start:end], []byte(`": `))}
	if !l.multi {
		return l, nil
	}
	first, found := "", false
	for _, s := range starts {
		if !startsLine(data, s) {
			continue
		}
		mi := lead(data, s)
		if !found {
			first, found = mi, true
		}
		if len(mi) <= len(indent) || !strings.HasPrefix(mi, indent) || mi != first {
			return l, errShape
		}
	}
	if !found {
		return l, errShape
	}
	l.unit = first[len(indent):]
	return l, nil
}

// editObject adds to edits what turns the object at data[start] into want; depth > 0 edits
// the members of a member that is an object in both (the root's "hooks"); outer is the
// layout of the object's container.
func editObject(data []byte, start int, want *object, depth int, outer layout, edits *[]edit) error {
	ms, end, err := members(data, start)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	lastKept := -1
	for i, m := range ms {
		if have[m.key] {
			return errShape
		}
		have[m.key] = true
		if _, ok := want.get(m.key); ok {
			lastKept = i
		}
	}
	indent := lead(data, start)
	starts := make([]int, len(ms))
	for i, m := range ms {
		starts[i] = m.keyStart
	}
	l, err := layoutOf(data, start, end, starts, indent, outer)
	if err != nil {
		return err
	}
	multi, unit := l.multi, l.unit
	render := renderer(l)
	if lastKept < 0 { // nothing of the old object stays: write it whole
		text, err := render(raw(want), indent)
		if err != nil {
			return err
		}
		*edits = append(*edits, edit{start, end + 1, text})
		return nil
	}
	for i, m := range ms {
		v, keep := want.get(m.key)
		switch {
		case !keep && i < lastKept:
			*edits = append(*edits, edit{m.keyStart, ms[i+1].keyStart, ""})
		case !keep: // the trailing run of removed members: one edit below
		case sameJSON(data[m.valStart:m.valEnd], v):
		default:
			if err := editValue(data, m.valStart, m.valEnd, v, depth, indent+unit, l, render, edits); err != nil {
				return err
			}
		}
	}
	// After the last member kept: the trailing removed members go, the new ones come.
	tail := edit{start: ms[lastKept].valEnd, end: ms[len(ms)-1].valEnd}
	for _, k := range want.keys {
		if have[k] {
			continue
		}
		kb, _ := json.Marshal(k)
		text, err := render(want.vals[k], indent+unit)
		if err != nil {
			return err
		}
		if multi {
			tail.text += ",\n" + indent + unit + string(kb) + ": " + text
		} else {
			tail.text += ", " + string(kb) + ": " + text
		}
	}
	if tail.start != tail.end || tail.text != "" {
		*edits = append(*edits, tail)
	}
	return nil
}

// editValue adds to edits what turns the value data[start:end] into want: an object or an
// array in both is edited in place while depth > 0, anything else is rendered whole with
// prefix as its lines' indentation; outer is the layout of the value's container.
func editValue(data []byte, start, end int, want json.RawMessage, depth int, prefix string, outer layout, render func(json.RawMessage, string) (string, error), edits *[]edit) error {
	if depth > 0 && len(want) > 0 && data[start] == want[0] {
		switch want[0] {
		case '{':
			sub, err := parseObject(want)
			if err != nil {
				return err
			}
			return editObject(data, start, sub, depth-1, outer, edits)
		case '[':
			var list []json.RawMessage
			if err := json.Unmarshal(want, &list); err != nil {
				return err
			}
			return editArray(data, start, list, depth-1, outer, edits)
		}
	}
	text, err := render(want, prefix)
	if err != nil {
		return err
	}
	*edits = append(*edits, edit{start, end, text})
	return nil
}

// editArray adds to edits what turns the array at data[start] into want when want keeps
// its elements in place (some changed), drops some, or appends some, as hookcore's merge
// does; any other change rewrites the array whole. outer is the layout of the array's
// container.
func editArray(data []byte, start int, want []json.RawMessage, depth int, outer layout, edits *[]edit) error {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errShape
	}
	type elem struct{ start, end int }
	var es []elem
	for dec.More() {
		s := skip(data, start+int(dec.InputOffset()), " \t\r\n,")
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		es = append(es, elem{s, start + int(dec.InputOffset())})
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	end := start + int(dec.InputOffset()) - 1
	indent := lead(data, start)
	starts := make([]int, len(es))
	for i, e := range es {
		starts[i] = e.start
	}
	l, err := layoutOf(data, start, end, starts, indent, outer)
	if err != nil {
		return err
	}
	multi, unit := l.multi, l.unit
	render := renderer(l)
	same := func(i, j int) bool { return sameJSON(data[es[i].start:es[i].end], want[j]) }
	switch {
	case len(want) == len(es): // changed in place
		for i := range es {
			if !same(i, i) {
				if err := editValue(data, es[i].start, es[i].end, want[i], depth, indent+unit, l, render, edits); err != nil {
					return err
				}
			}
		}
		return nil
	case len(want) > len(es) && len(es) > 0 && prefixOf(len(es), same): // appended
		tail := edit{start: es[len(es)-1].end, end: es[len(es)-1].end}
		for _, v := range want[len(es):] {
			text, err := render(v, indent+unit)
			if err != nil {
				return err
			}
			if multi {
				tail.text += ",\n" + indent + unit + text
			} else {
				tail.text += ", " + text
			}
		}
		*edits = append(*edits, tail)
		return nil
	case len(want) < len(es) && len(want) > 0: // some dropped, if the rest is kept in order
		kept := make([]bool, len(es))
		j := 0
		for i := range es {
			if j < len(want) && same(i, j) {
				kept[i] = true
				j++
			}
		}
		if j < len(want) {
			break
		}
		last := -1
		for i := range es {
			if kept[i] {
				last = i
			}
		}
		for i := range es {
			if !kept[i] && i < last {
				*edits = append(*edits, edit{es[i].start, es[i+1].start, ""})
			}
		}
		if last < len(es)-1 {
			*edits = append(*edits, edit{es[last].end, es[len(es)-1].end, ""})
		}
		return nil
	}
	text, err := render(raw(want), indent)
	if err != nil {
		return err
	}
	*edits = append(*edits, edit{start, end + 1, text})
	return nil
}

// renderer returns how a value is written into an object or array of layout l: indented
// by l.unit below prefix when l is multi-line, else on one line, spaced after ':' and ','
// when l is.
func renderer(l layout) func(json.RawMessage, string) (string, error) {
	return func(v json.RawMessage, prefix string) (string, error) {
		var b bytes.Buffer
		if l.multi {
			err := indentJSON(&b, v, prefix, l.unit)
			return b.String(), err
		}
		if err := json.Compact(&b, v); err != nil || !l.spaced {
			return b.String(), err
		}
		var out strings.Builder
		inString, escaped := false, false
		for _, c := range b.Bytes() {
			out.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			case !inString && (c == ':' || c == ','):
				out.WriteByte(' ')
			}
		}
		return out.String(), nil
	}
}

// prefixOf reports whether same(i, i) holds for every i < n.
func prefixOf(n int, same func(i, j int) bool) bool {
	for i := 0; i < n; i++ {
		if !same(i, i) {
			return false
		}
	}
	return true
}

// lead returns the white space that starts the line holding data[i].
func lead(data []byte, i int) string {
	b := bytes.LastIndexByte(data[:i], '\n') + 1
	return string(data[b:skip(data, b, " \t")])
}

// startsLine reports whether only white space precedes data[i] on its line.
func startsLine(data []byte, i int) bool {
	b := bytes.LastIndexByte(data[:i], '\n') + 1
	return skip(data, b, " \t") == i
}

// mustIndent is indent for a value that encodes (an *object built by plan).
func mustIndent(v any) []byte {
	b, err := indent(v)
	if err != nil {
		panic(err)
	}
	return b
}

// where returns "path:line:col: err" for a JSON syntax or type error in data (line and
// column 1-based, the column in bytes), with a hint when the byte there starts a comment;
// "path: err" when err has no position.
func where(path string, data []byte, err error) string {
	if e := json.Unmarshal(data, new(any)); e != nil {
		err = e // the decoder's token errors place the offset differently
	}
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var dup *dupKeyError
	switch {
	case errors.As(err, &dup):
		off = dup.Offset
	case errors.As(err, &syn) && strings.HasPrefix(syn.Error(), "unexpected end"):
		off = int64(len(data)) // the place after the last byte
	case errors.As(err, &syn):
		off = syn.Offset - 1 // the offending byte
	case errors.As(err, &typ):
		off = typ.Offset - 1
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Sprintf("%s: %v", path, err)
	}
	line, col := lineCol(data, int(off))
	msg := fmt.Sprintf("%s:%d:%d: %v", path, line, col, err)
	if rest := data[off:]; bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")) {
		if filepath.Base(filepath.Dir(path)) == ".gemini" {
			// Gemini CLI reads comments (strip-json-comments); install writes JSON, and its
			// splice keeps every byte it does not change, which a comment would not survive
			// (new-user trial, stop 26: the message spoke of Claude Code).
			msg += " (a comment: Gemini CLI reads it, but install cannot keep comments when it rewrites the file; remove them, or add the hookcore entries by hand)"
		} else {
			msg += " (a comment: JSON has none, and Claude Code 2.1.332 ignores a settings file that has one, running none of its hooks; remove it)"
		}
	}
	if h := config.EncodingHint(data); h != "" && off == 0 {
		msg += " (the file starts with " + h + ", which JSON does not take: save it as UTF-8 without a byte order mark)"
	}
	return msg
}

// lineCol returns the line and column of byte offset off in data, both 1-based, the column
// in bytes.
func lineCol(data []byte, off int) (line, col int) {
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return line, col
}

// valueOffset returns the offset in data of the value that keys lead to from the root
// object (keys[0] a member of the root, keys[1] a member of that value, ...), or -1 when
// data holds no such value.
func valueOffset(data []byte, keys ...string) int {
	off := skip(data, 0, " \t\r\n")
	for _, k := range keys {
		if off >= len(data) || data[off] != '{' {
			return -1
		}
		ms, _, err := members(data, off)
		if err != nil {
			return -1
		}
		i := slices.IndexFunc(ms, func(m member) bool { return m.key == k })
		if i < 0 {
			return -1
		}
		off = ms[i].valStart
	}
	return off
}

// at returns "path:line:col" of the value that keys lead to in data (valueOffset), or
// path when data holds no such value.
func at(path string, data []byte, keys ...string) string {
	off := valueOffset(data, keys...)
	if off < 0 || off > len(data) {
		return path
	}
	line, col := lineCol(data, off)
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

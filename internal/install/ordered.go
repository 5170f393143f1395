package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// object is a JSON object that keeps its keys in file order and its values as the raw JSON
// the file had, so a rewrite changes only what hookcore touched.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObject(data []byte) (*object, error) {
	o := &object{vals: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key is not a string")
		}
		if _, dup := o.vals[k]; dup {
			// Rewriting the object would keep only the last value, and lose the others
			// the user wrote (red team 13: the earlier of two "PreToolUse" lists went).
			quoted, _ := json.Marshal(k)
			return nil, &dupKeyError{key: k, Offset: dec.InputOffset() - int64(len(quoted))}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(k, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON object")
	}
	return o, nil
}

func (o *object) get(k string) (json.RawMessage, bool) { v, ok := o.vals[k]; return v, ok }

func (o *object) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// MarshalJSON writes the object compactly, keys in order.
func (o *object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(o.vals[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// indent writes v as the settings file: two-space indentation, no HTML escaping, a final
// newline.
func indent(v any) ([]byte, error) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := indentJSON(&out, bytes.TrimSpace(raw.Bytes()), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// indentJSON is json.Indent, except that an array of scalars stays on one line, spaced
// after its commas: an exec-form entry's `"args": ["hook", "claude"]`, as Claude Code's docs
// write it, rather than four lines.
func indentJSON(dst *bytes.Buffer, src []byte, prefix, unit string) error {
	var b bytes.Buffer
	if err := json.Indent(&b, src, prefix, unit); err != nil {
		return err
	}
	data := b.Bytes()
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			end := stringEnd(data, i)
			dst.Write(data[i:end])
			i = end - 1
			continue
		case '[':
			if end, flat := flatArray(data, i); flat {
				var compact bytes.Buffer
				if err := json.Compact(&compact, data[i:end]); err != nil {
					return err
				}
				for j := 0; j < compact.Len(); j++ {
					switch d := compact.Bytes()[j]; d {
					case '"':
						e := stringEnd(compact.Bytes(), j)
						dst.Write(compact.Bytes()[j:e])
						j = e - 1
					case ',':
						dst.WriteString(", ")
					default:
						dst.WriteByte(d)
					}
				}
				i = end - 1
				continue
			}
		}
		dst.WriteByte(c)
	}
	return nil
}

// stringEnd returns the offset one past the JSON string that starts at data[i] ('"').
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// flatArray reports whether the JSON array that starts at data[i] ('[') holds no object or
// array, and returns the offset one past its ']'.
func flatArray(data []byte, i int) (end int, flat bool) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '"':
			j = stringEnd(data, j) - 1
		case '[', '{':
			return 0, false
		case ']':
			return j + 1, true
		}
	}
	return 0, false
}

func raw(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSpace(buf.Bytes())
}

// dupKeyError is a key that appears twice in one JSON object; Offset is the byte offset of its
// second appearance in the data parsed.
type dupKeyError struct {
	key    string
	Offset int64
}

func (e *dupKeyError) Error() string {
	return fmt.Sprintf("key %q appears twice in one object (rewritten, only the last would stay)", e.key)
}

package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestValidObjectAsObject: validObject, the check without the map, accepts and refuses what
// object does, with object's error text, on a generated corpus of valid, broken, deep,
// non-object and empty inputs.
func TestValidObjectAsObject(t *testing.T) {
	t.Parallel()
	corpus := []string{"", "  \n", "{}", " {} ", "[]", "null", `"x"`, "5", "{", "}", "{]", `{"a":}`,
		`{"a":1,}`, `{"a":1}x`, `{"a":1} {"b":2}`, `{"a":"\x01"}`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`,
		`{"a":1,"a":2}`, `{"tool_input":{"command":"rm -rf /"}}`, "\ufeff{}",
		`{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
		`{"a":` + strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + `}`}
	for i := 0; i < 1000; i++ {
		// Prefixes of a real input: every place where it can break off.
		in := fmt.Sprintf(`{"session_id":"s%d","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo %d"},"extra":[1,2,{"x":null}]}`, i, i)
		corpus = append(corpus, in[:i%len(in)], in)
	}
	for _, in := range corpus {
		_, want := object([]byte(in))
		got := validObject([]byte(in))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("validObject(%.40q) = %v, object gives %v", in, got, want)
		}
	}
}

// TestObjMarshalAsBefore: obj.MarshalJSON, one buffer for the whole object, writes what the
// per-key encoding did (json.Marshal for the key, an Encoder without HTML escaping for the
// value), on a generated corpus of keys and values, nested objects and raw JSON included.
func TestObjMarshalAsBefore(t *testing.T) {
	t.Parallel()
	values := []any{"plain", "<b>&</b>", "line\nbreak", "é日\u2028", "", true, false, 3, 2.5, nil,
		json.RawMessage(`{"a":"<x>","b":[1,2]}`), json.RawMessage(`"s"`), map[string]any{"k": "<v>", "n": 1},
		[]string{"a", "<b>"}}
	keys := []string{"hookEventName", "permissionDecision", "reason", "<k>", "a&b", "systemMessage"}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 1000; i++ {
		var o obj
		for j := r.IntN(5); j >= 0; j-- {
			if r.IntN(4) == 0 {
				var inner obj
				inner.set(keys[r.IntN(len(keys))], values[r.IntN(len(values))])
				o.set(keys[r.IntN(len(keys))], &inner)
				continue
			}
			o.set(keys[r.IntN(len(keys))], values[r.IntN(len(values))])
		}
		got, err := o.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := slowMarshal(t, &o); string(got) != want {
			t.Errorf("MarshalJSON = %s, per key %s", got, want)
		}
	}
}

// slowMarshal is obj.MarshalJSON as it was: an Encoder per value.
func slowMarshal(t *testing.T, o *obj) string {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		v := o.vals[i]
		if inner, ok := v.(*obj); ok {
			v = json.RawMessage(slowMarshal(t, inner))
		}
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		buf.Write(bytes.TrimRight(vb.Bytes(), "\n"))
	}
	buf.WriteByte('}')
	return buf.String()
}

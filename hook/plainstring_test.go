package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlainStringAsUnmarshal: where plainString answers, its string is json.Unmarshal's, on
// a generated corpus of string literals (escapes, control bytes, non-ASCII, invalid UTF-8,
// quotes) and non-strings.
func TestPlainStringAsUnmarshal(t *testing.T) {
	t.Parallel()
	alphabet := []string{"a", "Z", "0", " ", "/", "-", "_", ".", "~", "\x7f", "\x1f", "\t", "\\n", "\\\"", "\\\\",
		"\\u0041", "é", "\xff", "\xc3", "日", "\"", "\\", "'", "<", "&"}
	r := rand.New(rand.NewPCG(1, 2))
	corpus := []string{`""`, `"`, `x`, `5`, `null`, `true`, `{}`, `"a"x`, `x"a"`}
	for i := 0; i < 5000; i++ {
		var b bytes.Buffer
		b.WriteByte('"')
		for j := r.IntN(12); j > 0; j-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		b.WriteByte('"')
		corpus = append(corpus, b.String())
	}
	fast := 0
	for _, lit := range corpus {
		got, ok := plainString([]byte(lit))
		if !ok {
			continue
		}
		fast++
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil || got != want {
			t.Errorf("plainString(%q) = %q; json.Unmarshal gives %q, %v", lit, got, want, err)
		}
	}
	if fast < 100 {
		t.Errorf("only %d of %d literals took the fast path", fast, len(corpus))
	}
}

// TestInputUnmarshalFastPaths: Input.UnmarshalJSON, with its fast paths for plain strings and
// raw fields, decodes a generated corpus of hook inputs as decoding every field with
// json.Unmarshal does (the slow path), and fails where it fails.
func TestInputUnmarshalFastPaths(t *testing.T) {
	t.Parallel()
	values := []string{`"s1"`, `"a b/c.d"`, `"\u00e9t\u00e9"`, `"tab\tin"`, `"日本"`, `"q\"uote"`, `""`, `null`, `5`, `true`,
		`{"command":"rm -rf /"}`, `{"a":[1,2,{"b":null}]}`, `[1]`, `"\ud800"`}
	keys := append([]string{"unknown_key", "prompt_id"}, known...)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000; i++ {
		var b bytes.Buffer
		b.WriteByte('{')
		for j := r.IntN(8); j >= 0; j-- {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q: %s", keys[r.IntN(len(keys))], values[r.IntN(len(values))])
		}
		b.WriteByte('}')
		var got, want Input
		gotErr := json.Unmarshal(b.Bytes(), &got)
		wantErr := slowUnmarshal(b.Bytes(), &want)
		// Which bad field is named depends on map order, in both paths alike.
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, slow path %v", b.Bytes(), gotErr, wantErr)
			continue
		}
		if gotErr == nil {
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: (-slow +fast)\n%s", b.Bytes(), diff)
			}
		}
	}
}

// slowUnmarshal is Input.UnmarshalJSON without its fast paths.
func slowUnmarshal(data []byte, in *Input) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*in = Input{}
	for k, v := range raw {
		f := in.field(k)
		if f == nil {
			if in.Extra == nil {
				in.Extra = make(map[string]json.RawMessage)
			}
			in.Extra[k] = replaceLoneSurrogates(v) // as UnmarshalJSON: TestReplaceLoneSurrogates
			continue
		}
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		if err := json.Unmarshal(v, f); err != nil {
			return fmt.Errorf("hook input field %q: %w", k, err)
		}
		if r, ok := f.(*json.RawMessage); ok && k != "tool_input" {
			*r = replaceLoneSurrogates(*r)
		}
	}
	return nil
}

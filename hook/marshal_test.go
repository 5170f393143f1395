package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// TestMarshalJSONMatchesEncoder: Input.MarshalJSON, with its fast paths for plain strings and
// raw fields (json.Compact), writes the bytes that encoding every field with an Encoder
// (SetEscapeHTML(false)) writes, and fails where it fails, on a generated corpus of inputs:
// strings with quotes, backslashes, control bytes, HTML characters, U+2028, non-ASCII and
// invalid UTF-8; raw fields with white space, nesting, and invalid JSON; Extra fields,
// nil and empty.
func TestMarshalJSONMatchesEncoder(t *testing.T) {
	t.Parallel()
	alphabet := []string{"a", "Z", "0", " ", "/", "-", "_", ".", "~", "\x7f", "\x1f", "\x00", "\t", "\n", "\b", "\f", "\r",
		"\"", "\\", "'", "<", ">", "&", "é", "日", "\u2028", "\u2029", "\xff", "\xc3", "\xe2\x80"}
	raws := []string{`{"command":"rm -rf /"}`, ` { "a" : [ 1 , 2 , { "b" : null } ] } `, `"<&>\u2028"`, "\"\u2028<\"",
		`[1]`, `5`, `null`, `{"a":`, `{"a":1}}`, `x`, "{\n\t\"k\": \"v\"\n}", `{"deep":` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `}`}
	str := func(r *rand.Rand) string {
		var b strings.Builder
		for j := r.IntN(10); j > 0; j-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	r := rand.New(rand.NewPCG(5, 6))
	fast := 0
	for i := 0; i < 3000; i++ {
		in := &Input{}
		for _, k := range known {
			if r.IntN(3) == 0 {
				continue
			}
			switch v := in.field(k).(type) {
			case *string:
				*v = str(r)
				if r.IntN(4) == 0 {
					*v = "PreToolUse"
				}
			case *json.RawMessage:
				*v = json.RawMessage(raws[r.IntN(len(raws))])
			case *bool:
				*v = r.IntN(2) == 0
			}
		}
		if r.IntN(4) == 0 {
			in.HookEventName = []string{"Stop", "SubagentStop", "PreToolUse"}[r.IntN(3)]
		}
		for j := r.IntN(3); j > 0; j-- {
			if in.Extra == nil {
				in.Extra = map[string]json.RawMessage{}
			}
			switch r.IntN(5) {
			case 0:
				in.Extra[str(r)] = nil
			case 1:
				in.Extra[str(r)] = json.RawMessage{}
			default:
				in.Extra[str(r)] = json.RawMessage(raws[r.IntN(len(raws))])
			}
		}
		got, gotErr := in.MarshalJSON()
		want, wantErr := encoderMarshal(in)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%+v: error %v, Encoder %v", in, gotErr, wantErr)
		}
		if gotErr != nil {
			continue
		}
		fast++
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %q\nwant %q", in, got, want)
		}
	}
	if fast < 300 {
		t.Errorf("only %d inputs encoded; the corpus hardly tests the encoding", fast)
	}
}

// encoderMarshal is Input.MarshalJSON as it was before its fast paths: every field through
// an Encoder with SetEscapeHTML(false).
func encoderMarshal(in *Input) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	first := true
	put := func(k string, v any) error {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		enc.Encode(k) //nolint:errcheck
		buf.Truncate(buf.Len() - 1)
		buf.WriteByte(':')
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("hook input field %q: %w", k, err)
		}
		buf.Truncate(buf.Len() - 1)
		return nil
	}
	stopLike := Event(in.HookEventName).IsStopLike()
	for _, k := range known {
		var err error
		switch v := in.field(k).(type) {
		case *string:
			if *v != "" {
				err = put(k, *v)
			}
		case *json.RawMessage:
			if len(*v) > 0 {
				err = put(k, *v)
			}
		case *bool:
			if *v || stopLike {
				err = put(k, *v)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	keys := make([]string, 0, len(in.Extra))
	for k := range in.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := put(k, in.Extra[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// TestFilePathOfFastPath: FilePathOf, which skips decoding a tool input in which no key can
// name a path (mayNamePath), answers what decoding every input answers, on a generated
// corpus: keys in other cases, escaped, with non-ASCII letters json.Unmarshal folds (ſ, K),
// duplicated, null or non-string values, and invalid JSON.
func TestFilePathOfFastPath(t *testing.T) {
	t.Parallel()
	keys := []string{`"file_path"`, `"FILE_PATH"`, `"File_Path"`, `"path"`, `"PATH"`, `"notebook_path"`, `"noteboo\u212a_path"`,
		`"fi\u006ce_path"`, `"\u0070ath"`, "\"noteboo\u212a_path\"", `"command"`, `"pattern"`, `"paths"`, `"old_string"`, `"x"`}
	values := []string{`"a/b.go"`, `""`, `null`, `5`, `"p\u00e4th"`, `["x"]`, `{"path":"in"}`, `"path"`, `"é"`, `"\\"`}
	r := rand.New(rand.NewPCG(7, 8))
	skipped := 0
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		b.WriteByte('{')
		for j := r.IntN(4); j > 0; j-- {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(keys[r.IntN(len(keys))] + ":" + values[r.IntN(len(values))])
		}
		if r.IntN(20) == 0 {
			b.WriteByte(',') // invalid
		}
		b.WriteByte('}')
		raw := json.RawMessage(b.String())
		if !mayNamePath(raw) {
			skipped++
		}
		if got, want := FilePathOf(raw), decodeFilePath(raw); got != want {
			t.Fatalf("FilePathOf(%s) = %q, decoding says %q", raw, got, want)
		}
	}
	if skipped < 500 {
		t.Errorf("only %d inputs took the fast path", skipped)
	}
}

package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCheckInputKeys (red team round 59): a hook input's top-level key given twice — the same
// after its escapes are decoded, or under encoding/json's case folding — is ambiguous, as
// in a tool input; the same key in nested values, and keys inside values, are not this
// check's (the tool input is CheckToolInput's).
func TestCheckInputKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		msg      string // "" when the input passes, else a part of the error message
	}{
		{"empty", ``, ""},
		{"not an object", `["tool_name","tool_name"]`, ""},
		{"invalid", `{"tool_name":"a","tool_name":`, ""},
		{"plain", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"n":1,"b":true,"z":null}`, ""},
		{"spaces", " {\n \"a\" : 1 ,\t\"b\" : [ 1 , { \"a\" : 2 } ] , \"c\" : \"a\" } ", ""},
		{"nested twins are not top-level", `{"tool_input":{"x":1},"tool_response":{"tool_input":1,"Tool_Input":2},"a":[{"tool_name":1},{"tool_name":2}]}`, ""},
		{"key in a string value", `{"a":"\",\"a\":1","b":"\\"}`, ""},
		{"tool_input twice", `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`, `duplicate key "tool_input"`},
		{"hook_event_name twice", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"hook_event_name":"PostToolUse"}`, `duplicate key "hook_event_name"`},
		{"tool_name twice", `{"tool_name":"Read","tool_input":{},"tool_name":"Bash"}`, `duplicate key "tool_name"`},
		{"escaped twin", `{"tool_name":"Read","tool_n\u0061me":"Bash"}`, `duplicate key "tool_name"`},
		{"case twin", `{"tool_name":"Read","Tool_Name":"Bash"}`, `keys "tool_name" and "Tool_Name" differ only in case`},
		{"after nested values", `{"a":{"b":[1,2,{"c":"}"}]},"n":-1.5e3,"t":true,"a":0}`, `duplicate key "a"`},
		{"empty key twice", `{"":1,"":2}`, `duplicate key ""`},
		{"non-ASCII", `{"é":1,"\u00e9":2}`, `duplicate key "é"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckInputKeys([]byte(tt.in))
			if tt.msg == "" {
				if err != nil {
					t.Errorf("CheckInputKeys = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrAmbiguousInput) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("CheckInputKeys = %v, want ErrAmbiguousInput with %q", err, tt.msg)
			}
		})
	}
}

// FuzzCheckInputKeys: on every valid JSON object, CheckInputKeys finds a duplicate top-level
// key exactly when encoding/json's token reader, whose keys are FoldKey'd, does.
func FuzzCheckInputKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"A":2}`, `{"a":{"a":1},"b":[1,"a"]}`, `{"k\u0041":1,"ka":2}`, "{\"\xff\":1,\"\xfe\":2}", `{"a":"\\","b":1e5}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := bytes.TrimSpace(data); len(d) == 0 || d[0] != '{' || !json.Valid(d) {
			return
		}
		got := CheckInputKeys(data) != nil
		if got != topDuplicate(t, data) {
			t.Fatalf("%q: CheckInputKeys = %v", data, CheckInputKeys(data))
		}
	})
}

// topDuplicate reads data, a valid JSON object, with encoding/json's tokens and reports
// whether two of its top-level keys fold alike.
func topDuplicate(t *testing.T, data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	seen := map[string]bool{}
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := FoldKey(tok.(string))
		if seen[k] {
			return true
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return false
}

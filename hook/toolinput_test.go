package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCheckToolInput: one canonical input for hooks and tools (issue 10.4): duplicate keys,
// keys equal under encoding/json's case folding and a second JSON value are ambiguous at any
// depth, whatever the spelling of the key (escapes decode first); everything else passes.
func TestCheckToolInput(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"a":[`, 100) + `{"k":1,"K":2}` + strings.Repeat(`]}`, 100)
	tooDeep := strings.Repeat(`{"a":[`, 5000) + `{"k":1}` + strings.Repeat(`]}`, 5000)
	tests := []struct {
		name, in string
		want     error  // nil, ErrAmbiguousInput or ErrBadInput
		msg      string // a part of the error message
	}{
		{"empty", ``, nil, ""},
		{"plain", `{"command":"ls","timeout":5}`, nil, ""},
		{"same key in sibling objects", `{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]}`, nil, ""},
		{"key equal to a value", `{"x":"x","y":["x","X"]}`, nil, ""},
		{"scalar", `"rm -rf x"`, nil, ""},
		{"duplicate", `{"command":"ls","command":"rm -rf victim"}`, ErrAmbiguousInput, `duplicate key "command"`},
		{"case twin", `{"command":"ls","Command":"rm -rf victim"}`, ErrAmbiguousInput, `keys "command" and "Command" differ only in case`},
		{"upper case twin", `{"COMMAND":"rm","command":"ls"}`, ErrAmbiguousInput, "differ only in case"},
		{"escaped duplicate", `{"command":"ls","comm\u0061nd":"rm -rf victim"}`, ErrAmbiguousInput, `duplicate key "command"`},
		{"escaped case twin", `{"command":"ls","\u0043ommand":"rm"}`, ErrAmbiguousInput, "differ only in case"},
		{"kelvin sign folds to k", `{"kind":"a","\u212aind":"b"}`, ErrAmbiguousInput, "differ only in case"},
		{"long s folds to s", `{"script":"a","\u017fcript":"b"}`, ErrAmbiguousInput, "differ only in case"},
		{"invalid UTF-8 keys decode alike", "{\"a\xff\":1,\"a\xfe\":2}", ErrAmbiguousInput, "duplicate key"},
		{"nested", `{"edits":[{"old_string":"a","Old_String":"b"}]}`, ErrAmbiguousInput, `edits.0: keys`},
		{"deep", deep, ErrAmbiguousInput, "differ only in case"},
		// Red team, stop 20: readers that a hook may be written with refuse these (Python:
		// RecursionError near 1 000 levels, ValueError past 4 300 digits), and a guard that
		// crashes lets the call through.
		{"nested too deep", tooDeep, ErrAmbiguousInput, "nested more than 256 deep"},
		{"just deep enough", strings.Repeat("[", 256) + strings.Repeat("]", 256), nil, ""},
		{"one level more", strings.Repeat("[", 257) + strings.Repeat("]", 257), ErrAmbiguousInput, "nested more than"},
		{"huge integer", `{"command":"rm -rf d","timeout":` + strings.Repeat("9", 5000) + `}`, ErrAmbiguousInput, "timeout: a number out of a float64's range"},
		{"exponent overflow", `{"timeout":1e400}`, ErrAmbiguousInput, "out of a float64's range"},
		{"negative overflow", `[-2e308]`, ErrAmbiguousInput, "out of a float64's range"},
		{"large but in range", `{"timeout":1.7e308,"n":` + strings.Repeat("9", 300) + `,"u":1e-400}`, nil, ""},
		// Red team round 39: a lone surrogate crashed a Python guard that logged the command
		// (UnicodeEncodeError), which let the call through.
		{"lone high surrogate", `{"command":"rm -rf d # \ud800"}`, ErrAmbiguousInput, `command: a lone UTF-16 surrogate (\ud800)`},
		{"lone low surrogate", `{"command":"\uDC00rm"}`, ErrAmbiguousInput, "lone UTF-16 surrogate"},
		{"high then a character", `{"c":"\ud83dx"}`, ErrAmbiguousInput, "lone UTF-16 surrogate"},
		{"high then an escape", `{"c":"\ud83d\n"}`, ErrAmbiguousInput, "lone UTF-16 surrogate"},
		{"two highs", `{"c":"\ud83d\ud83d\ude00"}`, ErrAmbiguousInput, "lone UTF-16 surrogate"},
		{"high at the end", `["\ud800"]`, ErrAmbiguousInput, "0: a lone UTF-16 surrogate"},
		{"in a key", `{"\ud800":1}`, ErrAmbiguousInput, "lone UTF-16 surrogate"},
		{"a pair", `{"c":"emoji \ud83d\ude00 ok","d":"\u00e9\\u0041"}`, nil, ""},
		{"raw emoji", `{"c":"😀 é"}`, nil, ""},
		{"two values", `{"command":"ls"} {"command":"rm -rf victim"}`, ErrAmbiguousInput, "more than one JSON value"},
		{"two scalars", `1 2`, ErrAmbiguousInput, "more than one JSON value"},
		{"invalid", `{"command":`, ErrBadInput, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckToolInput([]byte(tt.in))
			switch {
			case tt.want == nil && err != nil:
				t.Fatalf("CheckToolInput = %v, want nil", err)
			case tt.want != nil && !errors.Is(err, tt.want):
				t.Fatalf("CheckToolInput = %v, want %v", err, tt.want)
			case tt.want == ErrBadInput && errors.Is(err, ErrAmbiguousInput):
				t.Fatalf("CheckToolInput = %v: invalid JSON is not ambiguous", err)
			case err != nil && !strings.Contains(err.Error(), tt.msg):
				t.Errorf("CheckToolInput = %q, want it to contain %q", err, tt.msg)
			}
			if errors.Is(err, ErrAmbiguousInput) && !errors.Is(err, ErrBadInput) {
				t.Errorf("%v does not wrap ErrBadInput", err)
			}
		})
	}
}

// TestDecodeToolInput: a tool decodes only the exact keys the hooks read.
func TestDecodeToolInput(t *testing.T) {
	t.Parallel()
	type bash struct {
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	tests := []struct {
		in   string
		want bash
		ok   bool
	}{
		{`{"command":"ls","timeout":3,"description":"x"}`, bash{"ls", 3}, true},
		{`{"Command":"rm -rf victim"}`, bash{}, false},
		{`{"TIMEOUT":1,"command":"ls"}`, bash{}, false},
		{`{"command":"ls","Command":"rm -rf victim"}`, bash{}, false},
	}
	for _, tt := range tests {
		var got bash
		err := DecodeToolInput([]byte(tt.in), &got)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("DecodeToolInput(%s) = %+v, %v; want %+v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrAmbiguousInput) {
			t.Errorf("DecodeToolInput(%s): %v does not wrap ErrAmbiguousInput", tt.in, err)
		}
	}
}

func TestFoldKeyAgreesWithEqualFold(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"command", "COMMAND"}, {"kind", "\u212aind"}, {"ſ", "S"}, {"straße", "STRASSE"}, {"a", "b"}, {"Σ", "ς"}} {
		if got, want := FoldKey(pair[0]) == FoldKey(pair[1]), strings.EqualFold(pair[0], pair[1]); got != want {
			t.Errorf("FoldKey(%q) == FoldKey(%q) is %v, strings.EqualFold says %v", pair[0], pair[1], got, want)
		}
	}
}

// TestCheckToolInputManyKeys: objects past smallObject keys switch to a map and still find
// twins anywhere.
func TestCheckToolInputManyKeys(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 1000 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	ok := b.String() + `"last":1}`
	if err := CheckToolInput([]byte(ok)); err != nil {
		t.Fatalf("1 001 distinct keys: %v", err)
	}
	for _, twin := range []string{`"K3"`, `"k999"`, `"K0"`} {
		if err := CheckToolInput([]byte(b.String() + twin + `:1}`)); !errors.Is(err, ErrAmbiguousInput) {
			t.Errorf("twin %s after 1 000 keys: %v, want ErrAmbiguousInput", twin, err)
		}
	}
}

func BenchmarkCheckToolInput(b *testing.B) {
	in := []byte(`{"command":"git push origin main","description":"push the branch","timeout":120000}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckToolInput(in); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCheckToolInput: the byte scanner (checkValid) and the token reader (checkTokens) agree
// on every valid JSON value: ambiguous or not.
func FuzzCheckToolInput(f *testing.F) {
	for _, s := range []string{`{"command":"ls","Command":"rm"}`, `{"a":{"b":[{"c":1,"C":2}]}}`, `{"k\u0041":1,"ka":2}`, `[{"a":1},{"a":1}]`, "{\"\xff\":1,\"\xfe\":2}", `{"":1,"":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		fast, slow := checkValid(data), checkTokens(data)
		if errors.Is(fast, ErrAmbiguousInput) != errors.Is(slow, ErrAmbiguousInput) || (fast == nil) != (slow == nil) {
			t.Fatalf("%q: checkValid = %v, checkTokens = %v", data, fast, slow)
		}
	})
}

// TestReplaceLoneSurrogates (red team round 40): the fields of a hook's input other than the
// tool input get a lone surrogate escape as \ufffd (what encoding/json reads), pairs and
// escaped backslashes left alone; an Input's extra fields and tool_response are read so,
// its tool_input as sent (CheckToolInput refuses it).
func TestReplaceLoneSurrogates(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`"tests fail \ud800"`:             `"tests fail \ufffd"`,
		`"\uDC00x"`:                       `"\ufffdx"`,
		`["\ud83d\ude00", "\ud83d"]`:      `["\ud83d\ude00", "\ufffd"]`,
		`"\ud83d\ud83d\ude00"`:            `"\ufffd\ud83d\ude00"`,
		`"\ud83d\n"`:                      `"\ufffd\n"`,
		`{"a":"\\ud800","b":"\u00e9"}`:    `{"a":"\\ud800","b":"\u00e9"}`,
		`{"plain": 1e400, "s": "no esc"}`: `{"plain": 1e400, "s": "no esc"}`,
	} {
		if got := string(replaceLoneSurrogates([]byte(in))); got != want {
			t.Errorf("replaceLoneSurrogates(%s) = %s, want %s", in, got, want)
		}
	}
	var in Input
	if err := json.Unmarshal([]byte(`{"hook_event_name":"Stop","last_assistant_message":"the tests fail \ud800","tool_input":{"c":"\ud800"},"tool_response":{"o":"\ud800"}}`), &in); err != nil {
		t.Fatal(err)
	}
	if got := string(in.Extra["last_assistant_message"]); got != `"the tests fail \ufffd"` {
		t.Errorf("extra field: %s", got)
	}
	if got := string(in.ToolResponse); got != `{"o":"\ufffd"}` {
		t.Errorf("tool_response: %s", got)
	}
	if got := string(in.ToolInput); got != `{"c":"\ud800"}` {
		t.Errorf("tool_input changed: %s", got)
	}
}

package match

import (
	"encoding/json"
	"testing"
)

// TestRegexSearchesCanonicalArgs: a codebot /regex/ filter sees the arguments as the tool
// will, whatever escapes the JSON text uses (issue 10.4): \u escapes, an escaped solidus,
// a surrogate pair, escaped keys, and separators JSON must escape (tab, newline), which the
// filter meets decoded in the string value.
func TestRegexSearchesCanonicalArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		re, args string
		want     bool
	}{
		{`/rm -rf/`, `{"command":"rm -rf /"}`, true},
		{`/rm -rf/`, `{"command":"\u0072m -rf /"}`, true},
		{`/rm -rf/`, `{"command":"\u0072\u006d\u0020\u002d\u0072\u0066 /"}`, true},
		{`/\/bin\/rm/`, `{"command":"\/bin\/rm x"}`, true},
		{`/"command":"rm/`, `{"comm\u0061nd":"rm x"}`, true},
		{`/"command":"rm/`, `{ "command" : "rm x" }`, true},
		{`/😀 rm/`, `{"command":"echo \ud83d\ude00 rm"}`, true},
		{`/rm\s+-rf/`, `{"command":"rm\t-rf /"}`, true},
		{`/rm\s+-rf/`, `{"command":"rm\n-rf /"}`, true},
		{`/^ls -la$/`, `{"command":"ls\t-la"}`, false}, // decoded it is "ls<TAB>-la"
		{`/^ls\s-la$/`, `{"command":"ls\t-la"}`, true},
		{`/<script>/`, `{"content":"\u003cscript\u003e"}`, true},
		{`/rm -rf/`, `{"command":"ls"}`, false},
		{`/\\u0072m/`, `{"command":"\u0072m"}`, false}, // the escape is gone, not searchable
		{`/x/`, `{"a":1} {"b":"x"}`, true},             // not one value: searched as given
	}
	for _, tt := range tests {
		f, err := CompileIf(tt.re)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(NewSubject("PreToolUse", "Bash", json.RawMessage(tt.args))); got != tt.want {
			t.Errorf("%s over %s = %v, want %v", tt.re, tt.args, got, tt.want)
		}
	}
}

// TestCanonicalJSON: order and duplicates kept, numbers as written, no white space, only
// required escapes; invalid or trailing input is not canonicalised.
func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{``, ``, true},
		{` {"b" : 1 , "a":[1.50, true, null, {"c":"\/"}], "b":2} `, `{"b":1,"a":[1.50,true,null,{"c":"/"}],"b":2}`, true},
		{`"a\u2028b\u0000"`, `"a\u2028b\u0000"`, true},
		{`"\ud800"`, `"` + "\ufffd" + `"`, true},
		{`[]`, `[]`, true},
		{`{"a":`, ``, false},
		{`1 2`, ``, false},
	}
	for _, tt := range tests {
		got, _, ok := canonicalJSON([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("canonicalJSON(%s) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func BenchmarkIfRegexCanonical(b *testing.B) {
	f, err := CompileIf(`/rm\s+-rf/`)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"git push origin main","description":"push the branch","timeout":120000}`)
	b.ReportAllocs()
	for b.Loop() {
		if f.Match(NewSubject("PreToolUse", "Bash", args)) {
			b.Fatal("matched")
		}
	}
}

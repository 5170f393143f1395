package hookcore

import (
	"encoding/json"
	"testing"
)

// FuzzMayHoldViewKey: the byte scan that spares decoding most tool inputs (mayHoldViewKey)
// never says "no" to an input in which walkViews finds a shell command or a URL; a wrong
// "no" would let such a call past the Bash and WebFetch guards unread.
func FuzzMayHoldViewKey(f *testing.F) {
	for _, s := range []string{
		`{"command":"rm -rf x"}`, `{"CMD":["rm","-rf"]}`, `{"a":{"Url":"https://x"}}`,
		`{"c\u006fmmand":"x"}`, `{"file_path":"/a","content":"\"url\": x"}`, `{"x":[{"cmd":"ls"}]}`,
		`{"url" :"x"}`, `{"comm\u0061nd":"x"}`, `{"Program":"rm","args":["-rf"]}`, `{"commands":[{"x":1}]}`, `{"HREF":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		var views []toolView
		walkViews(v, "", &views)
		if len(views) > 0 && !mayHoldViewKey([]byte(s)) {
			t.Errorf("mayHoldViewKey(%q) = false; walkViews found %d views", s, len(views))
		}
	})
}

// TestMayHoldViewKey: what the scan says for the inputs of the usual tools.
func TestMayHoldViewKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"file_path":"/a/b","old_string":"x","new_string":"y"}`:    false,
		`{"file_path":"/a/b","content":"{\"url\": \"https://x\"}"}`: false,
		`{"pattern":"**/*.go"}`:                                     false,
		`{"description":"w","timeout_ms":5000,"command":"ls"}`:      true,
		`{"ws":{"URL":"wss://x"}}`:                                  true,
		`{"Cmd":"ls"}`:                                              true,
		`{"function":"f","args":["a","b"]}`:                         false, // args alone are no command
		`{"Program":"rm","args":["-rf"]}`:                           true,
		`{"a":{"Endpoint":"https://x"}}`:                            true,
		`{"content":"caf\u00e9"}`:                                   true, // an escape may spell a key
	} {
		if got := mayHoldViewKey([]byte(in)); got != want {
			t.Errorf("mayHoldViewKey(%s) = %v, want %v", in, got, want)
		}
	}
}

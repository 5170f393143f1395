package hookcore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzEarlierToolCall: any transcript bytes give an id or "", and no panic; an id found is
// never the event's own.
func FuzzEarlierToolCall(f *testing.F) {
	f.Add([]byte(`{"type":"user","sessionId":"s1","message":{"content":[{"type":"tool_result","tool_use_id":"tu0"}]}}`+"\n"), "tu1")
	f.Add([]byte(`{"type":"session_meta","payload":{"id":"s1"}}`+"\n"+`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c0"}}`), "c1")
	f.Add([]byte(`{"type":"user","sessionId":"s1","message":{"content":"tool_result"}}`), "")
	f.Add([]byte(strings.Repeat("x", 70<<10)+"\ntool_result\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, self string) {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if id := earlierToolCall(path, "s1", self); id != "" && id == self {
			t.Errorf("found the event's own call %q", id)
		}
	})
}

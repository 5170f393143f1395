package transcript_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/hookcore/hookcore/transcript"
)

// FuzzRead feeds arbitrary bytes to the format detection, the line reader and both line
// parsers. It must never panic, must end, and every event it yields must marshal. The seed
// corpus is real lines of each kind from the recorded sessions, a session log, and damaged
// variants; crashers go to testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	rec := recording(f, "session-stop-gate")
	lines := readLines(f, rec.transcript)
	for _, l := range lines {
		if len(l) < 4000 {
			f.Add(l)
		}
	}
	small := bytes.Join(lines[:8], nil)
	f.Add(small)
	f.Add(bytes.Join(lines[20:47], nil)) // tool calls, a Stop block, a permission request
	f.Add(append(bytes.Clone(small), lines[8][:40]...))
	f.Add([]byte(sessionLog))
	f.Add([]byte(`{"type":"assistant","sessionId":"s","cwd":"/","message":{"id":"m","stop_reason":"tool_use","content":[{"type":"tool_use","id":"t","name":"Agent","input":null}]}}
{"type":"user","cwd":"/","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"}]}]},"toolUseResult":{"agentId":"a1"}}
{"type":"system","subtype":"compact_boundary","cwd":"/","compactMetadata":null}
{"type":"user","message":null}
{"type":"assistant","message":{"content":"str","stop_reason":"end_turn"}}`))
	f.Add([]byte("{}"))
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"user\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := transcript.NewReader(bytes.NewReader(data), transcript.Options{})
		if err != nil {
			return
		}
		defer r.Close()
		for i := 0; ; i++ {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err) // not strict: only I/O errors are fatal
			}
			if ev.Index != i || ev.Input == nil {
				t.Fatalf("event %d: %+v", i, ev)
			}
			if _, err := json.Marshal(ev.Input); err != nil {
				t.Fatalf("event %d does not marshal: %v", i, err)
			}
			if i > 4*len(data)+10 {
				t.Fatalf("more events than the input can hold")
			}
		}
	})
}

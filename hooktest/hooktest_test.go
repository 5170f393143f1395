package hooktest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/hooktest"
)

// TestRecorderConformance runs the conformance check on the Recorder itself and checks
// what it recorded: one result call, then Concurrency calls.
func TestRecorderConformance(t *testing.T) {
	r := &hooktest.Recorder{Decision: hook.Decision{Block: true, Permission: hook.Deny, Reason: "no"}}
	hooktest.TestExecutor(t, hooktest.Conformance{Executor: r, Concurrency: 4})
	calls := r.Calls()
	if len(calls) != 5 {
		t.Fatalf("Recorder saw %d calls, want 5", len(calls))
	}
	if calls[0].ToolName != "Bash" || string(calls[0].ToolInput) != `{"command":"ls -la"}` {
		t.Errorf("first call = %+v, want DefaultInput", calls[0])
	}
}

// TestRecorderCopies checks the Recorder keeps its own copy of the tool input.
func TestRecorderCopies(t *testing.T) {
	t.Parallel()
	r := &hooktest.Recorder{Err: hook.ErrTimeout}
	in := hooktest.DefaultInput()
	if _, err := r.Execute(context.Background(), in); !errors.Is(err, hook.ErrTimeout) {
		t.Fatalf("Execute error = %v, want ErrTimeout", err)
	}
	in.ToolInput[2] = 'X'
	if got := string(r.Calls()[0].ToolInput); got != `{"command":"ls -la"}` {
		t.Errorf("recorded tool input = %s after the caller changed its own", got)
	}
}

// TestModelServer checks both API shapes, the recording, and a 404 elsewhere.
func TestModelServer(t *testing.T) {
	t.Parallel()
	s := hooktest.NewModelServer(`{"ok": true}`)
	defer s.Close()
	post := func(path, body string) (int, map[string]any) {
		resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var v map[string]any
		_ = json.Unmarshal(b, &v)
		return resp.StatusCode, v
	}
	code, v := post("/v1/chat/completions", `{"model":"m"}`)
	msg := v["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if code != 200 || msg["content"] != `{"ok": true}` {
		t.Errorf("openai: %d %v", code, v)
	}
	s.SetReply(func(body []byte) string { return "echo " + string(body) })
	code, v = post("/v1/messages", `{"a":1}`)
	if text := v["content"].([]any)[0].(map[string]any)["text"]; code != 200 || text != `echo {"a":1}` {
		t.Errorf("anthropic: %d %v", code, v)
	}
	if code, _ := post("/other", "{}"); code != http.StatusNotFound {
		t.Errorf("/other: %d, want 404", code)
	}
	if got := len(s.Requests()); got != 3 {
		t.Errorf("recorded %d requests, want 3", got)
	}
}

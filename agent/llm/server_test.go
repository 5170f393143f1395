package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/agent/llm"
	"github.com/hookcore/hookcore/agent/tools"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/model"
)

// fakeServer answers each request with the next reply and records the request bodies.
type fakeServer struct {
	mu      sync.Mutex
	bodies  []map[string]any
	replies []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(b, &body)
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if n >= len(f.replies) {
		n = len(f.replies) - 1
	}
	io.WriteString(w, f.replies[n])
}

const blockReason = "rm -rf / is never allowed (policy 7)"

// runBlocked runs a session whose model asks for `rm -rf /`, blocked by a PreToolUse hook,
// and returns what the server received.
func runBlocked(t *testing.T, m agent.Model) {
	t.Helper()
	r, err := hookcore.New(nil, hookcore.Options{ProjectDir: t.TempDir(), Callbacks: []hookcore.Callback{{
		ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)",
		Func: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: true, Reason: blockReason}, nil
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	h := harness.New(harness.Options{Runner: r})
	s, err := agent.New(agent.Options{Model: m, Tools: tools.All(tools.Workspace{Root: t.TempDir()}), Observer: h,
		Middleware: []agent.ToolMiddleware{h.Middleware()}, System: "be careful"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Prompt(context.Background(), "clean the disk")
	if err != nil {
		t.Fatal(err)
	}
	if out != "I will not do that." {
		t.Errorf("final text = %q", out)
	}
}

func TestOpenAIBlockedToolResult(t *testing.T) {
	t.Parallel()
	f := &fakeServer{replies: []string{
		`{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"rm -rf /\"}"}}]}}]}`,
		`{"id":"c2","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"I will not do that."}}]}`,
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	m, err := llm.Config{Config: model.Config{Getenv: func(string) string { return "" }}, BaseURL: srv.URL + "/v1"}.New("openai:test-model")
	if err != nil {
		t.Fatal(err)
	}
	runBlocked(t, m)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(f.bodies))
	}
	msgs := f.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" || last["tool_call_id"] != "call_a" || !strings.Contains(last["content"].(string), blockReason) {
		t.Errorf("the tool result the model received = %v, want the hook's reason", last)
	}
	if tools := f.bodies[0]["tools"].([]any); len(tools) != 4 {
		t.Errorf("%d tools offered, want 4", len(tools))
	}
}

func TestAnthropicBlockedToolResult(t *testing.T) {
	t.Parallel()
	f := &fakeServer{replies: []string{
		`{"id":"m1","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","content":[{"type":"tool_use","id":"toolu_a","name":"Bash","input":{"command":"rm -rf /"}}],"usage":{"input_tokens":1,"output_tokens":1}}`,
		`{"id":"m2","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","content":[{"type":"text","text":"I will not do that."}],"usage":{"input_tokens":1,"output_tokens":1}}`,
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	m, err := llm.Config{Config: model.Config{Getenv: func(string) string { return "" }}, BaseURL: srv.URL}.New("anthropic:test-model")
	if err != nil {
		t.Fatal(err)
	}
	runBlocked(t, m)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(f.bodies))
	}
	msgs := f.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	block := last["content"].([]any)[0].(map[string]any)
	content, _ := json.Marshal(block["content"])
	if last["role"] != "user" || block["type"] != "tool_result" || block["tool_use_id"] != "toolu_a" || block["is_error"] != true ||
		!strings.Contains(string(content), blockReason) {
		t.Errorf("the tool result the model received = %v, want the hook's reason", last)
	}
}

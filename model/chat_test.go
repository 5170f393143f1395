package model_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/agent/tools"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/model"
	"github.com/hookcore/hookcore/tool"
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
		Middleware: []tool.Middleware{h.Middleware()}, System: "be careful"})
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
	m, err := model.Config{Getenv: func(string) string { return "" }, BaseURL: srv.URL + "/v1"}.New("openai:test-model")
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
	m, err := model.Config{Getenv: func(string) string { return "" }, BaseURL: srv.URL}.New("anthropic:test-model")
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

// conversation is a request with every kind of message: a user prompt, an assistant reply
// with text and two tool calls (one without input), their two results (one an error), and
// one tool on offer.
var conversation = &agent.Request{
	System: "be careful",
	Messages: []agent.Message{
		{Role: agent.RoleUser, Text: "clean up"},
		{Role: agent.RoleAssistant, Text: "Looking.", ToolCalls: []tool.Call{
			{ID: "c1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
			{ID: "c2", Name: "Pwd"},
		}},
		{Role: agent.RoleTool, ToolCallID: "c1", Text: "a\nb"},
		{Role: agent.RoleTool, ToolCallID: "c2", Text: "denied", IsError: true},
		{Role: agent.RoleUser, Text: "go on"},
	},
	Tools: []agent.ToolSpec{{Name: "Bash", Description: "run a command",
		Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}},
}

// chatOnce sends conversation to a fake server answering reply and returns the request body
// the server got and the reply Chat returned.
func chatOnce(t *testing.T, provider, reply string) (map[string]any, agent.Reply) {
	t.Helper()
	f := &fakeServer{replies: []string{reply}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	base := srv.URL
	if provider == "openai" {
		base += "/v1"
	}
	m, err := model.Config{Getenv: func(string) string { return "" }, BaseURL: base, MaxTokens: 77}.New(provider + ":m")
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Chat(context.Background(), conversation)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.bodies) != 1 {
		t.Fatalf("%d requests, want 1", len(f.bodies))
	}
	return f.bodies[0], r
}

// TestOpenAIChatWire checks the Chat Completions request and the reading of tool calls
// (arguments that are not JSON become {}).
func TestOpenAIChatWire(t *testing.T) {
	t.Parallel()
	body, r := chatOnce(t, "openai", `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":"ok","tool_calls":[
			{"id":"call_1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"rm x\"}"}},
			{"id":"call_2","type":"function","function":{"name":"Bash","arguments":"{not json"}}]}}]}`)
	want := map[string]any{
		"model": "m", "max_completion_tokens": float64(77),
		"messages": []any{
			map[string]any{"role": "system", "content": "be careful"},
			map[string]any{"role": "user", "content": "clean up"},
			map[string]any{"role": "assistant", "content": "Looking.", "tool_calls": []any{
				map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "Bash", "arguments": `{"command":"ls"}`}},
				map[string]any{"id": "c2", "type": "function", "function": map[string]any{"name": "Pwd", "arguments": `{}`}},
			}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "a\nb"},
			map[string]any{"role": "tool", "tool_call_id": "c2", "content": "denied"},
			map[string]any{"role": "user", "content": "go on"},
		},
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{
			"name": "Bash", "description": "run a command",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}, "required": []any{"command"}},
		}}},
	}
	if d := cmp.Diff(want, body); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
	wantReply := agent.Reply{Text: "ok", ToolCalls: []tool.Call{
		{ID: "call_1", Name: "Bash", Input: json.RawMessage(`{"command":"rm x"}`)},
		{ID: "call_2", Name: "Bash", Input: json.RawMessage(`{}`)},
	}}
	if d := cmp.Diff(wantReply, r); d != "" {
		t.Errorf("reply (-want +got):\n%s", d)
	}
}

// TestAnthropicChatWire checks the Messages request (the two tool results in one user
// message, the error flagged) and the reading of text and tool_use blocks.
func TestAnthropicChatWire(t *testing.T) {
	t.Parallel()
	body, r := chatOnce(t, "anthropic", `{"id":"m","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","content":[
		{"type":"text","text":"I will "},{"type":"text","text":"look."},
		{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls -la"}}],"usage":{"input_tokens":1,"output_tokens":1}}`)
	want := map[string]any{
		"model": "m", "max_tokens": float64(77),
		"system": []any{map[string]any{"type": "text", "text": "be careful"}},
		"messages": []any{
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "clean up"}}},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": "Looking."},
				map[string]any{"type": "tool_use", "id": "c1", "name": "Bash", "input": map[string]any{"command": "ls"}},
				map[string]any{"type": "tool_use", "id": "c2", "name": "Pwd", "input": map[string]any{}},
			}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "c1", "content": "a\nb"},
				map[string]any{"type": "tool_result", "tool_use_id": "c2", "content": "denied", "is_error": true},
			}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "go on"}}},
		},
		"tools": []any{map[string]any{
			"name": "Bash", "description": "run a command",
			"input_schema": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}, "required": []any{"command"}},
		}},
	}
	if d := cmp.Diff(want, body); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
	wantReply := agent.Reply{Text: "I will look.", ToolCalls: []tool.Call{
		{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls -la"}`)},
	}}
	if d := cmp.Diff(wantReply, r); d != "" {
		t.Errorf("reply (-want +got):\n%s", d)
	}
}

// TestKeylessAnthropicServer is the regression test of the one provider resolution: with
// only ANTHROPIC_BASE_URL set, the judge (Complete) and the agent (Chat) both reach the
// server, and no credential is sent. Before, model.Config refused it (no key) while
// agent/llm sent the key "none".
func TestKeylessAnthropicServer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var headers []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","content":[{"type":"text","text":"fine"}]}`)
	}))
	defer srv.Close()
	env := map[string]string{"ANTHROPIC_BASE_URL": srv.URL}
	m, err := model.Config{Getenv: func(k string) string { return env[k] }}.New("claude-haiku-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := m.Complete(context.Background(), "s", "p"); err != nil || got != "fine" {
		t.Errorf("Complete = %q, %v", got, err)
	}
	if got, err := m.Chat(context.Background(), &agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Text: "hi"}}}); err != nil || got.Text != "fine" {
		t.Errorf("Chat = %+v, %v", got, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(headers) != 2 {
		t.Fatalf("%d requests, want 2", len(headers))
	}
	for _, h := range headers {
		if h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" || h.Get("Anthropic-Version") != model.AnthropicVersion {
			t.Errorf("x-api-key %q, authorization %q, anthropic-version %q; want no credential and the version",
				h.Get("X-Api-Key"), h.Get("Authorization"), h.Get("Anthropic-Version"))
		}
	}
}

// TestOpenAIHeaders checks the credential and the organization and project headers that
// OPENAI_ORG_ID and OPENAI_PROJECT_ID set (as the official SDK, which read them itself, did).
func TestOpenAIHeaders(t *testing.T) {
	t.Parallel()
	got := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"x"}}]}`)
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-1", "OPENAI_BASE_URL": srv.URL + "/v1/", "OPENAI_ORG_ID": "org-1", "OPENAI_PROJECT_ID": "proj-1"}
	m, err := model.Config{Getenv: func(k string) string { return env[k] }}.New("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Complete(context.Background(), "", "p"); err != nil {
		t.Fatal(err)
	}
	h := <-got
	for k, want := range map[string]string{"Authorization": "Bearer sk-1", "Openai-Organization": "org-1", "Openai-Project": "proj-1", "Content-Type": "application/json"} {
		if h.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, h.Get(k), want)
		}
	}
}

// TestAPIKeyNotSentToAnotherOrigin (regression, found after issue 10.9): a base URL that
// redirects to another origin made Go's client copy x-api-key to it (it drops only
// Authorization). The redirect is refused; the other origin never sees the key.
func TestAPIKeyNotSentToAnotherOrigin(t *testing.T) {
	t.Parallel()
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "" || r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","content":[{"type":"text","text":"fine"}]}`)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	env := map[string]string{"ANTHROPIC_BASE_URL": first.URL, "ANTHROPIC_API_KEY": "sk-secret"}
	m, err := model.Config{Getenv: func(k string) string { return env[k] }}.New("claude-haiku-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Complete(context.Background(), "s", "p"); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("err = %v, want the redirect refused", err)
	}
	if leaked.Load() != 0 {
		t.Fatal("the API key reached another origin")
	}
}

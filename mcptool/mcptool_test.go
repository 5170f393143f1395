package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Path string `json:"path"`
}

// newServer is a real MCP server built with the SDK: "check" blocks .env paths with an
// envelope, "fail" returns an isError result.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "check"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		text := `{"decision":"approve"}`
		if strings.HasSuffix(in.Path, ".env") {
			text = `{"decision":"block","reason":"no .env"}`
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "boom"}}}, nil, nil
	})
	return s
}

func input(t *testing.T, path string) *hook.Input {
	t.Helper()
	in := &hook.Input{}
	if err := in.UnmarshalJSON([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + path + `"}}`)); err != nil {
		t.Fatal(err)
	}
	return in
}

func TestHTTPServer(t *testing.T) {
	srv := newServer()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	pool := NewPool(map[string]Server{"s": {URL: ts.URL}}, PoolOptions{AllowedHosts: []string{"127.0.0.1"}})
	defer pool.Close()
	tool := &Tool{HookID: "h", Server: "s", Tool: "check", Input: map[string]any{"path": "${tool_input.file_path}"}, Pool: pool}
	d, err := tool.Execute(context.Background(), input(t, "/p/.env"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Output, "block") || d.Reason != "no .env" {
		t.Fatalf("decision %+v", d)
	}
	fail := &Tool{Server: "s", Tool: "fail", Input: map[string]any{"path": "x"}, Pool: pool}
	if _, err := fail.Execute(context.Background(), input(t, "x")); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("tool error: %v", err)
	}
	missing := &Tool{Server: "nope", Tool: "check", Pool: pool}
	if _, err := missing.Execute(context.Background(), input(t, "x")); !errors.Is(err, hook.ErrNotStarted) {
		t.Fatalf("missing server: %v", err)
	}
}

func TestUntrustedAndGuard(t *testing.T) {
	pool := NewPool(map[string]Server{"p": {Command: "true", Project: true}, "h": {URL: "http://127.0.0.1:1/"}}, PoolOptions{})
	defer pool.Close()
	if _, err := (&Tool{Server: "p", Tool: "x", Pool: pool}).Execute(context.Background(), input(t, "x")); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("untrusted: %v", err)
	}
	if _, err := (&Tool{Server: "h", Tool: "x", Pool: pool}).Execute(context.Background(), input(t, "x")); !errors.Is(err, hook.ErrNotStarted) {
		t.Fatalf("ssrf guard: %v", err)
	}
}

// TestFill: only the braced ${path} form is a placeholder (a "$HOME" or "$$" in a tool's
// input stays as written, as Claude Code documents ${path} only); a whole-string
// placeholder keeps the value's JSON type, one inside a longer string is its text.
func TestFill(t *testing.T) {
	doc := map[string]any{"tool_input": map[string]any{"file_path": "/p/a.go", "n": 3.0, "m": map[string]any{"k": "v"}}, "prompt": "hi"}
	in := map[string]any{
		"path": "${tool_input.file_path}", "n": "${tool_input.n}", "m": "${tool_input.m}",
		"text":    "file ${tool_input.file_path} n=${tool_input.n} m=${tool_input.m} missing=[${nope}]",
		"dollars": "$HOME $$ ${unclosed", "list": []any{"${prompt}", 1.0, true},
	}
	want := map[string]any{
		"path": "/p/a.go", "n": 3.0, "m": map[string]any{"k": "v"},
		"text":    `file /p/a.go n=3 m={"k":"v"} missing=[]`,
		"dollars": "$HOME $$ ${unclosed", "list": []any{"hi", 1.0, true},
	}
	got := fill(in, doc)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("fill:\n got %s\nwant %s", gb, wb)
	}
}

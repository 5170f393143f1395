package mcptool

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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

// TestFill: each ${path} is replaced by the text of its value, also when the string is
// only that placeholder (a number becomes "5000", an object its compact JSON in the input's
// key order), a missing one by ""; "$HOME", "$$" and an unclosed "${" stay as written, as
// Claude Code 2.1.332 did (peer-claude scenario testdata/claude/mcp-tool, whose record tool
// logged {"cmd":"echo hi > bash.txt","missing":"","t":"5000","text":"x echo hi > bash.txt
// $HOME $$ n=5000","whole":"{\"command\":\"echo hi > bash.txt\",\"timeout\":5000,
// \"description\":\"d\"}"}). Values that are not strings are sent as written.
func TestFill(t *testing.T) {
	raw := []byte(`{"hook_event_name":"PreToolUse","tool_input":{"command":"echo hi > bash.txt","timeout":5000, "description":"d"},"n":null}`)
	in := map[string]any{
		"cmd": "${tool_input.command}", "whole": "${tool_input}", "t": "${tool_input.timeout}",
		"text": "x ${tool_input.command} $HOME $$ n=${tool_input.timeout}", "missing": "${nope}",
		"deep": "${tool_input.command.x}", "unclosed": "a ${b", "null": "${n}",
		"kept": 7.0, "list": []any{"${hook_event_name}", true, map[string]any{"e": "${hook_event_name}"}},
	}
	want := map[string]any{
		"cmd": "echo hi > bash.txt", "whole": `{"command":"echo hi > bash.txt","timeout":5000,"description":"d"}`, "t": "5000",
		"text": "x echo hi > bash.txt $HOME $$ n=5000", "missing": "",
		"deep": "", "unclosed": "a ${b", "null": "", // null: "" (not observed in Claude Code)
		"kept": 7.0, "list": []any{"PreToolUse", true, map[string]any{"e": "PreToolUse"}},
	}
	if d := cmp.Diff(want, fill(in, raw)); d != "" {
		t.Errorf("fill (-want +got):\n%s", d)
	}
}

// TestSSEServerAndTimeout: a server of type "sse" is reached over the HTTP+SSE transport;
// a tool that does not answer within the hook's timeout is a timeout error
// (hook.ErrTimeout), non-blocking as Claude Code's timed-out hooks are.
func TestSSEServerAndTimeout(t *testing.T) {
	srv := newServer()
	release := make(chan struct{}) // closed before the server is (ts.Close waits for handlers)
	mcp.AddTool(srv, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-ctx.Done():
		case <-release:
		}
		return &mcp.CallToolResult{}, nil, nil
	})
	ts := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	defer close(release)
	pool := NewPool(map[string]Server{"s": {Type: "sse", URL: ts.URL}}, PoolOptions{AllowedHosts: []string{"127.0.0.1"}})
	defer pool.Close()
	d, err := (&Tool{HookID: "h", Server: "s", Tool: "check", Input: map[string]any{"path": "${tool_input.file_path}"}, Pool: pool}).Execute(context.Background(), input(t, "/p/.env"))
	if err != nil || d.Reason != "no .env" {
		t.Fatalf("sse: %+v, %v", d, err)
	}
	_, err = (&Tool{HookID: "h", Server: "s", Tool: "hang", Timeout: 50 * time.Millisecond, Pool: pool}).Execute(context.Background(), input(t, "x"))
	if !errors.Is(err, hook.ErrTimeout) {
		t.Fatalf("hang: %v, want a timeout", err)
	}
}

package executor

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookcore/hookcore/executor/command"
	"github.com/hookcore/hookcore/hook"
)

// badInputs are inputs no executor can encode as JSON: a library caller's json.RawMessage
// that is not JSON, and nesting deeper than encoding/json writes (10 000).
func badInputs() map[string]*hook.Input {
	deep := `{"command":"rm -rf /x","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	return map[string]*hook.Input{
		"deep tool_input":       {HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(deep)},
		"invalid tool_input":    {HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"rm -rf /x",}`)},
		"invalid tool_response": {HookEventName: "PostToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{}`), ToolResponse: json.RawMessage(`{`)},
		"unclosed tool_input":   {HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`[`)},
	}
}

// TestBadInput: every executor that encodes the input fails with an error wrapping
// hook.ErrBadInput and hook.ErrNotStarted (not ErrInputTooLarge) and does nothing: no
// process, no request, no model call. It used to be a plain "could not start", which the
// Runner let through on a gate event.
func TestBadInput(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { requests.Add(1) }))
	t.Cleanup(srv.Close)
	var asked atomic.Int32
	ask := func(context.Context, string) (string, error) { asked.Add(1); return `{"ok": true}`, nil }
	for name, in := range badInputs() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := in.Clone()
			in.Cwd = dir
			marker := filepath.Join(dir, "ran")
			executors := map[string]hook.Executor{
				"command shell":   &command.Command{Command: "touch " + marker},
				"command exec":    &command.Command{Args: []string{"touch", marker}},
				"command codebot": &command.Command{Command: "touch " + marker, Codebot: true},
				"http":            &HTTP{URL: srv.URL, Client: srv.Client()},
				"http template":   &HTTP{URL: srv.URL, Client: srv.Client(), Body: `{"text": "$TOOL_NAME"}`},
				"prompt": &Prompt{HookID: "p", Prompt: "judge $ARGUMENTS",
					Model: ModelFunc(func(ctx context.Context, _, p string) (string, error) { return ask(ctx, p) })},
				"agent": &Agent{HookID: "a", Prompt: "judge", Runner: AgentRunnerFunc(ask)},
			}
			for ename, x := range executors {
				d, err := x.Execute(context.Background(), in)
				if !errors.Is(err, hook.ErrBadInput) || !errors.Is(err, hook.ErrNotStarted) || errors.Is(err, hook.ErrInputTooLarge) {
					t.Errorf("%s: err = %v, want ErrBadInput and ErrNotStarted, not ErrInputTooLarge", ename, err)
				}
				if d.Block {
					t.Errorf("%s: blocked; the Runner decides", ename)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("a command ran")
			}
		})
	}
	t.Cleanup(func() {
		if n := requests.Load(); n != 0 {
			t.Errorf("%d requests sent", n)
		}
		if n := asked.Load(); n != 0 {
			t.Errorf("model or sub-agent asked %d times", n)
		}
	})
}

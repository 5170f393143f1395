//go:build !hookcore_lean

package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore/bridge"
)

// TestHookBudget (new-user trial, stop 27): a guard slower than the agent's own timeout for
// its hook command (45 s under Copilot CLI's 30 s) lost its block: the agent kills the hook
// process and, as for any timed-out hook, lets the call through. hookcore answers a gate
// event with a block when its hooks have not decided within the agent's budget. Here the
// budget is made small; the hook would sleep for a minute.
func TestHookBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"policy.yaml": "hooks:\n  - {id: slow, event: pre_tool_use, matcher: Bash, action: {type: command, command: \"sleep 60; exit 2\"}}\n",
	})
	for _, agent := range []string{"copilot", "gemini", "claude"} {
		input := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
		event := ""
		switch agent {
		case "copilot":
			input, event = `{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, "preToolUse"
		case "gemini":
			input = `{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
		}
		p, _ := bridge.Lookup(agent)
		e := testEnv(t, dir, strings.NewReader(input))
		e.hookBudget = 300 * time.Millisecond
		cf := &configFlags{dir: ".hookcore", files: []string{"policy.yaml"}}
		setAgents(cf, p)
		ans, wait := e.hook(context.Background(), p, event, cf, &hookFlags{onError: "block", stateDir: dir + "/state"})
		wait()
		out := string(ans.Stdout) + string(ans.Stderr)
		if !strings.Contains(out, "did not finish before the agent's own timeout") || !(ans.Code == 2 || strings.Contains(out, "deny")) {
			t.Errorf("%s: %+v, want a block saying the hooks ran out of the agent's time", agent, ans)
		}
	}
}

// TestServeHookBudget (red team round 36): serve's answer to Claude Code's type: http hook
// had no bound, and Claude Code lets a call through when its http hook times out. serve
// answers a gate event with a block past the agent's budget too (made small here).
func TestServeHookBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"policy.yaml": "hooks:\n  - {id: slow, event: pre_tool_use, matcher: Bash, action: {type: command, command: \"sleep 60; exit 2\"}}\n",
	})
	e := testEnv(t, dir, nil)
	e.hookBudget = 300 * time.Millisecond
	srv := newServer(e, &configFlags{files: []string{"policy.yaml"}, dir: ".hookcore"}, "tok")
	in := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	a, _ := srv.answer(context.Background(), bridge.Claude{}, "", []byte(in), true)
	if out := string(a.Stdout) + string(a.Stderr); !strings.Contains(out, "did not finish before the agent's own timeout") {
		t.Errorf("%+v, want a block saying the hooks ran out of the agent's time", a)
	}
}

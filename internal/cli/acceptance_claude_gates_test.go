//go:build !hookcore_lean

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// elicitServer is a stdio MCP server (Python, stdlib only) with one tool, ask, whose call
// sends the client an elicitation/create request and returns the client's answer to it as
// the tool's result ("ELICIT-RESULT: {...}").
const elicitServer = `import json, sys
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)
pending = []
while True:
    m = pending.pop(0) if pending else read()
    meth, mid = m.get("method"), m.get("id")
    if meth == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": m["params"].get("protocolVersion", "2025-06-18"),
              "capabilities": {"tools": {}}, "serverInfo": {"name": "elic", "version": "1"}}})
    elif meth == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{"name": "ask", "description": "asks the user for a name",
              "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}})
    elif meth == "tools/call":
        send({"jsonrpc": "2.0", "id": "elic-1", "method": "elicitation/create", "params": {"message": "your name?",
              "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}})
        while True:
            r = read()
            if r.get("id") == "elic-1" and "method" not in r:
                break
            pending.append(r)
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": "ELICIT-RESULT: " + json.dumps(r.get("result", r.get("error")))}]}})
    elif mid is not None and meth:
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
`

// TestAcceptanceClaudeGateEvents runs the real Claude Code with `hookcore hook claude` as
// its hook on the four gate events first observed at stop 34 (docs/decisions.md, "Gate
// events observed with the real Claude Code (stop 34)"): a prompt "/greet world" that a
// project command expands (UserPromptExpansion), a turn of two Bash calls (PostToolBatch),
// an MCP tool whose server asks the user (Elicitation, and ElicitationResult when no
// Elicitation hook answers), and `claude --worktree` (WorktreeCreate).
func TestAcceptanceClaudeGateEvents(t *testing.T) {
	run, bin := requirePeer(t, "claude", "Claude Code")
	turns := `[{"tool_uses": [{"tool": "Bash", "input": {"command": "echo one > one.txt", "description": "a"}}, {"tool": "Bash", "input": {"command": "echo two > two.txt", "description": "b"}}]},
 {"tool": "mcp__elic__ask", "input": {"q": "name"}},
 {"tool": "Bash", "input": {"command": "echo three > three.txt", "description": "c"}},
 {"text": "done"}]`
	// scenario runs Claude Code with hookcore on events under policy and returns the
	// output directory.
	scenario := func(t *testing.T, policy string, events []string, extra map[string]string) string {
		t.Helper()
		scen := t.TempDir()
		hooks := map[string]any{}
		for _, ev := range events {
			hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": bin, "args": []string{"hook", "claude", "--config", filepath.Join(scen, "policy.yaml")},
			}}}}
		}
		settings, err := json.Marshal(map[string]any{"hooks": hooks})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"settings.json":                   string(settings),
			"policy.yaml":                     policy,
			"prompt.txt":                      "/greet world\n",
			"tools.json":                      turns,
			"env":                             "HOOKCORE_STATE_DIR=$PEER_OUT/state\n",
			"args":                            "--dangerously-skip-permissions\n--mcp-config\n.mcp.json\n",
			"files/.claude/commands/greet.md": "---\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS.\n",
			"files/.mcp.json":                 `{"mcpServers": {"elic": {"type": "stdio", "command": "python3", "args": ["mcp_elicit.py"]}}}`,
			"files/mcp_elicit.py":             elicitServer,
		}
		for k, v := range extra {
			files[k] = v
		}
		return runScenarioFiles(t, run, scen, files)
	}
	read := func(t *testing.T, out, name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	transcript := func(t *testing.T, out string) string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(out, "home", ".claude", "projects", "*", "*.jsonl"))
		var s strings.Builder
		for _, f := range m {
			s.WriteString(read(t, filepath.Dir(f), filepath.Base(f)))
		}
		return s.String()
	}
	exists := func(out, name string) bool {
		_, err := os.Stat(filepath.Join(out, "workspace", name))
		return err == nil
	}
	const (
		ctx   = "  - {id: ctx-%s, event: %s, action: {type: prompt, message: \"HC-CTX-%s\"}}\n"
		block = "  - {id: block-%s, event: %s, action: {type: command, command: \"echo HC-BLOCK-%s\"}, reject: true}\n"
		// stop is a rule whose command answers continue: false (REASON: the stop reason).
		stop     = "  - id: stop\n    event: Elicitation\n    action: {type: command, command: \"printf '%s' '{\\\"continue\\\": false, \\\"stopReason\\\": \\\"REASON\\\"}'\"}\n"
		declined = `ELICIT-RESULT: {\"action\": \"decline\"}`
	)
	rule := func(form, ev string) string { return strings.ReplaceAll(form, "%s", ev) }
	t.Run("context, and an elicitation declined", func(t *testing.T) {
		t.Parallel()
		out := scenario(t, "hooks:\n"+rule(ctx, "UserPromptExpansion")+rule(ctx, "PostToolBatch")+rule(block, "Elicitation"),
			[]string{"UserPromptExpansion", "PostToolBatch", "Elicitation"}, nil)
		requests := read(t, out, "requests.jsonl")
		for _, want := range []string{"UserPromptExpansion hook additional context: HC-CTX-UserPromptExpansion", "PostToolBatch hook additional context: HC-CTX-PostToolBatch"} {
			if !strings.Contains(requests, want) {
				t.Errorf("the model never saw %q", want)
			}
		}
		if !strings.Contains(requests, declined) {
			t.Errorf("the MCP server did not get a decline: the model saw no %s", declined)
		}
		if !exists(out, "three.txt") {
			t.Error("the turn did not go on after the declined elicitation")
		}
	})
	t.Run("an elicitation result declined", func(t *testing.T) {
		t.Parallel()
		// In -p mode nobody answers an elicitation: Claude Code cancels it, and
		// ElicitationResult sees action "cancel"; hookcore's block turns it into a decline.
		out := scenario(t, "hooks:\n"+rule(block, "ElicitationResult"), []string{"ElicitationResult"}, nil)
		if requests := read(t, out, "requests.jsonl"); !strings.Contains(requests, declined) {
			t.Errorf("the MCP server did not get a decline: the model saw no %s", declined)
		}
	})
	t.Run("an elicitation stopped", func(t *testing.T) {
		t.Parallel()
		// Claude Code ignores continue: false on Elicitation (the elicitation went on, and
		// was cancelled): hookcore's stop declines it too.
		out := scenario(t, "hooks:\n"+strings.ReplaceAll(stop, "REASON", "HC-STOP"), []string{"Elicitation"}, nil)
		if requests := read(t, out, "requests.jsonl"); !strings.Contains(requests, declined) {
			t.Errorf("the MCP server did not get a decline: the model saw no %s", declined)
		}
	})
	t.Run("a slash command's expansion blocked", func(t *testing.T) {
		t.Parallel()
		out := scenario(t, "hooks:\n"+rule(block, "UserPromptExpansion"), []string{"UserPromptExpansion"}, nil)
		if requests := strings.TrimSpace(read(t, out, "requests.jsonl")); requests != "" {
			t.Errorf("the model was called after the block:\n%.500s", requests)
		}
		if stream := read(t, out, "stream.jsonl"); !strings.Contains(stream, `UserPromptExpansion operation blocked by hook:\nHC-BLOCK-UserPromptExpansion`) {
			t.Errorf("the reason is not in Claude Code's result:\n%s", stream)
		}
	})
	t.Run("the loop stopped after a batch", func(t *testing.T) {
		t.Parallel()
		out := scenario(t, "hooks:\n"+rule(block, "PostToolBatch"), []string{"PostToolBatch"}, nil)
		if n := strings.Count(read(t, out, "requests.jsonl"), "\n"); n != 1 {
			t.Errorf("the model was called %d times, want once (the batch's turn)", n)
		}
		if !exists(out, "one.txt") || !exists(out, "two.txt") || exists(out, "three.txt") {
			t.Error("want the batch's two calls run and nothing after")
		}
		if tr := transcript(t, out); !strings.Contains(tr, `"type":"hook_stopped_continuation","message":"HC-BLOCK-PostToolBatch"`) {
			t.Errorf("the reason is not in the transcript:\n%.3000s", tr)
		}
	})
	for _, tc := range []struct{ name, policy, want string }{
		{"a worktree refused", "hooks:\n" + rule(block, "WorktreeCreate"), ": HC-BLOCK-WorktreeCreate"},
		{"a worktree stopped", "hooks:\n" + strings.ReplaceAll(strings.ReplaceAll(stop, "Elicitation", "WorktreeCreate"), "REASON", "HC-STOP"), ": HC-STOP"},
		// hookcore does not create worktrees, and Claude Code wants the path of the one
		// the hook made: a WorktreeCreate hook of hookcore's fails every creation.
		{"a worktree allowed, and not made", "hooks: []\n", "hook succeeded but returned no worktree path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := scenario(t, tc.policy, []string{"WorktreeCreate"}, map[string]string{
				"args":     "--dangerously-skip-permissions\n--worktree\nwt1\n",
				"setup.sh": "#!/bin/sh\ngit init -q . && git -c user.email=a@b -c user.name=t commit -q --allow-empty -m init\n",
			})
			stderr := read(t, out, "stderr.txt")
			if !strings.Contains(stderr, "Error creating worktree: WorktreeCreate hook failed:") || !strings.Contains(stderr, tc.want) {
				t.Errorf("Claude Code's stderr: %q, want the creation failed with %q", stderr, tc.want)
			}
			if requests := strings.TrimSpace(read(t, out, "requests.jsonl")); requests != "" {
				t.Error("the session ran after the failed creation")
			}
			if exists(out, ".claude/worktrees/wt1") {
				t.Error("the worktree was made")
			}
		})
	}
}

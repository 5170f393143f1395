package bridge_test

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestClaude: Claude Code's inputs (as recorded from Claude Code 2.1.332 in
// ../shared/peer-claude) and the answers its hooks reference wants, per event.
func TestClaude(t *testing.T) {
	t.Parallel()
	p := bridge.Claude{}
	runDecode(t, p, []decodeCase{
		{"pretooluse", "", `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","description":"x"},"tool_use_id":"toolu_1"}`,
			decoded{Event: hook.PreToolUse, Session: "s1", Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"rm -rf /","description":"x"}`}},
		{"override", "stop", `{"session_id":"s1","hook_event_name":"PreToolUse","stop_hook_active":true}`,
			decoded{Event: hook.Stop, Session: "s1", StopActive: true}},
		{"unknown event", "", `{"hook_event_name":"PostToolBatch"}`, decoded{Event: "PostToolBatch"}},
	})
	deny := func(r *hook.Result) { r.Blocked, r.Permission, r.Reason = true, hook.Deny, "no rm" }
	runEncode(t, p, []encodeCase{
		{"nothing to say", hook.PreToolUse, "", cont, answer{}},
		{"block exits 2", hook.PreToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "rm -rf is not allowed" }),
			answer{Stderr: "rm -rf is not allowed", Code: 2}},
		{"block without reason", hook.PreToolUse, "", with(func(r *hook.Result) { r.Blocked = true }),
			answer{Stderr: "blocked by a hookcore PreToolUse hook", Code: 2}},
		{"deny", hook.PreToolUse, "", with(deny),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}` + "\n"}},
		{"ask", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission, r.Reason = hook.Ask, "needs a human" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"needs a human"}}` + "\n"}},
		{"allow", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission = hook.Allow }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n"}},
		{"rewrite and context", hook.PreToolUse, "", with(func(r *hook.Result) {
			r.UpdatedInput = json.RawMessage(`{"command":"ls -la"}`)
			r.AdditionalContext = "use -la"
		}), answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"},"additionalContext":"use -la"}}` + "\n"}},
		{"stop the agent", hook.PreToolUse, "", with(func(r *hook.Result) { r.Continue, r.StopReason, r.SystemMessage = false, "quota used up", "heads up" }),
			answer{Stdout: `{"continue":false,"stopReason":"quota used up","systemMessage":"heads up"}` + "\n"}},
		{"permission request deny", hook.PermissionRequest, "", with(deny),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no rm"}}}` + "\n"}},
		{"permission request allow", hook.PermissionRequest, "", with(func(r *hook.Result) { r.Permission = hook.Allow; r.UpdatedInput = json.RawMessage(`{"command":"ls"}`) }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}` + "\n"}},
		{"prompt block", hook.UserPromptSubmit, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no secrets in prompts" }),
			answer{Stdout: `{"decision":"block","reason":"no secrets in prompts"}` + "\n"}},
		{"prompt context", hook.UserPromptSubmit, "", with(func(r *hook.Result) { r.AdditionalContext = "branch: main" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch: main"}}` + "\n"}},
		{"post tool block", hook.PostToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason, r.AdditionalContext = true, "tests fail", "3 failures" }),
			answer{Stdout: `{"decision":"block","reason":"tests fail","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 failures"}}` + "\n"}},
		{"post tool output replaced", hook.PostToolUse, "", with(func(r *hook.Result) { r.UpdatedToolOutput = json.RawMessage(`{"stdout":"[redacted]"}`) }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[redacted]"}}}` + "\n"}},
		{"defer", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission = hook.Defer }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}` + "\n"}},
		{"stop block", hook.Stop, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "run the tests first" }),
			answer{Stdout: `{"decision":"block","reason":"run the tests first"}` + "\n"}},
		{"session start context", hook.SessionStart, "", with(func(r *hook.Result) { r.AdditionalContext = "<html> & \"quotes\"" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<html> & \"quotes\""}}` + "\n"}},
		{"no context where the schema has none", hook.Notification, "", with(func(r *hook.Result) { r.AdditionalContext = "x" }), answer{}},
		{"task block exits 2", hook.TaskCreated, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no tasks" }),
			answer{Stderr: "no tasks", Code: 2}},
		// A skill's "!`cmd`" line (Claude Code 2.1.332, red team round 39): "Not run in
		// /cleanup: CMD (blocked by hook: REASON)" for exit 2 and for a JSON deny.
		{"skill shell command block exits 2", hook.PreSkillShellCommand, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no rm -rf" }),
			answer{Stderr: "no rm -rf", Code: 2}},
		{"skill shell command deny", hook.PreSkillShellCommand, "", with(deny),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no rm"}}` + "\n"}},
	})
	runDecode(t, p, []decodeCase{
		{"skill shell command", "", `{"session_id":"s1","cwd":"/w","hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x && echo cleaned"},"tool_use_id":"toolu_1:preamble-0","command_name":"cleanup","command_source":"projectSettings","invoked_by":"claude"}`,
			decoded{Event: hook.PreSkillShellCommand, Session: "s1", Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"rm -rf /tmp/x && echo cleaned"}`}},
	})
}

// TestCodex: Codex's answers stay inside its strict schema (codex-cli 0.171.0).
func TestCodex(t *testing.T) {
	t.Parallel()
	p := bridge.Codex{}
	runDecode(t, p, []decodeCase{
		{"pretooluse", "", `{"session_id":"019a","turn_id":"t1","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"echo hi > out.txt"},"tool_use_id":"call_fake_0_0"}`,
			decoded{Event: hook.PreToolUse, Session: "019a", Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"echo hi > out.txt"}`}},
	})
	runEncode(t, p, []encodeCase{
		{"block exits 2", hook.PreToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "rm -rf is not allowed" }),
			answer{Stderr: "rm -rf is not allowed", Code: 2}},
		{"ask becomes deny", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission, r.Reason = hook.Ask, "prod deploy" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this call needs a person's confirmation, which a Codex hook cannot ask for: prod deploy"}}` + "\n"}},
		// A rewrite, and a hook's plain allow, answer "allow": Codex applies updatedInput only
		// with it, and its approval and sandbox still hold after it (observed at stop 29: an
		// escalated call is still put to the user, with the rewritten command).
		{"rewrite", hook.PreToolUse, "", with(func(r *hook.Result) { r.UpdatedInput = json.RawMessage(`{"command":"echo rewritten > a.txt"}`) }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > a.txt"}}}` + "\n"}},
		{"allow", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission, r.Reason = hook.Allow, "read-only" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"read-only"}}` + "\n"}},
		{"no stop context", hook.Stop, "", with(func(r *hook.Result) { r.AdditionalContext = "x" }), answer{}},
		{"permission allow without updatedInput", hook.PermissionRequest, "", with(func(r *hook.Result) { r.Permission = hook.Allow; r.UpdatedInput = json.RawMessage(`{}`) }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"}},
		{"post tool block and context", hook.PostToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason, r.AdditionalContext = true, "POST-BLOCK", "ctx" }),
			answer{Stdout: `{"decision":"block","reason":"POST-BLOCK","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}` + "\n"}},
	})
}

// TestClaudeHTTP: an http hook answer says a block in JSON, since it has no exit status.
func TestClaudeHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		event hook.Event
		in    bridge.Answer
		want  string
		ok    bool
	}{
		{hook.PreToolUse, bridge.Answer{Code: 2, Stderr: "no rm"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}` + "\n", true},
		{hook.TaskCreated, bridge.Answer{Code: 2, Stderr: "no"}, `{"decision":"block","reason":"no"}` + "\n", true},
		{hook.PreSkillShellCommand, bridge.Answer{Code: 2, Stderr: "no"}, `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n", true},
		{hook.Stop, bridge.Answer{Stdout: []byte(`{"decision":"block","reason":"x"}`)}, `{"decision":"block","reason":"x"}`, true},
		{hook.Stop, bridge.Answer{Code: 1, Stderr: "broken"}, "broken", false},
	}
	for _, tt := range tests {
		got, ok := bridge.ClaudeHTTP(tt.event, tt.in)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("ClaudeHTTP(%s, %+v) = %s, %v; want %s, %v", tt.event, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

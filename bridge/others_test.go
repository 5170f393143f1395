package bridge_test

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestGemini: Gemini CLI 0.61.0's inputs as recorded in ../shared/peer-gemini, and its
// DefaultHookOutput answers.
func TestGemini(t *testing.T) {
	t.Parallel()
	p := bridge.Gemini{}
	runDecode(t, p, []decodeCase{
		{"beforetool shell", "", `{"session_id":"g1","transcript_path":"/t","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /tmp/peer-danger","description":"x"}}`,
			decoded{Event: hook.PreToolUse, Session: "g1", Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"rm -rf /tmp/peer-danger","description":"x"}`}},
		{"beforeagent", "", `{"session_id":"g1","cwd":"/w","hook_event_name":"BeforeAgent","prompt":"hi"}`,
			decoded{Event: hook.UserPromptSubmit, Session: "g1", Cwd: "/w", Prompt: "hi"}},
		{"afteragent", "", `{"session_id":"g1","hook_event_name":"AfterAgent","prompt":"hi","prompt_response":"done","stop_hook_active":false}`,
			decoded{Event: hook.Stop, Session: "g1", Prompt: "hi"}},
		{"write_file", "", `{"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"b.txt","content":"x"}}`,
			decoded{Event: hook.PostToolUse, Tool: "Write", ToolInput: `{"file_path":"b.txt","content":"x"}`}},
		// read_many_files is a Read (stop 29): Read rules read its include list.
		{"read_many_files", "", `{"hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":[".env","**/*.md"]}}`,
			decoded{Event: hook.PreToolUse, Tool: "Read", ToolInput: `{"include":[".env","**/*.md"]}`}},
		{"grep_search", "", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"K","include_pattern":".env"}}`,
			decoded{Event: hook.PreToolUse, Tool: "Grep", ToolInput: `{"pattern":"K","include_pattern":".env"}`}},
	})
	runEncode(t, p, []encodeCase{
		{"nothing", hook.PreToolUse, "", cont, answer{}},
		{"deny", hook.PreToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "JSON-DENY: rm is forbidden here" }),
			answer{Stdout: `{"decision":"deny","reason":"JSON-DENY: rm is forbidden here"}` + "\n"}},
		{"rewrite", hook.PreToolUse, "", with(func(r *hook.Result) { r.UpdatedInput = json.RawMessage(`{"command":"echo rewritten > a.txt"}`) }),
			answer{Stdout: `{"hookSpecificOutput":{"tool_input":{"command":"echo rewritten > a.txt"}}}` + "\n"}},
		{"ask", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission = hook.Ask }), answer{Stdout: `{"decision":"ask"}` + "\n"}},
		{"context", hook.SessionStart, "", with(func(r *hook.Result) { r.AdditionalContext = "ctx" }),
			answer{Stdout: `{"hookSpecificOutput":{"additionalContext":"ctx"}}` + "\n"}},
		{"stop agent", hook.Stop, "", with(func(r *hook.Result) { r.Continue, r.StopReason = false, "enough" }),
			answer{Stdout: `{"continue":false,"stopReason":"enough"}` + "\n"}},
	})
}

// TestCursor: payloads from Cursor's hooks documentation (cursor.com/docs/agent/hooks:
// "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt",
// "stop", their input and output fields).
func TestCursor(t *testing.T) {
	t.Parallel()
	p := bridge.Cursor{}
	const shell = `{"conversation_id":"c1","generation_id":"g1","hook_event_name":"beforeShellExecution","workspace_roots":["/w"],"command":"rm -rf /","cwd":""}`
	runDecode(t, p, []decodeCase{
		{"shell", "", shell, decoded{Event: hook.PreToolUse, Session: "c1", Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"rm -rf /"}`}},
		{"mcp string input", "", `{"conversation_id":"c1","hook_event_name":"beforeMCPExecution","workspace_roots":["/w"],"tool_name":"query","tool_input":"{\"sql\":\"drop table x\"}","url":"http://x"}`,
			decoded{Event: hook.PreToolUse, Session: "c1", Cwd: "/w", Tool: "query", ToolInput: `{"sql":"drop table x"}`}},
		{"read file", "", `{"conversation_id":"c1","hook_event_name":"beforeReadFile","workspace_roots":["/w"],"file_path":"/w/.env","content":"K=V"}`,
			decoded{Event: hook.PreToolUse, Session: "c1", Cwd: "/w", Tool: "Read", ToolInput: `{"file_path":"/w/.env"}`}},
		{"prompt", "", `{"conversation_id":"c1","hook_event_name":"beforeSubmitPrompt","workspace_roots":["/w"],"prompt":"hi","attachments":[]}`,
			decoded{Event: hook.UserPromptSubmit, Session: "c1", Cwd: "/w", Prompt: "hi"}},
		{"stop", "", `{"conversation_id":"c1","hook_event_name":"stop","workspace_roots":["/w"],"status":"completed","loop_count":1}`,
			decoded{Event: hook.Stop, Session: "c1", Cwd: "/w", StopActive: true}},
	})
	runEncode(t, p, []encodeCase{
		// No hook decided: no answer, so Cursor's own approval applies (red team: an
		// "allow" for every call would have approved them all).
		{"no decision", hook.PreToolUse, shell, cont, answer{}},
		{"allow", hook.PreToolUse, shell, with(func(r *hook.Result) { r.Permission = hook.Allow }), answer{Stdout: `{"permission":"allow"}` + "\n"}},
		{"deny", hook.PreToolUse, shell, with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no rm" }),
			answer{Stdout: `{"permission":"deny","user_message":"no rm","agent_message":"no rm"}` + "\n"}},
		{"ask", hook.PreToolUse, shell, with(func(r *hook.Result) { r.Permission, r.Reason = hook.Ask, "sure?" }),
			answer{Stdout: `{"permission":"ask","user_message":"sure?","agent_message":"sure?"}` + "\n"}},
		{"rewrite is a deny naming the rewrite", hook.PreToolUse, shell, with(func(r *hook.Result) { r.UpdatedInput = json.RawMessage(`{"command":"rm -ri /"}`) }),
			answer{Stdout: `{"permission":"deny","user_message":"hookcore policy rewrites this call; Cursor cannot run a rewritten call, run this instead: {\"command\":\"rm -ri /\"}","agent_message":"hookcore policy rewrites this call; Cursor cannot run a rewritten call, run this instead: {\"command\":\"rm -ri /\"}"}` + "\n"}},
		{"read file deny has permission only", hook.PreToolUse, `{"hook_event_name":"beforeReadFile","file_path":"/w/.env"}`, with(func(r *hook.Result) { r.Blocked, r.Reason = true, "secret" }),
			answer{Stdout: `{"permission":"deny"}` + "\n"}},
		{"prompt block", hook.UserPromptSubmit, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no" }),
			answer{Stdout: `{"continue":false,"user_message":"no"}` + "\n"}},
		{"stop followup", hook.Stop, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "run the tests" }),
			answer{Stdout: `{"followup_message":"run the tests"}` + "\n"}},
		{"session context", hook.SessionStart, "", with(func(r *hook.Result) { r.AdditionalContext = "ctx" }),
			answer{Stdout: `{"additional_context":"ctx"}` + "\n"}},
	})
}

// TestCopilot: payloads from the GitHub Copilot CLI hooks reference (docs.github.com,
// copilot-cli-reference/cli-hooks-reference: camelCase format; toolArgs a JSON string).
func TestCopilot(t *testing.T) {
	t.Parallel()
	p := bridge.Copilot{}
	const pre = `{"timestamp":1704614600000,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"Clean\"}"}`
	runDecode(t, p, []decodeCase{
		{"pretooluse inferred", "", pre, decoded{Event: hook.PreToolUse, Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"rm -rf dist","description":"Clean"}`}},
		{"pretooluse named", "preToolUse", `{"sessionId":"k1","timestamp":1,"cwd":"/w","toolName":"view","toolArgs":"{\"path\":\"a.go\"}"}`,
			decoded{Event: hook.PreToolUse, Session: "k1", Cwd: "/w", Tool: "Read", ToolInput: `{"path":"a.go"}`}},
		{"posttooluse inferred", "", `{"timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":{"resultType":"success","textResultForLlm":"a"}}`,
			decoded{Event: hook.PostToolUse, Cwd: "/w", Tool: "Bash", ToolInput: `{"command":"ls"}`}},
		{"prompt", "", `{"timestamp":1,"cwd":"/w","prompt":"fix it"}`, decoded{Event: hook.UserPromptSubmit, Cwd: "/w", Prompt: "fix it"}},
		{"agent stop", "agentStop", `{"sessionId":"k1","timestamp":1,"cwd":"/w"}`, decoded{Event: hook.Stop, Session: "k1", Cwd: "/w"}},
	})
	runEncode(t, p, []encodeCase{
		{"nothing", hook.PreToolUse, "", cont, answer{}},
		{"deny", hook.PreToolUse, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no rm" }),
			answer{Stdout: `{"permissionDecision":"deny","permissionDecisionReason":"no rm"}` + "\n"}},
		{"ask", hook.PreToolUse, "", with(func(r *hook.Result) { r.Permission = hook.Ask }), answer{Stdout: `{"permissionDecision":"ask"}` + "\n"}},
		{"rewrite is a deny", hook.PreToolUse, "", with(func(r *hook.Result) { r.UpdatedInput = json.RawMessage(`{"command":"ls"}`) }),
			answer{Stdout: `{"permissionDecision":"deny","permissionDecisionReason":"hookcore policy rewrites this call; Copilot CLI cannot run a rewritten call, run this instead: {\"command\":\"ls\"}"}` + "\n"}},
		{"agent stop block", hook.Stop, "", with(func(r *hook.Result) { r.Blocked, r.Reason = true, "tests" }),
			answer{Stdout: `{"decision":"block","reason":"tests"}` + "\n"}},
		{"permission request", hook.PermissionRequest, "", with(func(r *hook.Result) { r.Permission = hook.Allow }), answer{Stdout: `{"behavior":"allow"}` + "\n"}},
	})
}

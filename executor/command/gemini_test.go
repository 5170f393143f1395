package command

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// The Gemini CLI payloads and answers below were observed with the real Gemini CLI 0.61.0
// (../shared/peer-gemini, offline against a scripted Gemini API, 2026-12-04). The scenario:
// .gemini/settings.json has a BeforeTool definition on run_shell_command and an AfterTool
// one, both running capture-hook.py (which logs its stdin and answers by rule); the model
// runs nine shell commands `echo one > one.txt` ... `echo nine > nine.txt` (description
// d1..d9), then AfterAgent fires. What the hooks read on stdin (session values shortened):
//
//	BeforeTool {"session_id": "3ee0…", "transcript_path": "…/chats/session-….jsonl",
//	  "cwd": "/tmp/…/workspace", "hook_event_name": "BeforeTool",
//	  "timestamp": "2026-12-04T18:56:48.923Z", "tool_name": "run_shell_command",
//	  "tool_input": {"command": "echo one > one.txt", "description": "d1"}}
//	AfterTool  as BeforeTool + "tool_response": {"llmContent": "<untrusted_context>\nOutput:
//	  (empty)\nProcess Group PGID: 29540\n</untrusted_context>", "returnDisplay": ""}
//	AfterAgent {…base…, "prompt": "Do the steps.", "prompt_response": "finished",
//	  "stop_hook_active": false}
//
// and in their environment GEMINI_PROJECT_DIR and GEMINI_CWD (the workspace),
// GEMINI_SESSION_ID, GEMINI_PLANS_DIR and CLAUDE_PROJECT_DIR. What Gemini CLI made of the
// BeforeTool answers (what the model got back for the call, and whether it ran):
//
//	one:   {"hookSpecificOutput": {"tool_input": {"description": "patched only"}}}
//	       → not run: "Tool parameter modification by hook failed validation: params must
//	         have required property 'command'" (tool_input replaces the input; no merge)
//	two:   {"hookSpecificOutput": {"tool_input": {"command": "echo rewritten > two.txt"}}}
//	       → ran the rewritten command; AfterTool's tool_input was {"command": …} alone
//	three: exit 2, no output        → ran (nothing blocked; "1 failed (pre)" on stderr)
//	four:  exit 0, "PLAIN-FOUR not json" on stdout → ran; "Hook system message: PLAIN-FOUR…"
//	five:  exit 3, "FIVE-REASON" on stderr → not run: "Tool execution blocked: FIVE-REASON"
//	six:   exit 1, "SIX-WARN" on stderr → ran; "Hook system message: Warning: SIX-WARN"
//	seven: exit 2, "SEVEN-STDOUT" on stdout, "SEVEN-STDERR" on stderr
//	       → not run: "Tool execution blocked: SEVEN-STDOUT"
//	eight: exit 2, {"decision": "allow"} on stdout, "EIGHT-STDERR" on stderr → ran
//
// and the AfterTool answer {"hookSpecificOutput": {"additionalContext": "NINE-CTX"}} for nine
// appended "\n\n<hook_context>NINE-CTX</hook_context>" to the tool's output.

var geminiNow = func() time.Time { return time.Date(2026, 12, 4, 18, 56, 48, 923e6, time.UTC) }

// TestGeminiStdin: a Gemini CLI hook reads Gemini CLI's input whatever agent the event came
// from: its event and tool names, its tool_response object, prompt_response and
// stop_hook_active on AfterAgent, a timestamp; golden JSON per case.
func TestGeminiStdin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, event string // event: the hook's Gemini event (AgentEvent)
		in          hook.Input
		want        string
	}{
		{name: "Claude Code Bash call to BeforeTool", event: "BeforeTool",
			in: hook.Input{SessionID: "s1", TranscriptPath: "/t.jsonl", Cwd: "/w", PermissionMode: "default",
				HookEventName: "PreToolUse", ToolName: "Bash", ToolUseID: "toolu_1",
				ToolInput: json.RawMessage(`{"command":"rm -rf /tmp/x","description":"clean"}`)},
			want: `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /tmp/x","description":"clean"},"tool_use_id":"toolu_1","timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "Gemini CLI's own BeforeTool through the bridge", event: "BeforeTool",
			in: hook.Input{SessionID: "3ee0", TranscriptPath: "/c/session.jsonl", Cwd: "/w",
				HookEventName: "PreToolUse", ToolName: "Bash",
				ToolInput: json.RawMessage(`{"command":"echo one > one.txt","description":"d1"}`),
				Extra: map[string]json.RawMessage{"gemini_tool_name": json.RawMessage(`"run_shell_command"`),
					"timestamp": json.RawMessage(`"2026-12-04T18:56:48.923Z"`)}},
			want: `{"session_id":"3ee0","transcript_path":"/c/session.jsonl","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo one > one.txt","description":"d1"},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "the legacy tool name the agent sent is kept", event: "BeforeTool",
			in: hook.Input{SessionID: "s1", HookEventName: "PreToolUse", ToolName: "Grep", ToolInput: json.RawMessage(`{"pattern":"x"}`),
				Extra: map[string]json.RawMessage{"gemini_tool_name": json.RawMessage(`"search_file_content"`)}},
			want: `{"session_id":"s1","hook_event_name":"BeforeTool","tool_name":"search_file_content","tool_input":{"pattern":"x"},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "an MCP tool keeps its name", event: "BeforeTool",
			in:   hook.Input{SessionID: "s1", HookEventName: "PreToolUse", ToolName: "mcp__fs__read", ToolInput: json.RawMessage(`{}`)},
			want: `{"session_id":"s1","hook_event_name":"BeforeTool","tool_name":"mcp__fs__read","tool_input":{},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "Claude Code Bash response to AfterTool", event: "AfterTool",
			in: hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Bash",
				ToolInput:    json.RawMessage(`{"command":"echo hi"}`),
				ToolResponse: json.RawMessage(`{"stdout":"hi\n","stderr":"","interrupted":false,"isImage":false}`)},
			want: `{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"echo hi"},"tool_response":{"llmContent":"hi\n","returnDisplay":"hi\n"},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "a string response to AfterTool (Codex)", event: "AfterTool",
			in: hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Bash",
				ToolInput: json.RawMessage(`{"command":"ls"}`), ToolResponse: json.RawMessage(`"a\nb\n"`)},
			want: `{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":"a\nb\n","returnDisplay":"a\nb\n"},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "Gemini CLI's own AfterTool response is kept", event: "AfterTool",
			in: hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Write",
				ToolInput:    json.RawMessage(`{"file_path":"b.txt","content":"bee\n"}`),
				ToolResponse: json.RawMessage(`{"llmContent":"ok","returnDisplay":{"fileDiff":"+bee"}}`),
				Extra:        map[string]json.RawMessage{"gemini_tool_name": json.RawMessage(`"write_file"`)}},
			want: `{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"b.txt","content":"bee\n"},"tool_response":{"llmContent":"ok","returnDisplay":{"fileDiff":"+bee"}},"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "Claude Code Stop to AfterAgent", event: "AfterAgent",
			in: hook.Input{SessionID: "s1", HookEventName: "Stop",
				Extra: map[string]json.RawMessage{"last_assistant_message": json.RawMessage(`"finished"`)}},
			want: `{"session_id":"s1","hook_event_name":"AfterAgent","last_assistant_message":"finished","prompt_response":"finished","stop_hook_active":false,"timestamp":"2026-12-04T18:56:48.923Z"}`},
		{name: "Claude Code UserPromptSubmit to BeforeAgent", event: "BeforeAgent",
			in:   hook.Input{SessionID: "s1", HookEventName: "UserPromptSubmit", Prompt: "Do the steps."},
			want: `{"session_id":"s1","hook_event_name":"BeforeAgent","prompt":"Do the steps.","timestamp":"2026-12-04T18:56:48.923Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &Command{Agent: "gemini", AgentEvent: tt.event, Now: geminiNow}
			got, err := c.stdin(&tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("stdin (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGeminiHookReadsGeminiInput runs an unchanged Gemini CLI hook script (python, as
// Gemini's docs write them) on a Claude Code Bash call: it sees tool_name
// run_shell_command and hook_event_name BeforeTool, and GEMINI_PROJECT_DIR in its
// environment, so it blocks.
func TestGeminiHookReadsGeminiInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := `import json, os, sys
d = json.load(sys.stdin)
if d["hook_event_name"] == "BeforeTool" and d["tool_name"] == "run_shell_command" and "rm -rf" in d["tool_input"]["command"]:
    print(json.dumps({"decision": "deny", "reason": "no rm -rf in " + os.environ["GEMINI_PROJECT_DIR"]}))
`
	if err := os.WriteFile(filepath.Join(dir, "guard.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Command{HookID: "guard", Command: `python3 "$GEMINI_PROJECT_DIR"/guard.py`, Agent: "gemini", AgentEvent: "BeforeTool",
		ProjectDir: dir, Env: testEnv()}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := c.Execute(ctx, mkInput(dir, "PreToolUse", "Bash", `{"command":"rm -rf /tmp/x"}`))
	check(t, dir, d, err, want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: "no rm -rf in " + dir}})
	d, err = c.Execute(ctx, mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`))
	check(t, dir, d, err, want{d: hook.Decision{}})
}

// TestGeminiReply: a Gemini CLI hook's exit code and output decide as Gemini CLI 0.61.0
// decides (see the scenario at the top of this file for the observed rows).
func TestGeminiReply(t *testing.T) {
	t.Parallel()
	const bash = `{"command":"echo two > two.txt","description":"d2"}`
	tests := []struct {
		name, event, cmd string
		want             want
	}{
		// Observed (the scenario above).
		{"observed one: tool_input replaces the input", "PreToolUse",
			`printf '%s' '{"hookSpecificOutput": {"tool_input": {"description": "patched only"}}}'`,
			want{d: hook.Decision{UpdatedInput: json.RawMessage(`{"description":"patched only"}`)}}},
		{"observed two: a rewrite", "PreToolUse",
			`printf '%s' '{"hookSpecificOutput": {"tool_input": {"command": "echo rewritten > two.txt"}}}'`,
			want{d: hook.Decision{UpdatedInput: json.RawMessage(`{"command":"echo rewritten > two.txt"}`)}}},
		{"observed three: exit 2 without output does not block", "PreToolUse", `exit 2`,
			want{d: hook.Decision{ExitCode: 2}, anyErr: true, errHas: "exited with code 2"}},
		{"observed four: plain stdout on exit 0 is a system message", "PreToolUse", `echo PLAIN-FOUR not json`,
			want{d: hook.Decision{SystemMessage: "PLAIN-FOUR not json"}}},
		{"observed five: exit 3 with text blocks", "PreToolUse", `echo FIVE-REASON >&2; exit 3`,
			want{d: hook.Decision{Block: true, Reason: "FIVE-REASON", ExitCode: 3}}},
		{"observed six: exit 1 is a warning", "PreToolUse", `echo SIX-WARN >&2; exit 1`,
			want{d: hook.Decision{SystemMessage: "Warning: SIX-WARN", ExitCode: 1}, anyErr: true, errHas: "exited with code 1: SIX-WARN"}},
		{"observed seven: stdout is the reason before stderr", "PreToolUse", `echo SEVEN-STDOUT; echo SEVEN-STDERR >&2; exit 2`,
			want{d: hook.Decision{Block: true, Reason: "SEVEN-STDOUT", ExitCode: 2}}},
		{"observed eight: JSON decides over exit 2", "PreToolUse", `printf '%s' '{"decision": "allow"}'; echo EIGHT-STDERR >&2; exit 2`,
			want{d: hook.Decision{ExitCode: 2}, anyErr: true, errHas: "exited with code 2: EIGHT-STDERR"}},
		{"observed nine: AfterTool additional context", "PostToolUse",
			`printf '%s' '{"hookSpecificOutput": {"additionalContext": "NINE-CTX"}}'`,
			want{d: hook.Decision{AdditionalContext: "NINE-CTX"}}},
		// ../shared/peer-gemini README, json-decisions (observed there).
		{"JSON deny", "PreToolUse", `printf '%s' '{"decision": "deny", "reason": "JSON-DENY: rm is forbidden here"}'`,
			want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: "JSON-DENY: rm is forbidden here"}}},
		{"exit 2 with the reason on stderr", "PreToolUse", `echo 'BLOCKED by peer hook: rm -rf is not allowed' >&2; exit 2`,
			want{d: hook.Decision{Block: true, Reason: "BLOCKED by peer hook: rm -rf is not allowed", ExitCode: 2}}},
		{"AfterTool block", "PostToolUse",
			`printf '%s' '{"decision": "block", "reason": "POST-BLOCK: exit 3 seen", "hookSpecificOutput": {"additionalContext": "POST-CONTEXT"}}'`,
			want{d: hook.Decision{Block: true, Reason: "POST-BLOCK: exit 3 seen", AdditionalContext: "POST-CONTEXT"}}},
		// From the bundle (DefaultHookOutput, HookRunner).
		{"ask on BeforeTool", "PreToolUse", `printf '%s' '{"decision": "ask", "reason": "sure?"}'`,
			want{d: hook.Decision{Permission: hook.Ask, Reason: "sure?"}}},
		{"ask elsewhere decides nothing", "UserPromptSubmit", `printf '%s' '{"decision": "ask"}'`,
			want{d: hook.Decision{}}},
		{"stopReason is the block reason", "PreToolUse", `printf '%s' '{"decision": "block", "reason": "r", "stopReason": "s"}'`,
			want{d: hook.Decision{Block: true, Reason: "s"}}},
		{"a deny without a reason names the hook", "PreToolUse", `printf '%s' '{"decision": "deny"}'`,
			want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: `hook "g" denied without a reason`}}},
		{"continue false stops the agent", "PostToolUse", `printf '%s' '{"continue": false, "stopReason": "enough", "systemMessage": "bye", "suppressOutput": true}'`,
			want{d: hook.Decision{StopAgent: true, StopReason: "enough", SystemMessage: "bye", SuppressOutput: true}}},
		{"a blocked call is not rewritten", "PreToolUse",
			`printf '%s' '{"decision": "deny", "reason": "no", "hookSpecificOutput": {"tool_input": {"command": "ls"}}}'`,
			want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: "no"}}},
		{"tool_input is read on BeforeTool only", "PostToolUse",
			`printf '%s' '{"hookSpecificOutput": {"tool_input": {"command": "ls"}}}'`,
			want{d: hook.Decision{}}},
		{"a JSON string holding JSON", "PreToolUse", `printf '%s' '"{\"decision\": \"deny\", \"reason\": \"twice\"}"'`,
			want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: "twice"}}},
		{"JSON that is not an object decides nothing", "PreToolUse", `echo 42; exit 3`,
			want{d: hook.Decision{ExitCode: 3}, anyErr: true}},
		{"fields of the wrong type are ignored", "PreToolUse",
			`printf '%s' '{"decision": 5, "reason": ["x"], "continue": "no", "hookSpecificOutput": {"additionalContext": 7, "tool_input": [1]}}'`,
			want{d: hook.Decision{}}},
		{"approve and allow decide nothing", "PreToolUse", `printf '%s' '{"decision": "approve"}'`,
			want{d: hook.Decision{}}},
		{"stderr JSON when stdout is blank", "PreToolUse", `echo '{"decision": "deny", "reason": "from stderr"}' >&2`,
			want{d: hook.Decision{Block: true, Permission: hook.Deny, Reason: "from stderr"}}},
		{"plain text blocks on other events too", "UserPromptSubmit", `echo 'not this prompt' >&2; exit 2`,
			want{d: hook.Decision{Block: true, Reason: "not this prompt", ExitCode: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c := Command{HookID: "g", Command: tt.cmd, Agent: "gemini", AgentEvent: "BeforeTool", Env: testEnv()}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			in := mkInput(dir, tt.event, "Bash", bash)
			if tt.event == "UserPromptSubmit" {
				in.ToolName, in.ToolInput, in.Prompt = "", nil, "hi"
			}
			d, err := c.Execute(ctx, in)
			check(t, dir, d, err, tt.want)
		})
	}
}

// TestGeminiLaunchFailure: a Gemini hook whose program is missing is a hook that did not
// start (hook.ErrNotStarted), as for every command hook, although Gemini CLI would read the
// shell's "not found" on stderr with exit 127 as a block (docs/decisions.md).
func TestGeminiLaunchFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := Command{Command: "no-such-program-xyz --check", Agent: "gemini", AgentEvent: "BeforeTool", Env: testEnv()}
	_, err := c.Execute(context.Background(), mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`))
	if !errors.Is(err, hook.ErrNotStarted) {
		t.Fatalf("err = %v, want one wrapping hook.ErrNotStarted", err)
	}
}

// TestCursorHookGetsProjectDir: a Cursor hook run by hookcore has CURSOR_PROJECT_DIR, as
// under Cursor (research note: CLAUDE_PROJECT_DIR is its alias); it was empty, so a guard
// that named its script or files by it did not run (convert's helper, stop 28).
func TestCursorHookGetsProjectDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := Command{HookID: "guard", Command: `printf '{"permission":"deny","agent_message":"in %s"}' "$CURSOR_PROJECT_DIR"`, Agent: "cursor",
		AgentEvent: "beforeShellExecution", ProjectDir: dir, Env: testEnv()}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := c.Execute(ctx, mkInput(dir, "PreToolUse", "Bash", `{"command":"rm -rf /tmp/x"}`))
	if err != nil || !d.Block || d.Reason != "in "+dir {
		t.Errorf("decision %+v, err %v; want a block with the reason %q", d, err, "in "+dir)
	}
}

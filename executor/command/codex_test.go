package command

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// TestCodexStdin: a Codex hook reads Claude Code's input, which Codex 0.171.0 sends
// (../shared/peer-codex README, "Hook stdin fields": PostToolUse has tool_response as a
// string, "" for no output), so another agent's response object becomes its text; Codex's
// own input passes unchanged.
func TestCodexStdin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   hook.Input
		want string
	}{
		{"Codex's own PostToolUse", hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"echo hi"}`), ToolResponse: json.RawMessage(`"hi\n"`), ToolUseID: "call_fake_0_0",
			Extra: map[string]json.RawMessage{"turn_id": json.RawMessage(`"t1"`), "model": json.RawMessage(`"gpt-5"`)}},
			`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_response":"hi\n","tool_use_id":"call_fake_0_0","model":"gpt-5","turn_id":"t1"}`},
		{"Claude Code's Bash response object", hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"echo hi"}`), ToolResponse: json.RawMessage(`{"stdout":"hi\n","stderr":"","interrupted":false,"isImage":false}`)},
			`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_response":"hi\n"}`},
		{"Gemini CLI's response object", hook.Input{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"echo hi"}`), ToolResponse: json.RawMessage(`{"llmContent":"Output: hi","returnDisplay":"hi"}`)},
			`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_response":"Output: hi"}`},
		{"PreToolUse is Claude Code's", hook.Input{SessionID: "s1", HookEventName: "PreToolUse", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"ls"}`)},
			`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := (&Command{Agent: "codex"}).stdin(&tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("stdin (-want +got):\n%s", diff)
			}
		})
	}
}

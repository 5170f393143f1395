package bridge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestToolInputUnreadable: on a tool gate, arguments hookcore cannot read are a Decode error
// wrapping ErrToolInput (red team round 33: Copilot's toolArgs "rm -rf /" became tool_input
// {"value":"rm -rf /"} and a Bash(rm *) rule let the call through; Cursor's
// beforeShellExecution with no command was answered with nothing). On the events that only
// watch, the hooks still run on what can be read.
func TestToolInputUnreadable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		p        bridge.Protocol
		override string
		input    string
		want     string // "" when Decode must succeed, else a substring of the ErrToolInput error
		input2   string // with want "", the ToolInput Decode must give
	}{
		{"copilot plain string", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":"rm -rf /"}`, `toolArgs is "rm -rf /", not a JSON object`, ""},
		{"copilot string of an array", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":"[\"rm\"]"}`, "toolArgs is", ""},
		{"copilot string of null", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":"null"}`, "toolArgs is", ""},
		{"copilot number", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":5}`, "toolArgs is 5", ""},
		{"copilot missing", bridge.Copilot{}, "preToolUse", `{"toolName":"bash"}`, "toolArgs is missing", ""},
		{"copilot permission request", bridge.Copilot{}, "permissionRequest", `{"toolName":"bash","toolArgs":"rm -rf /"}`, "toolArgs is", ""},
		{"copilot inferred pre", bridge.Copilot{}, "", `{"toolName":"bash","toolArgs":"rm -rf /"}`, "toolArgs is", ""},
		{"copilot documented", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`, "", `{"command":"rm -rf /"}`},
		{"copilot object", bridge.Copilot{}, "preToolUse", `{"toolName":"bash","toolArgs":{"command":"ls"}}`, "", `{"command":"ls"}`},
		{"copilot post keeps value", bridge.Copilot{}, "postToolUse", `{"toolName":"bash","toolArgs":"rm -rf /"}`, "", `{"value":"rm -rf /"}`},
		{"copilot post missing", bridge.Copilot{}, "postToolUse", `{"toolName":"bash"}`, "", ""},
		{"cursor empty shell", bridge.Cursor{}, "beforeShellExecution", ``, "command is missing", ""},
		{"cursor shell no command", bridge.Cursor{}, "", `{"hook_event_name":"beforeShellExecution","cwd":"/w"}`, "command is missing", ""},
		{"cursor shell command not a string", bridge.Cursor{}, "", `{"hook_event_name":"beforeShellExecution","command":["rm","-rf","/"]}`, "command is missing", ""},
		{"cursor empty read", bridge.Cursor{}, "beforeReadFile", ``, "file_path is missing", ""},
		{"cursor mcp plain string", bridge.Cursor{}, "", `{"hook_event_name":"beforeMCPExecution","tool_name":"q","tool_input":"drop table x"}`, `tool_input is "drop table x"`, ""},
		{"cursor pretooluse missing", bridge.Cursor{}, "", `{"hook_event_name":"preToolUse","tool_name":"Shell"}`, "tool_input is missing", ""},
		{"cursor after shell empty", bridge.Cursor{}, "afterShellExecution", ``, "", `{"command":""}`},
		{"cursor post plain string", bridge.Cursor{}, "", `{"hook_event_name":"postToolUse","tool_name":"q","tool_input":"x"}`, "", `{"value":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, in, err := tt.p.Decode([]byte(tt.input), tt.override)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				if got := string(in.ToolInput); got != tt.input2 {
					t.Errorf("ToolInput = %s, want %s", got, tt.input2)
				}
				return
			}
			if !errors.Is(err, bridge.ErrToolInput) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Decode error = %v, want ErrToolInput with %q", err, tt.want)
			}
		})
	}
}

// TestDeferWithoutDefer: a defer on PreToolUse (Claude Code's permissionDecision "defer")
// is a deny with a reason for every agent without a defer; Claude keeps it (red team round
// 33: Codex ran the call; Gemini CLI, Cursor and Copilot CLI got no answer).
func TestDeferWithoutDefer(t *testing.T) {
	t.Parallel()
	res := with(func(r *hook.Result) { r.Permission, r.Reason = hook.Defer, "release manager" })
	bare := with(func(r *hook.Result) { r.Permission = hook.Defer })
	const why = "a hookcore hook deferred this call to a person (permission decision defer), which this agent cannot do, so it is denied; the user can run it or allow it"
	tests := []struct {
		name string
		p    bridge.Protocol
		res  hook.Result
		want string
	}{
		{"claude keeps defer", bridge.Claude{}, res, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"release manager"}}` + "\n"},
		{"codex", bridge.Codex{}, res, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + why + `: release manager"}}` + "\n"},
		{"codex without reason", bridge.Codex{}, bare, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + why + `"}}` + "\n"},
		{"gemini", bridge.Gemini{}, res, `{"decision":"deny","reason":"` + why + `: release manager"}` + "\n"},
		{"cursor", bridge.Cursor{}, res, `{"permission":"deny","user_message":"` + why + `: release manager","agent_message":"` + why + `: release manager"}` + "\n"},
		{"copilot", bridge.Copilot{}, res, `{"permissionDecision":"deny","permissionDecisionReason":"` + why + `: release manager"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := tt.p.Encode(hook.PreToolUse, nil, &tt.res)
			if string(a.Stdout) != tt.want || a.Code != 0 {
				t.Errorf("Encode = exit %d, %s; want exit 0, %s", a.Code, a.Stdout, tt.want)
			}
		})
	}
}

package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMCPToolAction: an mcp_tool handler decodes in the Claude settings dialect (Claude Code's
// {"type": "mcp_tool", "server", "tool", "input"}, research note §2.5) and in the native
// dialect (type: mcp_tool under action:), input keeping its JSON shape; a missing server or
// tool is an error at the entry naming the hook, and only that entry is skipped.
func TestMCPToolAction(t *testing.T) {
	t.Parallel()
	wantInput := map[string]any{"path": "${tool_input.file_path}", "n": uint64(3), "deep": map[string]any{"ok": true, "list": []any{"a", 1.5}}}
	tests := []struct {
		name, file, content string
	}{
		{"claude", "settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
  {"type": "mcp_tool", "server": "guard", "tool": "check", "input": {"path": "${tool_input.file_path}", "n": 3, "deep": {"ok": true, "list": ["a", 1.5]}}},
  {"type": "mcp_tool", "server": "guard"},
  {"type": "mcp_tool", "tool": "check"}
]}]}}`},
		{"native", "hooks.yaml", `hooks:
  - id: PreToolUse#1
    event: pre_tool_use
    matcher: Write
    action:
      type: mcp_tool
      server: guard
      tool: check
      input: {path: "${tool_input.file_path}", n: 3, deep: {ok: true, list: [a, 1.5]}}
  - id: PreToolUse#2
    event: pre_tool_use
    action: {type: mcp_tool, server: guard}
  - id: PreToolUse#3
    event: pre_tool_use
    action: {type: mcp_tool, tool: check}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, errs := Parse(tt.file, []byte(tt.content), Project)
			if f.Failed || len(f.Hooks) != 1 {
				t.Fatalf("hooks %d, failed %v: %v", len(f.Hooks), f.Failed, errs)
			}
			a := f.Hooks[0].Action
			if a.Type != TypeMCPTool || a.Server != "guard" || a.Tool != "check" {
				t.Errorf("action = %+v", a)
			}
			if d := cmp.Diff(wantInput, a.Input); d != "" {
				t.Errorf("input (-want +got):\n%s", d)
			}
			if len(f.Broken) != 2 || f.Broken[0].Hook.ID != "PreToolUse#2" || f.Broken[1].Hook.ID != "PreToolUse#3" {
				t.Fatalf("broken = %+v", f.Broken)
			}
			msgs := errs.Error()
			for _, want := range []string{tt.file + ":", "PreToolUse#2: mcp_tool action needs tool", "PreToolUse#3: mcp_tool action needs server"} {
				if !strings.Contains(msgs, want) {
					t.Errorf("errors lack %q:\n%s", want, msgs)
				}
			}
		})
	}
}

// TestMCPToolInputMustBeMapping: input of another shape is an error at its value.
func TestMCPToolInputMustBeMapping(t *testing.T) {
	t.Parallel()
	_, errs := Parse("settings.json", []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t", "input": "x"}]}]}}`), Project)
	if !strings.Contains(errs.Error(), `settings.json:1:90: Stop#1: input must be a mapping, not a string`) {
		t.Errorf("errors = %v", errs)
	}
}

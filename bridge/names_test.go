package bridge

import (
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// TestEventNamesAreDecodeTables: EventNames/ToolNames hand out the tables Decode uses (so
// config's converters cannot drift from the bridge), as copies a caller cannot corrupt.
func TestEventNamesAreDecodeTables(t *testing.T) {
	t.Parallel()
	g := EventNames("gemini")
	if g["BeforeTool"] != hook.PreToolUse || g["AfterAgent"] != hook.Stop || len(g) != len(geminiEvents()) {
		t.Fatalf("gemini events = %v", g)
	}
	g["BeforeTool"] = hook.Stop
	if geminiEvents()["BeforeTool"] != hook.PreToolUse {
		t.Fatal("EventNames returned the bridge's own map, not a copy")
	}
	if EventNames("cursor")["beforeShellExecution"] != hook.PreToolUse ||
		EventNames("copilot")["agentStop"] != hook.Stop || EventNames("claude") != nil {
		t.Fatal("cursor/copilot/claude event tables wrong")
	}
	if ToolNames("gemini")["run_shell_command"] != "Bash" || ToolNames("gemini")["read_many_files"] != "Read" ||
		ToolNames("copilot")["view"] != "Read" || ToolNames("codex") != nil {
		t.Fatal("tool tables wrong")
	}
}

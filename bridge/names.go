package bridge

import (
	"maps"

	"github.com/hookcore/hookcore/hook"
)

// EventNames returns a copy of an agent's own event names mapped to hookcore's events, the
// same tables Decode uses: "gemini", "cursor", "copilot". "claude" and "codex" use
// hookcore's (Claude Code's) names and return nil. Several native names may map to one
// event (Cursor's beforeShellExecution and preToolUse are both PreToolUse).
func EventNames(agent string) map[string]hook.Event {
	switch agent {
	case "gemini":
		return maps.Clone(geminiEvents())
	case "cursor":
		return maps.Clone(cursorEvents())
	case "copilot":
		return maps.Clone(copilotEvents())
	}
	return nil
}

// ToolNames returns a copy of an agent's own tool names mapped to Claude Code's ("gemini":
// run_shell_command → Bash, ...; "copilot": bash → Bash, ...); nil for the other agents.
func ToolNames(agent string) map[string]string {
	switch agent {
	case "gemini":
		return maps.Clone(geminiTools())
	case "copilot":
		return maps.Clone(copilotTools())
	}
	return nil
}

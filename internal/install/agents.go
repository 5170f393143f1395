package install

import (
	"path/filepath"
	"strings"
)

// Scope is where a settings file lives: the user's, the project's (shared, committed) or
// the project's local one (untracked; Claude Code only).
type Scope string

const (
	User    Scope = "user"
	Project Scope = "project"
	Local   Scope = "local"
)

// event is one native event hookcore registers for, with the matcher its group needs.
type event struct {
	name    string
	matcher string // "" for events without one
}

// agent describes one agent's hook settings file.
type agent struct {
	name  string
	files map[Scope]string // relative to the home (User) or project directory
	def   Scope
	// grouped files are Claude Code's shape, {"hooks": {EVENT: [{matcher, hooks: [...]}]}};
	// the others are flat, {"version": 1, "hooks": {EVENT: [entry]}}.
	grouped bool
	events  []event
	// eventArg adds the native event name to the command (Copilot: its payloads do not say).
	eventArg bool
}

var agents = map[string]*agent{
	"claude": {
		name:    "claude",
		files:   map[Scope]string{User: ".claude/settings.json", Project: ".claude/settings.json", Local: ".claude/settings.local.json"},
		def:     Project,
		grouped: true,
		events: []event{
			{"PreToolUse", "*"}, {"PermissionRequest", "*"}, {"PostToolUse", "*"}, {"PostToolUseFailure", "*"},
			{"UserPromptSubmit", ""}, {"Stop", ""}, {"SubagentStart", ""}, {"SubagentStop", ""},
			{"SessionStart", ""}, {"SessionEnd", ""}, {"PreCompact", ""}, {"PostCompact", ""},
			{"Notification", ""}, {"TaskCreated", ""}, {"TaskCompleted", ""},
		},
	},
	"codex": {
		name:    "codex",
		files:   map[Scope]string{User: ".codex/hooks.json", Project: ".codex/hooks.json"},
		def:     User,
		grouped: true,
		events: []event{
			{"PreToolUse", "*"}, {"PermissionRequest", "*"}, {"PostToolUse", "*"},
			{"UserPromptSubmit", ""}, {"Stop", ""}, {"SubagentStart", ""}, {"SubagentStop", ""},
			{"SessionStart", ""}, {"PreCompact", ""}, {"PostCompact", ""},
		},
	},
	"gemini": {
		name:    "gemini",
		files:   map[Scope]string{User: ".gemini/settings.json", Project: ".gemini/settings.json"},
		def:     Project,
		grouped: true,
		events: []event{
			{"BeforeTool", ".*"}, {"AfterTool", ".*"}, {"BeforeAgent", ""}, {"AfterAgent", ""},
			{"SessionStart", ""}, {"SessionEnd", ""}, {"PreCompress", ""}, {"Notification", ""},
		},
	},
	"cursor": {
		name:  "cursor",
		files: map[Scope]string{User: ".cursor/hooks.json", Project: ".cursor/hooks.json"},
		def:   Project,
		events: []event{
			{"beforeShellExecution", ""}, {"afterShellExecution", ""}, {"beforeMCPExecution", ""},
			{"afterMCPExecution", ""}, {"beforeReadFile", ""}, {"afterFileEdit", ""},
			{"beforeSubmitPrompt", ""}, {"stop", ""}, {"subagentStop", ""},
			{"sessionStart", ""}, {"sessionEnd", ""}, {"preCompact", ""},
		},
	},
	"copilot": {
		name:     "copilot",
		files:    map[Scope]string{User: ".copilot/hooks/hookcore.json", Project: ".github/hooks/hookcore.json"},
		def:      Project,
		eventArg: true,
		events: []event{
			{"sessionStart", ""}, {"sessionEnd", ""}, {"userPromptSubmitted", ""}, {"preToolUse", ""},
			{"postToolUse", ""}, {"permissionRequest", ""}, {"agentStop", ""}, {"subagentStop", ""},
			{"errorOccurred", ""},
		},
	},
}

// ours reports whether a hook entry's command or URL is hookcore's hook command for agent
// (any path to a binary named hookcore, or the command this install writes), or an http
// hook to a hookcore serve endpoint for agent.
func ours(command, url, agent, self string) bool {
	if url != "" {
		return strings.HasSuffix(strings.TrimRight(url, "/"), "/hook/"+agent)
	}
	f := strings.Fields(command)
	if len(f) < 3 || f[1] != "hook" || f[2] != agent {
		return false
	}
	bin := strings.Trim(f[0], `"'`)
	base := strings.TrimSuffix(filepath.Base(bin), ".exe")
	return bin == self || base == "hookcore" || base == "hookcore-hook"
}

package hook

import (
	"slices"
	"sync"
)

// claudeTools are the names of Claude Code's own tools: those 2.1.332 offers the model (seen
// in the requests of ../shared/peer-claude), those it defers and those of research note 1.6
// and of older releases (MultiEdit, Task, LS, NotebookRead).
var claudeTools = []string{
	"Agent", "AskUserQuestion", "Bash", "BashOutput", "Edit", "EnterPlanMode", "ExitPlanMode",
	"Glob", "Grep", "KillShell", "LS", "LSP", "ListAgents", "ListMcpResourcesTool", "Monitor",
	"MultiEdit", "NotebookEdit", "NotebookRead", "PowerShell", "Read", "ReadMcpResourceTool",
	"ReportFindings", "ScheduleWakeup", "Skill", "SlashCommand", "Task", "TaskCreate", "TaskGet",
	"TaskList", "TaskOutput", "TaskStop", "TaskUpdate", "TodoWrite", "ToolSearch", "WebFetch",
	"WebSearch", "Workflow", "Write",
}

// claudeValues are the values of the other match fields, per event (research note section 1).
var claudeValues = sync.OnceValue(func() map[Event][]string {
	return map[Event][]string{
		SessionStart: {"startup", "resume", "clear", "compact", "fork"},
		SessionEnd:   {"clear", "resume", "logout", "prompt_input_exit", "other"},
		Setup:        {"init", "maintenance"},
		PreCompact:   {"manual", "auto"},
		PostCompact:  {"manual", "auto"},
		Notification: {"permission_prompt", "idle_prompt", "auth_success", "elicitation_dialog",
			"elicitation_url_dialog", "elicitation_complete", "elicitation_response",
			"agent_needs_input", "agent_completed"},
		StopFailure: {"rate_limit", "overloaded", "authentication_failed", "oauth_org_not_allowed",
			"billing_error", "invalid_request", "model_not_found", "server_error",
			"max_output_tokens", "unknown"},
		ConfigChange: {"user_settings", "project_settings", "local_settings", "policy_settings", "skills"},
		InstructionsLoaded: {"session_start", "nested_traversal", "path_glob_match", "include",
			"compact"},
	}
})

// ClaudeValues returns values Claude Code sends in e's match field, spelled as it sends
// them: its own tool names on the events whose field is tool_name, the sources, reasons,
// triggers and types the research note lists for the others; nil when none are known. The
// list is not closed (MCP tools, mcp__server__tool, and new tools are not in it), so it
// answers how Claude Code spells a value, never whether a value exists: Claude Code compares
// a matcher's names case-sensitively, and hookcore's "bash" means its "Bash".
func (e Event) ClaudeValues() []string {
	if e.MatchField() == "tool_name" {
		return slices.Clone(claudeTools)
	}
	return slices.Clone(claudeValues()[e])
}

package hook

import (
	"encoding/json"
	"strings"
)

// Record is what one hook did during one event; Result.Hooks holds one per hook that
// matched, in config order. Hooks that did not match leave no record.
type Record struct {
	ID       string  `json:"id"`
	Type     string  `json:"type"`             // executor type: command, http, prompt, agent, inject, func
	Source   string  `json:"source,omitempty"` // file:line of the hook's config entry
	Outcome  Outcome `json:"outcome"`
	ExitCode *int    `json:"exit_code,omitempty"` // command hooks that exited
	// DurationMS is the hook's wall time in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Error says why the hook failed, timed out, was skipped or blocked on failure.
	Error string `json:"error,omitempty"`
	// Reason is the hook's own block reason or permission reason, when it gave one.
	Reason string `json:"reason,omitempty"`
	// Truncated is set when the hook's output was cut at the executor's cap.
	Truncated bool `json:"output_truncated,omitempty"`
	// StatusMessage is the hook's Claude Code `statusMessage`, the text an agent shows
	// while it runs; `hookcore run` prints it with the hook's outcome.
	StatusMessage string `json:"status_message,omitempty"`
}

// Result is the merged outcome of running every matching hook for one event (DESIGN.md
// section 7); it is also the JSON that `hookcore fire` prints.
type Result struct {
	Event Event `json:"event"`
	// Blocked is true when a hook vetoed the action (gate events) or asked the agent to keep
	// working (Stop-type feedback events).
	Blocked bool   `json:"blocked"`
	Reason  string `json:"reason,omitempty"`
	// Permission is the strongest permission decision (deny > ask > allow).
	Permission Permission `json:"permission,omitempty"`
	// AdditionalContext is every hook's context, in config order, joined by a blank line and
	// capped at 10 000 characters.
	AdditionalContext string `json:"additional_context,omitempty"`
	// UpdatedInput is the tool input after every rewrite; null when no hook rewrote it.
	UpdatedInput json.RawMessage `json:"updated_input"`
	// UpdatedToolOutput is, on PostToolUse, the tool output the model sees instead of the
	// tool's own (Claude Code's updatedToolOutput; the last hook that gives one wins); nil
	// when no hook replaced it. UpdatedMCPToolOutput is the older updatedMCPToolOutput,
	// which Claude Code applies to MCP tools only. ToolOutput applies them.
	UpdatedToolOutput    json.RawMessage `json:"updated_tool_output,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updated_mcp_tool_output,omitempty"`
	// DisplayContent is, on MessageDisplay, the text shown instead of the model's message
	// (Claude Code's displayContent; the last hook that gives one wins); "" when no hook
	// replaced it. What the model and the transcript keep does not change.
	DisplayContent string `json:"display_content,omitempty"`
	// Continue is false when a hook asked to stop the whole agent; StopReason says why.
	Continue      bool   `json:"continue"`
	StopReason    string `json:"stop_reason,omitempty"`
	SystemMessage string `json:"system_message,omitempty"`
	// Errors counts the hooks whose outcome is error or timeout.
	Errors int      `json:"errors,omitempty"`
	Hooks  []Record `json:"hooks"`
}

// KeepsWorking reports whether the agent must go on instead of stopping: the event was
// blocked, or it is Stop or SubagentStop and a hook gave additional context, which Claude
// Code 2.1.332 sends back as a system reminder ("Stop hook additional context: ...") and
// then continues (testdata/claude/stop-context).
func (r *Result) KeepsWorking() bool {
	return r.Blocked || (r.Event.IsStopLike() && r.AdditionalContext != "")
}

// ToolOutput returns the output the model sees for a call of tool whose own output was out:
// UpdatedToolOutput when a hook gave one, else UpdatedMCPToolOutput for an MCP tool (a name
// starting "mcp__"), else out. Claude Code 2.1.332 replaced a Bash call's output with
// updatedToolOutput and ignored updatedMCPToolOutput on Write (testdata/claude/updated-output).
func (r *Result) ToolOutput(tool string, out json.RawMessage) json.RawMessage {
	switch {
	case r.UpdatedToolOutput != nil:
		return r.UpdatedToolOutput
	case r.UpdatedMCPToolOutput != nil && strings.HasPrefix(tool, "mcp__"):
		return r.UpdatedMCPToolOutput
	}
	return out
}

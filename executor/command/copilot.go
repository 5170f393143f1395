package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// copilotReply is the JSON a Copilot CLI hook prints (docs.github.com, "GitHub Copilot CLI
// hooks reference"; the fields bridge.Copilot writes for Copilot itself).
type copilotReply struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
	Behavior                 string `json:"behavior"`
	Message                  string `json:"message"`
	Decision                 string `json:"decision"`
	Reason                   string `json:"reason"`
	AdditionalContext        string `json:"additionalContext"`
}

// copilotSuccess reads the stdout of a Copilot hook that exited 0: permissionDecision
// "deny" (preToolUse) or behavior "deny" (permissionRequest) blocks with
// permissionDecisionReason / message; "ask" is Permission Ask; "allow" Permission Allow;
// decision "block" (agentStop, subagentStop) blocks with reason, which makes the agent go on;
// additionalContext is context. Empty stdout decides nothing; stdout that is not a JSON
// object is an error wrapping hook.ErrBadOutput.
func (c *Command) copilotSuccess(res proc.Result, d hook.Decision) (hook.Decision, error) {
	out := bytes.TrimSpace(res.Stdout)
	if len(out) == 0 {
		return d, nil
	}
	var r copilotReply
	if out[0] != '{' || json.Unmarshal(out, &r) != nil {
		return d, fmt.Errorf("hook %s: %w: Copilot CLI hooks answer a JSON object", c.name(), hook.ErrBadOutput)
	}
	switch {
	case r.PermissionDecision == "deny" || r.Behavior == "deny":
		d.Block, d.Permission, d.Reason = true, hook.Deny, firstNonBlank(r.PermissionDecisionReason, r.Message)
	case r.PermissionDecision == "ask":
		d.Permission, d.Reason = hook.Ask, r.PermissionDecisionReason
	case r.PermissionDecision == "allow" || r.Behavior == "allow":
		d.Permission = hook.Allow
	}
	if r.Decision == "block" {
		d.Block, d.Reason = true, firstNonBlank(d.Reason, r.Reason)
	}
	if d.Block && d.Reason == "" {
		d.Reason = fmt.Sprintf("hook %s denied without a reason", c.name())
	}
	d.AdditionalContext = r.AdditionalContext
	return d, nil
}

// copilotTools is Copilot CLI's names of Claude Code's tools (bridge.ToolNames("copilot")
// in reverse).
var copilotTools = sync.OnceValue(func() map[string]string {
	return map[string]string{"Bash": "bash", "Read": "view", "Edit": "edit", "Write": "create"}
})

// copilotStdin writes the input in Copilot CLI's camelCase shape (bridge.Copilot's Decode in
// reverse): sessionId, cwd, toolName (Copilot's name), toolArgs (a JSON-encoded string),
// toolResult, prompt, source, reason, error {message}, and hookEventName (Copilot's name).
func (c *Command) copilotStdin(in *hook.Input) ([]byte, error) {
	m := map[string]any{"sessionId": in.SessionID, "cwd": in.Cwd}
	if c.AgentEvent != "" {
		m["hookEventName"] = c.AgentEvent
	}
	if in.ToolName != "" {
		name := in.ToolName
		if n, ok := copilotTools()[name]; ok {
			name = n
		}
		m["toolName"] = name
	}
	if len(in.ToolInput) > 0 {
		m["toolArgs"] = string(in.ToolInput)
	}
	if len(in.ToolResponse) > 0 {
		m["toolResult"] = in.ToolResponse
	}
	for k, v := range map[string]string{"prompt": in.Prompt, "source": in.Source, "reason": in.Reason} {
		if v != "" {
			m[k] = v
		}
	}
	if in.Error != "" {
		m["error"] = map[string]string{"message": in.Error}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

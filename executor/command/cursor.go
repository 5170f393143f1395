package command

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// cursorReply is the JSON a Cursor hook prints (cursor.com/docs/agent/hooks; the fields
// bridge.Cursor writes for Cursor itself).
type cursorReply struct {
	Permission        string `json:"permission"`
	UserMessage       string `json:"user_message"`
	AgentMessage      string `json:"agent_message"`
	Continue          *bool  `json:"continue"`
	FollowupMessage   string `json:"followup_message"`
	AdditionalContext string `json:"additional_context"`
}

// cursorSuccess reads the stdout of a Cursor hook that exited 0: permission "deny" blocks
// (Permission Deny) with agent_message (else user_message) as the reason; "ask" is
// Permission Ask; "allow" Permission Allow; continue: false blocks (beforeSubmitPrompt,
// with user_message); a followup_message blocks (stop: Cursor sends it as the next user
// message, which is hookcore's Stop block); additional_context is context. Empty stdout
// decides nothing; stdout that is not a JSON object is an error wrapping hook.ErrBadOutput.
func (c *Command) cursorSuccess(res proc.Result, d hook.Decision) (hook.Decision, error) {
	out := bytes.TrimSpace(res.Stdout)
	if len(out) == 0 {
		return d, nil
	}
	var r cursorReply
	if out[0] != '{' || json.Unmarshal(out, &r) != nil {
		return d, fmt.Errorf("hook %s: %w: Cursor hooks answer a JSON object", c.name(), hook.ErrBadOutput)
	}
	msg := firstNonBlank(r.AgentMessage, r.UserMessage)
	switch r.Permission {
	case "deny":
		d.Block, d.Permission, d.Reason = true, hook.Deny, msg
	case "ask":
		d.Permission, d.Reason = hook.Ask, msg
	case "allow":
		d.Permission = hook.Allow
	}
	if r.Continue != nil && !*r.Continue {
		d.Block, d.Reason = true, firstNonBlank(d.Reason, r.UserMessage)
	}
	if r.FollowupMessage != "" {
		d.Block, d.Reason = true, r.FollowupMessage
	}
	if d.Block && d.Reason == "" {
		d.Reason = fmt.Sprintf("hook %s denied without a message", c.name())
	}
	d.AdditionalContext = r.AdditionalContext
	return d, nil
}

// cursorStdin adds to the input JSON the top-level fields a Cursor hook of AgentEvent reads
// (bridge.Cursor's Decode in reverse): hook_event_name is Cursor's name, conversation_id the
// session, workspace_roots the working directory, and per event command (shell events),
// file_path (beforeReadFile, afterFileEdit), output (afterShellExecution). hookcore's own
// fields stay.
func (c *Command) cursorStdin(in *hook.Input) ([]byte, error) {
	cp := in.Clone()
	if cp.Extra == nil {
		cp.Extra = map[string]json.RawMessage{}
	}
	set := func(k string, v any) {
		if _, ok := cp.Extra[k]; ok {
			return
		}
		if b, err := json.Marshal(v); err == nil {
			cp.Extra[k] = b
		}
	}
	var args map[string]json.RawMessage
	_ = json.Unmarshal(in.ToolInput, &args)
	if c.AgentEvent != "" {
		cp.HookEventName = c.AgentEvent
	}
	set("conversation_id", in.SessionID)
	if in.Cwd != "" {
		set("workspace_roots", []string{in.Cwd})
	}
	for _, k := range []string{"command", "file_path"} {
		if v, ok := args[k]; ok {
			if _, have := cp.Extra[k]; !have {
				cp.Extra[k] = v
			}
		}
	}
	if c.AgentEvent == "afterShellExecution" && len(in.ToolResponse) > 0 {
		cp.Extra["output"] = in.ToolResponse
	}
	return cp.MarshalJSON()
}

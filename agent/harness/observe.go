package harness

import (
	"context"
	"encoding/json"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// input returns the hook input shared by every event of a session.
func (h *Harness) input(info tool.Session) *hook.Input {
	return &hook.Input{
		SessionID: info.ID, TranscriptPath: h.opts.TranscriptPath, Cwd: info.Cwd,
		PermissionMode: info.PermissionMode, AgentID: info.AgentID, AgentType: info.AgentType,
	}
}

func extra(in *hook.Input, key string, v any) {
	raw, err := marshal(v)
	if err != nil {
		return
	}
	if in.Extra == nil {
		in.Extra = map[string]json.RawMessage{}
	}
	in.Extra[key] = raw
}

// Observe fires the hook event named like the moment, with the input Claude Code gives that
// event (plus, where Claude Code has no field: command and arguments on CommandExecute,
// task_id, task_subject and task_description on the task events, last_assistant_message on
// PostReceive, Stop and SubagentStop), and turns the result into the agent's Verdict:
//
//   - blocked → Block with the reason; permission allow/ask/deny → Permission;
//   - additional context → Context (a <hook-notification> in the next request);
//   - continue: false → StopAgent with the stop reason.
//
// A PostStopValidation hook that exits non-zero fails the validation in the Runner itself
// (a block whose reason is the hook's output), so it needs no rule here.
//
// SkillInvoked is not a hook event: it activates the skill's frontmatter hooks for the
// invoking agent for the rest of the session (Runner.InvokeSkill; Claude Code 2.1.332,
// testdata/frontmatter). A store that cannot record it is logged through the Trace.
func (h *Harness) Observe(ctx context.Context, ev *agent.Event) agent.Verdict {
	if ev.Moment == agent.SkillInvoked {
		if err := h.opts.Runner.InvokeSkill(ctx, ev.Info.ID, ev.Info.AgentID, ev.Skill); err != nil && h.opts.Trace != nil {
			h.opts.Trace(agent.Step{Kind: agent.StepNotice, AgentID: ev.Info.AgentID, Text: "skill " + ev.Skill + ": its hooks are not active: " + err.Error(), IsError: true})
		}
		return agent.Verdict{}
	}
	event := ev.Moment
	in := h.input(ev.Info)
	in.Source, in.Reason, in.Prompt, in.Error = ev.Source, ev.Reason, ev.Prompt, ev.Error
	in.Trigger, in.StopHookActive = ev.Trigger, ev.StopActive
	switch ev.Moment {
	case hook.Notification:
		in.Message, in.NotificationType = ev.Message, ev.NotificationType
	case hook.PostReceive, hook.Stop, hook.SubagentStop:
		if ev.Message != "" {
			extra(in, "last_assistant_message", ev.Message)
		}
	case hook.CommandExecute:
		extra(in, "command", ev.Command)
		extra(in, "arguments", ev.Arguments)
	case hook.UserPromptExpansion:
		extra(in, "expansion_type", ev.ExpansionType)
		extra(in, "command_name", ev.Command)
		extra(in, "command_args", ev.Arguments)
		extra(in, "command_source", ev.CommandSource)
	case hook.MessageDisplay:
		// As Claude Code 2.1.332 -p sends it: the whole message, one piece.
		extra(in, "turn_id", ev.TurnID)
		extra(in, "message_id", ev.MessageID)
		extra(in, "index", 0)
		extra(in, "final", true)
		extra(in, "delta", ev.Message)
	case hook.StopFailure:
		extra(in, "error_details", ev.ErrorDetails)
		extra(in, "last_assistant_message", ev.Message)
	case hook.PostToolBatch:
		type call struct {
			ToolName     string          `json:"tool_name"`
			ToolInput    json.RawMessage `json:"tool_input"`
			ToolUseID    string          `json:"tool_use_id"`
			ToolResponse string          `json:"tool_response"`
		}
		calls := make([]call, 0, len(ev.Batch))
		for _, b := range ev.Batch {
			calls = append(calls, call{b.Call.Name, b.Call.Input, b.Call.ID, b.Result})
		}
		extra(in, "tool_calls", calls)
	}
	if c := ev.Call; c != nil {
		in.ToolName, in.ToolInput, in.ToolUseID = c.Name, c.Input, c.ID
	}
	if t := ev.Task; t != nil {
		extra(in, "task_id", t.ID)
		extra(in, "task_subject", t.Subject)
		if t.Description != "" {
			extra(in, "task_description", t.Description)
		}
	}
	res := h.Fire(ctx, event, in)
	if event == hook.MessageDisplay {
		// Display only: it cannot block, and Claude Code reads only displayContent from
		// it, which replaces the text shown (not the model's or the transcript's).
		return agent.Verdict{Display: res.DisplayContent}
	}
	v := agent.Verdict{
		Block: res.Blocked, Reason: res.Reason, Context: res.AdditionalContext,
		Permission: res.Permission, StopAgent: !res.Continue, StopReason: res.StopReason,
	}
	return v
}

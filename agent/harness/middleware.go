package harness

import (
	"context"
	"encoding/json"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
)

// Middleware returns the agent tool middleware that runs the tool hooks around each call,
// in the order of hookcore.Runner.Middleware (seed 000), on Fire so that every event is
// logged and the permission decision reaches the agent's permission check:
//
//	PreToolUse  → blocked: *agent.RejectedError (wrapping *hookcore.ToolRejectedError) whose
//	              reason the model gets as the tool result; the tool does not run
//	            → rewritten: next gets the updated input (what the tool really runs)
//	            → permission allow/ask: agent.WithPermission (a static deny rule still wins;
//	              an ask nobody can answer denies with the hook's reason)
//	            → context: agent.Notify; continue: false: agent.StopTurn
//	next(ctx, input)
//	PostToolUse (next succeeded, tool_response = its output)
//	or PostToolUseFailure (next failed, error = its message)
//	            → a block's reason and any context: agent.Notify, as
//	              "PostToolUse hook feedback: REASON"
//	            → updatedToolOutput (updatedMCPToolOutput on an MCP tool): returned
//	              instead of the tool's output, so the model sees it
//	PreToolUse permission defer: the tool does not run and the turn ends (agent.StopTurn)
//
// Tool calls of a sub-agent carry its agent_id and agent_type.
func (h *Harness) Middleware() agent.ToolMiddleware {
	return func(ctx context.Context, call agent.ToolCall, next agent.ToolFunc) (json.RawMessage, error) {
		info := agent.InfoFrom(ctx)
		in := h.input(info)
		in.ToolName, in.ToolInput, in.ToolUseID = call.Name, call.Input, call.ID
		pre := h.Fire(ctx, hook.PreToolUse, in)
		if pre.Blocked {
			rej := &hookcore.ToolRejectedError{Tool: call.Name, Reason: pre.Reason, Result: pre}
			for _, r := range pre.Hooks {
				if r.Outcome == hook.OutcomeBlock && rej.HookID == "" {
					rej.HookID = r.ID
				}
			}
			return nil, &agent.RejectedError{Tool: call.Name, Reason: pre.Reason, Err: rej}
		}
		if pre.Permission == hook.Defer {
			// Claude Code's "defer" (2.1.332, testdata/claude/defer): the tool does not run
			// and the turn ends, for whoever runs the agent to decide and resume.
			agent.StopTurn(ctx, "tool call deferred by a PreToolUse hook: "+pre.Reason)
			return nil, &agent.RejectedError{Tool: call.Name, Reason: "deferred: " + pre.Reason}
		}
		if pre.UpdatedInput != nil {
			call.Input = pre.UpdatedInput
		}
		agent.Notify(ctx, pre.AdditionalContext)
		if !pre.Continue {
			agent.StopTurn(ctx, pre.StopReason)
		}
		switch pre.Permission {
		case hook.Allow:
			ctx = agent.WithPermission(ctx, agent.Allow, pre.Reason)
		case hook.Ask:
			ctx = agent.WithPermission(ctx, agent.Ask, pre.Reason)
		}
		out, err := next(ctx, call.Input)
		in = h.input(info)
		in.ToolName, in.ToolInput, in.ToolUseID = call.Name, call.Input, call.ID
		var post hook.Result
		if err != nil {
			in.Error = err.Error()
			post = h.Fire(ctx, hook.PostToolUseFailure, in)
		} else {
			in.ToolResponse = out
			post = h.Fire(ctx, hook.PostToolUse, in)
		}
		if post.Blocked {
			agent.Notify(ctx, string(post.Event)+" hook feedback: "+post.Reason)
		}
		agent.Notify(ctx, post.AdditionalContext)
		if !post.Continue {
			agent.StopTurn(ctx, post.StopReason)
		}
		if err == nil {
			out = post.ToolOutput(call.Name, out) // updatedToolOutput: what the model sees
		}
		return out, err
	}
}

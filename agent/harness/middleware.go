package harness

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// Middleware returns the agent tool middleware that runs the tool hooks around each call:
// hookcore.Runner.Middleware (the one Pre/PostToolUse adapter), firing through h.Fire so
// that every event is logged and traced, and passing the permission decision on to the
// agent's permission check (hookcore.PassPermission with agent.WithPermission). Around it,
// this layer gives the hooks the session (agent_id and agent_type inside a sub-agent, the
// session log as transcript_path) and turns what they said into the agent's terms:
//
//	PreToolUse  → blocked: *tool.RejectedError, whose reason the model gets as the tool
//	              result; the tool does not run
//	            → rewritten: the tool runs the updated input
//	            → permission allow/ask: agent.WithPermission (a static deny rule still wins;
//	              an ask nobody can answer denies with the hook's reason)
//	            → context: agent.Notify; continue: false: agent.StopTurn
//	            → defer: the tool does not run and the turn ends (agent.StopTurn), the
//	              model gets "deferred: REASON"
//	PostToolUse or PostToolUseFailure
//	            → a block's reason and any context: agent.Notify, as
//	              "PostToolUse hook feedback: REASON"; continue: false: agent.StopTurn
//	            → updatedToolOutput (updatedMCPToolOutput on an MCP tool): returned
//	              instead of the tool's output, so the model sees it
func (h *Harness) Middleware() tool.Middleware {
	hooks := h.opts.Runner.Middleware(hookcore.FireVia(h.Fire), hookcore.PassPermission(agent.WithPermission))
	return func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
		s := tool.SessionFrom(ctx)
		s.TranscriptPath = h.opts.TranscriptPath
		ctx = tool.WithSession(ctx, s)
		ctx = hookcore.WithFeedback(ctx, func(event hook.Event, _ tool.Call, res hook.Result) {
			feedback(ctx, event, res)
		})
		out, err := hooks(ctx, call, next)
		if def := (*hookcore.ToolDeferredError)(nil); errors.As(err, &def) {
			// Claude Code's "defer" (2.1.332, testdata/claude/defer): the tool does not run
			// and the turn ends, for whoever runs the agent to decide and resume.
			agent.StopTurn(ctx, "tool call deferred by a PreToolUse hook: "+def.Reason)
			return nil, &tool.RejectedError{Tool: call.Name, Reason: "deferred: " + def.Reason, Err: err}
		}
		return out, err
	}
}

// feedback tells the agent what the hooks of event said about a tool call that was not
// blocked: context for the model, a PostToolUse block's reason, continue: false.
func feedback(ctx context.Context, event hook.Event, res hook.Result) {
	if res.Blocked && event != hook.PreToolUse {
		agent.Notify(ctx, string(event)+" hook feedback: "+res.Reason)
	}
	agent.Notify(ctx, res.AdditionalContext)
	if !res.Continue {
		agent.StopTurn(ctx, res.StopReason)
	}
}

package hookcore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// The tool-call vocabulary moved to package tool (docs/decisions.md, "One tool
// vocabulary"); these names stay for one release.
type (
	// ToolCall is one tool call.
	//
	// Deprecated: use tool.Call.
	ToolCall = tool.Call
	// ToolFunc executes a tool call's input and returns its output.
	//
	// Deprecated: use tool.Func.
	ToolFunc = tool.Func
	// ToolMiddleware wraps a tool execution.
	//
	// Deprecated: use tool.Middleware.
	ToolMiddleware = tool.Middleware
	// ToolRejectedError is a tool call a PreToolUse hook blocked. It no longer carries the
	// hook.Result: a FeedbackFunc or Runner.Fire gives the whole result.
	//
	// Deprecated: use tool.RejectedError.
	ToolRejectedError = tool.RejectedError
	// Session identifies the session a tool call belongs to.
	//
	// Deprecated: use tool.Session.
	Session = tool.Session
)

// Chain composes middlewares into one; the first is outermost, nil entries are skipped.
//
// Deprecated: use tool.Chain.
func Chain(mws ...tool.Middleware) tool.Middleware { return tool.Chain(mws...) }

// WithSession returns a context carrying s, read by Middleware.
//
// Deprecated: use tool.WithSession.
func WithSession(ctx context.Context, s tool.Session) context.Context {
	return tool.WithSession(ctx, s)
}

// SessionFrom returns the Session put in ctx by WithSession (zero if none).
//
// Deprecated: use tool.SessionFrom.
func SessionFrom(ctx context.Context) tool.Session { return tool.SessionFrom(ctx) }

// ToolDeferredError is returned by the middleware when a PreToolUse hook deferred a tool
// call (Claude Code's permissionDecision "defer"): the tool did not run, and the agent
// should stop and leave the call to whoever runs it, as Claude Code in -p mode ends the run
// with stop_reason "tool_deferred" (2.1.332, testdata/claude/defer).
type ToolDeferredError struct {
	Tool   string
	Reason string
	Result hook.Result
}

func (e *ToolDeferredError) Error() string {
	return fmt.Sprintf("tool %s deferred by hook: %s", e.Tool, e.Reason)
}

// FeedbackFunc receives every result of the hooks around a tool call that says something to
// the harness: additional context for the model, a PostToolUse block reason (Claude Code
// feeds a PostToolUse "decision: block" reason back to the model), a permission decision
// (allow or ask, for the harness's own permission check), continue: false (stop the agent)
// or a system message for the user. It is called after PreToolUse (when the call was not
// blocked) and after PostToolUse or PostToolUseFailure, on the tool call's goroutine.
type FeedbackFunc func(event hook.Event, call tool.Call, res hook.Result)

type feedbackKey struct{}

// WithFeedback returns a context whose tool calls report hook feedback to f.
func WithFeedback(ctx context.Context, f FeedbackFunc) context.Context {
	return context.WithValue(ctx, feedbackKey{}, f)
}

// MiddlewareOption configures Runner.Middleware.
type MiddlewareOption func(*middleware)

// FireVia makes the middleware run each tool event's hooks through fire instead of
// Runner.Fire, so that a harness can log and trace every event it fires in one place; fire
// must run the Runner's hooks (usually it wraps Runner.Fire).
func FireVia(fire func(ctx context.Context, event hook.Event, in *hook.Input) hook.Result) MiddlewareOption {
	return func(m *middleware) { m.fire = fire }
}

// PassPermission gives a PreToolUse permission decision (hook.Allow or hook.Ask, with the
// result's reason) to the tool's own permission check: the middleware calls next with the
// context it returns (agent.WithPermission is such a function). Deny never reaches it
// (a denied call is blocked), nor does Defer (ToolDeferredError); without a decision it is
// not called.
func PassPermission(with func(ctx context.Context, p hook.Permission, reason string) context.Context) MiddlewareOption {
	return func(m *middleware) { m.permission = with }
}

type middleware struct {
	fire       func(ctx context.Context, event hook.Event, in *hook.Input) hook.Result
	permission func(ctx context.Context, p hook.Permission, reason string) context.Context
}

// toolInput returns the hook input for event about call, filled from the session in ctx.
func toolInput(ctx context.Context, event hook.Event, call tool.Call) *hook.Input {
	s := tool.SessionFrom(ctx)
	return &hook.Input{
		SessionID: s.ID, TranscriptPath: s.TranscriptPath, Cwd: s.Cwd, PermissionMode: s.PermissionMode,
		HookEventName: string(event), ToolName: call.Name, ToolInput: call.Input, ToolUseID: call.ID,
		AgentID: s.AgentID, AgentType: s.AgentType,
	}
}

// Middleware returns the tool middleware that runs the tool hooks around each tool call,
// the one Pre/PostToolUse adapter of hookcore (the reference agent's harness uses it too):
//
//	PreToolUse  → blocked: return *tool.RejectedError (Reason, and HookID: the first blocking
//	              hook in config order, whose reason is the result's), the tool does not run
//	            → defer: return *ToolDeferredError, the tool does not run
//	            → rewritten: next gets the updated input
//	            → permission allow/ask: next gets the context of PassPermission, if given
//	next(ctx, input)
//	PostToolUse (next succeeded, tool_response = its output)
//	or PostToolUseFailure (next failed, error = its message)
//
// The tool's error is returned unchanged; its output too, unless a PostToolUse hook replaced
// it (Result.ToolOutput: updatedToolOutput, or updatedMCPToolOutput on an MCP tool), as
// Claude Code 2.1.332 shows the model the replacement (testdata/claude/updated-output). Hook
// feedback for the model (context, PostToolUse block reasons, continue: false) goes to the
// FeedbackFunc in ctx, if any (WithFeedback). The session fields of the hook inputs come
// from tool.SessionFrom(ctx).
func (r *Runner) Middleware(opts ...MiddlewareOption) tool.Middleware {
	m := middleware{fire: r.Fire}
	for _, o := range opts {
		o(&m)
	}
	return m.run
}

func (m *middleware) run(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
	feedback, _ := ctx.Value(feedbackKey{}).(FeedbackFunc)
	pre := m.fire(ctx, hook.PreToolUse, toolInput(ctx, hook.PreToolUse, call))
	if pre.Blocked {
		return nil, &tool.RejectedError{Tool: call.Name, HookID: firstBlock(pre), Reason: pre.Reason}
	}
	if pre.Permission == hook.Defer {
		return nil, &ToolDeferredError{Tool: call.Name, Reason: pre.Reason, Result: pre}
	}
	if pre.UpdatedInput != nil {
		call.Input = pre.UpdatedInput
	}
	if feedback != nil && speaks(pre) {
		feedback(hook.PreToolUse, call, pre)
	}
	if m.permission != nil && pre.Permission != hook.NoPermission {
		ctx = m.permission(ctx, pre.Permission, pre.Reason)
	}
	out, err := next(ctx, call.Input)
	post := m.after(ctx, call, out, err)
	if feedback != nil && speaks(post) {
		feedback(post.Event, call, post)
	}
	if err == nil {
		out = post.ToolOutput(call.Name, out)
	}
	return out, err
}

// after fires PostToolUse with the tool's output, or PostToolUseFailure with its error.
func (m *middleware) after(ctx context.Context, call tool.Call, out json.RawMessage, err error) hook.Result {
	if err != nil {
		in := toolInput(ctx, hook.PostToolUseFailure, call)
		in.Error = err.Error()
		return m.fire(ctx, hook.PostToolUseFailure, in)
	}
	in := toolInput(ctx, hook.PostToolUse, call)
	in.ToolResponse = out
	return m.fire(ctx, hook.PostToolUse, in)
}

// firstBlock returns the id of the first hook of res, in config order, that blocked: the
// one whose reason is the result's (merge rule 3).
func firstBlock(res hook.Result) string {
	for _, h := range res.Hooks {
		if h.Outcome == hook.OutcomeBlock {
			return h.ID
		}
	}
	return ""
}

// speaks reports whether a result has anything for the harness beyond "go on".
func speaks(res hook.Result) bool {
	return res.Blocked || res.AdditionalContext != "" || res.Permission != hook.NoPermission ||
		!res.Continue || res.SystemMessage != ""
}

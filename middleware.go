package hookcore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hookcore/hookcore/hook"
)

// ToolCall is one tool call as a tool pipeline sees it (the seed's agentcore.ToolCall).
type ToolCall struct {
	ID    string          // the tool_use id
	Name  string          // the tool name, e.g. "Bash"
	Input json.RawMessage // the arguments, a JSON object
}

// ToolFunc executes a tool call's input and returns its output.
type ToolFunc func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// ToolMiddleware wraps a tool execution (the seed's agentcore.ToolMiddleware): it may run
// code before next, skip next (veto), change the input it passes to next, and look at the
// output after.
type ToolMiddleware func(ctx context.Context, call ToolCall, next ToolFunc) (json.RawMessage, error)

// Chain composes middlewares into one; the first is outermost, nil entries are skipped:
//
//	Chain(a, b)(ctx, call, tool)  ==  a → b → tool → b → a
func Chain(mws ...ToolMiddleware) ToolMiddleware {
	var list []ToolMiddleware
	for _, m := range mws {
		if m != nil {
			list = append(list, m)
		}
	}
	return func(ctx context.Context, call ToolCall, next ToolFunc) (json.RawMessage, error) {
		f := next
		for i := len(list) - 1; i >= 0; i-- {
			m, inner := list[i], f
			f = func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
				c := call
				c.Input = input
				return m(ctx, c, inner)
			}
		}
		return f(ctx, call.Input)
	}
}

// ToolRejectedError is returned by the middleware when a PreToolUse hook blocked a tool call
// (MiniCode's ToolRejectedError): the tool did not run, and the agent loop should give Reason
// back to the model as the tool result so that it can change course.
type ToolRejectedError struct {
	Tool   string
	HookID string // the hook that blocked, when known
	Reason string
	Result hook.Result
}

func (e *ToolRejectedError) Error() string {
	return fmt.Sprintf("tool %s rejected by hook: %s", e.Tool, e.Reason)
}

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

// Session identifies the session a tool call belongs to; the middleware copies it into every
// hook input. Put it in the context with WithSession.
type Session struct {
	ID             string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	AgentID        string // set inside a sub-agent
	AgentType      string
}

type sessionKey struct{}

// WithSession returns a context carrying s, read by Middleware.
func WithSession(ctx context.Context, s Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionFrom returns the Session put in ctx by WithSession (zero if none).
func SessionFrom(ctx context.Context) Session {
	s, _ := ctx.Value(sessionKey{}).(Session)
	return s
}

// FeedbackFunc receives every result of the hooks around a tool call that says something to
// the harness: additional context for the model, a PostToolUse block reason (Claude Code
// feeds a PostToolUse "decision: block" reason back to the model), a permission decision
// (allow or ask, for the harness's own permission check), continue: false (stop the agent)
// or a system message for the user. It is called after PreToolUse (when the call was not
// blocked) and after PostToolUse or PostToolUseFailure.
type FeedbackFunc func(event hook.Event, call ToolCall, res hook.Result)

type feedbackKey struct{}

// WithFeedback returns a context whose tool calls report hook feedback to f.
func WithFeedback(ctx context.Context, f FeedbackFunc) context.Context {
	return context.WithValue(ctx, feedbackKey{}, f)
}

// Input returns the hook input for event about call, filled from the session in ctx.
func toolInput(ctx context.Context, event hook.Event, call ToolCall) *hook.Input {
	s := SessionFrom(ctx)
	return &hook.Input{
		SessionID: s.ID, TranscriptPath: s.TranscriptPath, Cwd: s.Cwd, PermissionMode: s.PermissionMode,
		HookEventName: string(event), ToolName: call.Name, ToolInput: call.Input, ToolUseID: call.ID,
		AgentID: s.AgentID, AgentType: s.AgentType,
	}
}

// Middleware returns the ToolMiddleware that runs the tool hooks around each tool call:
//
//	PreToolUse  → blocked: return *ToolRejectedError, the tool does not run
//	            → rewritten: next gets the updated input
//	next(ctx, input)
//	PostToolUse (next succeeded, tool_response = its output)
//	or PostToolUseFailure (next failed, error = its message)
//
// A PreToolUse permission "defer" returns *ToolDeferredError and the tool does not run. The
// tool's error is returned unchanged; its output too, unless a PostToolUse hook replaced it
// (Result.ToolOutput: updatedToolOutput, or updatedMCPToolOutput on an MCP tool), as Claude
// Code 2.1.332 shows the model the replacement (testdata/claude/updated-output). Hook feedback for the model (context,
// PostToolUse block reasons) goes to the FeedbackFunc in ctx, if any (WithFeedback); a
// permission "ask" is the harness's to act on and does not block here. The session fields of
// the hook inputs come from WithSession.
func (r *Runner) Middleware() ToolMiddleware {
	return func(ctx context.Context, call ToolCall, next ToolFunc) (json.RawMessage, error) {
		feedback, _ := ctx.Value(feedbackKey{}).(FeedbackFunc)
		pre := r.Fire(ctx, hook.PreToolUse, toolInput(ctx, hook.PreToolUse, call))
		if pre.Blocked {
			e := &ToolRejectedError{Tool: call.Name, Reason: pre.Reason, Result: pre}
			for _, h := range pre.Hooks {
				if h.Outcome == hook.OutcomeBlock {
					e.HookID = h.ID
				}
			}
			return nil, e
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
		out, err := next(ctx, call.Input)
		var post hook.Result
		if err != nil {
			in := toolInput(ctx, hook.PostToolUseFailure, call)
			in.Error = err.Error()
			post = r.Fire(ctx, hook.PostToolUseFailure, in)
		} else {
			in := toolInput(ctx, hook.PostToolUse, call)
			in.ToolResponse = out
			post = r.Fire(ctx, hook.PostToolUse, in)
		}
		if feedback != nil && speaks(post) {
			feedback(post.Event, call, post)
		}
		if err == nil {
			out = post.ToolOutput(call.Name, out)
		}
		return out, err
	}
}

// speaks reports whether a result has anything for the harness beyond "go on".
func speaks(res hook.Result) bool {
	return res.Blocked || res.AdditionalContext != "" || res.Permission != hook.NoPermission ||
		!res.Continue || res.SystemMessage != ""
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
)

// Tool is a capability the model can call. Run is called with the input after every
// middleware ran (a rewritten input is what runs) and after the permission check; it may be
// called concurrently by sub-agents and must return soon after ctx is done. Its output is any
// JSON value (a JSON string is shown to the model as plain text); an error is shown to the
// model as an error result and reported to the middleware.
type Tool interface {
	Name() string
	Description() string
	// Schema is the JSON Schema object of the input.
	Schema() json.RawMessage
	// NeedsApproval reports whether this call needs the user's permission (unless a rule,
	// the permission mode, a middleware or the Observer decides).
	NeedsApproval(input json.RawMessage) bool
	Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error)
}

// FileChanger is implemented by tools that change a file: after a successful call the
// Session reports a FileChange moment and marks the turn as needing validation
// (PostStopValidation, seed 000).
type FileChanger interface {
	// ChangedFile returns the absolute or workspace-relative path the call changed, or "".
	ChangedFile(input json.RawMessage) string
}

// ToolFunc executes a tool call's input and returns its output.
type ToolFunc func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// ToolMiddleware wraps a tool execution (seed 000's agentcore.ToolMiddleware): it may run code
// before next, skip next (veto, returning an error; a *RejectedError carries the reason for
// the model), pass next another input (the rewrite is what the tool runs) or another context
// (WithPermission), and look at the output after.
type ToolMiddleware func(ctx context.Context, call ToolCall, next ToolFunc) (json.RawMessage, error)

// Chain composes middlewares into one; the first is outermost and nil entries are skipped:
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

// RejectedError is a tool call that did not run because a middleware, a permission rule,
// the Observer or the user refused it (MiniCode's ToolRejectedError, seed 004). The Session
// gives Reason, verbatim, back to the model as the tool result, so it can change course.
type RejectedError struct {
	Tool   string
	Reason string
	Err    error // the underlying error, when a middleware translated one
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("tool %s rejected: %s", e.Tool, e.Reason)
}

// Unwrap returns the underlying error.
func (e *RejectedError) Unwrap() error { return e.Err }

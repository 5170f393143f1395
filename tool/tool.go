package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// Call is one tool call: what the model asked for, as every middleware and the tool see it
// (seed 000's agentcore.ToolCall). Its JSON form is {"id", "name", "input"}.
type Call struct {
	ID    string          `json:"id"`    // the tool_use id, e.g. "toolu_01…"
	Name  string          `json:"name"`  // the tool's name, e.g. "Bash"
	Input json.RawMessage `json:"input"` // the arguments, a JSON object
}

// Func runs a tool call's input and returns its output, any JSON value (a JSON string is
// shown to the model as plain text). An error is shown to the model as an error result; a
// *RejectedError's Reason is shown verbatim.
type Func func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// Middleware wraps a tool execution. It is called once per tool call, possibly
// concurrently for calls of parallel sub-agents, and owns neither call nor next: it may run
// code before next, skip next (a veto, returning an error: a *RejectedError carries the
// reason for the model), call next with another input (the rewrite is what the tool runs)
// or another context, and look at or replace the output after. It must return soon after
// ctx is done.
type Middleware func(ctx context.Context, call Call, next Func) (json.RawMessage, error)

// Chain composes middlewares into one; the first is outermost and nil entries are skipped:
//
//	Chain(a, b)(ctx, call, tool)  ==  a → b → tool → b → a
//
// Each layer sees the call with the input the layer outside it passed on. Chain() calls the
// tool directly.
func Chain(mws ...Middleware) Middleware {
	var list []Middleware
	for _, m := range mws {
		if m != nil {
			list = append(list, m)
		}
	}
	return func(ctx context.Context, call Call, next Func) (json.RawMessage, error) {
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

// RejectedError is a tool call that did not run because a hook, a middleware, a permission
// rule or the user refused it (MiniCode's ToolRejectedError, seed 004). The agent gives
// Reason, verbatim, back to the model as the tool result, so that it can change course.
type RejectedError struct {
	Tool   string // the tool's name
	HookID string // the hook that blocked, when a hook did: the first blocking one in config order
	Reason string // for the model
	Err    error  // the underlying error, when a middleware translated one
}

// Error returns "tool NAME rejected: REASON" ("… rejected by hook ID: REASON" when a hook
// blocked).
func (e *RejectedError) Error() string {
	if e.HookID != "" {
		return fmt.Sprintf("tool %s rejected by hook %s: %s", e.Tool, e.HookID, e.Reason)
	}
	return fmt.Sprintf("tool %s rejected: %s", e.Tool, e.Reason)
}

// Unwrap returns the underlying error.
func (e *RejectedError) Unwrap() error { return e.Err }

package hook

import "context"

// Executor runs one configured hook for one event.
//
// Execute is called by the Runner once per matching hook and event, possibly concurrently
// with other calls on the same Executor (parallel and async hooks, concurrent sessions), so
// an Executor must be safe for concurrent use. The Input belongs to the caller: Execute must
// not modify it or keep it after returning.
//
// Execute returns the hook's Decision. A hook that blocks returns a Decision with Block (or
// Permission Deny) and a nil error. A hook that fails returns an error (wrapping ErrTimeout,
// ErrNotStarted, ErrBadOutput or ErrBadInput (ErrInputTooLarge) where they apply) and
// whatever Decision fields it learned (ExitCode, Output); the Runner records it as an error
// and lets the action through unless the hook is configured on_error: block or, on a gate
// event, the error wraps ErrBadInput. ctx carries the hook's deadline; Execute must return soon after ctx is
// done.
type Executor interface {
	Execute(ctx context.Context, in *Input) (Decision, error)
}

// ExecutorFunc adapts an ordinary function to Executor, as http.HandlerFunc does.
type ExecutorFunc func(ctx context.Context, in *Input) (Decision, error)

// Execute calls f(ctx, in).
func (f ExecutorFunc) Execute(ctx context.Context, in *Input) (Decision, error) { return f(ctx, in) }

package hooktest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/hookcore/hookcore/hook"
)

// Recorder is a hook.Executor that records every call and answers Decision and Err. Its
// zero value answers an empty Decision (the hook ran, nothing to say). It is safe for
// concurrent use; set Decision and Err before the first call.
type Recorder struct {
	Decision hook.Decision
	Err      error

	mu    sync.Mutex
	calls []hook.Input
}

// Execute records a copy of in (ToolInput and ToolResponse copied too, so the caller may
// reuse its Input) and returns r.Decision, r.Err. It does not look at ctx.
func (r *Recorder) Execute(_ context.Context, in *hook.Input) (hook.Decision, error) {
	c := *in
	c.ToolInput = append(json.RawMessage(nil), in.ToolInput...)
	c.ToolResponse = append(json.RawMessage(nil), in.ToolResponse...)
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	return r.Decision, r.Err
}

// Calls returns the inputs of the calls so far, in the order they arrived.
func (r *Recorder) Calls() []hook.Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hook.Input(nil), r.calls...)
}

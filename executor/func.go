package executor

import (
	"context"
	"fmt"

	"github.com/hookcore/hookcore/hook"
)

// Func is a Go callback registered by a library user as a hook (DESIGN.md section 6,
// "func"). Execute calls Fn and returns what it returns; a panic in Fn is recovered and
// returned as a non-blocking error ("hook panicked: ..."), so a buggy callback never takes
// the agent down.
type Func struct {
	Fn hook.ExecutorFunc
}

// Execute calls x.Fn(ctx, in). A nil Fn is an error wrapping hook.ErrNotStarted.
func (x Func) Execute(ctx context.Context, in *hook.Input) (d hook.Decision, err error) {
	if x.Fn == nil {
		return hook.Decision{ExitCode: -1}, fmt.Errorf("%w: nil func", hook.ErrNotStarted)
	}
	defer func() {
		if r := recover(); r != nil {
			d = hook.Decision{ExitCode: -1}
			if e, ok := r.(error); ok {
				err = fmt.Errorf("hook panicked: %w", e)
			} else {
				err = fmt.Errorf("hook panicked: %v", r)
			}
		}
	}()
	d, err = x.Fn(ctx, in)
	return d, err
}

package executor

import (
	"context"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

// Inject is MiniCode's prompt-injection executor (seed 004; DESIGN.md section 6, "inject"):
// it adds Message, with its context variables replaced by their values as plain text, as
// additional context. The harness shows it to the model as a reminder in the system area;
// `once` is the Runner's business. Inject never fails; its Decision's ExitCode is -1 (no
// process).
type Inject struct {
	Message string
}

// Execute returns Decision{AdditionalContext: the expanded message}.
func (x Inject) Execute(_ context.Context, in *hook.Input) (hook.Decision, error) {
	return hook.Decision{AdditionalContext: hookio.ExpandPlain(x.Message, in), ExitCode: -1}, nil
}

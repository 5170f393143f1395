package cli

import (
	"context"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// forward sends one event to a `hookcore serve` and returns its answer (see serve.go).
func (e *env) forward(ctx context.Context, p bridge.Protocol, override string, data []byte, hf *hookFlags, block bool, event hook.Event) bridge.Answer {
	return p.Fail(event, "--server is not implemented yet", block)
}

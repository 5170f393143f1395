package model

import (
	"context"
	"errors"
)

// Completer is one-shot text completion: a system prompt and a user prompt in, the reply's
// text out. It has the method set of executor.Model, so every Completer can judge hooks.
// Implementations are safe for concurrent use; Complete returns when ctx is done.
type Completer interface {
	Complete(ctx context.Context, system, prompt string) (string, error)
}

// ErrNoKey is wrapped by Config.New when neither the provider's API key nor a server of its
// own is set.
var ErrNoKey = errors.New("api key not set")

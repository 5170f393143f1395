package agent

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// SignalError is the cause of a context cancelled by NotifyContext.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "received " + e.Signal.String() }

// Reason returns the SessionEnd reason for the signal: "sigint", "sigterm", or the lower-case
// signal name.
func (e *SignalError) Reason() string {
	switch e.Signal {
	case os.Interrupt:
		return "sigint"
	case syscall.SIGTERM:
		return "sigterm"
	}
	return strings.ReplaceAll(strings.ToLower(e.Signal.String()), " ", "_")
}

// NotifyContext returns a context cancelled, with a *SignalError cause, when one of sigs
// arrives (default SIGINT and SIGTERM). After the first signal the handler is removed, so a
// second signal has its default effect (the process dies) while SessionEnd runs its grace
// period. stop releases the handler.
func NotifyContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop func()) {
	if len(sigs) == 0 {
		sigs = []os.Signal{os.Interrupt, syscall.SIGTERM}
	}
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(&SignalError{Signal: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		select {
		case <-done:
		default:
			close(done)
		}
		cancel(context.Canceled)
	}
}

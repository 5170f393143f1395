package cli

import (
	"context"
	"errors"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/hookcore/hookcore"
)

// signalGate gives the hook command's event its context, which SIGINT and SIGTERM cancel as
// signal.NotifyContext's would, and arms that only when the first hook of the event is about
// to run: it is the Runner's Approver (asked before every run of every hook), approves what
// next approves (--approve; nil: everything) and, before the first answer, registers the
// signals. An event whose hooks all stay unmatched (the common case of a guard: its `if`
// does not match) then starts no signal-handling thread, which is about a tenth of the hook
// command's cold start (docs/decisions.md, "Cold start of the hook path, second pass"). A
// signal before the first hook runs ends the process, as one during its start always did.
type signalGate struct {
	ctx    context.Context // the event's context; a signal cancels it with the signal as cause
	cancel context.CancelCauseFunc
	next   hookcore.Approver
	// deadline, when not zero, ends the event's hooks (cause errHookBudget) before the agent's
	// own timeout for its hook command would (agentBudget), armed with the signals.
	deadline time.Time

	once sync.Once
	stop context.CancelFunc // signal.NotifyContext's, once armed
}

// errHookBudget is the cause of a signalGate's context ended by its deadline.
var errHookBudget = errors.New("the hooks did not finish before the agent's own timeout for its hook command")

// newSignalGate returns the gate of an event fired under parent. Call Stop when the event's
// hooks, async ones included, are done.
func newSignalGate(parent context.Context) *signalGate {
	ctx, cancel := context.WithCancelCause(parent)
	return &signalGate{ctx: ctx, cancel: cancel}
}

// Approve arms the signals, then asks next. It is safe for concurrent use.
func (g *signalGate) Approve(ctx context.Context, h hookcore.HookInfo) (bool, error) {
	g.once.Do(func() {
		sctx, stop := signal.NotifyContext(g.ctx, syscall.SIGINT, syscall.SIGTERM)
		context.AfterFunc(sctx, func() { g.cancel(context.Cause(sctx)) })
		g.stop = stop
		if !g.deadline.IsZero() {
			// Armed here, with the first hook, like the signals: a timer set up in every
			// hook process costs its cold start (timeoutOnUse).
			t := time.AfterFunc(time.Until(g.deadline), func() { g.cancel(errHookBudget) })
			g.stop = func() { t.Stop(); stop() }
		}
	})
	if g.next == nil {
		return true, nil
	}
	return g.next.Approve(ctx, h)
}

// Stop unregisters the signals, if armed, and cancels the event's context; no hook may run
// after it.
func (g *signalGate) Stop() {
	g.once.Do(func() {}) // orders this read of g.stop after an arming, and prevents a later one
	if g.stop != nil {
		g.stop()
	}
	g.cancel(nil)
}

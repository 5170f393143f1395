//go:build hookcore_lean

package hookcore

import (
	"context"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// The lean hook binary's build (-tags hookcore_lean) links no OpenTelemetry: its package
// initialisation was a twentieth of a hook process's start (issue 9). Options.Tracer and
// Options.Meter are then empty interfaces that nothing reads, and telemetry does nothing;
// the lean binary hands an event over to the full hookcore when telemetry is asked for.

type (
	otelTracer = any
	otelMeter  = any
)

// telemetry records nothing in this build.
type telemetry struct{}

// fireSpan is the span of one fired event: none in this build.
type fireSpan struct{}

func newTelemetry(Options) *telemetry { return nil }

func (t *telemetry) startFire(ctx context.Context, _ hook.Event, _ *hook.Input, _ []*compiled) (context.Context, *fireSpan) {
	return ctx, nil
}

func (t *telemetry) rejoin(ctx context.Context, _ *compiled) context.Context    { return ctx }
func (t *telemetry) endFire(context.Context, *fireSpan, *hook.Result)           {}
func (t *telemetry) startHook(ctx context.Context, _ *compiled) context.Context { return ctx }
func (t *telemetry) stopHook(context.Context, *compiled, time.Time, time.Time)  {}
func (t *telemetry) endHook(context.Context, *compiled, *hook.Record)           {}
func (t *telemetry) close(context.Context) error                                { return nil }

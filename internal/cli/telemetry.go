//go:build otel && !hookcore_lean

package cli

import (
	"context"
	"time"

	"go.opentelemetry.io/otel"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/telemetry"
)

// telemetryFlush bounds the flush of traces and metrics at exit: `hookcore fire` is one
// process per event, and a collector that is down must not hold the agent up longer.
const telemetryFlush = 2 * time.Second

// telemetry sets opts.Tracer and opts.Meter when telemetry is configured (--otel URL or the
// OTEL_EXPORTER_OTLP_* variables), building the exporters once per process. Export errors
// go to the logger (stderr), never to stdout.
func (e *env) telemetry(endpoint string, opts *hookcore.Options) error {
	p, _ := e.tel.(*telemetry.Provider)
	if p == nil {
		var err error
		p, err = telemetry.New(context.Background(), telemetry.Config{Endpoint: endpoint})
		if err != nil || p == nil {
			return err
		}
		log := e.logger()
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("telemetry", "err", err) }))
		e.tel = p
	}
	opts.Tracer, opts.Meter = p.Tracer(), p.Meter()
	return nil
}

// flushTelemetry sends what is queued, for at most telemetryFlush.
func (e *env) flushTelemetry() {
	if e.tel == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), telemetryFlush)
	defer cancel()
	if err := e.tel.Shutdown(ctx); err != nil {
		e.logger().Warn("telemetry: not all spans and metrics were sent", "err", err)
	}
}

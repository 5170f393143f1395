//go:build !otel || hookcore_lean

package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hookcore/hookcore"
)

// The default build does not link the OpenTelemetry SDK and the OTLP exporters: their
// package initialisation (grpc's among them) and size add about 3 ms to every hook process
// start (docs/decisions.md, "OpenTelemetry is opt-in in the binary"); build with -tags otel.
//
// telemetry says, on stderr, that telemetry was asked for (--otel, OTEL_EXPORTER_OTLP_*) but
// this build cannot send it; decisions go on as without it.
func (e *env) telemetry(endpoint string, _ *hookcore.Options) error {
	asked := endpoint != ""
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		asked = asked || os.Getenv(k) != ""
	}
	if asked && !strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") && e.tel == nil {
		fmt.Fprintln(e.stderr, "hookcore: telemetry was asked for, but this hookcore was built without OpenTelemetry (build it with -tags otel); no traces or metrics are sent")
		e.tel = noTelemetry{} // say it once per process
	}
	return nil
}

type noTelemetry struct{}

func (noTelemetry) Shutdown(context.Context) error { return nil }

// flushTelemetry has nothing to send.
func (e *env) flushTelemetry() {}

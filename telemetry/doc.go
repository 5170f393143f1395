// Package telemetry exports hookcore's traces and metrics (hookcore.Options.Tracer and
// Options.Meter) with the OpenTelemetry Go SDK over OTLP/HTTP (protobuf), in the background.
//
// It is off unless configured: by an explicit endpoint (the CLI's --otel URL) or by the
// standard variables OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT; OTEL_SDK_DISABLED=true turns it off whatever else is
// set. The SDK itself reads the other standard variables (OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_EXPORTER_OTLP_COMPRESSION, ...); OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES name the resource, "hookcore" by default.
//
// Spans go through a batch span processor and metrics through a periodic reader: a fired
// event only appends to an in-memory queue (a full queue drops spans rather than wait), so
// a slow or absent collector never slows a decision. Provider.Shutdown flushes both, bounded
// by its context: the CLI gives it 2 seconds at exit (one `hookcore fire` process per event).
//
// The root package hookcore uses only the OpenTelemetry API; only programs that link this
// package pay for the SDK and the exporters (issue 12 item 2).
package telemetry

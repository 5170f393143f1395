package telemetry

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of hookcore's tracer and meter.
const ScopeName = "github.com/hookcore/hookcore"

// Config says where telemetry goes. The zero value reads the environment.
type Config struct {
	// Endpoint is the base URL of an OTLP/HTTP receiver ("http://localhost:4318"); spans go
	// to Endpoint/v1/traces and metrics to Endpoint/v1/metrics. It overrides the
	// OTEL_EXPORTER_OTLP_*ENDPOINT variables. Empty: those variables decide.
	Endpoint string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// BatchTimeout is the longest a span waits in the queue before it is sent; 0 means the
	// SDK's default (5 s, or OTEL_BSP_SCHEDULE_DELAY).
	BatchTimeout time.Duration
	// ExportInterval is the period of the metric reader; 0 means the SDK's default (60 s,
	// or OTEL_METRIC_EXPORT_INTERVAL). Metrics are also sent at Shutdown.
	ExportInterval time.Duration
}

// Enabled reports whether cfg turns telemetry on: an Endpoint, or one of the OTLP endpoint
// variables, and OTEL_SDK_DISABLED not "true".
func (cfg Config) Enabled() bool {
	getenv := cfg.getenv()
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	if cfg.Endpoint != "" {
		return true
	}
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		if getenv(v) != "" {
			return true
		}
	}
	return false
}

func (cfg Config) getenv() func(string) string {
	if cfg.Getenv != nil {
		return cfg.Getenv
	}
	return os.Getenv
}

// Provider owns the SDK's tracer and meter providers and their exporters.
type Provider struct {
	tp *sdktrace.TracerProvider
	mp *sdkmetric.MeterProvider
}

// New builds the exporters and providers of cfg, or returns nil and no error when cfg is
// not Enabled. It does not connect: an absent collector shows up as export errors later
// (reported to the OpenTelemetry error handler, otel.SetErrorHandler), never here.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if !cfg.Enabled() {
		return nil, nil
	}
	var topts []otlptracehttp.Option
	var mopts []otlpmetrichttp.Option
	if cfg.Endpoint != "" {
		base := strings.TrimRight(cfg.Endpoint, "/")
		topts = append(topts, otlptracehttp.WithEndpointURL(base+"/v1/traces"))
		mopts = append(mopts, otlpmetrichttp.WithEndpointURL(base+"/v1/metrics"))
	}
	te, err := otlptracehttp.New(ctx, topts...)
	if err != nil {
		return nil, err
	}
	me, err := otlpmetrichttp.New(ctx, mopts...)
	if err != nil {
		return nil, errors.Join(err, te.Shutdown(ctx))
	}
	res, err := resource.Merge(
		resource.NewSchemaless(attribute.String("service.name", "hookcore")),
		resource.Environment(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
	)
	if err != nil {
		res = resource.Default()
	}
	var bopts []sdktrace.BatchSpanProcessorOption
	if cfg.BatchTimeout > 0 {
		bopts = append(bopts, sdktrace.WithBatchTimeout(cfg.BatchTimeout))
	}
	var ropts []sdkmetric.PeriodicReaderOption
	if cfg.ExportInterval > 0 {
		ropts = append(ropts, sdkmetric.WithInterval(cfg.ExportInterval))
	}
	return &Provider{
		tp: sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(te, bopts...)),
		mp: sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me, ropts...))),
	}, nil
}

// Tracer returns hookcore's tracer, for hookcore.Options.Tracer; nil on a nil Provider.
func (p *Provider) Tracer() trace.Tracer {
	if p == nil {
		return nil
	}
	return p.tp.Tracer(ScopeName)
}

// Meter returns hookcore's meter, for hookcore.Options.Meter; nil on a nil Provider.
func (p *Provider) Meter() metric.Meter {
	if p == nil {
		return nil
	}
	return p.mp.Meter(ScopeName)
}

// Shutdown sends what is queued (spans, then the last metric collection) and stops the
// exporters. It returns when done or when ctx is done, with ctx's error: what was not sent
// by then is dropped. Nil Provider: nothing to do.
func (p *Provider) Shutdown(ctx context.Context) error {
	if p == nil {
		return nil
	}
	return errors.Join(p.tp.Shutdown(ctx), p.mp.Shutdown(ctx))
}

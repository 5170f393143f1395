package hookcore

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookcore/hookcore/hook"
)

// telemetry holds the OpenTelemetry instruments of a Runner (Options.Tracer, Options.Meter).
// A nil *telemetry is off: every method is then a nil check and nothing more, and the
// no-match path of Fire never reaches it.
type telemetry struct {
	tracer    trace.Tracer // nil: no spans
	inputs    bool         // Options.TraceInputs
	decisions metric.Int64Counter
	latency   metric.Float64Histogram
	errors    metric.Int64Counter
	timeouts  metric.Int64Counter
	sets      sync.Map // attribute key ("type\x00func", "event\x00PreToolUse\x00block") → metric.MeasurementOption
}

// attrs returns the measurement option of the attributes kv, built once per distinct set
// (there are few: hook types, events × outcomes).
func (t *telemetry) attrs(key string, kv ...attribute.KeyValue) metric.MeasurementOption {
	if o, ok := t.sets.Load(key); ok {
		return o.(metric.MeasurementOption)
	}
	o := metric.WithAttributeSet(attribute.NewSet(kv...))
	t.sets.Store(key, o)
	return o
}

// newTelemetry builds the instruments of opts, or returns nil when both Tracer and Meter are
// nil. An instrument the meter cannot create is left nil and not recorded.
func newTelemetry(opts Options) *telemetry {
	if opts.Tracer == nil && opts.Meter == nil {
		return nil
	}
	t := &telemetry{tracer: opts.Tracer, inputs: opts.TraceInputs}
	if m := opts.Meter; m != nil {
		t.decisions, _ = m.Int64Counter("hookcore.decisions", metric.WithUnit("{event}"),
			metric.WithDescription("Fired events in which at least one hook matched, by event and outcome."))
		t.latency, _ = m.Float64Histogram("hookcore.hook.duration", metric.WithUnit("ms"),
			metric.WithDescription("Run time of one hook, by hook type."))
		t.errors, _ = m.Int64Counter("hookcore.hook.errors", metric.WithUnit("{hook}"),
			metric.WithDescription("Hook runs whose outcome is error, by hook type."))
		t.timeouts, _ = m.Int64Counter("hookcore.hook.timeouts", metric.WithUnit("{hook}"),
			metric.WithDescription("Hook runs stopped at their timeout, by hook type."))
	}
	return t
}

// fireSpan is the telemetry of one fired event, carried in the context of its hooks. spans
// holds the open span of each hook between execute and the merge of its decision.
type fireSpan struct {
	span  trace.Span
	mu    sync.Mutex
	spans map[*compiled]hookSpan
}

type hookSpan struct {
	span trace.Span
	end  time.Time
}

type fireSpanKey struct{}

// startFire opens the "hookcore.fire" span of event (when tracing is on) and returns the
// context its hooks run in.
func (t *telemetry) startFire(ctx context.Context, event hook.Event, in *hook.Input) (context.Context, *fireSpan) {
	if t == nil {
		return ctx, nil
	}
	fs := &fireSpan{}
	if t.tracer != nil {
		attrs := []attribute.KeyValue{
			attribute.String("hookcore.event", string(event)),
			attribute.String("hookcore.session_id", in.SessionID),
		}
		if in.ToolName != "" {
			attrs = append(attrs, attribute.String("hookcore.tool_name", in.ToolName))
		}
		if t.inputs && len(in.ToolInput) > 0 {
			attrs = append(attrs, attribute.String("hookcore.tool_input", string(in.ToolInput)))
		}
		ctx, fs.span = t.tracer.Start(ctx, "hookcore.fire", trace.WithAttributes(attrs...))
	}
	return context.WithValue(ctx, fireSpanKey{}, fs), fs
}

// endFire records the merged result of a fired event: the decision counter and the
// attributes and end of its span.
func (t *telemetry) endFire(ctx context.Context, fs *fireSpan, res *hook.Result) {
	if t == nil {
		return
	}
	outcome := fireOutcome(res)
	if t.decisions != nil {
		t.decisions.Add(ctx, 1, t.attrs("event\x00"+string(res.Event)+"\x00"+outcome,
			attribute.String("event", string(res.Event)), attribute.String("outcome", outcome)))
	}
	if fs.span == nil {
		return
	}
	fs.span.SetAttributes(
		attribute.Int("hookcore.hook_count", len(res.Hooks)),
		attribute.Bool("hookcore.blocked", res.Blocked),
		attribute.String("hookcore.permission", res.Permission.String()),
		attribute.String("hookcore.outcome", outcome),
		attribute.Int("hookcore.reason_length", len(res.Reason)),
		attribute.Int("hookcore.errors", res.Errors),
	)
	if t.inputs && res.Reason != "" {
		fs.span.SetAttributes(attribute.String("hookcore.reason", res.Reason))
	}
	fs.span.End()
}

// fireOutcome names the decision of a result for the decision counter and the span:
// "block", "stop" (the agent was asked to stop), "deny", "ask", "allow", "error" (a hook
// failed, nothing was decided) or "ok".
func fireOutcome(res *hook.Result) string {
	switch {
	case res.Blocked:
		return "block"
	case !res.Continue:
		return "stop"
	case res.Permission != hook.NoPermission:
		return res.Permission.String()
	case res.Errors > 0:
		return "error"
	}
	return "ok"
}

// startHook opens the span of hook c, a child of the fire span in ctx, and returns the
// context the executor runs in (so that an http hook may propagate it).
func (t *telemetry) startHook(ctx context.Context, c *compiled) context.Context {
	if t == nil || t.tracer == nil {
		return ctx
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil {
		return ctx
	}
	ctx, sp := t.tracer.Start(ctx, "hookcore.hook", trace.WithAttributes(
		attribute.String("hookcore.hook.id", c.id),
		attribute.String("hookcore.hook.type", c.typ),
		attribute.String("hookcore.hook.source", c.source),
	))
	fs.mu.Lock()
	if fs.spans == nil {
		fs.spans = map[*compiled]hookSpan{}
	}
	fs.spans[c] = hookSpan{span: sp}
	fs.mu.Unlock()
	return ctx
}

// stopHook marks the end of hook c's run (the span ends there, once its outcome is known).
func (t *telemetry) stopHook(ctx context.Context, c *compiled) {
	if t == nil || t.tracer == nil {
		return
	}
	if fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan); fs != nil {
		fs.mu.Lock()
		if hs, ok := fs.spans[c]; ok {
			hs.end = time.Now()
			fs.spans[c] = hs
		}
		fs.mu.Unlock()
	}
}

// endHook records the merged record of hook c: the latency, error and timeout metrics, and
// the outcome and end of its span. A hook that did not run (skipped at a gate) gets a span
// of no duration.
func (t *telemetry) endHook(ctx context.Context, c *compiled, rec *hook.Record) {
	if t == nil {
		return
	}
	typ := t.attrs("type\x00"+rec.Type, attribute.String("type", rec.Type))
	if t.latency != nil && rec.Outcome != hook.OutcomeSkipped && rec.Outcome != hook.OutcomeAsync {
		t.latency.Record(ctx, rec.DurationMS, typ)
	}
	if rec.Outcome == hook.OutcomeError && t.errors != nil {
		t.errors.Add(ctx, 1, typ)
	}
	if rec.Outcome == hook.OutcomeTimeout && t.timeouts != nil {
		t.timeouts.Add(ctx, 1, typ)
	}
	if t.tracer == nil {
		return
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil {
		return
	}
	fs.mu.Lock()
	hs, ok := fs.spans[c]
	delete(fs.spans, c)
	fs.mu.Unlock()
	if !ok {
		_, hs.span = t.tracer.Start(ctx, "hookcore.hook", trace.WithAttributes(
			attribute.String("hookcore.hook.id", c.id),
			attribute.String("hookcore.hook.type", c.typ),
			attribute.String("hookcore.hook.source", c.source),
		))
	}
	attrs := []attribute.KeyValue{
		attribute.String("hookcore.hook.outcome", rec.Outcome.String()),
		attribute.Float64("hookcore.hook.duration_ms", rec.DurationMS),
		attribute.Bool("hookcore.hook.error", rec.Outcome == hook.OutcomeError || rec.Outcome == hook.OutcomeTimeout),
	}
	if rec.ExitCode != nil {
		attrs = append(attrs, attribute.Int("hookcore.hook.exit_code", *rec.ExitCode))
	}
	if t.inputs && rec.Reason != "" {
		attrs = append(attrs, attribute.String("hookcore.hook.reason", rec.Reason))
	}
	hs.span.SetAttributes(attrs...)
	if rec.Outcome == hook.OutcomeError || rec.Outcome == hook.OutcomeTimeout {
		hs.span.SetStatus(codes.Error, rec.Outcome.String())
	}
	if hs.end.IsZero() {
		hs.span.End()
	} else {
		hs.span.End(trace.WithTimestamp(hs.end))
	}
}

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

	mu   sync.RWMutex
	sets map[attrKey]*measureOpts // (event, outcome) and ("", hook type) → their options
}

// attrKey names one attribute set of the metrics: an event and an outcome, or a hook type
// (event "").
type attrKey struct{ event, v string }

// measureOpts are the options of one attribute set, built once (there are few: hook types,
// events × outcomes) and passed as they are, so that recording allocates nothing.
type measureOpts struct {
	add []metric.AddOption
	rec []metric.RecordOption
}

// attrs returns the options of the attribute set of k.
func (t *telemetry) attrs(k attrKey) *measureOpts {
	t.mu.RLock()
	o := t.sets[k]
	t.mu.RUnlock()
	if o != nil {
		return o
	}
	var set attribute.Set
	if k.event == "" {
		set = attribute.NewSet(attribute.String("type", k.v))
	} else {
		set = attribute.NewSet(attribute.String("event", k.event), attribute.String("outcome", k.v))
	}
	opt := metric.WithAttributeSet(set)
	o = &measureOpts{add: []metric.AddOption{opt}, rec: []metric.RecordOption{opt}}
	t.mu.Lock()
	if prev := t.sets[k]; prev != nil {
		o = prev
	} else {
		t.sets[k] = o
	}
	t.mu.Unlock()
	return o
}

// newTelemetry builds the instruments of opts, or returns nil when both Tracer and Meter are
// nil. An instrument the meter cannot create is left nil and not recorded.
func newTelemetry(opts Options) *telemetry {
	if opts.Tracer == nil && opts.Meter == nil {
		return nil
	}
	t := &telemetry{tracer: opts.Tracer, inputs: opts.TraceInputs, sets: map[attrKey]*measureOpts{}}
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

// fireSpan is the telemetry of one fired event and the context its hooks run in (one
// allocation for both: it is a context.Context whose Value answers fireSpanKey). open holds
// the open span of each hook between execute and the merge of its decision; a fired event
// rarely has more than a few, so the first ones live in the struct.
type fireSpan struct {
	context.Context
	span  trace.Span // nil: metrics only
	in    *hook.Input
	event hook.Event
	mu    sync.Mutex
	inl   [2]hookSpan
	open  []hookSpan
}

type hookSpan struct {
	c    *compiled
	span trace.Span
	end  time.Time
}

type fireSpanKey struct{}

// Value answers fireSpanKey with fs, anything else from the parent context.
func (fs *fireSpan) Value(key any) any {
	if _, ok := key.(fireSpanKey); ok {
		return fs
	}
	return fs.Context.Value(key)
}

// startFire opens the "hookcore.fire" span of event (when tracing is on) and returns the
// context its hooks run in. The span's attributes are set once, at its end (a sampler does
// not see them at the start; the SDK's default samplers do not look).
func (t *telemetry) startFire(ctx context.Context, event hook.Event, in *hook.Input) (context.Context, *fireSpan) {
	if t == nil {
		return ctx, nil
	}
	fs := &fireSpan{in: in, event: event}
	if t.tracer != nil {
		ctx, fs.span = t.tracer.Start(ctx, "hookcore.fire")
	}
	fs.Context = ctx
	fs.open = fs.inl[:0]
	return fs, fs
}

// endFire records the merged result of a fired event: the decision counter and the
// attributes and end of its span.
func (t *telemetry) endFire(ctx context.Context, fs *fireSpan, res *hook.Result) {
	if t == nil {
		return
	}
	outcome := fireOutcome(res)
	if t.decisions != nil {
		t.decisions.Add(ctx, 1, t.attrs(attrKey{string(res.Event), outcome}).add...)
	}
	if fs.span == nil {
		return
	}
	if fs.span.IsRecording() {
		var kv [11]attribute.KeyValue
		a := append(kv[:0],
			attribute.String("hookcore.event", string(fs.event)),
			attribute.String("hookcore.session_id", fs.in.SessionID),
			attribute.Int("hookcore.hook_count", len(res.Hooks)),
			attribute.Bool("hookcore.blocked", res.Blocked),
			attribute.String("hookcore.permission", res.Permission.String()),
			attribute.String("hookcore.outcome", outcome),
			attribute.Int("hookcore.reason_length", len(res.Reason)),
			attribute.Int("hookcore.errors", res.Errors),
		)
		if fs.in.ToolName != "" {
			a = append(a, attribute.String("hookcore.tool_name", fs.in.ToolName))
		}
		if t.inputs && len(fs.in.ToolInput) > 0 {
			a = append(a, attribute.String("hookcore.tool_input", string(fs.in.ToolInput)))
		}
		if t.inputs && res.Reason != "" {
			a = append(a, attribute.String("hookcore.reason", res.Reason))
		}
		fs.span.SetAttributes(a...)
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
// context the executor runs in (so that an http hook may propagate it). Its attributes are
// set once, in endHook.
func (t *telemetry) startHook(ctx context.Context, c *compiled) context.Context {
	if t == nil || t.tracer == nil {
		return ctx
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil {
		return ctx
	}
	ctx, sp := t.tracer.Start(ctx, "hookcore.hook")
	fs.mu.Lock()
	fs.open = append(fs.open, hookSpan{c: c, span: sp})
	fs.mu.Unlock()
	return ctx
}

// stopHook marks the end of hook c's run (the span ends there, once its outcome is known).
func (t *telemetry) stopHook(ctx context.Context, c *compiled) {
	if t == nil || t.tracer == nil {
		return
	}
	if fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan); fs != nil {
		now := time.Now()
		fs.mu.Lock()
		for i := range fs.open {
			if fs.open[i].c == c {
				fs.open[i].end = now
				break
			}
		}
		fs.mu.Unlock()
	}
}

// take removes and returns the open span of c.
func (fs *fireSpan) take(c *compiled) (hookSpan, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i := range fs.open {
		if fs.open[i].c == c {
			hs := fs.open[i]
			fs.open = append(fs.open[:i], fs.open[i+1:]...)
			return hs, true
		}
	}
	return hookSpan{}, false
}

// endHook records the merged record of hook c: the latency, error and timeout metrics, and
// the outcome and end of its span. A hook that did not run (skipped at a gate) gets a span
// of no duration.
func (t *telemetry) endHook(ctx context.Context, c *compiled, rec *hook.Record) {
	if t == nil {
		return
	}
	if t.latency != nil || t.errors != nil || t.timeouts != nil {
		typ := t.attrs(attrKey{"", rec.Type})
		if t.latency != nil && rec.Outcome != hook.OutcomeSkipped && rec.Outcome != hook.OutcomeAsync {
			t.latency.Record(ctx, rec.DurationMS, typ.rec...)
		}
		if rec.Outcome == hook.OutcomeError && t.errors != nil {
			t.errors.Add(ctx, 1, typ.add...)
		}
		if rec.Outcome == hook.OutcomeTimeout && t.timeouts != nil {
			t.timeouts.Add(ctx, 1, typ.add...)
		}
	}
	if t.tracer == nil {
		return
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil {
		return
	}
	hs, ok := fs.take(c)
	if !ok {
		_, hs.span = t.tracer.Start(ctx, "hookcore.hook")
	}
	failed := rec.Outcome == hook.OutcomeError || rec.Outcome == hook.OutcomeTimeout
	if hs.span.IsRecording() {
		var kv [8]attribute.KeyValue
		a := append(kv[:0],
			attribute.String("hookcore.hook.id", c.id),
			attribute.String("hookcore.hook.type", c.typ),
			attribute.String("hookcore.hook.source", c.source),
			attribute.String("hookcore.hook.outcome", rec.Outcome.String()),
			attribute.Float64("hookcore.hook.duration_ms", rec.DurationMS),
			attribute.Bool("hookcore.hook.error", failed),
		)
		if rec.ExitCode != nil {
			a = append(a, attribute.Int("hookcore.hook.exit_code", *rec.ExitCode))
		}
		if t.inputs && rec.Reason != "" {
			a = append(a, attribute.String("hookcore.hook.reason", rec.Reason))
		}
		hs.span.SetAttributes(a...)
		if failed {
			hs.span.SetStatus(codes.Error, rec.Outcome.String())
		}
	}
	if hs.end.IsZero() {
		hs.span.End()
	} else {
		hs.span.End(trace.WithTimestamp(hs.end))
	}
}

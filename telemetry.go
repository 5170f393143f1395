//go:build !hookcore_lean

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
// otelTracer and otelMeter are the types of Options.Tracer and Options.Meter: the
// OpenTelemetry API's (empty interfaces in the lean build, telemetry_lean.go).
type (
	otelTracer = trace.Tracer
	otelMeter  = metric.Meter
)

type telemetry struct {
	tracer    trace.Tracer // nil: no spans
	inputs    bool         // Options.TraceInputs
	decisions metric.Int64Counter
	latency   metric.Float64Histogram
	errors    metric.Int64Counter
	timeouts  metric.Int64Counter
	dropped   metric.Int64Counter

	mu   sync.RWMutex
	sets map[attrKey]*measureOpts // (event, outcome) and ("", hook type) → their options

	q deferQueue // the deferred records of events whose hooks are all span-blind
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
		t.dropped, _ = m.Int64Counter("hookcore.telemetry.dropped", metric.WithUnit("{event}"),
			metric.WithDescription("Fired events whose spans and metrics were dropped because the exporter's queue was full."))
	}
	return t
}

// fireSpan is the telemetry of one fired event and the context its hooks run in (one
// allocation for both: it is a context.Context whose Value answers fireSpanKey). open holds
// the open span of each hook between execute and the merge of its decision; a fired event
// rarely has more than a few, so the first ones live in the struct.
//
// A deferred fireSpan (see deferQueue) starts no span: it records the facts its spans and
// metrics are made of (times, the parent span context, the attributes' values, one
// hookFacts per hook) and is handed to the exporter goroutine at endFire. It is one of the
// deferQueue's reused records, or droppedFire when they are all in use.
//
// The fields a deferred event writes come first, so that it touches few cache lines.
type fireSpan struct {
	context.Context
	in       *hook.Input
	event    hook.Event
	deferred bool
	solo     bool // deferred, one matched hook: nothing runs beside it, mu is not needed
	mu       sync.Mutex

	start, end time.Time // deferred: its first hook's start, its last hook's end
	hooks      []hookFacts
	hinl       [1]hookFacts
	parent     trace.SpanContext
	facts      fireFacts

	span trace.Span // nil: metrics only, or deferred
	inl  [2]hookSpan
	open []hookSpan
}

type hookSpan struct {
	c    *compiled
	span trace.Span
	end  time.Time // the executor's return
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
//
// When every matched hook is span-blind (its executor is the Runner's own and reads no
// span from its context: inject) and the Runner is not closed, the event is deferred: no
// span is started now (see deferQueue).
func (t *telemetry) startFire(ctx context.Context, event hook.Event, in *hook.Input, matched []*compiled) (context.Context, *fireSpan) {
	if t == nil {
		return ctx, nil
	}
	if t.deferrable(matched) {
		fs := t.q.get()
		if fs == nil { // every record is in use: the event is dropped
			t.q.dropped.Add(1)
			return droppedCtx{ctx}, droppedFire
		}
		fs.in, fs.event = in, event
		fs.deferred = true
		fs.solo = len(matched) == 1
		fs.start, fs.end = time.Time{}, time.Time{}
		fs.parent = trace.SpanContextFromContext(ctx)
		fs.Context = ctx
		fs.hooks = fs.hinl[:0]
		return fs, fs
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
	if fs == droppedFire {
		return
	}
	outcome := fireOutcome(res)
	if fs.deferred {
		if fs.start.IsZero() { // no hook reported a time
			fs.start = time.Now()
			fs.end = fs.start
		}
		fs.facts = t.factsOf(fs, res, outcome)
		t.q.push(t, fs)
		return
	}
	if t.decisions != nil {
		t.decisions.Add(ctx, 1, t.attrs(attrKey{string(res.Event), outcome}).add...)
	}
	if fs.span == nil {
		return
	}
	if fs.span.IsRecording() {
		facts := t.factsOf(fs, res, outcome)
		var kv [11]attribute.KeyValue
		fs.span.SetAttributes(facts.attrs(kv[:0])...)
	}
	fs.span.End()
}

// fireFacts are the values of a fire span's attributes (and of the decision counter's).
type fireFacts struct {
	event, session, tool, permission, outcome string
	hooks, reasonLen, errors                  int
	blocked                                   bool
	toolInput, reason                         string // Options.TraceInputs only
}

func (t *telemetry) factsOf(fs *fireSpan, res *hook.Result, outcome string) fireFacts {
	f := fireFacts{event: string(fs.event), session: fs.in.SessionID, tool: fs.in.ToolName,
		permission: res.Permission.String(), outcome: outcome, hooks: len(res.Hooks),
		reasonLen: len(res.Reason), errors: res.Errors, blocked: res.Blocked}
	if t.inputs {
		f.toolInput, f.reason = string(fs.in.ToolInput), res.Reason
	}
	return f
}

// attrs appends the fire span's attributes to a.
func (f *fireFacts) attrs(a []attribute.KeyValue) []attribute.KeyValue {
	a = append(a,
		attribute.String("hookcore.event", f.event),
		attribute.String("hookcore.session_id", f.session),
		attribute.Int("hookcore.hook_count", f.hooks),
		attribute.Bool("hookcore.blocked", f.blocked),
		attribute.String("hookcore.permission", f.permission),
		attribute.String("hookcore.outcome", f.outcome),
		attribute.Int("hookcore.reason_length", f.reasonLen),
		attribute.Int("hookcore.errors", f.errors),
	)
	if f.tool != "" {
		a = append(a, attribute.String("hookcore.tool_name", f.tool))
	}
	if f.toolInput != "" {
		a = append(a, attribute.String("hookcore.tool_input", f.toolInput))
	}
	if f.reason != "" {
		a = append(a, attribute.String("hookcore.reason", f.reason))
	}
	return a
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
// set once, in endHook. In a deferred event it does nothing: stopHook notes the times.
func (t *telemetry) startHook(ctx context.Context, c *compiled) context.Context {
	if t == nil || t.tracer == nil {
		return ctx
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil || fs.deferred {
		return ctx
	}
	ctx, sp := t.tracer.Start(ctx, "hookcore.hook")
	fs.mu.Lock()
	fs.open = append(fs.open, hookSpan{c: c, span: sp})
	fs.mu.Unlock()
	return ctx
}

// rejoin returns the context hook c runs in when it joined the event's hooks after a
// rewrite (runChain): the event was deferred or not by the hooks matched first
// (deferrable); a hook that joins a deferred event but would have kept it from being
// deferred (it reads its span, or it is async and would outlive the event's record) runs
// without the event's telemetry record: its metrics are recorded, it has no span.
func (t *telemetry) rejoin(ctx context.Context, c *compiled) context.Context {
	if t == nil || c.spanBlind && !c.async {
		return ctx
	}
	if fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan); fs != nil && fs.deferred {
		return context.WithValue(ctx, fireSpanKey{}, (*fireSpan)(nil))
	}
	return ctx
}

// stopHook marks the end of hook c's run, at end (the span ends there, once its outcome is
// known); a deferred event notes both times, those Runner.execute took for the record's
// duration.
func (t *telemetry) stopHook(ctx context.Context, c *compiled, start, end time.Time) {
	if t == nil || t.tracer == nil {
		return
	}
	fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan)
	if fs == nil || fs == droppedFire {
		return
	}
	if fs.solo {
		fs.hooks = append(fs.hooks, hookFacts{c: c, start: start, end: end})
		return
	}
	fs.mu.Lock()
	if fs.deferred {
		fs.hooks = append(fs.hooks, hookFacts{c: c, start: start, end: end})
	} else {
		for i := range fs.open {
			if fs.open[i].c == c {
				fs.open[i].end = end
				break
			}
		}
	}
	fs.mu.Unlock()
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
	if fs, _ := ctx.Value(fireSpanKey{}).(*fireSpan); fs != nil && fs.deferred {
		fs.deferHook(c, rec, t.inputs)
		return
	}
	t.hookMetrics(ctx, rec)
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
		h := factsOfHook(c, rec, t.inputs)
		var kv [8]attribute.KeyValue
		hs.span.SetAttributes(h.attrs(kv[:0])...)
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

// hookMetrics records the latency, error and timeout metrics of one hook's record.
func (t *telemetry) hookMetrics(ctx context.Context, rec *hook.Record) {
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
}

// close exports the deferred records and stops their exporter (see deferQueue.close).
func (t *telemetry) close(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.q.close(ctx)
}

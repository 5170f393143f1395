package hookcore

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookcore/hookcore/hook"
)

// Deferred telemetry (issue 12, the cost of tracing). The SDK costs more to record two spans
// with their attributes than an in-process hook costs to run (BenchmarkSpanFloor), so an
// event whose hooks are all span-blind — their executors are the Runner's own and read no
// span from their context (inject) — starts no span while it is decided: the few facts the
// spans and metrics are made of are written into its fireSpan (times, the parent span
// context of Fire's ctx, the attributes' values), and at endFire the fireSpan is queued.
// One exporter goroutine takes the queue every deferFlush (or sooner when deferBatch
// records wait) and makes the spans with their recorded times (trace.WithTimestamp) and the
// metrics, exactly as the synchronous path would. The decision never waits: a full queue
// drops the record and counts it (hookcore.telemetry.dropped). Runner.Close exports what is
// queued and stops the goroutine; an event fired after Close is traced synchronously.
//
// An event with a hook that may look at its span (command, http, prompt, agent, func, and
// every executor of Options.Executors) keeps the synchronous path: the hook runs inside its
// real span.
const (
	deferMax   = 8192                   // records waiting at most; more are dropped
	deferBatch = 256                    // records that wake the exporter before deferFlush
	deferFlush = 100 * time.Millisecond // the exporter's period
)

// deferQueue holds the deferred records of a Runner's telemetry until its exporter
// goroutine (started with the first record) takes them.
type deferQueue struct {
	mu      sync.Mutex
	pending []*fireSpan
	started bool
	closed  atomic.Bool
	wake    chan struct{} // cap 1
	stop    chan struct{}
	done    chan struct{}
	dropped atomic.Int64 // dropped records not yet counted in the metric
}

// deferrable reports whether an event with these matched hooks is deferred.
func (t *telemetry) deferrable(matched []*compiled) bool {
	if t.q.closed.Load() {
		return false
	}
	for _, c := range matched {
		if !c.spanBlind || c.async {
			return false
		}
	}
	return true
}

// deferHook records the merged record of hook c of a deferred event.
func (fs *fireSpan) deferHook(c *compiled, rec *hook.Record, inputs bool) {
	h := factsOfHook(c, rec, inputs)
	if hs, ok := fs.take(c); ok {
		h.start, h.end = hs.start, hs.end
	}
	if h.start.IsZero() { // skipped at a gate: a span of no duration
		h.start = time.Now()
	}
	if h.end.IsZero() {
		h.end = h.start
	}
	fs.mu.Lock()
	fs.hooks = append(fs.hooks, h)
	fs.mu.Unlock()
}

// hookFacts are the values of a hook span's attributes and of the hook metrics.
type hookFacts struct {
	id, typ, source string
	outcome         hook.Outcome
	durationMS      float64
	exitCode        int
	hasExit         bool
	reason          string // Options.TraceInputs only
	start, end      time.Time
}

func factsOfHook(c *compiled, rec *hook.Record, inputs bool) hookFacts {
	h := hookFacts{id: c.id, typ: c.typ, source: c.source, outcome: rec.Outcome, durationMS: rec.DurationMS}
	if rec.ExitCode != nil {
		h.exitCode, h.hasExit = *rec.ExitCode, true
	}
	if inputs {
		h.reason = rec.Reason
	}
	return h
}

func (h *hookFacts) failed() bool {
	return h.outcome == hook.OutcomeError || h.outcome == hook.OutcomeTimeout
}

// attrs appends the hook span's attributes to a.
func (h *hookFacts) attrs(a []attribute.KeyValue) []attribute.KeyValue {
	a = append(a,
		attribute.String("hookcore.hook.id", h.id),
		attribute.String("hookcore.hook.type", h.typ),
		attribute.String("hookcore.hook.source", h.source),
		attribute.String("hookcore.hook.outcome", h.outcome.String()),
		attribute.Float64("hookcore.hook.duration_ms", h.durationMS),
		attribute.Bool("hookcore.hook.error", h.failed()),
	)
	if h.hasExit {
		a = append(a, attribute.Int("hookcore.hook.exit_code", h.exitCode))
	}
	if h.reason != "" {
		a = append(a, attribute.String("hookcore.hook.reason", h.reason))
	}
	return a
}

// push queues fs for export (or exports it now when the queue is closed). It never blocks
// on the exporter: a full queue drops fs.
func (q *deferQueue) push(t *telemetry, fs *fireSpan) {
	q.mu.Lock()
	if q.closed.Load() {
		q.mu.Unlock()
		t.export(fs)
		return
	}
	if len(q.pending) >= deferMax {
		q.mu.Unlock()
		q.dropped.Add(1)
		return
	}
	q.pending = append(q.pending, fs)
	n := len(q.pending)
	if !q.started {
		q.started = true
		q.wake, q.stop, q.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go q.run(t)
	}
	q.mu.Unlock()
	if n == deferBatch {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
}

// run is the exporter goroutine: it exports the queue every deferFlush, when woken, and
// once more when stopped.
func (q *deferQueue) run(t *telemetry) {
	defer close(q.done)
	tick := time.NewTicker(deferFlush)
	defer tick.Stop()
	var batch []*fireSpan
	for {
		stopped := false
		select {
		case <-tick.C:
		case <-q.wake:
		case <-q.stop:
			stopped = true
		}
		q.mu.Lock()
		batch, q.pending = q.pending, batch[:0]
		q.mu.Unlock()
		for i, fs := range batch {
			t.export(fs)
			batch[i] = nil
		}
		if n := q.dropped.Swap(0); n > 0 && t.dropped != nil {
			t.dropped.Add(context.Background(), n)
		}
		if stopped {
			return
		}
	}
}

// close exports what is queued and stops the exporter, waiting at most ctx; events fired
// afterwards are traced synchronously.
func (q *deferQueue) close(ctx context.Context) error {
	q.mu.Lock()
	if q.closed.Swap(true) || !q.started {
		q.mu.Unlock()
		return nil
	}
	close(q.stop)
	q.mu.Unlock()
	select {
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// export makes the spans and records the metrics of a deferred event, as endHook and
// endFire do for a synchronous one.
func (t *telemetry) export(fs *fireSpan) {
	ctx := context.Background()
	if fs.parent.IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, fs.parent)
	}
	var fire trace.Span
	if t.tracer != nil {
		ctx, fire = t.tracer.Start(ctx, "hookcore.fire", trace.WithTimestamp(fs.start))
	}
	for i := range fs.hooks {
		h := &fs.hooks[i]
		t.hookMetrics(ctx, &hook.Record{Type: h.typ, Outcome: h.outcome, DurationMS: h.durationMS})
		if t.tracer == nil {
			continue
		}
		_, sp := t.tracer.Start(ctx, "hookcore.hook", trace.WithTimestamp(h.start))
		if sp.IsRecording() {
			var kv [8]attribute.KeyValue
			sp.SetAttributes(h.attrs(kv[:0])...)
			if h.failed() {
				sp.SetStatus(codes.Error, h.outcome.String())
			}
		}
		sp.End(trace.WithTimestamp(h.end))
	}
	if t.decisions != nil {
		t.decisions.Add(ctx, 1, t.attrs(attrKey{fs.facts.event, fs.facts.outcome}).add...)
	}
	if fire != nil {
		if fire.IsRecording() {
			var kv [11]attribute.KeyValue
			fire.SetAttributes(fs.facts.attrs(kv[:0])...)
		}
		fire.End(trace.WithTimestamp(fs.end))
	}
	// Nothing holds fs now: a deferred event's hooks are the Runner's own, none keeps its
	// context after Fire returned. Reuse it.
	*fs = fireSpan{}
	t.pool.Put(fs)
}

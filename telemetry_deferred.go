//go:build !hookcore_lean

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
// spans and metrics are made of are written into its fireSpan (the parent span context of
// Fire's ctx, the attributes' values, and the times Runner.execute takes anyway for each
// hook's duration: no clock is read for telemetry), and at endFire the fireSpan is queued.
// The fire span of a deferred event runs from its first hook's start to its last hook's
// end: it leaves out Fire's matching and merging, well under a microsecond.
//
// The fireSpans of deferred events are records reused from one event to the next: the
// exporter hands them back once exported, so that a traced event allocates nothing in
// Fire. At most deferMax are in use (queued, being filled or being exported); an event
// that finds none free is decided as usual and its record dropped and counted
// (hookcore.telemetry.dropped): the decision never waits for the exporter. One exporter
// goroutine takes the queue every deferFlush (or sooner when deferBatch records wait) and
// makes the spans with their recorded times (trace.WithTimestamp) and the metrics, exactly
// as the synchronous path would. Runner.Close exports what is queued and stops the
// goroutine; an event fired after Close is traced synchronously.
//
// An event with a hook that may look at its span (command, http, prompt, agent, func, and
// every executor of Options.Executors) keeps the synchronous path: the hook runs inside its
// real span.
const (
	deferMax   = 8192                   // records in use at most; more events are dropped
	deferKeep  = 1024                   // free records kept for reuse; more are left to the GC
	deferBatch = 256                    // records that wake the exporter before deferFlush
	deferFlush = 100 * time.Millisecond // the exporter's period
)

// deferQueue holds the deferred records of a Runner's telemetry until its exporter
// goroutine (started with the first record) takes them.
type deferQueue struct {
	mu      sync.Mutex
	pending []*fireSpan
	free    []*fireSpan // exported records, ready for reuse
	made    int         // records of the queue in use or free, at most deferMax
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

// deferHook records the merged record of hook c of a deferred event, with the times
// stopHook noted, and widens the fire span's times to cover them.
func (fs *fireSpan) deferHook(c *compiled, rec *hook.Record, inputs bool) {
	if fs == droppedFire {
		return
	}
	if !fs.solo {
		fs.mu.Lock()
		defer fs.mu.Unlock()
	}
	var h *hookFacts
	for i := range fs.hooks {
		if fs.hooks[i].c == c && !fs.hooks[i].done {
			h = &fs.hooks[i] // its times, from stopHook
			break
		}
	}
	if h == nil { // skipped at a gate: a span of no duration, after what ran
		at := fs.end
		if at.IsZero() {
			at = time.Now()
		}
		fs.hooks = append(fs.hooks, hookFacts{c: c, start: at, end: at})
		h = &fs.hooks[len(fs.hooks)-1]
	}
	h.record(rec, inputs)
	if fs.start.IsZero() || h.start.Before(fs.start) {
		fs.start = h.start
	}
	if h.end.After(fs.end) {
		fs.end = h.end
	}
}

// hookFacts are the values of a hook span's attributes and of the hook metrics: those of
// the compiled hook (id, type, source: it is not changed once compiled) and of its record.
type hookFacts struct {
	c          *compiled
	outcome    hook.Outcome
	durationMS float64
	exitCode   int
	hasExit    bool
	done       bool   // its record is in (a deferred hook's times come first, from stopHook)
	reason     string // Options.TraceInputs only
	start, end time.Time
}

func factsOfHook(c *compiled, rec *hook.Record, inputs bool) hookFacts {
	h := hookFacts{c: c}
	h.record(rec, inputs)
	return h
}

// record notes the values of rec.
func (h *hookFacts) record(rec *hook.Record, inputs bool) {
	h.outcome, h.durationMS, h.done = rec.Outcome, rec.DurationMS, true
	if rec.ExitCode != nil {
		h.exitCode, h.hasExit = *rec.ExitCode, true
	}
	if inputs {
		h.reason = rec.Reason
	}
}

func (h *hookFacts) failed() bool {
	return h.outcome == hook.OutcomeError || h.outcome == hook.OutcomeTimeout
}

// attrs appends the hook span's attributes to a.
func (h *hookFacts) attrs(a []attribute.KeyValue) []attribute.KeyValue {
	a = append(a,
		attribute.String("hookcore.hook.id", h.c.id),
		attribute.String("hookcore.hook.type", h.c.typ),
		attribute.String("hookcore.hook.source", h.c.source),
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

// get returns a record for a deferred event: the free one released last (its memory is
// the most likely to be in a cache), a new one while fewer than deferMax are in use, else
// nil: the event is dropped.
func (q *deferQueue) get() *fireSpan {
	q.mu.Lock()
	if n := len(q.free); n > 0 {
		fs := q.free[n-1]
		q.free[n-1] = nil
		q.free = q.free[:n-1]
		q.mu.Unlock()
		return fs
	}
	if q.made >= deferMax {
		q.mu.Unlock()
		return nil
	}
	q.made++
	q.mu.Unlock()
	return new(fireSpan)
}

// droppedFire is the fireSpan the hooks of a dropped deferred event find in their context
// (droppedCtx): telemetry records nothing in it, and it is never written.
var droppedFire = &fireSpan{deferred: true}

// droppedCtx is the context of a dropped deferred event's hooks.
type droppedCtx struct{ context.Context }

// Value answers fireSpanKey with droppedFire, anything else from the parent context.
func (d droppedCtx) Value(key any) any {
	if _, ok := key.(fireSpanKey); ok {
		return droppedFire
	}
	return d.Context.Value(key)
}

// release hands exported records back for reuse (beyond deferKeep free ones, to the GC).
func (q *deferQueue) release(batch []*fireSpan) {
	for _, fs := range batch {
		// What startFire does not set again, and what would keep memory alive.
		fs.Context, fs.in = nil, nil
		clear(fs.hooks)
		clear(fs.hinl[:])
		fs.facts = fireFacts{}
	}
	q.mu.Lock()
	for _, fs := range batch {
		if len(q.free) < deferKeep {
			q.free = append(q.free, fs)
		} else {
			q.made--
		}
	}
	q.mu.Unlock()
}

// push queues fs for export (or exports it now when the queue is closed). It never blocks
// on the exporter.
func (q *deferQueue) push(t *telemetry, fs *fireSpan) {
	q.mu.Lock()
	if q.closed.Load() {
		q.mu.Unlock()
		t.export(fs)
		q.release([]*fireSpan{fs})
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
	if n%deferBatch == 0 {
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
		for _, fs := range batch {
			t.export(fs)
		}
		q.release(batch)
		clear(batch)
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
		if !h.done { // stopped, but its record never came
			continue
		}
		t.hookMetrics(ctx, &hook.Record{Type: h.c.typ, Outcome: h.outcome, DurationMS: h.durationMS})
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
	// context after Fire returned. The caller hands it back for reuse (release).
}

package hookcore

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"

	"github.com/hookcore/hookcore/hook"
)

// deferredEvent makes the telemetry calls of one fired event with one inject hook, as
// Runner.run and Runner.execute make them, and returns its record.
func deferredEvent(t *telemetry, c *compiled, in *hook.Input, at time.Time) *fireSpan {
	ctx, fs := t.startFire(context.Background(), hook.PreToolUse, in, []*compiled{c})
	hctx := t.startHook(ctx, c)
	t.stopHook(hctx, c, at, at.Add(time.Microsecond))
	t.endHook(ctx, c, &hook.Record{ID: c.id, Type: c.typ, Outcome: hook.OutcomeContext, DurationMS: 0.001})
	t.endFire(ctx, fs, &hook.Result{Event: hook.PreToolUse, Continue: true, Hooks: hooksRan})
	return fs
}

// hooksRan is the Result.Hooks of deferredEvent (made by Runner.run whether traced or not).
var hooksRan = []hook.Record{{ID: "note", Type: "inject", Outcome: hook.OutcomeContext}}

// drain hands the queued records back as the exporter does after exporting them.
func (q *deferQueue) drain() {
	q.mu.Lock()
	batch := q.pending
	q.pending = nil
	q.mu.Unlock()
	q.release(batch)
	clear(batch)
	q.mu.Lock()
	if q.pending == nil {
		q.pending = batch[:0]
	}
	q.mu.Unlock()
}

// TestDeferredRecords: a deferred event's record is reused once exported (a traced event
// allocates none in Fire), holds the hook's times and facts, and when every record is in
// use the event is dropped and counted without writing any record.
func TestDeferredRecords(t *testing.T) {
	tel := &telemetry{tracer: noop.NewTracerProvider().Tracer("test"), sets: map[attrKey]*measureOpts{}}
	defer tel.close(context.Background())
	c := &compiled{id: "note", typ: "inject", source: "hooks.yaml:2", spanBlind: true}
	in := &hook.Input{SessionID: "s1", ToolName: "Bash"}
	at := time.Now()
	first := deferredEvent(tel, c, in, at)
	if len(first.hooks) != 1 || first.hooks[0].c != c || !first.hooks[0].done || first.hooks[0].outcome != hook.OutcomeContext {
		t.Fatalf("the record's hooks: %+v", first.hooks)
	}
	if !first.start.Equal(at) || !first.end.Equal(at.Add(time.Microsecond)) {
		t.Errorf("fire span %v–%v, want its hook's %v–%v", first.start, first.end, at, at.Add(time.Microsecond))
	}
	tel.q.drain()
	if second := deferredEvent(tel, c, in, at); second != first {
		t.Error("an exported record was not reused")
	}
	tel.q.drain()
	if n := testing.AllocsPerRun(100, func() { deferredEvent(tel, c, in, at); tel.q.drain() }); n != 0 {
		t.Errorf("a deferred event allocates %v times", n)
	}

	tel.q.mu.Lock()
	tel.q.free, tel.q.made = nil, deferMax // every record in use
	tel.q.mu.Unlock()
	before := tel.q.dropped.Load()
	if fs := deferredEvent(tel, c, in, at); fs != droppedFire {
		t.Fatal("an event was deferred with every record in use")
	}
	if got := tel.q.dropped.Load() - before; got != 1 {
		t.Errorf("%d events counted as dropped, want 1", got)
	}
	if len(droppedFire.hooks) != 0 || !droppedFire.start.IsZero() || len(tel.q.pending) != 0 {
		t.Error("a dropped event wrote a record")
	}
}

// BenchmarkDeferredBookkeeping: what a deferred event costs in Fire beyond the hook itself
// (the telemetry calls of one event with one inject hook, the exporter's hand-back every
// 32 events), without the SDK. Compare with BenchmarkFireLatency's untraced p50.
func BenchmarkDeferredBookkeeping(b *testing.B) {
	tel := &telemetry{tracer: noop.NewTracerProvider().Tracer("bench"), sets: map[attrKey]*measureOpts{}}
	defer tel.close(context.Background())
	c := &compiled{id: "note", typ: "inject", source: "hooks.yaml:2", spanBlind: true}
	in := &hook.Input{SessionID: "s1", ToolName: "Bash"}
	at := time.Now()
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		deferredEvent(tel, c, in, at)
		if n++; n%32 == 0 {
			tel.q.drain()
		}
	}
}

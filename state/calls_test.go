package state

import (
	"context"
	"fmt"
	"testing"
)

// TestRecordCall: a record is taken once; past MaxCalls the oldest go, and a record older
// than MaxCallAge goes when another is recorded.
func TestRecordCall(t *testing.T) {
	t.Parallel()
	var s Session
	for i := range MaxCalls + 3 {
		s.RecordCall(fmt.Sprint("c", i), CallRecord{At: int64(1000 + i)})
	}
	if len(s.Calls) != MaxCalls {
		t.Fatalf("%d records, want %d", len(s.Calls), MaxCalls)
	}
	for _, id := range []string{"c0", "c1", "c2"} {
		if _, ok := s.TakeCall(id); ok {
			t.Errorf("%s: kept past MaxCalls", id)
		}
	}
	if _, ok := s.TakeCall("c3"); !ok {
		t.Error("c3: gone")
	}
	if _, ok := s.TakeCall("c3"); ok {
		t.Error("c3: taken twice")
	}
	s.RecordCall("late", CallRecord{At: 1000 + MaxCalls + 3 + MaxCallAge.Milliseconds() + 1})
	if len(s.Calls) != 1 {
		t.Errorf("records older than MaxCallAge kept: %d", len(s.Calls))
	}
	s.TakeCall("late")
	if !s.empty() {
		t.Error("a session with every record taken is not empty")
	}
}

// TestCallsInDir: records outlive the process (state.Dir) and are kept apart by call.
func TestCallsInDir(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := &Dir{Path: t.TempDir()}
	rec := CallRecord{At: 1, Files: map[string]FileState{"/h/.claude/settings.json": {Type: "f", Mode: 0o644, Size: 2, Sum: "ab"}}}
	for _, id := range []string{"a", "b"} {
		if err := d.Update(ctx, "s", func(s *Session) { s.RecordCall(id, rec) }); err != nil {
			t.Fatal(err)
		}
	}
	var got CallRecord
	var ok bool
	if err := d.Update(ctx, "s", func(s *Session) { got, ok = s.TakeCall("a") }); err != nil {
		t.Fatal(err)
	}
	if !ok || got.Files["/h/.claude/settings.json"] != rec.Files["/h/.claude/settings.json"] {
		t.Fatalf("got %+v, %v", got, ok)
	}
	if err := d.Update(ctx, "s", func(s *Session) {
		if _, ok := s.Calls["b"]; !ok || len(s.Calls) != 1 {
			t.Errorf("calls %v, want b only", s.Calls)
		}
	}); err != nil {
		t.Fatal(err)
	}
}

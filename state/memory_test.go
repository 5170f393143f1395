package state_test

import (
	"context"
	"sync"
	"testing"

	"github.com/hookcore/hookcore/state"
)

// storeConformance checks what every Store promises: Claim is true once per session and
// key, under concurrency, and concurrent Updates of one session lose no change.
func storeConformance(t *testing.T, st state.Store) {
	t.Helper()
	ctx := context.Background()
	const n = 50
	var wg sync.WaitGroup
	firsts := make(chan string, 4*n)
	for i := 0; i < n; i++ {
		for _, s := range []string{"a", "b"} {
			wg.Add(2)
			go func() {
				defer wg.Done()
				first, err := state.Claim(ctx, st, s, state.OnceKey("SessionStart", "hello"))
				if err != nil {
					t.Error(err)
				}
				if first {
					firsts <- s
				}
			}()
			go func() {
				defer wg.Done()
				if err := st.Update(ctx, s, func(x *state.Session) { x.Stops++ }); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	close(firsts)
	got := map[string]int{}
	for s := range firsts {
		got[s]++
	}
	if got["a"] != 1 || got["b"] != 1 {
		t.Errorf("first claims per session = %v, want one each", got)
	}
	for _, s := range []string{"a", "b"} {
		var stops int
		if err := st.Update(ctx, s, func(x *state.Session) { stops = x.Stops }); err != nil {
			t.Fatal(err)
		}
		if stops != n {
			t.Errorf("session %s: %d increments survived, want %d", s, stops, n)
		}
	}
}

func TestMemory(t *testing.T) {
	t.Parallel()
	m := &state.Memory{}
	storeConformance(t, m)
	if m.Len() != 2 {
		t.Errorf("Len = %d, want 2", m.Len())
	}
	m.Forget("a")
	if first, _ := state.Claim(context.Background(), m, "a", state.OnceKey("SessionStart", "hello")); !first {
		t.Error("a forgotten session still had its once hook spent")
	}
}

// TestMemoryNewSessionsStartEmpty: an Update of a session with no state yet works on a
// scratch Session; what it leaves is kept for that session only, and the next new session
// starts from the zero Session again.
func TestMemoryNewSessionsStartEmpty(t *testing.T) {
	ctx := context.Background()
	var m state.Memory
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(m.Update(ctx, "a", func(s *state.Session) { s.Once = map[string]bool{"k": true}; s.TurnMS = 5 }))
	must(m.Update(ctx, "b", func(s *state.Session) {
		if s.Once != nil || s.TurnMS != 0 {
			t.Errorf("a new session starts with %+v, want the zero Session", *s)
		}
	}))
	must(m.Update(ctx, "c", func(s *state.Session) { s.Stops = 2 }))
	if got := m.Get("a"); !got.Once["k"] || got.TurnMS != 5 {
		t.Errorf("session a is %+v after other sessions' updates", got)
	}
	if got := m.Get("c"); got.Stops != 2 || got.Once != nil {
		t.Errorf("session c is %+v, want only Stops 2", got)
	}
	if got := m.Get("b"); got.Once != nil || got.Stops != 0 || got.TurnMS != 0 {
		t.Errorf("session b, which fn left empty, is %+v", got)
	}
	if n := testing.AllocsPerRun(100, func() { _ = m.Update(ctx, "d", func(*state.Session) {}) }); n != 0 {
		t.Errorf("a read-only Update of a new session allocates %v times, want 0", n)
	}
}

// TestSplit: workspace records go to Records, sessions to Sessions.
func TestSplit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := &state.Dir{Path: t.TempDir()}
	mem := &state.Memory{}
	s := &state.Split{Sessions: mem, Records: dir}
	key := state.WorkspaceKey("/w")
	if err := s.Update(ctx, key, func(st *state.Session) { st.Tripwire = &state.Baseline{At: 1} }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, "s1", func(st *state.Session) { st.Stops = 1 }); err != nil {
		t.Fatal(err)
	}
	if !dir.Holds(key) || mem.Holds(key) || !s.Holds(key) {
		t.Errorf("the record: in the dir %v, in memory %v", dir.Holds(key), mem.Holds(key))
	}
	if dir.Holds("s1") || !mem.Holds("s1") || !s.Holds("s1") {
		t.Errorf("the session: in the dir %v, in memory %v", dir.Holds("s1"), mem.Holds("s1"))
	}
	s.Forget(key)
	s.Forget("s1")
	if s.Holds(key) || s.Holds("s1") {
		t.Error("Forget kept state")
	}
}

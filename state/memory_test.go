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

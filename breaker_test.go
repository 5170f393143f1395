package hookcore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// fakeClock is a settable clock for the breakers.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestCircuitBreaker (issue 11.3): a hook that fails N times in a row is skipped for the
// cool-down, reported in its record; after the cool-down one more failure trips it again,
// and a success closes it. A guard with on_error: block blocks while it is open.
func TestCircuitBreaker(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	var calls int
	var fail bool
	var mu sync.Mutex
	flaky := func(context.Context, *hook.Input) (hook.Decision, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if fail {
			return hook.Decision{}, errors.New("backend down")
		}
		return hook.Decision{}, nil
	}
	r, err := hookcore.New(nil, hookcore.Options{
		ProjectDir: t.TempDir(), BreakerThreshold: 3, BreakerCooldown: time.Minute, Now: clock.now,
		Callbacks: []hookcore.Callback{
			{ID: "flaky", Event: hook.PostToolUse, Func: flaky},
			{ID: "guard", Event: hook.PreToolUse, Func: flaky, OnError: "block"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	fire := func(ev hook.Event) hook.Result {
		return r.Fire(context.Background(), ev, bashCall(t.TempDir(), "s1", "ls"))
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	var got []string
	for range 5 {
		got = append(got, outcomes(fire(hook.PostToolUse))...)
	}
	if diff := cmp.Diff([]string{"flaky=error", "flaky=error", "flaky=error", "flaky=skipped", "flaky=skipped"}, got); diff != "" {
		t.Fatalf("tripped after 3 (-want +got):\n%s", diff)
	}
	if calls != 3 {
		t.Fatalf("the open breaker still ran the hook: %d calls", calls)
	}
	res := fire(hook.PostToolUse)
	if !strings.Contains(res.Hooks[0].Error, "circuit open: the hook failed 3 times in a row") {
		t.Fatalf("record: %q", res.Hooks[0].Error)
	}
	// After the cool-down: half-open; one more failure opens it again at once.
	clock.add(61 * time.Second)
	if got := outcomes(fire(hook.PostToolUse)); got[0] != "flaky=error" {
		t.Fatalf("half-open: %v", got)
	}
	if got := outcomes(fire(hook.PostToolUse)); got[0] != "flaky=skipped" {
		t.Fatalf("re-tripped: %v", got)
	}
	// A success after the next cool-down closes it: failures count from zero again.
	clock.add(61 * time.Second)
	mu.Lock()
	fail = false
	mu.Unlock()
	if got := outcomes(fire(hook.PostToolUse)); got[0] != "flaky=ok" {
		t.Fatalf("closed: %v", got)
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	for i := range 2 {
		if got := outcomes(fire(hook.PostToolUse)); got[0] != "flaky=error" {
			t.Fatalf("failure %d after closing: %v", i+1, got)
		}
	}
	// The fail-closed guard: errors block, and so does its open breaker.
	for range 3 {
		if res := fire(hook.PreToolUse); !res.Blocked {
			t.Fatal("a failing on_error: block guard did not block")
		}
	}
	n := calls
	res = fire(hook.PreToolUse)
	if !res.Blocked || calls != n || !strings.Contains(res.Reason, "circuit open") {
		t.Fatalf("open guard breaker: blocked %v, ran %v, reason %q", res.Blocked, calls != n, res.Reason)
	}
	// Other sessions have breakers of their own.
	if res := r.Fire(context.Background(), hook.PostToolUse, bashCall(t.TempDir(), "s2", "ls")); res.Hooks[0].Outcome != hook.OutcomeError {
		t.Fatalf("session s2: %v", outcomes(res))
	}
}

// TestBreakerOff: a negative threshold never trips.
func TestBreakerOff(t *testing.T) {
	t.Parallel()
	r, err := hookcore.New(nil, hookcore.Options{ProjectDir: t.TempDir(), BreakerThreshold: -1,
		Callbacks: []hookcore.Callback{{ID: "f", Event: hook.PostToolUse, Func: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{}, errors.New("x")
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if got := outcomes(r.Fire(context.Background(), hook.PostToolUse, bashCall(t.TempDir(), "s", "ls"))); got[0] != "f=error" {
			t.Fatal(got)
		}
	}
}

// TestTurnBudget (issue 11.3): once the turn's hooks have used the budget, the turn's further
// hooks are skipped (a fail-closed guard blocks); UserPromptSubmit starts a new turn.
func TestTurnBudget(t *testing.T) {
	t.Parallel()
	slow := func(context.Context, *hook.Input) (hook.Decision, error) {
		time.Sleep(20 * time.Millisecond) // the budget is 10 ms: one run spends it (work, not a timing assertion)
		return hook.Decision{}, nil
	}
	r, err := hookcore.New(nil, hookcore.Options{ProjectDir: t.TempDir(), TurnBudget: 10 * time.Millisecond,
		Callbacks: []hookcore.Callback{
			{ID: "slow", Event: hook.PostToolUse, Func: slow},
			{ID: "guard", Event: hook.PreToolUse, Func: slow, OnError: "block"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	in := bashCall(t.TempDir(), "s1", "ls")
	if got := outcomes(r.Fire(context.Background(), hook.PostToolUse, in)); got[0] != "slow=ok" {
		t.Fatal(got)
	}
	res := r.Fire(context.Background(), hook.PostToolUse, in)
	if res.Hooks[0].Outcome != hook.OutcomeSkipped || !strings.Contains(res.Hooks[0].Error, "turn budget spent") {
		t.Fatalf("%+v", res.Hooks)
	}
	if res := r.Fire(context.Background(), hook.PreToolUse, in); !res.Blocked || !strings.Contains(res.Reason, "turn budget") {
		t.Fatalf("the guard past the budget: %+v", res)
	}
	r.Fire(context.Background(), hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Prompt: "next"})
	if got := outcomes(r.Fire(context.Background(), hook.PostToolUse, in)); got[0] != "slow=ok" {
		t.Fatalf("a new turn: %v", got)
	}
}

// TestBreakerNeverSkipsAGuard (red team round 2): on a gate event a hook that is not
// on_error: block is never skipped by its breaker or the turn budget. The model's inputs can
// make a guard fail (an input its script cannot parse); five such calls opened the breaker
// of a Python rm guard, and a plain rm -rf then passed for the cool-down. The guard now runs
// on every call, and blocks the rm as soon as it can read the input again.
func TestBreakerNeverSkipsAGuard(t *testing.T) {
	t.Parallel()
	var calls int
	var mu sync.Mutex
	guard := func(_ context.Context, in *hook.Input) (hook.Decision, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if strings.Contains(string(in.ToolInput), "crash") {
			return hook.Decision{}, errors.New("the guard crashed on this input")
		}
		return hook.Decision{Block: true, Reason: "no rm"}, nil
	}
	slow := func(ctx context.Context, in *hook.Input) (hook.Decision, error) {
		time.Sleep(20 * time.Millisecond) // spends the 10 ms budget (work, not a timing assertion)
		return guard(ctx, in)
	}
	for _, tc := range []struct {
		name string
		opts hookcore.Options
		f    hook.ExecutorFunc
	}{
		{"breaker", hookcore.Options{BreakerThreshold: 3, BreakerCooldown: time.Hour}, guard},
		{"turn budget", hookcore.Options{TurnBudget: 10 * time.Millisecond}, slow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			calls = 0
			mu.Unlock()
			opts := tc.opts
			opts.ProjectDir = t.TempDir()
			opts.Callbacks = []hookcore.Callback{{ID: "guard", Event: hook.PreToolUse, Func: tc.f}}
			var logs bytes.Buffer
			opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
			defer func() {
				// The log says what happens (red team round 34: it said "skipped" of a guard
				// that runs on).
				if strings.Contains(logs.String(), "is skipped") {
					t.Errorf("the log says the guard is skipped:\n%s", logs.String())
				}
			}()
			r, err := hookcore.New(nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				r.Fire(context.Background(), hook.PreToolUse, bashCall(t.TempDir(), "s1", "rm crash"))
			}
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(t.TempDir(), "s1", "rm -rf d"))
			if !res.Blocked || res.Reason != "no rm" {
				t.Errorf("after 5 failures the guard did not block: %+v", res)
			}
			mu.Lock()
			defer mu.Unlock()
			if calls != 6 {
				t.Errorf("the guard ran %d times for 6 calls", calls)
			}
		})
	}
}

package hooktest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookcore/hookcore/hook"
)

// Conformance configures TestExecutor.
type Conformance struct {
	// Executor is the executor under test, configured so that it answers on Input without
	// waiting on anything outside the test (a quick command, a loopback server). Required.
	Executor hook.Executor
	// Blocking, when non-nil, is the same kind of executor configured so that it does not
	// answer until its context is done (a `sleep 600` command, a server that never replies).
	// The cancellation and deadline checks run only with it.
	Blocking hook.Executor
	// Input is the event handed to Execute; nil means a PreToolUse Bash call
	// (DefaultInput).
	Input *hook.Input
	// Concurrency is the number of concurrent Execute calls of the concurrency check; 0
	// means 8.
	Concurrency int
}

// DefaultInput returns the input TestExecutor uses when Conformance.Input is nil: a
// PreToolUse event for the Bash tool with the command "ls -la", session "hooktest".
func DefaultInput() *hook.Input {
	return &hook.Input{
		SessionID:     "hooktest",
		HookEventName: "PreToolUse",
		ToolName:      "Bash",
		ToolInput:     json.RawMessage(`{"command":"ls -la"}`),
		ToolUseID:     "toolu_hooktest",
	}
}

// TestExecutor checks the contract of hook.Executor (hook/executor.go) on c, each check a
// subtest:
//
//   - result: Execute returns; a Decision with Permission Deny also has Block; an
//     UpdatedInput is a JSON object; the Input is not modified (compared field by field
//     with a copy).
//   - concurrent: Concurrency calls at once (run the tests with -race) all return, with
//     the same Block, Permission and error-or-not as a single call.
//   - cancel (Blocking): with a context cancelled while Execute waits, it returns a non-nil
//     error.
//   - deadline (Blocking): with a context whose deadline passes, it returns an error that
//     wraps hook.ErrTimeout or context.DeadlineExceeded.
//   - leak: after all of that, no goroutine started by the executor is left
//     (go.uber.org/goleak, the goroutines alive when TestExecutor started are ignored).
//
// No check measures time: "returns" means before the test binary's own deadline (go test
// -timeout), after which the check fails naming the call that hung. TestExecutor must not
// be called from a parallel test (t.Parallel), since the leak check looks at every
// goroutine of the process.
func TestExecutor(t *testing.T, c Conformance) {
	t.Helper()
	if c.Executor == nil {
		t.Fatal("hooktest.TestExecutor: Conformance.Executor is nil")
	}
	leakOpt := goleak.IgnoreCurrent()
	in := c.Input
	if in == nil {
		in = DefaultInput()
	}
	n := c.Concurrency
	if n <= 0 {
		n = 8
	}

	var first hook.Decision
	var firstErr error
	t.Run("result", func(t *testing.T) {
		before := *in
		before.ToolInput = append(json.RawMessage(nil), in.ToolInput...)
		d, err := call(t, c.Executor, context.Background(), in)
		first, firstErr = d, err
		checkShape(t, d)
		if !reflect.DeepEqual(before, *in) {
			t.Errorf("Execute modified its input:\nbefore %+v\nafter  %+v", before, *in)
		}
	})

	t.Run("concurrent", func(t *testing.T) {
		type answer struct {
			d   hook.Decision
			err error
		}
		answers := make([]answer, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				d, err := c.Executor.Execute(context.Background(), in)
				answers[i] = answer{d, err}
			})
		}
		if !waitGroup(t, &wg) {
			t.Fatalf("%d concurrent Execute calls did not all return", n)
		}
		for i, a := range answers {
			checkShape(t, a.d)
			if a.d.Block != first.Block || a.d.Permission != first.Permission || (a.err == nil) != (firstErr == nil) {
				t.Errorf("concurrent call %d: Block %v, Permission %v, error %v; a single call: Block %v, Permission %v, error %v",
					i, a.d.Block, a.d.Permission, a.err, first.Block, first.Permission, firstErr)
			}
		}
	})

	if c.Blocking != nil {
		t.Run("cancel", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := c.Blocking.Execute(ctx, in)
				done <- err
			}()
			cancel()
			err, ok := wait(t, done)
			if !ok {
				t.Fatal("Execute did not return after its context was cancelled")
			}
			if err == nil {
				t.Error("Execute returned a nil error after its context was cancelled while it waited")
			}
		})
		t.Run("deadline", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := c.Blocking.Execute(ctx, in)
				done <- err
			}()
			err, ok := wait(t, done)
			if !ok {
				t.Fatal("Execute did not return after its deadline passed")
			}
			if !errors.Is(err, hook.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Execute past its deadline returned %v, want an error wrapping hook.ErrTimeout or context.DeadlineExceeded", err)
			}
		})
	}

	t.Run("leak", func(t *testing.T) {
		if err := goleak.Find(leakOpt); err != nil {
			t.Errorf("goroutines left by the executor: %v", err)
		}
	})
}

// call runs one Execute and fails t when it does not return before the test's deadline.
func call(t *testing.T, ex hook.Executor, ctx context.Context, in *hook.Input) (hook.Decision, error) {
	t.Helper()
	type answer struct {
		d   hook.Decision
		err error
	}
	done := make(chan answer, 1)
	go func() {
		d, err := ex.Execute(ctx, in)
		done <- answer{d, err}
	}()
	a, ok := wait(t, done)
	if !ok {
		t.Fatal("Execute did not return")
	}
	return a.d, a.err
}

// checkShape checks the invariants of hook.Decision that every executor must keep.
func checkShape(t *testing.T, d hook.Decision) {
	t.Helper()
	if d.Permission == hook.Deny && !d.Block {
		t.Errorf("Decision has Permission Deny without Block: %+v", d)
	}
	if d.UpdatedInput != nil {
		var obj map[string]any
		if err := json.Unmarshal(d.UpdatedInput, &obj); err != nil || obj == nil {
			t.Errorf("Decision.UpdatedInput is not a JSON object: %s", d.UpdatedInput)
		}
	}
}

// wait receives from ch, or reports false when the test binary's deadline (go test
// -timeout) is near; without a deadline it waits as long as it takes.
func wait[T any](t *testing.T, ch <-chan T) (T, bool) {
	t.Helper()
	deadline, ok := t.Deadline()
	if !ok {
		return <-ch, true
	}
	timer := time.NewTimer(time.Until(deadline) - time.Until(deadline)/10)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v, true
	case <-timer.C:
		var zero T
		return zero, false
	}
}

// waitGroup waits for wg as wait does for a channel.
func waitGroup(t *testing.T, wg *sync.WaitGroup) bool {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	_, ok := wait(t, done)
	return ok
}

package hookcore_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// waitFor is a hook script that creates its own marker, then waits (at most ~10 s) for the
// other hook's marker: it can only succeed when the two hooks run at the same time.
const waitFor = `#!/bin/sh
touch %[1]s.marker
i=0
while [ ! -e %[2]s.marker ]; do
  i=$((i+1))
  if [ $i -gt 200 ]; then echo '%[1]s never saw %[2]s' >&2; exit 1; fi
  sleep 0.05
done
printf '{"additional_context": "%[1]s saw %[2]s"}'
`

// TestParallelHooksRunConcurrently: on feedback and observe events, parallel hooks run at the
// same time (each waits for the other's marker file, which deadlocks until its bound when
// run one after the other), and their results are merged in config order. Parallelism can
// be asked for per hook, per file and in Options.
func TestParallelHooksRunConcurrently(t *testing.T) {
	t.Parallel()
	hooks := func(event, hookKey, fileKey string) string {
		return fmt.Sprintf(`%shooks:
  - {id: a, event: %s, %saction: {type: command, command: sh a.sh}}
  - {id: b, event: %s, %saction: {type: command, command: sh b.sh}}
`, fileKey, event, hookKey, event, hookKey)
	}
	tests := []struct {
		name   string
		event  hook.Event
		config string
		opts   hookcore.Options
	}{
		{"hook parallel feedback", hook.PostToolUse, hooks("post_tool_use", "parallel: true, ", ""), hookcore.Options{}},
		{"hook parallel observe", hook.Notification, hooks("notification", "parallel: true, ", ""), hookcore.Options{}},
		{"file parallel", hook.PostToolUse, hooks("post_tool_use", "", "parallel: true\n"), hookcore.Options{}},
		{"options parallel", hook.Stop, hooks("stop", "", ""), hookcore.Options{Parallel: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, "a.sh", fmt.Sprintf(waitFor, "a", "b"))
			writeFile(t, dir, "b.sh", fmt.Sprintf(waitFor, "b", "a"))
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", tt.config), tt.opts)
			res := r.Fire(context.Background(), tt.event, bashCall(dir, "s1", "ls"))
			want := summary{Context: "a saw b\n\nb saw a", Continue: true, Hooks: []string{"a=context", "b=context"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParallelIgnoredOnGateEvents: gate hooks always run one after the other, so a pair
// that needs each other fails (the first gives up waiting) even with parallel asked for.
func TestParallelIgnoredOnGateEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A short bound: the first hook gives up after ~0.5 s.
	script := "#!/bin/sh\ntouch %[1]s.marker\ni=0\nwhile [ ! -e %[2]s.marker ]; do i=$((i+1)); [ $i -gt 10 ] && exit 1; sleep 0.05; done\n"
	writeFile(t, dir, "a.sh", fmt.Sprintf(script, "a", "b"))
	writeFile(t, dir, "b.sh", fmt.Sprintf(script, "b", "a"))
	set := loadConfig(t, dir, "hooks.yaml", `parallel: true
hooks:
  - {id: a, event: pre_tool_use, parallel: true, action: {type: command, command: sh a.sh}}
  - {id: b, event: pre_tool_use, parallel: true, action: {type: command, command: sh b.sh}}
`)
	r := newRunner(t, dir, set, hookcore.Options{Parallel: true})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"a=error", "b=ok"}, outcomes(res)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestAsyncHookDetachedAndAwaitedByClose: an async hook runs in the background with a
// context detached from the caller's (a cancelled turn does not kill it), Fire records it as
// "async" without waiting, and Close waits for it (DESIGN.md section 7).
func TestAsyncHookDetachedAndAwaitedByClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "audit.sh", "#!/bin/sh\nsleep 0.3\ncat > audit.json\necho done > audit.txt\n")
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: audit, event: post_tool_use, async: true, action: {type: command, command: sh audit.sh}}
  - {id: sync, event: post_tool_use, action: {type: command, command: "echo sync > sync.txt"}}
`)
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the turn is already over when the hooks fire
	res := r.Fire(ctx, hook.PostToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"audit=async", "sync=error"}, outcomes(res)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	closeCtx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	if err := r.Close(closeCtx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := readFile(t, dir, "audit.txt"); got != "done\n" {
		t.Errorf("after Close, audit.txt = %q: the async hook was killed or not awaited", got)
	}
	if got := readFile(t, dir, "audit.json"); got == "" {
		t.Errorf("the async hook got no input on stdin")
	}
}

// TestCloseWithoutAsyncHooks: a Runner whose async hooks never started (and no telemetry)
// has nothing to wait for: Close returns nil even with a context already done (it used to
// race a waiting goroutine against the context), and later Fires start no async hook.
func TestCloseWithoutAsyncHooks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: sync, event: notification, action: {type: inject, message: hi}}
  - {id: late, event: stop, async: true, action: {type: command, command: "touch late"}}
`)
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r.Fire(context.Background(), hook.Notification, &hook.Input{SessionID: "s1", Cwd: dir, Message: "hi"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for i := 0; i < 100; i++ {
		if err := r.Close(cancelled); err != nil {
			t.Fatalf("Close(cancelled ctx) with no async hook started = %v, want nil", err)
		}
	}
	res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1", Cwd: dir})
	if len(res.Hooks) != 1 || res.Hooks[0].Error != "runner closed" {
		t.Errorf("Fire after Close: hooks %+v, want the async hook skipped (runner closed)", res.Hooks)
	}
}

// TestCloseWithExpiredContext: Close returns the context's error when async hooks are still
// running at its deadline, and nil once they are done.
func TestCloseWithExpiredContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "wait.sh", "#!/bin/sh\ni=0\nwhile [ ! -e release ]; do i=$((i+1)); [ $i -gt 400 ] && exit 1; sleep 0.05; done\n")
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: slow, event: notification, async: true, action: {type: command, command: sh wait.sh}}
`)
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r.Fire(context.Background(), hook.Notification, &hook.Input{SessionID: "s1", Cwd: dir, Message: "hi"})

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Close(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Close(cancelled ctx) = %v, want context.Canceled", err)
	}
	expired, cancel2 := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel2()
	if err := r.Close(expired); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close(expired ctx) = %v, want context.DeadlineExceeded", err)
	}

	// After Close, Fire still works but starts no new async hooks.
	res := r.Fire(context.Background(), hook.Notification, &hook.Input{SessionID: "s1", Cwd: dir})
	if len(res.Hooks) != 1 || res.Hooks[0].Outcome != hook.OutcomeSkipped || res.Hooks[0].Error != "runner closed" {
		t.Errorf("Fire after Close: records %+v, want one skipped \"runner closed\"", res.Hooks)
	}

	writeFile(t, dir, "release", "")
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	if err := r.Close(ctx); err != nil {
		t.Errorf("Close after the hook finished = %v, want nil", err)
	}
}

// TestReloadSwapsAtomically: Reload replaces the hook set whole; events firing meanwhile see
// either the old or the new set, never a mix; a set that does not compile leaves the old
// hooks running and returns the error.
func TestReloadSwapsAtomically(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	counter := func(name string) hook.ExecutorFunc {
		return fn(hook.Decision{AdditionalContext: name})
	}
	funcs := map[string]hook.ExecutorFunc{"old": counter("old"), "new": counter("new")}
	setOf := func(name string) *config.Set {
		return loadConfig(t, dir, name+".yaml", fmt.Sprintf(`hooks:
  - {id: %[1]s-1, event: pre_tool_use, action: {type: func, name: %[1]s}}
  - {id: %[1]s-2, event: pre_tool_use, action: {type: func, name: %[1]s}}
`, name))
	}
	oldSet, newSet := setOf("old"), setOf("new")
	bad := loadConfig(t, dir, "bad.yaml", `hooks:
  - {id: unregistered, event: pre_tool_use, action: {type: func, name: nobody}}
`)
	r := newRunner(t, dir, oldSet, hookcore.Options{Funcs: funcs})

	if err := r.Reload(bad); err == nil {
		t.Fatal("Reload(bad set) = nil, want an error")
	}
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"old-1=context", "old-2=context"}, outcomes(res)); diff != "" {
		t.Errorf("after a failed Reload (-want +got):\n%s", diff)
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
				if res.AdditionalContext != "old\n\nold" && res.AdditionalContext != "new\n\nnew" {
					t.Errorf("mixed hook sets during Reload: %q", res.AdditionalContext)
					return
				}
			}
		}()
	}
	for i := 0; i < 200; i++ {
		s := oldSet
		if i%2 == 0 {
			s = newSet
		}
		if err := r.Reload(s); err != nil {
			t.Fatalf("Reload: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	if err := r.Reload(newSet); err != nil {
		t.Fatal(err)
	}
	res = r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"new-1=context", "new-2=context"}, outcomes(res)); diff != "" {
		t.Errorf("after Reload (-want +got):\n%s", diff)
	}
	if r.Len() != 2 {
		t.Errorf("Len() = %d, want 2", r.Len())
	}
}

// TestCloseRacingFire: Fire racing with Close either starts an async hook before Close begins
// waiting (and Close waits for it) or records it as skipped; no hook starts after Close
// returned. (Before the fix the closed check and WaitGroup.Add were not ordered against Close,
// so a hook could start after Close returned nil.) The race is probabilistic; -race also
// checks the WaitGroup use.
func TestCloseRacingFire(t *testing.T) {
	t.Parallel()
	for round := 0; round < 10; round++ {
		dir := t.TempDir()
		var started, finished atomic.Int64
		audit := func(context.Context, *hook.Input) (hook.Decision, error) {
			started.Add(1)
			runtime.Gosched()
			finished.Add(1)
			return hook.Decision{}, nil
		}
		set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: audit, event: notification, async: true, action: {type: func, name: audit}}\n")
		r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir, Funcs: map[string]hook.ExecutorFunc{"audit": audit}})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
						r.Fire(context.Background(), hook.Notification, &hook.Input{SessionID: "s1"})
					}
				}
			}()
		}
		time.Sleep(2 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := r.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
		cancel()
		atClose := finished.Load()
		close(stop)
		wg.Wait()
		time.Sleep(5 * time.Millisecond)
		if s := started.Load(); s != atClose {
			t.Fatalf("round %d: %d async hooks started but only %d had finished when Close returned", round, s, atClose)
		}
	}
}

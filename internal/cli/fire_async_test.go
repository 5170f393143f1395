//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asyncHookConfig is an async Notification hook that records its shell's and its sleep's
// pids, says it started, and would touch "late" after 30 s if nothing stopped it.
const asyncHookConfig = `hooks:
  - id: audit
    event: notification
    async: true
    timeout: 600
    action: {type: command, command: "echo $$ > shell.pid; sleep 30 & echo $! > sleep.pid; : > started; wait; touch late"}
`

// startFire starts the built CLI (this test binary as hookcore) on one Notification with
// extra flags, in dir, and returns it with its stdout pipe.
func startFire(t *testing.T, dir string, flags ...string) (*exec.Cmd, io.Reader, *bytes.Buffer) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	bin, err := exec.LookPath("hookcore")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(cfg, []byte(asyncHookConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]string{"session_id": "s1", "cwd": dir, "hook_event_name": "Notification", "message": "hi"})
	cmd := exec.Command(bin, append([]string{"fire", "Notification", "--config", cfg}, flags...)...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, stdout, &stderr
}

// readResult reads the result JSON fire prints, while fire is still running.
func readResult(t *testing.T, stdout io.Reader) map[string]any {
	t.Helper()
	var res map[string]any
	if err := json.NewDecoder(stdout).Decode(&res); err != nil {
		t.Fatalf("reading the result: %v", err)
	}
	return res
}

// waitExit waits for fire to exit. The guard of 60 s only turns a hang into a failure; the
// work it bounds takes milliseconds plus the hook's 2 s grace.
func waitExit(t *testing.T, cmd *exec.Cmd, what string) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("fire did not exit: %s", what)
		return -1
	}
}

// waitFor polls until name exists in dir (a hang guard of 60 s, not a speed bound).
func waitFor(t *testing.T, dir, name string) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", name)
}

// alive reports whether the process whose pid is in dir/name runs (a zombie does not). No
// file is no process: on a busy machine --async-wait can end before the hook's shell wrote
// its pid, and then the shell and whatever it started went with the hook's process group.
func alive(t *testing.T, dir, name string) bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(bytes.TrimSpace(b)) == 0 { // killed between creating the file and writing it
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// TestAliveBeforePidWritten: a hook killed before its shell wrote its pid (no file, or an
// empty one) is not alive, and not a failure of the test (TestFireAsyncWaitBound flaked on
// a busy machine when --async-wait ended first).
func TestAliveBeforePidWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "empty.pid"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"missing.pid", "empty.pid"} {
		if alive(t, dir, name) {
			t.Errorf("alive(%s) = true", name)
		}
	}
}

// hookGone checks that neither the async hook's shell nor its sleep outlived fire. A killed
// process can stay a few moments until its parent or init reaps it, so this polls (guard
// 60 s).
func hookGone(t *testing.T, dir string) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if !alive(t, dir, "shell.pid") && !alive(t, dir, "sleep.pid") {
			if _, err := os.Stat(filepath.Join(dir, "late")); err == nil {
				t.Error("the async hook ran to its end")
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("the async hook's processes outlived fire")
}

// TestFireAsyncSIGTERM: fire prints the result before it waits for an async hook, and at
// SIGTERM (or SIGINT) it kills the hook's process group and exits with the result's status,
// although the hook's timeout is 600 s and --async-wait 10 minutes (issue 10.8: measured
// before, 600 s under `timeout 120`).
func TestFireAsyncSIGTERM(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd, stdout, stderr := startFire(t, dir, "--async-wait", "10m")
			res := readResult(t, stdout) // printed while the hook still runs
			if hooks, _ := res["hooks"].([]any); len(hooks) != 1 || hooks[0].(map[string]any)["outcome"] != "async" {
				t.Fatalf("result hooks = %v, want one async record", res["hooks"])
			}
			waitFor(t, dir, "started")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd, "it ignored "+sig.String()); code != 0 {
				t.Errorf("exit status %d, want 0 (the result's)", code)
			}
			if !strings.Contains(stderr.String(), "interrupted by a signal; cancelled") {
				t.Errorf("stderr = %q, want the cancellation noted", stderr)
			}
			hookGone(t, dir)
		})
	}
}

// TestFireAsyncWaitBound: without a signal, fire waits --async-wait for an async hook, then
// kills it and exits.
func TestFireAsyncWaitBound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd, stdout, stderr := startFire(t, dir, "--async-wait", "200ms")
	readResult(t, stdout)
	if code := waitExit(t, cmd, "it waited for the async hook past --async-wait"); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	if !strings.Contains(stderr.String(), "still running after 200ms; cancelled") {
		t.Errorf("stderr = %q, want the cancellation noted", stderr)
	}
	hookGone(t, dir)
}

//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestHookSignalDuringHook: a SIGTERM or SIGINT to `hookcore hook claude` while a hook's
// command runs cancels the hook (its processes are killed) and the hook command still
// answers as for any failed hook: a guard with on_error: block blocks (exit 2, the reason on
// stderr), another hook's failure is a warning (exit 0). It never dies by the signal
// (exit 143), which Claude Code reads as a non-blocking error. The hook command arms its
// signals only when the first hook is about to run (signalGate); this pins that they are
// armed by then (the answers are those of the build that armed them before firing).
func TestHookSignalDuringHook(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	bin, err := exec.LookPath("hookcore")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sig     syscall.Signal
		onError string
		code    int
		stderr  string
	}{
		{syscall.SIGTERM, "block", 2, `guard hook "slow-guard" failed, so the action is blocked (on_error: block): hook "slow-guard": stopped: stopped: context canceled`},
		{syscall.SIGINT, "block", 2, `guard hook "slow-guard" failed, so the action is blocked (on_error: block)`},
		{syscall.SIGTERM, "allow", 0, `outcome=error`},
	}
	for _, tt := range tests {
		t.Run(tt.sig.String()+" on_error "+tt.onError, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := filepath.Join(dir, "hooks.yaml")
			if err := os.WriteFile(cfg, []byte(`hooks:
  - id: slow-guard
    event: pre_tool_use
    matcher: Bash
    timeout: 600
    on_error: `+tt.onError+`
    action: {type: command, command: "echo $$ > shell.pid; sleep 30 & echo $! > sleep.pid; : > started; wait; touch late"}
`), 0o644); err != nil {
				t.Fatal(err)
			}
			input, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_input": map[string]string{"command": "ls"}})
			cmd := exec.Command(bin, "hook", "claude", "--config", cfg, "--state-dir", filepath.Join(dir, "state"))
			cmd.Dir = dir
			cmd.Stdin = bytes.NewReader(input)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			waitFor(t, dir, "started")
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			code := waitExit(t, cmd, "it ignored "+tt.sig.String())
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr containing %q and nothing on stdout",
					code, stdout.String(), stderr.String(), tt.code, tt.stderr)
			}
			hookGone(t, dir)
		})
	}
}

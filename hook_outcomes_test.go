package hookcore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestRejectBrokenEnvelopeLeaksNothing: a reject hook whose stdout is a broken JSON envelope
// still blocks, but none of that output reaches the reason (nothing of a reply that does
// not parse is used). Regression: the raw output was the reason.
func TestRejectBrokenEnvelopeLeaksNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: guard
    event: pre_tool_use
    action: {type: command, command: "printf '%s' '{\"reason\": SECRET-TYPO'"}
    reject: true
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if !res.Blocked {
		t.Fatalf("reject hook did not block: %+v", summarize(res))
	}
	if strings.Contains(res.Reason, "SECRET-TYPO") || !strings.Contains(res.Reason, "guard") {
		t.Fatalf("reason = %q: want the hook named and none of its broken output", res.Reason)
	}
}

// TestOnceNotUsedUpByDenial: a once hook that the Approver denied did not run, so it may
// still run later in the session. Regression: once was claimed before approval.
func TestOnceNotUsedUpByDenial(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: hello
    event: session_start
    action: {type: prompt, message: "hello"}
    once: true
`)
	allow := false
	r := newRunner(t, dir, set, hookcore.Options{Approver: hookcore.ApproverFunc(
		func(context.Context, hookcore.HookInfo) (bool, error) { return allow, nil })})
	in := &hook.Input{SessionID: "s1", Cwd: dir, Source: "startup"}
	if res := r.Fire(context.Background(), hook.SessionStart, in); res.AdditionalContext != "" {
		t.Fatalf("denied hook ran: %+v", summarize(res))
	}
	allow = true
	if res := r.Fire(context.Background(), hook.SessionStart, in); res.AdditionalContext != "hello" {
		t.Fatalf("once hook used up by a denial: %+v", summarize(res))
	}
	if res := r.Fire(context.Background(), hook.SessionStart, in); res.AdditionalContext != "" {
		t.Fatalf("once hook ran twice: %+v", summarize(res))
	}
}

// TestConfigDirInHookEnv: command hooks get HOOKCORE_CONFIG_DIR, the absolute directory of
// the config file that declares them, so a config can run the scripts beside it from any
// working directory.
func TestConfigDirInHookEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "conf/hooks.yaml", `hooks:
  - id: where
    event: pre_tool_use
    action: {type: command, command: "printf '%s' \"$HOOKCORE_CONFIG_DIR\" > where.txt"}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if got, want := readFile(t, dir, "where.txt"), filepath.Join(dir, "conf"); got != want {
		t.Fatalf("HOOKCORE_CONFIG_DIR = %q, want %q", got, want)
	}
}

// TestPostStopValidationNonZeroExitFails: merge rule 8. A validation hook that exits 1 (a
// failing test run) fails the validation: it blocks with its output as the reason, is not
// an error, and the hooks after it do not run. Regression: exit 1 was a non-blocking error.
func TestPostStopValidationNonZeroExitFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: tests
    event: PostStopValidation
    action: {type: command, command: "echo 'ok  pkg/a'; echo '--- FAIL: TestLogin' >&2; exit 1"}
  - id: lint
    event: PostStopValidation
    action: {type: command, command: "echo ran > lint.txt"}
  - id: missing
    event: PostStopValidation
    action: {type: command, command: "./no-such-validator.sh"}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PostStopValidation, &hook.Input{SessionID: "s1", Cwd: dir})
	if !res.Blocked || !strings.Contains(res.Reason, "--- FAIL: TestLogin") || !strings.Contains(res.Reason, "ok  pkg/a") {
		t.Fatalf("want a failed validation with the output as reason: %+v", summarize(res))
	}
	if res.Errors != 0 || res.Hooks[0].Outcome != hook.OutcomeBlock || len(res.Hooks) != 1 {
		t.Fatalf("want one block record and no error: %+v", summarize(res))
	}

	// A validator that cannot start is a hook fault, not a failed validation.
	set = loadConfig(t, dir, "hooks2.yaml", `hooks:
  - id: missing
    event: PostStopValidation
    action: {type: command, command: "./no-such-validator.sh"}
`)
	r = newRunner(t, dir, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PostStopValidation, &hook.Input{SessionID: "s1", Cwd: dir}); res.Blocked || res.Errors != 1 {
		t.Fatalf("a validator that cannot start must not fail the validation: %+v", summarize(res))
	}
}

// TestAsyncHookDeniedIsSkipped: an async hook the Approver denies never starts, and its
// record says skipped, not async. Regression: the approval ran inside the background
// goroutine, after the record already said async.
func TestAsyncHookDeniedIsSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: notify
    event: notification
    action: {type: command, command: "echo ran > ran.txt"}
    async: true
`)
	r := newRunner(t, dir, set, hookcore.Options{Approver: hookcore.ApproverFunc(
		func(context.Context, hookcore.HookInfo) (bool, error) { return false, nil })})
	res := r.Fire(context.Background(), hook.Notification, &hook.Input{SessionID: "s1", Cwd: dir})
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Outcome != hook.OutcomeSkipped || !strings.Contains(res.Hooks[0].Error, "not approved") {
		t.Fatalf("want one skipped record saying not approved: %+v", res.Hooks)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Fatal("a denied async hook ran")
	}
}

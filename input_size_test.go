package hookcore_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// guardYAML is a config with one command guard on event that reports the length of the
// command it was given and blocks; extra is added to the hook's entry.
func guardYAML(event, extra string) string {
	return `hooks:
  - id: guard
    event: ` + event + `
    matcher: Bash
    action: {type: command, command: 'x=$TOOL_ARGS.command; printf "%s" "${#x}" >&2; exit 2'}
` + extra
}

// TestHugeInputGuard: a guard cannot be bypassed by padding the tool input. Up to what exec
// accepts the guard runs with the exact value (it was "could not start" past 128 KiB, and the
// call was allowed); past it, on a gate event, a blocking hook blocks with a reason that says
// why; on other events, or with blocking: false, it is an error (merge, rule 9).
func TestHugeInputGuard(t *testing.T) {
	t.Parallel()
	const tooLarge = `hook "guard" could not receive this input (`
	tests := []struct {
		name   string
		event  hook.Event
		extra  string
		size   int
		want   summary
		reason string // the Result's reason starts with this (when want.Reason is empty)
	}{
		{"200 KB reaches the guard", hook.PreToolUse, "", 200_000,
			summary{Blocked: true, Reason: "200000", Continue: true, Hooks: []string{"guard=block"}}, ""},
		{"1 MB reaches the guard", hook.PreToolUse, "", 1_000_000,
			summary{Blocked: true, Reason: "1000000", Continue: true, Hooks: []string{"guard=block"}}, ""},
		{"3 MB blocks on a gate event", hook.PreToolUse, "", 3_000_000,
			summary{Blocked: true, Continue: true, Errors: 1, Hooks: []string{"guard=block"}}, tooLarge},
		{"3 MB is an error on PostToolUse", hook.PostToolUse, "", 3_000_000,
			summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}, ""},
		{"3 MB is an error for a non-blocking hook", hook.PreToolUse, "    blocking: false\n", 3_000_000,
			summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}, ""},
		{"3 MB blocks under on_error: block with the same reason", hook.PreToolUse, "    on_error: block\n", 3_000_000,
			summary{Blocked: true, Continue: true, Errors: 1, Hooks: []string{"guard=block"}}, tooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.size == 1_000_000 && runtime.GOOS != "linux" {
				t.Skip("a 1 MB environment fits under Linux's ARG_MAX (2 MiB), not everywhere")
			}
			dir := t.TempDir()
			yamlEvent := map[hook.Event]string{hook.PreToolUse: "pre_tool_use", hook.PostToolUse: "post_tool_use"}[tt.event]
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", guardYAML(yamlEvent, tt.extra)), hookcore.Options{})
			in := bashCall(dir, "s1", strings.Repeat("a", tt.size))
			if tt.event == hook.PostToolUse {
				in.ToolResponse = json.RawMessage(`"done"`)
			}
			res := r.Fire(context.Background(), tt.event, in)
			got := summarize(res)
			if tt.reason != "" {
				if !strings.HasPrefix(got.Reason, tt.reason) || !strings.HasSuffix(got.Reason, "bytes is more than a command can be given); blocked so that the guard is not bypassed") {
					t.Errorf("reason = %q, want it to start with %q", got.Reason, tt.reason)
				}
				got.Reason = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nrecords: %+v", diff, res.Hooks)
			}
		})
	}
}

// TestReasonCapped: a hook that writes 900 000 bytes to stderr (under the executor's 1 MiB
// output cap, past which the tail is already lost) and exits 2 blocks with a reason that
// keeps its first and last 25 000 characters with Claude Code's marker between them, in the
// Result and in its record (merge, rule 10); so does a permission reason, counted in runes.
// The marker and the two lengths are those Claude Code 2.1.332 showed the model for a
// 61 000-character stderr (testdata/claude/long-reason).
func TestReasonCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: loud
    event: pre_tool_use
    action: {type: command, command: "(printf h; head -c 899998 /dev/zero | tr '\\0' x; printf t) >&2; exit 2"}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	want := "h" + strings.Repeat("x", 24999) + "\n\n... [850000 characters truncated] ...\n\n" + strings.Repeat("x", 24999) + "t"
	if !res.Blocked || res.Reason != want {
		t.Errorf("blocked %v, reason of %d runes ending %q; want %d runes ending %q",
			res.Blocked, utf8.RuneCountInString(res.Reason), tail(res.Reason), utf8.RuneCountInString(want), tail(want))
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Reason != want {
		t.Errorf("record reason is not capped: %d records", len(res.Hooks))
	}

	long := strings.Repeat("日", 60000)
	r2 := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "asker", Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Ask, Reason: long})}}})
	res = r2.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	want = strings.Repeat("日", 25000) + "\n\n... [10000 characters truncated] ...\n\n" + strings.Repeat("日", 25000)
	if res.Reason != want || res.Hooks[0].Reason != want {
		t.Errorf("permission reason of %d runes ending %q, want %d runes", utf8.RuneCountInString(res.Reason), tail(res.Reason), utf8.RuneCountInString(want))
	}
	short := strings.Repeat("日", 50000)
	r3 := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "asker", Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Ask, Reason: short})}}})
	if res = r3.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls")); res.Reason != short {
		t.Errorf("a reason of 50 000 runes is cut to %d runes", utf8.RuneCountInString(res.Reason))
	}
}

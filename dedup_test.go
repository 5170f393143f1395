package hookcore_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestDedupKeepsGuardTwins: two hooks with the same command that differ in anything that
// changes the decision — reject, on_error, exit_codes, blocking — are not one hook: the guard
// twin written second still runs and blocks (issue 10.5). Identical twins are still one
// (TestDedupIdenticalCommandHooks).
func TestDedupKeepsGuardTwins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		config string
		want   []string
	}{
		{"reject", `hooks:
  - {id: plain, event: pre_tool_use, action: {type: command, command: "echo rm is not welcome"}}
  - {id: guard, event: pre_tool_use, reject: true, action: {type: command, command: "echo rm is not welcome"}}
`, []string{"plain=ok", "guard=block"}},
		{"on_error", `hooks:
  - {id: plain, event: pre_tool_use, action: {type: command, command: "exit 1"}}
  - {id: guard, event: pre_tool_use, on_error: block, action: {type: command, command: "exit 1"}}
`, []string{"plain=error", "guard=block"}},
		{"exit_codes", `hooks:
  - {id: plain, event: pre_tool_use, action: {type: command, command: "exit 1"}}
  - {id: guard, event: pre_tool_use, exit_codes: {1: block}, action: {type: command, command: "exit 1"}}
`, []string{"plain=error", "guard=block"}},
		{"blocking", `hooks:
  - {id: plain, event: pre_tool_use, blocking: false, action: {type: command, command: "echo no >&2; exit 2"}}
  - {id: guard, event: pre_tool_use, action: {type: command, command: "echo no >&2; exit 2"}}
`, []string{"plain=ok", "guard=block"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", tt.config), hookcore.Options{})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "rm -rf x"))
			if diff := cmp.Diff(tt.want, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if !res.Blocked {
				t.Errorf("not blocked: the guard twin was dropped (records %v)", outcomes(res))
			}
		})
	}
}

package hookcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestGateBlocksAmbiguousToolInput: a tool input that a hook and a Go tool would read
// differently — {"command":"ls","Command":"rm -rf victim"} passes a Bash(rm *) guard that
// reads "command", and encoding/json hands the tool the rm — is blocked on gate events before
// any hook runs, whatever guard there is (issue 10.4). A plain input still reaches the hooks.
func TestGateBlocksAmbiguousToolInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: no-rm, event: pre_tool_use, matcher: Bash, if: 'Bash(rm *)', reject: true, action: {type: command, command: "echo no rm"}}
  - {id: log, event: pre_tool_use, action: {type: command, command: "echo ran >> ran.txt"}}
  - {id: perm, event: permission_request, action: {type: command, command: "echo ran >> ran.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	for _, input := range []string{
		`{"command":"ls","Command":"rm -rf victim"}`,
		`{"Command":"rm -rf victim","command":"ls"}`,
		`{"command":"rm -rf victim","command":"ls"}`,
		`{"command":"ls","comm\u0061nd":"rm -rf victim"}`,
		`{"command":"ls","opts":{"env":{"X":"1","x":"2"}}}`,
	} {
		for _, event := range []hook.Event{hook.PreToolUse, hook.PermissionRequest} {
			in := &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Bash", ToolInput: json.RawMessage(input)}
			res := r.Fire(context.Background(), event, in)
			if !res.Blocked || !strings.Contains(res.Reason, "tool input rejected") || len(res.Hooks) != 0 {
				t.Errorf("%s %s: blocked %v, reason %q, hooks %v; want a block before any hook", event, input, res.Blocked, res.Reason, outcomes(res))
			}
		}
	}
	if got := readFile(t, dir, "ran.txt"); got != "" {
		t.Errorf("hooks ran on an ambiguous input: %q", got)
	}
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if res.Blocked || len(res.Hooks) != 1 {
		t.Errorf("plain input: blocked %v, hooks %v; want the log hook only", res.Blocked, outcomes(res))
	}
}

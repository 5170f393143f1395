package hookcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestBadInputGuard: a tool input the executor cannot encode as JSON (nested deeper than
// encoding/json writes, or a json.RawMessage that is not JSON) must not switch a guard off.
// On a gate event a blocking hook blocks with a reason that says why; elsewhere it is an
// error (merge, rule 9). The guard used to fail with "could not start" and the call was
// allowed.
func TestBadInputGuard(t *testing.T) {
	t.Parallel()
	const reason = `hook "guard" could not be given this input (it cannot be encoded as JSON: not valid JSON, or nested too deeply); blocked so that the guard is not bypassed`
	deep := json.RawMessage(`{"command":"rm -rf /x","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`)
	invalid := json.RawMessage(`{"command":"rm -rf /x",}`)
	tests := []struct {
		name  string
		event hook.Event
		input json.RawMessage
		extra string
		want  summary
	}{
		// Nested past hook.MaxToolInputDepth: refused before any hook runs (red team, stop
		// 20: a Python guard crashed on it, and a crash lets the call through).
		{"deep input blocks PreToolUse", hook.PreToolUse, deep, "",
			summary{Blocked: true, Reason: "tool input rejected: ambiguous tool input: nested more than 256 deep", Continue: true}},
		{"a number past float64 blocks PreToolUse", hook.PreToolUse, json.RawMessage(`{"command":"rm -rf /x","timeout":` + strings.Repeat("9", 5000) + `}`), "",
			summary{Blocked: true, Reason: "tool input rejected: ambiguous tool input: timeout: a number out of a float64's range (99999999999999999999…, 5000 characters)", Continue: true}},
		{"invalid input blocks PreToolUse", hook.PreToolUse, invalid, "",
			summary{Blocked: true, Reason: reason, Continue: true, Errors: 1, Hooks: []string{"guard=block"}}},
		{"deep input is an error on PostToolUse", hook.PostToolUse, deep, "",
			summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}},
		{"invalid input is an error on PostToolUse", hook.PostToolUse, invalid, "",
			summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}},
		{"a non-blocking hook only errs", hook.PreToolUse, invalid, "    blocking: false\n",
			summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			yamlEvent := map[hook.Event]string{hook.PreToolUse: "pre_tool_use", hook.PostToolUse: "post_tool_use"}[tt.event]
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", guardYAML(yamlEvent, tt.extra)), hookcore.Options{})
			in := &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Bash", ToolInput: tt.input}
			if tt.event == hook.PostToolUse {
				in.ToolResponse = json.RawMessage(`"done"`)
			}
			res := r.Fire(context.Background(), tt.event, in)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("(-want +got):\n%s\nrecords: %+v", diff, res.Hooks)
			}
			if len(res.Hooks) == 1 && !strings.Contains(res.Hooks[0].Error, "hook input cannot be given to the hook") {
				t.Errorf("record error = %q, want it to say the input cannot be given", res.Hooks[0].Error)
			}
		})
	}
}

// TestBadInputConditionFailsClosed: on a gate event, a guard whose `if` reads arguments that
// cannot be decoded (invalid JSON, nested too deep) runs anyway, and blocks; on a feedback
// event the `if` still decides (it does not match). Regression: the condition read empty
// arguments, did not match, and the call was allowed.
func TestBadInputConditionFailsClosed(t *testing.T) {
	t.Parallel()
	deep := json.RawMessage(`{"command":"rm -rf /x","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`)
	invalid := json.RawMessage(`{"command":"rm -rf /x",}`)
	for _, cond := range []string{`args.command =~ /rm/`, `/rm -rf/`, `Bash(rm *)`} {
		dir := t.TempDir()
		set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - id: guard\n    event: pre_tool_use\n    if: '"+cond+"'\n    action: {type: command, command: \"exit 0\"}\n")
		r := newRunner(t, dir, set, hookcore.Options{})
		for name, args := range map[string]json.RawMessage{"deep": deep, "invalid": invalid} {
			in := &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Bash", ToolInput: args}
			if res := r.Fire(context.Background(), hook.PreToolUse, in); !res.Blocked {
				t.Errorf("if %s, %s input: not blocked: %+v", cond, name, summarize(res))
			}
		}
	}
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - id: audit\n    event: post_tool_use\n    if: 'args.command =~ /rm/'\n    action: {type: command, command: \"exit 0\"}\n")
	r := newRunner(t, dir, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PostToolUse, &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Bash", ToolInput: invalid}); len(res.Hooks) != 0 {
		t.Errorf("a feedback event's if must still decide: %+v", summarize(res))
	}
}

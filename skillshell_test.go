package hookcore_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestSkillShellCommandRunsBashGuards (red team round 39, observed with Claude Code 2.1.332):
// a skill's or slash command's "!`cmd`" line runs no Bash tool call; Claude Code asks only
// PreSkillShellCommand hooks, so a repository's command ran `rm -rf` past every Bash guard.
// Fire on PreSkillShellCommand runs its own hooks and then, unless they blocked, the
// PreToolUse hooks as on a Bash call (which get the input as PreToolUse); a rewrite of the
// command blocks it (Claude Code does not run it rewritten).
func TestSkillShellCommandRunsBashGuards(t *testing.T) {
	t.Parallel()
	var seen []string
	record := func(d hook.Decision) hook.ExecutorFunc {
		return func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			seen = append(seen, in.HookEventName)
			return d, nil
		}
	}
	tests := []struct {
		name      string
		callbacks []hookcore.Callback
		command   string
		want      summary
		wantSeen  []string
	}{
		{"a Bash guard blocks", []hookcore.Callback{
			{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: record(hook.Decision{Block: true, Reason: "no rm"})},
		}, "rm -rf /tmp/x && echo cleaned", summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}}, []string{"PreToolUse"}},
		{"the guard's if does not match", []hookcore.Callback{
			{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: record(hook.Decision{Block: true, Reason: "no rm"})},
		}, "ls", summary{Continue: true}, nil},
		{"a guard of another tool", []hookcore.Callback{
			{ID: "edits", Event: hook.PreToolUse, Matcher: "Edit|Write", Func: record(hook.Decision{Block: true})},
		}, "ls", summary{Continue: true}, nil},
		{"the event's own hook blocks first", []hookcore.Callback{
			{ID: "skill", Event: hook.PreSkillShellCommand, Func: record(hook.Decision{Block: true, Reason: "no skill commands"})},
			{ID: "no-rm", Event: hook.PreToolUse, Func: record(hook.Decision{Block: true, Reason: "no rm"})},
		}, "rm -rf x", summary{Blocked: true, Reason: "no skill commands", Continue: true, Hooks: []string{"skill=block"}}, []string{"PreSkillShellCommand"}},
		{"both run, context adds up", []hookcore.Callback{
			{ID: "skill", Event: hook.PreSkillShellCommand, Func: record(hook.Decision{AdditionalContext: "a"})},
			{ID: "bash", Event: hook.PreToolUse, Func: record(hook.Decision{AdditionalContext: "b"})},
		}, "ls", summary{Context: "a\nb", Continue: true, Hooks: []string{"skill=context", "bash=context"}}, []string{"PreSkillShellCommand", "PreToolUse"}},
		{"a rewrite blocks", []hookcore.Callback{
			{ID: "rw", Event: hook.PreToolUse, Func: record(hook.Decision{UpdatedInput: []byte(`{"command":"ls -la"}`)})},
		}, "ls", summary{Blocked: true, Reason: "hookcore: a PreToolUse hook rewrote the shell command of a skill, which Claude Code does not run rewritten", Continue: true, Hooks: []string{"rw=update"}}, []string{"PreToolUse"}},
		{"ask", []hookcore.Callback{
			{ID: "ask", Event: hook.PreToolUse, Func: record(hook.Decision{Permission: hook.Ask, Reason: "sure?"})},
		}, "ls", summary{Permission: "ask", Reason: "sure?", Continue: true, Hooks: []string{"ask=ok"}}, []string{"PreToolUse"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: tt.callbacks})
			in := bashCall(dir, "s1", tt.command)
			in.HookEventName = string(hook.PreSkillShellCommand)
			res := r.Fire(context.Background(), hook.PreSkillShellCommand, in)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSeen, seen); diff != "" {
				t.Errorf("events the hooks were given (-want +got):\n%s", diff)
			}
			if res.Event != hook.PreSkillShellCommand {
				t.Errorf("result event %s", res.Event)
			}
		})
	}
}

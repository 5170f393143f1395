package hookcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestFireEventSpellings compares Fire's event lookup (a table of the usual spellings,
// hook.ParseEvent only on a miss of it) with hook.ParseEvent itself, the slow path it
// replaces, for every event in many spellings: the Result names the canonical event, and the
// hooks run exactly when that event has some.
func TestFireEventSpellings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// PreSkillShellCommand runs the PreToolUse hooks too (TestSkillShellCommandRunsBashGuards).
	withHooks := map[hook.Event]bool{hook.PreToolUse: true, hook.PreSkillShellCommand: true, hook.Stop: true, hook.SessionStart: true, hook.Notification: true}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: a, event: pre_tool_use, action: {type: inject, message: a}}
  - {id: b, event: turn_end, action: {type: inject, message: b}}
  - {id: c, event: SessionStart, action: {type: inject, message: c}}
  - {id: d, event: notification, action: {type: inject, message: d}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	var names []string
	for _, ev := range hook.Events() {
		s := string(ev)
		names = append(names, s, strings.ToLower(s), strings.ToUpper(s), " "+s+" ", "x"+s)
		for _, a := range ev.Aliases() {
			names = append(names, a, strings.ToUpper(a), strings.ReplaceAll(a, "_", "-"), strings.ReplaceAll(a, "_", ""))
		}
	}
	names = append(names, "", "nosuchevent", "pre_tool", "PreToolUse\x00")
	for _, name := range names {
		want, known := hook.ParseEvent(name)
		if !known {
			want = hook.Event(name)
		}
		res := r.Fire(context.Background(), hook.Event(name), bashCall(dir, "s1", "ls"))
		if res.Event != want {
			t.Errorf("Fire(%q).Event = %q, want %q", name, res.Event, want)
		}
		if ran := len(res.Hooks) == 1; ran != (known && withHooks[want]) {
			t.Errorf("Fire(%q) ran %d hooks, want hooks of %q: %v", name, len(res.Hooks), want, withHooks[want])
		}
	}
}

package hookcore_test

import (
	"context"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// TestManagedHooksCannotBeDisabledBelow: Claude Code's managed settings are an
// administrator's; disableAllHooks in a user (or trusted project) file leaves the managed
// guard running, and allowManagedHooksOnly in a managed file turns the user's hooks off
// (issue 8.3, research note §2.1).
func TestManagedHooksCannotBeDisabledBelow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	guard := `"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo managed >&2; exit 2"}]}]}`
	user := `"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo user >&2; exit 2"}]}]}`

	set := loadLayers(t, dir,
		layerFile{"home/.claude/settings.json", config.User, `{"disableAllHooks": true, ` + user + `}`},
		layerFile{"managed/managed-settings.json", config.Managed, `{` + guard + `}`})
	r := newRunner(t, dir, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "rm -rf /")); !res.Blocked || res.Reason != "managed" {
		t.Errorf("user disableAllHooks turned off the managed guard: %+v", summarize(res))
	}

	set = loadLayers(t, dir,
		layerFile{"home/.claude/settings.json", config.User, `{` + user + `}`},
		layerFile{"managed/managed-settings.json", config.Managed, `{"allowManagedHooksOnly": true}`})
	r = newRunner(t, dir, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls")); res.Blocked || len(res.Hooks) != 0 {
		t.Errorf("allowManagedHooksOnly let a user hook run: %+v", summarize(res))
	}
}

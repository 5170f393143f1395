package hookcore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/trust"
)

// TestUntrustedDisableAllHooksIgnored: an untrusted workspace's `disable_all_hooks: true`
// must not switch off the user's own guard; once the workspace is trusted, it does.
// Regression: the Runner honoured Set.Disabled whatever layer said it.
func TestUntrustedDisableAllHooksIgnored(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	set := loadLayers(t, project,
		layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User,
			"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"echo no >&2; exit 2\"}}\n"},
		layerFile{".hookcore/hooks.yaml", config.Project, "disable_all_hooks: true\n"},
	)
	r := newRunner(t, project, set, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf /")); !res.Blocked {
		t.Fatalf("untrusted disable_all_hooks turned off the user's guard: %+v", summarize(res))
	}
	if err := store.Grant(project, hookcore.TrustDigest(set), time.Now()); err != nil {
		t.Fatal(err)
	}
	r = newRunner(t, project, set, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf /")); res.Blocked || len(res.Hooks) != 0 {
		t.Fatalf("trusted disable_all_hooks must turn hooks off: %+v", summarize(res))
	}
}

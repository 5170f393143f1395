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
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	r = newRunner(t, project, set, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf /")); res.Blocked || len(res.Hooks) != 0 {
		t.Fatalf("trusted disable_all_hooks must turn hooks off: %+v", summarize(res))
	}
}

// TestLoadIgnoresUntrustedProjectErrors: hookcore.Load, like the CLI, ignores errors that lie
// only in an untrusted workspace's project layer, so the user's own guard still loads; a
// trusted workspace's errors, and user-layer errors, fail the load.
func TestLoadIgnoresUntrustedProjectErrors(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	user := writeFile(t, home, ".hookcore/hooks.yaml",
		"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"echo no >&2; exit 2\"}}\n")
	proj := writeFile(t, project, ".hookcore/hooks.yaml", "hooks:\n  - {id: broken, event: pre_tool_usee, action: {type: command, command: x}}\n")
	paths := []config.LayerPath{{Path: user, Layer: config.User}, {Path: proj, Layer: config.Project}}
	r, err := hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project})
	if err != nil {
		t.Fatalf("untrusted project errors stopped the load: %v", err)
	}
	defer r.Close(context.Background())
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls")); !res.Blocked {
		t.Fatalf("the user's guard did not run: %+v", summarize(res))
	}
	if _, err := hookcore.Load(paths, hookcore.Options{ProjectDir: project}); err == nil {
		t.Fatal("without a trust gate, every error must fail the load")
	}
	set, _ := config.Load(paths)
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project}); err == nil {
		t.Fatal("a trusted workspace's errors must fail the load")
	}
}

package hookcore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// TestPluginHooks: the hooks of an enabled Claude Code plugin run with CLAUDE_PLUGIN_ROOT
// and CLAUDE_PLUGIN_DATA, and the exec form substitutes them. Observed with Claude Code
// 2.1.332 (peer-claude, this layout: directory marketplace "local" in
// ~/.claude/plugins/marketplaces/local with plugin guard, installed_plugins.json and
// known_marketplaces.json, `"enabledPlugins": {"guard@local": true}` in the project
// settings): plugin.txt got root=<plugins>/marketplaces/local/guard
// data=<plugins>/data/guard-local, and argv.sh got [<root>/hooks/argv.sh] [<root>/x]
// [<plugins>/data/guard-local]. A plugin with inline hooks in plugin.json, and one not
// enabled, are handled too.
func TestPluginHooks(t *testing.T) {
	t.Parallel()
	dir, plugins := t.TempDir(), t.TempDir()
	root := filepath.Join(plugins, "marketplaces/local/guard")
	writeFile(t, root, ".claude-plugin/plugin.json", `{"name": "guard", "version": "1.0.0"}`)
	writeFile(t, root, "hooks/hooks.json", `{"description": "guard hooks", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "echo \"root=$CLAUDE_PLUGIN_ROOT data=$CLAUDE_PLUGIN_DATA\" >> \"$CLAUDE_PROJECT_DIR/plugin.txt\""},
  {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/argv.sh", "args": ["${CLAUDE_PLUGIN_ROOT}/x", "${CLAUDE_PLUGIN_DATA}"]}]}]}}`)
	writeFile(t, root, "hooks/argv.sh", "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '[%s]\\n' \"$a\"; done >> \"$CLAUDE_PROJECT_DIR/argv.txt\"\n")
	inline := filepath.Join(plugins, "cache/local/inline/2.0.0")
	writeFile(t, inline, ".claude-plugin/plugin.json", `{"name": "inline", "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo inline=$CLAUDE_PLUGIN_ROOT >> \"$CLAUDE_PROJECT_DIR/plugin.txt\""}]}]}}`)
	writeFile(t, filepath.Join(plugins, "marketplaces/local/off"), "hooks/hooks.json", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo off >> plugin.txt"}]}]}}`)
	writeFile(t, plugins, "marketplaces/local/.claude-plugin/marketplace.json", `{"name": "local", "plugins": [{"name": "guard", "source": "./guard"}, {"name": "off", "source": "./off"}, {"name": "evil", "source": "../../.."}]}`)
	writeFile(t, plugins, "known_marketplaces.json", `{"local": {"installLocation": "`+filepath.Join(plugins, "marketplaces/local")+`"}}`)
	writeFile(t, plugins, "installed_plugins.json", `{"version": 2, "plugins": {"inline@local": [{"scope": "user", "installPath": "`+inline+`"}]}}`)
	user := writeFile(t, dir, "user.json", `{"enabledPlugins": {"guard@local": true, "off@local": true, "evil@local": true}}`)
	project := writeFile(t, dir, "project.json", `{"enabledPlugins": {"off@local": false, "inline@local": true}}`)

	keys := config.EnabledPlugins([]config.LayerPath{{Path: user, Layer: config.User}, {Path: project, Layer: config.Project}}, true)
	if diff := cmp.Diff([]string{"evil@local", "guard@local", "inline@local"}, keys); diff != "" {
		t.Fatalf("enabled (-want +got):\n%s", diff)
	}
	found := config.FindPlugins(plugins, keys)
	files, probs := config.LoadPlugins(found)
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, dir, &config.Set{Files: files}, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"PreToolUse#1=ok", "PreToolUse#2=ok", "PreToolUse#1=ok"}, outcomes(res)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	data := filepath.Join(plugins, "data/guard-local")
	want := "root=" + root + " data=" + data + "\ninline=" + inline + "\n"
	if diff := cmp.Diff(want, readFile(t, dir, "plugin.txt")); diff != "" {
		t.Errorf("plugin.txt (-want +got):\n%s", diff)
	}
	wantArgv := "[" + root + "/hooks/argv.sh]\n[" + root + "/x]\n[" + data + "]\n"
	if diff := cmp.Diff(wantArgv, readFile(t, dir, "argv.txt")); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
}

// TestEnabledPluginsTrustGate: a project or local layer's enabledPlugins counts only once the
// workspace is trusted (red team: an untrusted repository's {"guard@local": false} switched
// off the user's guard plugin, and its {"evil@local": true} ran a plugin the user
// disabled); trusted, it overrides the user's choice as Claude Code's project settings do;
// a managed choice is final whatever the other layers say.
func TestEnabledPluginsTrustGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := writeFile(t, dir, "user.json", `{"enabledPlugins": {"guard@local": true, "evil@local": false, "admin@local": true}}`)
	project := writeFile(t, dir, "project.json", `{"enabledPlugins": {"guard@local": false, "admin@local": false}}`)
	local := writeFile(t, dir, "local.json", `{"enabledPlugins": {"evil@local": true, "admin@local": false}}`)
	managed := writeFile(t, dir, "managed.json", `{"enabledPlugins": {"admin@local": true}}`)
	cli := writeFile(t, dir, "cli.json", `{"enabledPlugins": {"admin@local": false}}`)
	yaml := writeFile(t, dir, "hooks.yaml", "enabledPlugins: {evil@local: true}\n")
	// The managed file comes before --settings in discovery order; it still wins.
	paths := []config.LayerPath{{Path: user, Layer: config.User}, {Path: yaml, Layer: config.User},
		{Path: project, Layer: config.Project}, {Path: local, Layer: config.Local},
		{Path: managed, Layer: config.Managed}, {Path: cli, Layer: config.Explicit}}
	for _, tc := range []struct {
		trusted bool
		want    []string
	}{
		{false, []string{"admin@local", "guard@local"}},
		{true, []string{"admin@local", "evil@local"}},
	} {
		if diff := cmp.Diff(tc.want, config.EnabledPlugins(paths, tc.trusted)); diff != "" {
			t.Errorf("trusted=%v: enabled (-want +got):\n%s", tc.trusted, diff)
		}
		// The same from the files as loaded (the hook process's path: each file read once).
		set, _ := config.Load(paths)
		if diff := cmp.Diff(tc.want, config.EnabledPluginsOf(set.Files, tc.trusted)); diff != "" {
			t.Errorf("trusted=%v: EnabledPluginsOf (-want +got):\n%s", tc.trusted, diff)
		}
	}
	// The managed layer also disables for good: user and --settings enable guard, managed
	// disables it (and cli.json disables admin).
	off := writeFile(t, dir, "off.json", `{"enabledPlugins": {"guard@local": false}}`)
	on := writeFile(t, dir, "on.json", `{"enabledPlugins": {"guard@local": true, "evil@local": true}}`)
	paths = []config.LayerPath{{Path: user, Layer: config.User}, {Path: off, Layer: config.Managed},
		{Path: on, Layer: config.Explicit}}
	if diff := cmp.Diff([]string{"admin@local", "evil@local"}, config.EnabledPlugins(paths, true)); diff != "" {
		t.Errorf("managed off: enabled (-want +got):\n%s", diff)
	}
}

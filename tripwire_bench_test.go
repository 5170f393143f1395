package hookcore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// exampleConfigSet returns the set `changes hook_config` protects (the CLI's configPaths)
// for a home and a project with a usual installation: hookcore's user config and trust
// store, Claude Code's user and project settings, two skills, one Gemini CLI extension.
func exampleConfigSet(b *testing.B, dir string) (paths []string, stateDir string) {
	b.Helper()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	files := map[string]string{
		"home/.hookcore/hooks.yaml":                        "hooks: []\n",
		"home/.hookcore/trust.json":                        "{}",
		"home/.claude/settings.json":                       `{"hooks": {}}`,
		"home/.claude/skills/a/SKILL.md":                   "---\nname: a\n---\n",
		"home/.claude/skills/b/SKILL.md":                   "---\nname: b\n---\n",
		"home/.gemini/extensions/g/gemini-extension.json":  `{"name": "g", "version": "1"}`,
		"home/.gemini/extensions/g/hooks/hooks.json":       `{"hooks": {}}`,
		"proj/.claude/settings.json":                       `{"hooks": {}}`,
		"proj/.git/HEAD":                                   "ref: refs/heads/main\n",
		"home/.hookcore/state/session-0123456789abcd.json": "{}",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	add := func(p string) {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	stateDir = filepath.Join(home, ".hookcore", "state")
	for _, p := range []string{filepath.Join(home, ".hookcore"), filepath.Join(home, ".hookcore", "trust.json"), filepath.Join(home, ".gemini", "extensions"), stateDir} {
		add(p)
	}
	for _, base := range []string{home, proj} {
		for _, sub := range []string{"skills", "agents", "commands", "plugins"} {
			add(filepath.Join(base, ".claude", sub))
		}
	}
	cands, err := config.Discovery{Cwd: proj, Home: home}.Look()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cands {
		add(c.Path)
		if c.Pattern != "" {
			add(c.Pattern)
		}
		for _, in := range c.Inputs {
			add(in)
		}
	}
	return paths, stateDir
}

// BenchmarkTripwire: what `tool changed hook_config` costs one event with the set of the
// self-protect example (exampleConfigSet): an armed session's event (compare with the
// baseline and replace it) in memory (hookcore serve) and in a state.Dir (the hook
// command), with the state directory in the set or not; and an event of a config with no
// such clause, in memory and in a state.Dir that holds no file for the session (one
// Holds).
func BenchmarkTripwire(b *testing.B) {
	dir := b.TempDir()
	paths, stateDir := exampleConfigSet(b, dir)
	b.Logf("%d config paths", len(paths))
	on := loadConfig(b, dir, "on.yaml", `hooks:
  - {id: tripwire, event: post_tool_use, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
`)
	off := loadConfig(b, dir, "off.yaml", `hooks:
  - {id: other, event: post_tool_use, if: 'tool == "Write"', action: {type: command, command: /bin/true}}
`)
	ctx := context.Background()
	pre := toolEvent(hook.PreToolUse, "", "go test ./...")
	for _, bc := range []struct {
		name  string
		set   *config.Set
		store func(b *testing.B) state.Store
		event hook.Event // PreToolUse when empty
	}{
		{"off/memory", off, func(*testing.B) state.Store { return &state.Memory{} }, ""},
		{"off/dir", off, func(b *testing.B) state.Store { return &state.Dir{Path: b.TempDir()} }, ""},
		{"armed/memory", on, func(*testing.B) state.Store { return &state.Memory{} }, ""},
		{"armed/dir", on, func(b *testing.B) state.Store { return &state.Dir{Path: b.TempDir()} }, ""},
		{"armed/dir-in-set", on, func(*testing.B) state.Store { return &state.Dir{Path: stateDir} }, ""},
		// Stop: the workspace's record is written too (red team round 65).
		{"armed/dir/stop", on, func(b *testing.B) state.Store { return &state.Dir{Path: b.TempDir()} }, hook.Stop},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := newRunner(b, filepath.Join(dir, "proj"), bc.set, hookcore.Options{HookConfig: paths, State: bc.store(b)})
			r.Fire(ctx, hook.PreToolUse, pre) // arms (the first baseline)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				in := *pre
				in.ToolUseID = "toolu_" + strconv.Itoa(i)
				if bc.event != "" {
					in.HookEventName, in.ToolUseID = string(bc.event), ""
					r.Fire(ctx, bc.event, &in)
					continue
				}
				r.Fire(ctx, hook.PreToolUse, &in)
			}
		})
	}
}

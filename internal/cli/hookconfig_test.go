package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/match"
)

// TestConfigPaths: what `changes hook_config` protects comes from discovery (every layer,
// every agent, files that do not exist yet, the glob of drop-in files beside the files it
// matched), the files loaded, ~/.hookcore whole and the state directory (red team round 53).
func TestConfigPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, ".github", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, ".github", "hooks", "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(dir, "policy", "hooks.yaml")
	getenv := func(k string) string {
		if k == "HOOKCORE_STATE_DIR" {
			return filepath.Join(dir, "state")
		}
		return ""
	}
	got := configPaths(config.Discovery{Cwd: filepath.Join(proj, "sub"), Home: home, Agents: []config.Agent{}}, []string{named}, getenv)
	for _, want := range []string{
		filepath.Join(home, ".hookcore"),
		filepath.Join(home, ".claude", "settings.json"),
		filepath.Join(home, ".minicode", "config.yaml"),
		filepath.Join(home, ".codex", "hooks.json"),
		filepath.Join(home, ".copilot", "hooks", "*.json"),
		filepath.Join(proj, ".claude", "settings.local.json"),
		filepath.Join(proj, ".minicode", "config.local.yaml"),
		filepath.Join(proj, ".hookcore", "hooks.yaml"),
		filepath.Join(proj, ".github", "hooks", "a.json"),
		filepath.Join(proj, ".github", "hooks", "*.json"),
		filepath.Join(dir, "state"),
		named,
		// Claude Code's skills, sub-agents and plugins carry hooks it runs itself (red team
		// round 54: a SKILL.md with frontmatter hooks passed the example).
		filepath.Join(home, ".claude", "skills"),
		filepath.Join(proj, ".claude", "agents"),
		filepath.Join(home, ".claude", "plugins"),
		// Legacy skills (red team round 55), loaded as skills are.
		filepath.Join(proj, ".claude", "commands"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("configPaths lacks %s; got %q", want, got)
		}
	}
}

// TestUsesChanges: a condition's hook_program or hook_config, each alone, for one event.
func TestUsesChanges(t *testing.T) {
	t.Parallel()
	set, problems := config.Load([]config.LayerPath{{Path: writeTemp(t, `hooks:
  - {event: pre_tool_use, if: 'args.command changes hook_config', action: {type: command, command: "true"}}
`), Layer: config.Explicit}})
	if problems.Err() != nil {
		t.Fatal(problems.Err())
	}
	if !usesChanges(set, match.HookConfig) || usesChanges(set, match.HookProgram) {
		t.Error("usesChanges: want hook_config only")
	}
	if !usesChangesAt(set, "PreToolUse", match.HookConfig) || usesChangesAt(set, "PostToolUse", match.HookConfig) {
		t.Error("usesChangesAt: want PreToolUse only")
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hooks.yaml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const claudeJSON = `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "x"}]}]}}`

// TestDiscoveryAgentLayers: every agent file is a layer, in Claude Code's order (user,
// project, local, managed, command line; hookcore's own file first in each), with Home and
// ManagedDir injected so that the test never reads the real $HOME or /etc (issue 8.3).
func TestDiscoveryAgentLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work, managed := filepath.Join(dir, "home"), filepath.Join(dir, "work"), filepath.Join(dir, "managed")
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := []LayerPath{
		{Path: write(t, home, ".hookcore/hooks.yaml", hooksYAML), Layer: User},
		{Path: write(t, home, ".claude/settings.json", claudeJSON), Layer: User},
		{Path: write(t, home, ".minicode/config.yaml", hooksYAML), Layer: User},
		{Path: write(t, home, ".codebot/settings.json", claudeJSON), Layer: User},
		{Path: write(t, home, ".gemini/settings.json", claudeJSON), Layer: User},
		{Path: write(t, home, ".codex/hooks.json", claudeJSON), Layer: User},
		{Path: write(t, home, ".codex/config.toml", "model = \"o3\"\n"), Layer: User},
		{Path: write(t, home, ".cursor/hooks.json", `{"version": 1, "hooks": {}}`), Layer: User},
		{Path: write(t, home, ".copilot/hooks/a.json", `{"version": 1, "hooks": {}}`), Layer: User},
		{Path: write(t, work, ".hookcore/hooks.yaml", hooksYAML), Layer: Project},
		{Path: write(t, work, ".claude/settings.json", claudeJSON), Layer: Project},
		{Path: write(t, work, ".minicode/config.yaml", hooksYAML), Layer: Project},
		{Path: write(t, work, ".codebot/settings.json", claudeJSON), Layer: Project},
		{Path: write(t, work, ".gemini/settings.json", claudeJSON), Layer: Project},
		{Path: write(t, work, ".codex/hooks.json", claudeJSON), Layer: Project},
		{Path: write(t, work, ".codex/config.toml", "model = \"o3\"\n"), Layer: Project},
		{Path: write(t, work, ".cursor/hooks.json", `{"version": 1, "hooks": {}}`), Layer: Project},
		{Path: write(t, work, ".github/hooks/a.json", `{"version": 1, "hooks": {}}`), Layer: Project},
		{Path: write(t, work, ".github/hooks/b.json", `{"version": 1, "hooks": {}}`), Layer: Project},
		{Path: write(t, work, ".hookcore/hooks.local.yaml", hooksYAML), Layer: Local},
		{Path: write(t, work, ".claude/settings.local.json", claudeJSON), Layer: Local},
		{Path: write(t, work, ".minicode/config.local.yaml", hooksYAML), Layer: Local},
		{Path: write(t, managed, "managed-settings.json", claudeJSON), Layer: Managed},
		{Path: write(t, managed, "managed-settings.d/10-a.json", claudeJSON), Layer: Managed},
		{Path: write(t, managed, "managed-settings.d/20-b.json", claudeJSON), Layer: Managed},
		{Path: write(t, work, "cli.json", claudeJSON), Layer: Explicit, Claude: true}, // read as Claude Code's settings (--settings)
	}
	write(t, managed, "managed-settings.d/notes.txt", "not a settings file")
	sub := filepath.Join(work, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	d := Discovery{Cwd: sub, Home: home, ManagedDir: managed, Settings: []string{"../cli.json"}}
	got, err := d.Paths()
	if err != nil {
		t.Fatal(err)
	}
	want := files
	want[len(want)-1].Path = filepath.Join(sub, "../cli.json")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	// Look lists what was not found too; no agents: hookcore's own files only.
	none, _ := Discovery{Cwd: sub, Home: home, ManagedDir: managed, Agents: []Agent{}}.Look()
	if len(none) != 3 {
		t.Errorf("without agents: %d candidates, want 3", len(none))
	}
	// A --config-dir of another name looks for that directory's files only.
	other, _ := Discovery{Cwd: sub, Home: home, ManagedDir: managed, Dir: ".other"}.Look()
	if len(other) != 3 || other[0].Path != filepath.Join(home, ".other", "hooks.yaml") {
		t.Errorf("--config-dir: %+v", other)
	}
	// The loaded set: MiniCode's config.yaml may hold other settings without warnings.
	write(t, work, ".minicode/config.yaml", "model: x\nproviders: {a: 1}\n"+hooksYAML)
	set, probs := Load(got)
	if len(probs) != 0 || len(set.Files) != len(files) {
		t.Errorf("%d files, problems %v", len(set.Files), probs)
	}
}

// TestManagedKillSwitches: disableAllHooks below the managed layer leaves the managed hooks
// running; in a managed file it turns everything off; allowManagedHooksOnly in a managed
// file keeps only the managed hooks, and is ignored in any other file (Claude Code, research
// note §2.1).
func TestManagedKillSwitches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hook := func(id string) string {
		return `"hooks": {"Stop": [{"hooks": [{"id": "` + id + `", "type": "command", "command": "x"}]}]}`
	}
	tests := []struct {
		name          string
		user, managed string
		want          []string
	}{
		{"no switch", "{" + hook("u") + "}", "{" + hook("m") + "}", []string{"u", "m"}},
		{"user disables", `{"disableAllHooks": true, ` + hook("u") + "}", "{" + hook("m") + "}", []string{"m"}},
		{"managed disables", "{" + hook("u") + "}", `{"disableAllHooks": true, ` + hook("m") + "}", nil},
		{"managed only", "{" + hook("u") + "}", `{"allowManagedHooksOnly": true, ` + hook("m") + "}", []string{"m"}},
		{"managed only below managed is ignored", `{"allowManagedHooksOnly": true, ` + hook("u") + "}", "{" + hook("m") + "}", []string{"u", "m"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sub := filepath.Join(dir, string(rune('a'+i)))
			u := write(t, sub, "user.json", tt.user)
			m := write(t, sub, "managed.json", tt.managed)
			set, probs := Load([]LayerPath{{Path: u, Layer: User}, {Path: m, Layer: Managed}})
			if probs.Err() != nil {
				t.Fatal(probs)
			}
			var got []string
			for _, h := range set.Hooks() {
				got = append(got, h.ID)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiscoveryNeverFailsOnOneFile: a path that cannot be examined — `.hookcore` a regular
// file, a symlink loop — is that candidate's Err, returned by Paths so that loading reports
// it as that file's error; discovery itself succeeds (issue 10.2).
func TestDiscoveryNeverFailsOnOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	user := write(t, home, ".hookcore/hooks.yaml", hooksYAML)
	write(t, work, ".hookcore", "a regular file")
	if err := os.MkdirAll(filepath.Join(work, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(work, ".claude", "settings.json")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(dir, "managed"), Agents: []Agent{Claude}}
	cands, err := d.Look()
	if err != nil {
		t.Fatal(err)
	}
	errs := 0
	for _, c := range cands {
		if c.Err != nil {
			errs++
			if !c.Found {
				t.Errorf("%s: Err without Found", c.Path)
			}
		}
	}
	if errs != 3 { // .hookcore/hooks.yaml, .hookcore/hooks.local.yaml, .claude/settings.json
		t.Errorf("%d candidates with errors, want 3: %+v", errs, cands)
	}
	paths, err := d.Paths()
	if err != nil {
		t.Fatal(err)
	}
	set, probs := Load(paths)
	if len(set.Files) != 4 || set.Files[0].Path != user || set.Files[0].Failed || probs.Errors() != 3 {
		t.Errorf("files %d, problems %v", len(set.Files), probs)
	}
	for _, f := range set.Files[1:] {
		if !f.Failed {
			t.Errorf("%s: not Failed", f.Path)
		}
	}
}

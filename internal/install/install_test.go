package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

const userSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh", "timeout": 5}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "env": {"FOO": "<bar>&"}
}
`

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return m
}

func apply(t *testing.T, p *Plan) string {
	t.Helper()
	backup, err := p.Apply(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return backup
}

// TestInstallKeepsEverything: install merges into a Claude settings file the user wrote:
// every other key (in order) and hook stays, installing twice changes nothing, a backup of
// the old file is made, and uninstall gives back exactly the user's settings.
func TestInstallKeepsEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"}
	p, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Changed || p.Path != path {
		t.Fatalf("plan = %+v", p)
	}
	if d := Diff(p.Path, p.Old, p.New); !strings.Contains(d, "+++ "+path) || !strings.Contains(d, `"command": "hookcore",`) || !strings.Contains(d, `"args": ["hook", "claude"]`) {
		t.Errorf("dry-run diff does not show the new entry:\n%s", d)
	}
	backup := apply(t, p)
	if b, err := os.ReadFile(backup); err != nil || string(b) != userSettings {
		t.Fatalf("backup %s = %q, %v", backup, b, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the old file's 0600", fi.Mode().Perm())
	}
	got, _ := os.ReadFile(path)
	m := decode(t, got)
	if m["model"] != "opus" || m["env"].(map[string]any)["FOO"] != "<bar>&" {
		t.Errorf("user keys changed: %s", got)
	}
	if i, j := strings.Index(string(got), `"model"`), strings.Index(string(got), `"env"`); i < 0 || j < i {
		t.Errorf("key order changed:\n%s", got)
	}
	pre := m["hooks"].(map[string]any)["PreToolUse"].([]any)
	want := []any{
		map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "~/bin/guard.sh", "timeout": 5.0}}},
		map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "hookcore", "args": []any{"hook", "claude"}}}},
	}
	if diff := cmp.Diff(want, pre); diff != "" {
		t.Errorf("PreToolUse (-want +got):\n%s", diff)
	}
	if n := len(m["hooks"].(map[string]any)); n != len(agents["claude"].events) {
		t.Errorf("%d events in hooks, want %d", n, len(agents["claude"].events))
	}

	again, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed {
		t.Errorf("installing twice changed the file:\n%s", Diff(path, again.Old, again.New))
	}

	un, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, un)
	back, _ := os.ReadFile(path)
	if diff := cmp.Diff(decode(t, []byte(userSettings)), decode(t, back)); diff != "" {
		t.Errorf("uninstall did not restore the user's settings (-want +got):\n%s", diff)
	}
}

// TestInstallFreshAndServer: a missing file is created; --server makes Claude's hooks type:
// http and replaces the command entries in place, but for SessionStart, which Claude Code
// runs no http hook on ("HTTP hooks are not supported for SessionStart", Claude Code
// 2.1.332: the session's context never came): there the hook command forwards to serve.
// An agent's flat file gets version 1.
func TestInstallFreshAndServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := Options{Agent: "claude", ProjectDir: dir, Command: "/usr/local/bin/hookcore"}
	p, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if backup := apply(t, p); backup != "" {
		t.Errorf("backup %q of a file that did not exist", backup)
	}
	o.Server = "http://127.0.0.1:7878"
	p, err = Install(o)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, p)
	b, _ := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	noHTTP := 0
	for _, ev := range agents["claude"].events {
		if !hook.Event(ev.name).AcceptsHandler("http") {
			noHTTP++
		}
	}
	if noHTTP == 0 || strings.Count(string(b), `"url": "http://127.0.0.1:7878/hook/claude"`) != len(agents["claude"].events)-noHTTP ||
		strings.Count(string(b), `"args": ["hook", "claude", "--server", "http://127.0.0.1:7878"]`) != noHTTP {
		t.Errorf("server install:\n%s", b)
	}
	start := decode(t, b)["hooks"].(map[string]any)["SessionStart"]
	want := []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "/usr/local/bin/hookcore", "args": []any{"hook", "claude", "--server", "http://127.0.0.1:7878"}}}}}
	if diff := cmp.Diff(want, start); diff != "" {
		t.Errorf("SessionStart under --server (-want +got):\n%s", diff)
	}

	c := Options{Agent: "copilot", ProjectDir: dir, Command: "hookcore"}
	p, err = Install(c)
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, p.New)
	if m["version"] != 1.0 {
		t.Errorf("copilot file without version 1: %s", p.New)
	}
	pre := m["hooks"].(map[string]any)["preToolUse"]
	if diff := cmp.Diff([]any{map[string]any{"type": "command", "bash": "hookcore hook copilot preToolUse", "timeoutSec": 30.0}}, pre); diff != "" {
		t.Errorf("copilot preToolUse (-want +got):\n%s", diff)
	}
}

// TestInstallRefusesBrokenFile: a settings file that is not a JSON object is an error and
// is left as it is.
func TestInstallRefusesBrokenFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".cursor", "hooks.json")
	os.MkdirAll(filepath.Dir(path), 0o755) //nolint:errcheck // the write below fails if it did
	if err := os.WriteFile(path, []byte(`{"version": 1, "hooks": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{Agent: "cursor", ProjectDir: dir}); err == nil {
		t.Fatal("a broken file was accepted")
	}
	if _, err := Install(Options{Agent: "codex", Scope: Local, ProjectDir: dir, Home: dir}); err == nil {
		t.Fatal("codex has no local scope, but install accepted it")
	}
	if _, err := Install(Options{Agent: "nope", ProjectDir: dir}); err == nil {
		t.Fatal("unknown agent accepted")
	}
}

// TestUninstallKeepsOtherHooksInAGroup: when the user put hookcore's entry in a group of
// their own (another matcher, hooks of their own), the group is the user's choice of
// coverage: uninstall leaves it, entry included, and says the event is kept (red team 12:
// uninstall deleted such groups whole when the entry was their only hook).
func TestUninstallKeepsOtherHooksInAGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755) //nolint:errcheck // the write below fails if it did
	const mine = `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./lint.sh"}, {"type": "command", "name": "hookcore", "command": "/opt/bin/hookcore hook gemini"}]}]}, "ui": {"theme": "dark"}}`
	if err := os.WriteFile(path, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Uninstall(Options{Agent: "gemini", ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Kept, "BeforeTool") {
		t.Errorf("kept events %q, want BeforeTool", p.Kept)
	}
	want := mine
	if diff := cmp.Diff(decode(t, []byte(want)), decode(t, p.New)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestInstallSaysWhatItReplaced (new-user trial, stop 28): an entry of the kind install
// writes that ran hookcore otherwise (here `hookcore hook claude`, where install now writes
// the lean binary beside it) was replaced without a word, and uninstall then removed it.
// Plan.Replaced names its events; a second install replaces nothing.
func TestInstallSaysWhatItReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookcore hook claude"}]}], "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}}`
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Agent: "claude", ProjectDir: dir, Command: "/opt/hookcore/hookcore-hook"}
	p, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Stop"}, p.Replaced); diff != "" {
		t.Errorf("Replaced (-want +got):\n%s", diff)
	}
	apply(t, p)
	again, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Replaced) != 0 || again.Changed {
		t.Errorf("a second install: Replaced %v, Changed %v", again.Replaced, again.Changed)
	}
}

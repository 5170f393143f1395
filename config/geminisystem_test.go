package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// TestGeminiSystemSettingsInsecure: Gemini CLI 0.61.0 skips its system settings file when
// the file or a directory above it is not root's or is writable by group or others
// (observed with peer-gemini: "Skipping system settings file '/tmp/.../system.json': Parent
// directory '/tmp' is insecure"); hookcore skips it the same way.
func TestGeminiSystemSettingsInsecure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "gemini-cli", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Under the temporary directory (/tmp is writable by all, or the directories are the
	// tester's): never secure.
	if why := geminiSystemInsecure(path); why == "" {
		t.Errorf("%s: secure, want skipped", path)
	} else if !strings.Contains(why, "writable by group or others") && !strings.Contains(why, "not owned by root") {
		t.Errorf("reason %q", why)
	}
	if why := geminiSystemInsecure(filepath.Join(t.TempDir(), "missing.json")); why != "" {
		t.Errorf("missing file: %q, want nothing to skip", why)
	}
	// A file of root's in root's directories loads (where the machine has one).
	if st, err := os.Stat("/etc/passwd"); err == nil {
		if uid, ok := regularfile.Owner(st); ok && uid == 0 && st.Mode().Perm()&0o022 == 0 {
			if why := geminiSystemInsecure("/etc/passwd"); why != "" {
				t.Errorf("/etc/passwd: %q, want secure", why)
			}
		}
	}
}

// TestGeminiSystemSettingsLayer: Gemini CLI's system settings load as a managed Gemini file
// after the project's, so that their hooks run and their hooksConfig.enabled wins over the
// user's and the project's (Gemini CLI merges the system scope over the workspace's); a
// file Gemini CLI would skip is a warning and runs nothing.
func TestGeminiSystemSettingsLayer(t *testing.T) { // not parallel: replaces geminiSystemCheck
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	system := filepath.Join(dir, "etc", "gemini-cli", "settings.json")
	for p, data := range map[string]string{
		filepath.Join(home, ".gemini", "settings.json"): `{"hooksConfig": {"enabled": true}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": "user-guard", "command": "u"}]}]}}`,
		filepath.Join(work, ".git", "HEAD"):             "ref: refs/heads/main\n",
		filepath.Join(work, ".gemini", "settings.json"): `{"hooksConfig": {"enabled": true}}`,
		system: `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": "sys-guard", "command": "s"}]}]}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(dir, "etc", "claude-code"), GeminiSystemSettings: system}
	run := func() ([]string, ErrorList) {
		paths, err := d.Paths()
		if err != nil {
			t.Fatal(err)
		}
		set, probs := Load(paths)
		var cmds []string
		for _, h := range set.Hooks() {
			cmds = append(cmds, h.Action.Command)
		}
		return cmds, probs
	}
	// Skipped as Gemini CLI skips it: the test's files are not root's.
	cmds, probs := run()
	if strings.Join(cmds, " ") != "u" || len(probs) != 1 || !probs[0].Warning || !strings.Contains(probs[0].Msg, "Gemini CLI skips its system settings file") {
		t.Errorf("insecure system file: hooks %q, problems %v", cmds, probs)
	}

	old := geminiSystemCheck
	geminiSystemCheck = func(string) string { return "" }
	defer func() { geminiSystemCheck = old }()
	cmds, probs = run()
	if strings.Join(cmds, " ") != "u s" || probs.Err() != nil {
		t.Errorf("system file: hooks %q, problems %v, want the user's and the system's", cmds, probs)
	}
	if err := os.WriteFile(system, []byte(`{"hooksConfig": {"enabled": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if cmds, probs = run(); len(cmds) != 0 || probs.Err() != nil {
		t.Errorf("system hooksConfig.enabled false: hooks %q (problems %v), want none of Gemini's", cmds, probs)
	}
}

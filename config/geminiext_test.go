package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// extensionHome writes a home with Gemini CLI extensions (Gemini CLI 0.61.0's layout) and a
// user settings hook, and returns the home and a workspace.
func extensionHome(t *testing.T, files map[string]string) (home, work string) {
	t.Helper()
	dir := t.TempDir()
	home, work = filepath.Join(dir, "home"), filepath.Join(dir, "work")
	write(t, work, ".git/HEAD", "")
	write(t, home, ".gemini/settings.json", `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": "user-settings", "command": "true"}]}]}}`)
	for name, content := range files {
		write(t, home, ".gemini/extensions/"+name, strings.ReplaceAll(strings.ReplaceAll(content, "$WORK", work), "$DIR", dir))
	}
	return home, work
}

// loadedHooks loads what discovery finds for home and work with no managed files, and
// returns each hook as "id command" in load order, with the problems as text.
func loadedHooks(t *testing.T, home, work string) (hooks []string, probs []string) {
	t.Helper()
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(home, "managed"),
		GeminiSystemSettings: filepath.Join(home, "gemini-cli", "settings.json")}
	paths, err := d.Paths()
	if err != nil {
		t.Fatal(err)
	}
	set, errs := Load(paths)
	for _, h := range set.Hooks() {
		hooks = append(hooks, fmt.Sprintf("%s %s %s %s", h.ID, h.Event, h.Matcher, h.Action.Command))
	}
	for _, p := range errs {
		probs = append(probs, strings.ReplaceAll(p.Error(), home, "HOME"))
	}
	return hooks, probs
}

// TestGeminiExtensionHooks: an enabled extension's hooks load after every settings file's,
// in the extensions' lexical order, with ${extensionPath}, ${workspacePath}, ${/} and
// ${pathSeparator} replaced and any other ${NAME} left; a linked extension is read at its
// source (observed with Gemini CLI 0.61.0, docs/decisions.md stop 31).
func TestGeminiExtensionHooks(t *testing.T) {
	t.Parallel()
	home, work := extensionHome(t, map[string]string{
		"b-guard/gemini-extension.json": `{"name": "guard", "version": "1.0.0"}`,
		"b-guard/hooks/hooks.json": `{"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
  {"type": "command", "name": "g-${/}", "command": "sh ${extensionPath}${/}g.sh ${workspacePath}${pathSeparator}x '${nope}' $HOME"}]}]}}`,
		"a-first/gemini-extension.json":         `{"name": "first", "version": 2}`,
		"a-first/hooks/hooks.json":              `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo first"}]}]}}`,
		"c-link/.gemini-extension-install.json": `{"type": "link", "source": "$DIR/src"}`,
	})
	write(t, filepath.Dir(home), "src/gemini-extension.json", `{"name": "linked", "version": "1"}`)
	write(t, filepath.Dir(home), "src/hooks/hooks.json", `{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "${extensionPath}/after"}]}]}}`)
	hooks, probs := loadedHooks(t, home, work)
	ext := filepath.Join(home, ".gemini", "extensions", "b-guard")
	want := []string{
		"user-settings PreToolUse  true",
		"SessionStart#1 SessionStart  echo first",
		"g-/ PreToolUse Bash sh " + ext + "/g.sh " + work + "/x '${nope}' $HOME",
		"PostToolUse#1 PostToolUse  " + filepath.Join(filepath.Dir(home), "src") + "/after",
	}
	if diff := cmp.Diff(want, hooks); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	if len(probs) != 0 {
		t.Errorf("problems: %q", probs)
	}
}

// TestGeminiExtensionSkipped: what Gemini CLI 0.61.0 does not run does not load — an
// extension extension-enablement.json disables for the working directory, one whose
// manifest lacks a version (a warning), a hooks.json with its events at the top level (a
// warning) — and a hooks.json that is not JSON is its own error, file:line:col, while every
// other file's hooks load.
func TestGeminiExtensionSkipped(t *testing.T) {
	t.Parallel()
	home, work := extensionHome(t, map[string]string{
		"on/gemini-extension.json":     `{"name": "on", "version": "1"}`,
		"on/hooks/hooks.json":          `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo on"}]}]}}`,
		"off/gemini-extension.json":    `{"name": "off", "version": "1"}`,
		"off/hooks/hooks.json":         `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo off"}]}]}}`,
		"extension-enablement.json":    `{"off": {"overrides": ["!$WORK/*"]}, "on": {"overrides": ["!$WORK/*", "$WORK/"]}}`,
		"nover/gemini-extension.json":  `{"name": "nover"}`,
		"nover/hooks/hooks.json":       `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo nover"}]}]}}`,
		"top/gemini-extension.json":    `{"name": "top", "version": "1"}`,
		"top/hooks/hooks.json":         `{"BeforeTool": [{"hooks": [{"type": "command", "command": "echo top"}]}]}`,
		"broken/gemini-extension.json": `{"name": "broken", "version": "1"}`,
		"broken/hooks/hooks.json": `{"hooks": {"BeforeTool": [
  {"hooks": [{"type": "command", "command": "echo broken"}]}
}}`,
	})
	hooks, probs := loadedHooks(t, home, work)
	want := []string{"user-settings PreToolUse  true", "PreToolUse#1 PreToolUse  echo on"}
	if diff := cmp.Diff(want, hooks); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	wantProbs := []string{
		"HOME/.gemini/extensions/broken/hooks/hooks.json:3:1: syntax error",
		`HOME/.gemini/extensions/nover/gemini-extension.json: warning: Gemini CLI skips the extension in HOME/.gemini/extensions/nover, and so does hookcore: HOME/.gemini/extensions/nover/gemini-extension.json has no "version"`,
		`HOME/.gemini/extensions/top/hooks/hooks.json: warning: Gemini CLI reads an extension's hooks under a top-level "hooks" key, and this file has none (events at the top level?): none of its hooks run`,
	}
	if len(probs) != len(wantProbs) {
		t.Fatalf("problems: %q", probs)
	}
	for i, p := range probs {
		if !strings.HasPrefix(p, wantProbs[i]) {
			t.Errorf("problem %d: %q, want %q...", i, p, wantProbs[i])
		}
	}
}

// TestGeminiExtensionEnabled: extension-enablement.json's rules as Gemini CLI 0.61.0's
// ExtensionEnablementManager reads them: the last rule that matches decides, "!" disables,
// a trailing "*" takes the subdirectories in.
func TestGeminiExtensionEnabled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rules []string
		cwd   string
		want  bool
	}{
		{nil, "/a/b", true},
		{[]string{"!/a/b/*"}, "/a/b", false},
		{[]string{"!/a/b/*"}, "/a/b/c/d", false},
		{[]string{"!/a/b/*"}, "/a/bc", true},
		{[]string{"!/a/b/"}, "/a/b", false},
		{[]string{"!/a/b/"}, "/a/b/c", true},
		{[]string{"!/*"}, "/anything", false},
		{[]string{"!/a/*", "/a/b/*"}, "/a/b/c", true},
		{[]string{"/a/b/*", "!/a/*"}, "/a/b/c", false},
		{[]string{"!/a.b/*"}, "/aXb", true},
		// A rule with a name that is not ASCII panicked: each byte was quoted on its own.
		{[]string{"!/home/josé/*"}, "/home/josé/src", false},
		{[]string{"!/home/josé/*"}, "/home/jose/src", true},
	} {
		if got := geminiExtEnabled(tc.rules, tc.cwd); got != tc.want {
			t.Errorf("rules %q in %s: enabled %v, want %v", tc.rules, tc.cwd, got, tc.want)
		}
	}
}

// TestGeminiExtensionEnablementUnreadable: an enablement file that is not the shape Gemini
// CLI reads enables every extension, as Gemini CLI does, with a warning.
func TestGeminiExtensionEnablementUnreadable(t *testing.T) {
	t.Parallel()
	home, work := extensionHome(t, map[string]string{
		"x/gemini-extension.json":   `{"name": "x", "version": "1"}`,
		"x/hooks/hooks.json":        `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo x"}]}]}}`,
		"extension-enablement.json": `{"x": {"overrides": ["!$WORK/*"]}, "y": {"overides": []}}`,
	})
	hooks, probs := loadedHooks(t, home, work)
	if len(hooks) != 2 || len(probs) != 1 || !strings.Contains(probs[0], "warning: ") || !strings.Contains(probs[0], "enable every extension") {
		t.Errorf("hooks %q, problems %q", hooks, probs)
	}
}

// TestGeminiExtensionParseFile: a hooks file named on its own (check, convert) beside a
// manifest is read as the extension's.
func TestGeminiExtensionParseFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "ext/gemini-extension.json", `{"name": "ext", "version": "1"}`)
	p := write(t, dir, "ext/hooks/hooks.json", `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "${extensionPath}/g"}]}]}}`)
	f, probs := ParseFile(p, Explicit)
	if len(probs) != 0 || len(f.Hooks) != 1 || f.Dialect != Gemini || f.Extension != "ext" {
		t.Fatalf("file %+v, problems %v", f, probs)
	}
	if got, want := f.Hooks[0].Action.Command, filepath.Join(dir, "ext")+"/g"; got != want {
		t.Errorf("command %q, want %q", got, want)
	}
}

// TestGeminiExtensionFailedFile: an extension's hooks file that cannot be loaded as a whole
// (a syntax error, not a regular file) is Failed and still names its extension, which is how
// its callers skip it as Gemini CLI does (docs/decisions.md, "Broken files: what each
// command does (stop 31)").
func TestGeminiExtensionFailedFile(t *testing.T) {
	t.Parallel()
	for name, hooks := range map[string]string{"syntax": "{\"hooks\": {\"BeforeTool\": [\n}}\n", "directory": ""} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"broken/gemini-extension.json": `{"name": "broken", "version": "1"}`}
			if hooks != "" {
				files["broken/hooks/hooks.json"] = hooks
			} else {
				files["broken/hooks/hooks.json/x"] = ""
			}
			home, work := extensionHome(t, files)
			d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(home, "managed"),
				GeminiSystemSettings: filepath.Join(home, "gemini-cli", "settings.json")}
			paths, err := d.Paths()
			if err != nil {
				t.Fatal(err)
			}
			set, errs := Load(paths)
			if errs.Err() == nil {
				t.Fatal("no error")
			}
			var got []string
			for _, f := range set.Files {
				if f.Failed {
					got = append(got, f.Extension)
				}
			}
			if diff := cmp.Diff([]string{"broken"}, got); diff != "" {
				t.Errorf("extensions of failed files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClaudePluginThatIsAGeminiExtension: a directory that is a Claude Code plugin and a
// Gemini CLI extension at once (repositories ship both manifests) has its hooks/hooks.json
// read as Claude Code's when loaded as the plugin's; named on its own (check, convert) it is
// the extension's.
func TestClaudePluginThatIsAGeminiExtension(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "both/gemini-extension.json", `{"name": "both", "version": "1"}`)
	write(t, dir, "both/.claude-plugin/plugin.json", `{"name": "both"}`)
	p := write(t, dir, "both/hooks/hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "claude-guard"}]}]}}`)
	files, probs := LoadPlugins([]Plugin{{Key: "both@local", Root: filepath.Join(dir, "both"), HooksFile: p}})
	if len(probs) != 0 || len(files) != 1 || len(files[0].Hooks) != 1 || files[0].Dialect == Gemini || files[0].Hooks[0].Matcher != "Bash" {
		t.Fatalf("as the plugin's: files %+v, problems %v", files, probs)
	}
	if f, _ := ParseFile(p, Explicit); f.Dialect != Gemini {
		t.Errorf("named on its own: dialect %v, want Gemini", f.Dialect)
	}
}

// FuzzGeminiExtensionEnabled: any rule and directory give an answer, never a panic (a rule
// with a name that is not ASCII panicked).
func FuzzGeminiExtensionEnabled(f *testing.F) {
	f.Add("!/a/b/*", "/a/b/c")
	f.Add("!/home/josé/*", "/home/josé")
	f.Add("/a/*b*/", "/a/xbx/")
	f.Fuzz(func(t *testing.T, rule, dir string) {
		geminiExtEnabled([]string{rule, "!" + rule}, dir)
		(&GeminiExtension{Path: rule, Workspace: dir}).hydrate(rule + "${extensionPath}${" + dir + "}")
	})
}

// TestGeminiExtensionBrokenShapes: in an extension's hooks file, an event whose definitions
// are not a list and a definition whose hooks are not a list are skipped (errors of the file
// that do not fail it), and the other hooks load, as Gemini CLI 0.61.0 skips them (stop 32);
// the same shapes in a Gemini settings file still fail it.
func TestGeminiExtensionBrokenShapes(t *testing.T) {
	t.Parallel()
	const hooks = `{"hooks": {
 "BeforeTool": [
  {"hooks": {"type": "command", "command": "echo object"}},
  {"hooks": [{"type": "command", "command": "echo good", "name": "good"}]}],
 "AfterTool": {"hooks": [{"type": "command", "command": "echo aft"}]}}}
`
	home, work := extensionHome(t, map[string]string{
		"x/gemini-extension.json": `{"name": "x", "version": "1"}`,
		"x/hooks/hooks.json":      hooks,
	})
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(home, "managed"),
		GeminiSystemSettings: filepath.Join(home, "gemini-cli", "settings.json")}
	paths, err := d.Paths()
	if err != nil {
		t.Fatal(err)
	}
	set, errs := Load(paths)
	if errs.Errors() != 2 {
		t.Errorf("errors: %v, want 2", errs)
	}
	var got []string
	for _, f := range set.Files {
		if f.Extension == "" {
			continue
		}
		if f.Failed {
			t.Errorf("%s failed", f.Path)
		}
		for _, h := range f.Hooks {
			got = append(got, h.ID)
		}
	}
	if diff := cmp.Diff([]string{"good"}, got); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	settings := filepath.Join(t.TempDir(), ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, _ := ParseLayerPath(LayerPath{Path: settings, Layer: User}); f == nil || !f.Failed {
		t.Errorf("settings file with the same shapes: not failed")
	}
}

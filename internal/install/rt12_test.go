package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
)

// TestInstallRespectsUserGroups (red team 12): an exact install entry inside a group the user
// shaped (another matcher, keys of its own) is not install's to remove: uninstall leaves such
// a group as written and reports the event kept. Install never drops its own "*" group for
// it (hookcore then saw PreToolUse for Bash only); it replaces it as an entry written by
// hand (stop 30): in place in a group for every tool, keys of the group kept; out of a
// narrower group, whose other hooks stay, with its own "*" group beside.
func TestInstallRespectsUserGroups(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ text, after string }{
		"bash group beside install's": {
			`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}, {"type": "command", "command": "hookcore hook claude"}]}, {"matcher": "*", "hooks": [{"type": "command", "command": "hookcore hook claude"}]}]}}`,
			`[{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}, {"matcher": "*", "hooks": [{"type": "command", "command": "hookcore", "args": ["hook", "claude"]}]}]`,
		},
		"bash group alone": {
			`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookcore hook claude"}]}]}}`,
			`[{"matcher": "*", "hooks": [{"type": "command", "command": "hookcore", "args": ["hook", "claude"]}]}]`,
		},
		"group with a key of its own": {
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookcore hook claude"}], "note": "mine"}]}}`,
			`[{"hooks": [{"type": "command", "command": "hookcore", "args": ["hook", "claude"]}], "note": "mine"}]`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, ".claude", "settings.json")
			write(t, path, tc.text)
			p, err := Uninstall(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Kept) == 0 {
				t.Errorf("uninstall: no event reported kept")
			}
			var user string
			if strings.Contains(tc.text, `"Bash"`) {
				user = `{"matcher": "Bash", "hooks": [`
			} else {
				user = `"note": "mine"`
			}
			if !bytes.Contains(p.New, []byte(user)) || !bytes.Contains(p.New, []byte(`"hookcore hook claude"`)) {
				t.Errorf("uninstall changed the user's group:\n%s", p.New)
			}
			p, err = Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
			if err != nil {
				t.Fatal(err)
			}
			ev := "PreToolUse"
			if !strings.Contains(tc.text, ev) {
				ev = "Stop"
			}
			if len(p.Kept) != 0 || !slices.Contains(p.ReplacedHand, ev) {
				t.Errorf("install: kept %q, replaced by hand %q", p.Kept, p.ReplacedHand)
			}
			got := decode(t, p.New)["hooks"].(map[string]any)[ev]
			var want any
			if err := json.Unmarshal([]byte(tc.after), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("install: %s (-want +got):\n%s", ev, diff)
			}
		})
	}
}

// TestRelativeHookcoreIsTheProjects (red team 12): install writes a bare name or an absolute
// path, so a relative path to a hookcore binary (a project's pinned, committed one) is the
// user's entry: uninstall leaves it, and install adds no second one.
func TestRelativeHookcoreIsTheProjects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	const text = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "tools/hookcore hook claude"}]}]}}`
	write(t, path, text)
	for _, plan := range []func(Options) (*Plan, error){Uninstall, Install} {
		p, err := plan(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
		if err != nil {
			t.Fatal(err)
		}
		stop := decode(t, p.New)["hooks"].(map[string]any)["Stop"].([]any)
		if !slices.Contains(p.Kept, "Stop") || len(stop) != 1 {
			t.Errorf("kept %q, Stop groups %d:\n%s", p.Kept, len(stop), p.New)
		}
		if !bytes.Contains(p.New, []byte(`"tools/hookcore hook claude"`)) {
			t.Errorf("the user's entry went:\n%s", p.New)
		}
	}
}

// TestInstallStaysUnderTheReadCap (red team 12): a file that install's entries would push
// past config.MaxFileSize is refused, since hookcore could then neither check nor uninstall it.
func TestInstallStaysUnderTheReadCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	text := fmt.Sprintf(`{"permissions": {"allow": [%q]}}`, strings.Repeat("x", config.MaxFileSize-200))
	write(t, path, text)
	if _, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"}); err == nil || !strings.Contains(err.Error(), "KiB") {
		t.Errorf("install past the cap: %v, want an error naming the cap", err)
	}
}

// TestDiffMemoryBounded (red team 12): the --dry-run diff of a long file with a small edit
// allocates in the edit's size, not in the square of the file's lines (a 510 KB file of short
// lines needed hundreds of GB).
func TestDiffMemoryBounded(t *testing.T) {
	var a, b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&a, "%d\n", i)
		if i == 50_000 {
			b.WriteString("hookcore\n")
		}
		fmt.Fprintf(&b, "%d\n", i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := Diff("f", []byte(a.String()), []byte(b.String()))
	runtime.ReadMemStats(&after)
	if !strings.Contains(d, "\n+hookcore\n") || strings.Count(d, "\n+") != 2 { // "+++ f" and the line
		t.Errorf("diff: %d bytes, want one added line", len(d))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("Diff allocated %d MB", got>>20)
	}
	// A middle with nothing in common prints as removed then added.
	x, y := strings.Repeat("a\n", 3000), strings.Repeat("b\n", 3000)
	if d := Diff("f", []byte(x), []byte(y)); strings.Count(d, "\n-a") != 3000 || strings.Count(d, "\n+b") != 3000 {
		t.Errorf("a large middle: %d bytes", len(d))
	}
}

// TestInstallKnowsEverySpellingOfTheHookCommand (red team 13): an entry that runs hookcore's
// hook command in a spelling install does not write, with something of the user's in it (a
// flag, an environment, the agent's name spelt otherwise), is the user's hookcore entry;
// install adds no second one (the policy would run twice) and reports the event kept. One
// with nothing of the user's in it (`hookcore-hook claude`) is replaced: see
// TestInstallReplacesHandWrittenEntry.
func TestInstallKnowsEverySpellingOfTheHookCommand(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		"hookcore hook --on-error allow claude", "hookcore hook Claude",
		"env HOOKCORE_STATE_DIR=/tmp/x hookcore hook claude", "/usr/bin/env hookcore hook claude",
		"HOOKCORE_STATE_DIR=/tmp/x hookcore hook claude", "hookcore -v hook claude", "hookcore hook -c p.yaml claude",
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude", "settings.json")
		write(t, path, fmt.Sprintf(`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": %q}]}]}}`, cmd))
		p, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
		if err != nil {
			t.Fatal(err)
		}
		groups := decode(t, p.New)["hooks"].(map[string]any)["UserPromptSubmit"].([]any)
		if len(groups) != 1 || !slices.Contains(p.Kept, "UserPromptSubmit") {
			t.Errorf("%q: %d groups, kept %q", cmd, len(groups), p.Kept)
		}
	}
	// Not the hook command: the full CLI without the word hook, another agent.
	for _, cmd := range []string{"hookcore claude", "hookcore hook codex", "hookcore-hook gemini"} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude", "settings.json")
		write(t, path, fmt.Sprintf(`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": %q}]}]}}`, cmd))
		p, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(p.Kept, "UserPromptSubmit") {
			t.Errorf("%q counted as claude's hook command", cmd)
		}
	}
}

// TestInstallRefusesDuplicateKeys (red team 13): rewritten, an object with a key twice would
// keep only the last value; install refuses the file, naming the place.
func TestInstallRefusesDuplicateKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	write(t, path, "{\n  \"hooks\": {\"Stop\": []},\n  \"hooks\": {\"Stop\": []}\n}\n")
	if _, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"}); err == nil || !strings.Contains(err.Error(), ":3:3: key \"hooks\" appears twice") {
		t.Errorf("install: %v, want the duplicate key at 3:3", err)
	}
	write(t, path, `{"hooks": {"PreToolUse": [], "PreToolUse": []}}`)
	if _, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"}); err == nil || !strings.Contains(err.Error(), `"PreToolUse" appears twice`) {
		t.Errorf("install: %v, want the duplicate event key", err)
	}
}

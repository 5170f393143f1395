package convert

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore/config"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func load(t *testing.T, name string) *config.File {
	t.Helper()
	f, errs := config.ParseFile(filepath.Join("testdata", name), config.Explicit)
	if f == nil || f.Failed {
		t.Fatalf("%s does not load: %v", name, errs)
	}
	return f
}

// project is the Options.ProjectDir of the golden and round-trip tests: this package's
// directory, so that testdata/ lies in the project. The golden files spell it /project.
func project(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGolden converts a realistic Claude Code settings file and a native YAML file to every
// target and compares the output and the loss report with testdata/golden/SOURCE.TARGET(.lost).
// The matchers sources (stop 30) hold the matchers each syntax reads its own way: the
// Gemini CLI file of the new-user trial (".*", "read_.*", "replace|MultiEdit|write_file"),
// a Claude Code file with "/…/" and case, and hookcore's YAML with /re/i and lower-case names.
func TestGolden(t *testing.T) {
	root := project(t)
	for _, src := range []struct{ path, golden string }{
		{"claude-settings.json", "claude-settings"}, {"native.yaml", "native"}, {"dirs.yaml", "dirs"},
		{"matchers/.gemini/settings.json", "matchers-gemini"}, {"matchers/.claude/settings.json", "matchers-claude"},
		{"matchers.yaml", "matchers-native"},
	} {
		f := load(t, src.path)
		for _, target := range Targets {
			t.Run(src.golden+"/"+target, func(t *testing.T) {
				out, lost, err := Options{ProjectDir: root}.To(f, target)
				if err != nil {
					t.Fatal(err)
				}
				out = []byte(strings.ReplaceAll(string(out), root, "/project"))
				var rep strings.Builder
				for _, l := range lost {
					rep.WriteString(strings.ReplaceAll(strings.TrimPrefix(l.String(), "testdata/"), root, "/project") + "\n")
				}
				base := filepath.Join("testdata", "golden", src.golden+"."+target)
				compare(t, base+".out", out)
				compare(t, base+".lost", []byte(rep.String()))
				again, _, _ := Options{ProjectDir: root}.To(f, target)
				if strings.ReplaceAll(string(again), root, "/project") != string(out) {
					t.Error("output is not deterministic")
				}
			})
		}
	}
}

func compare(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestRoundTrip: what To writes loads again (config.Parse) with the same hooks — event,
// matcher (in Claude Code's tool names again), command and prompt — for every hook that was
// not dropped, through config's loaders for claude, hookcore, gemini and codex (cursor and
// copilot have no loader yet).
func TestRoundTrip(t *testing.T) {
	type key struct {
		event, matcher, command, prompt string
		timeout                         time.Duration
	}
	// exact: the target's timeout unit is no coarser than the source's (no rounding).
	root := project(t)
	keys := func(f *config.File, exact bool) map[key]int {
		m := map[key]int{}
		for _, h := range f.Hooks {
			// Codex sets no project variable: its $CLAUDE_PROJECT_DIR is the project's path.
			cmd := strings.ReplaceAll(commandLine(&h.Action), root, "$CLAUDE_PROJECT_DIR")
			k := key{string(h.Event), h.Matcher, cmd, h.Action.Prompt, 0}
			if exact {
				k.timeout = h.EffectiveTimeout()
			}
			m[k]++
		}
		return m
	}
	for _, src := range []string{"claude-settings.json", "native.yaml"} {
		f := load(t, src)
		for _, tc := range []struct {
			target, name string
			dialect      config.Dialect
		}{
			{"claude", "settings.json", config.Nested}, {"hookcore", "hooks.yaml", config.Native},
			{"gemini", ".gemini/settings.json", config.Gemini}, {"codex", ".codex/hooks.json", config.Codex},
		} {
			out, lost, err := Options{ProjectDir: root}.To(f, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			g, errs := config.ParseDialect(tc.name, out, config.Explicit, tc.dialect)
			if g == nil || g.Failed || len(g.Broken) > 0 || errs.Err() != nil {
				t.Fatalf("%s → %s does not load back: %v\n%s", src, tc.target, errs, out)
			}
			dropped := 0
			for _, l := range lost {
				if l.Dropped {
					dropped++
				}
			}
			if len(g.Hooks) != len(f.Hooks)-dropped {
				t.Errorf("%s → %s: %d hooks back, want %d - %d dropped", src, tc.target, len(g.Hooks), len(f.Hooks), dropped)
			}
			exact := tc.target == "hookcore" || tc.target == "gemini" || src == "claude-settings.json"
			want, got := keys(f, exact), keys(g, exact)
			for k, n := range got {
				if want[k] < n {
					t.Errorf("%s → %s: hook %+v appears from nowhere", src, tc.target, k)
				}
			}
			if tc.target == "hookcore" {
				for i := range g.Hooks {
					o := findID(f, g.Hooks[i].ID)
					if o == nil {
						continue
					}
					if o.If != g.Hooks[i].If || o.Once != g.Hooks[i].Once || o.Reject != g.Hooks[i].Reject || o.EffectiveTimeout() != g.Hooks[i].EffectiveTimeout() {
						t.Errorf("%s → hookcore: %s changed: %+v vs %+v", src, o.ID, o, g.Hooks[i])
					}
				}
			}
		}
	}
}

func findID(f *config.File, id string) *config.Hook {
	for i := range f.Hooks {
		if f.Hooks[i].ID == id {
			return &f.Hooks[i]
		}
	}
	return nil
}

// TestLossReports checks single items: an unknown target, a failed file, a disabled hook, a
// sub-millisecond timeout for gemini, and a powershell command for copilot.
func TestLossReports(t *testing.T) {
	if _, _, err := To(&config.File{}, "vscode"); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Errorf("unknown target: %v", err)
	}
	if _, _, err := To(&config.File{Failed: true}, "claude"); err == nil {
		t.Error("a failed file converts")
	}
	f, errs := config.Parse("settings.json", []byte(`{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "true", "enabled": false},
  {"type": "command", "command": "Get-Date", "shell": "powershell", "timeout": 5}]}]}}`), config.Explicit)
	if f == nil || errs.Err() != nil {
		t.Fatal(errs)
	}
	out, lost, err := To(f, "copilot")
	if err != nil {
		t.Fatal(err)
	}
	lost = notProtocol(lost)
	if !strings.Contains(string(out), `"powershell": "Get-Date"`) || strings.Contains(string(out), "true") {
		t.Errorf("copilot output:\n%s", out)
	}
	if len(lost) != 1 || !lost[0].Dropped || lost[0].Hook != "PreToolUse#1" {
		t.Errorf("copilot losses: %v", lost)
	}
	f, errs = config.Parse("h.yaml", []byte(`hooks:
  - event: PreToolUse
    action: {type: command, command: "x", timeout: 1500us}
`), config.Explicit)
	if f == nil || errs.Err() != nil {
		t.Fatal(errs)
	}
	_, lost, _ = To(f, "copilot")
	if lost = notProtocol(lost); len(lost) != 1 || !strings.Contains(lost[0].What, "rounded up to 1s") {
		t.Errorf("copilot timeout loss: %v", lost)
	}
	_, lost, _ = To(f, "gemini")
	found := false
	for _, l := range lost {
		found = found || strings.Contains(l.What, "1.5ms rounded up to 2ms")
	}
	if !found {
		t.Errorf("gemini losses: %v", lost)
	}
	// A broken entry is not converted, and says so; the valid one next to it is.
	f, _ = config.Parse("settings.json", []byte(`{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "ok.sh"},
  {"type": "bogus", "command": "x"}]}]}}`), config.Explicit)
	if f == nil || f.Failed || len(f.Broken) != 1 {
		t.Fatalf("want one broken entry: %+v", f)
	}
	out, lost, err = To(f, "cursor")
	if lost = notProtocol(lost); err != nil || !strings.Contains(string(out), "ok.sh") || len(lost) != 1 || !lost[0].Dropped || !strings.Contains(lost[0].What, "has errors") {
		t.Errorf("broken entry: %v %v\n%s", err, lost, out)
	}
}

// TestGeminiHooksConfigConverts: a Gemini settings file's own hooksConfig (stop 26) turns
// its hooks off in the conversion as it does in Gemini CLI: a hook named in disabled is
// written enabled: false in hookcore's YAML and dropped, with a report, for the agents; with
// enabled: false every hook is. Before, they were written as hooks that run.
func TestGeminiHooksConfigConverts(t *testing.T) {
	src := `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
  {"type": "command", "name": "blocker", "command": "exit 2"},
  {"type": "command", "name": "logger", "command": "true"}]}]},
 "hooksConfig": {"disabled": ["blocker"]}}`
	f, errs := config.ParseDialect("/p/.gemini/settings.json", []byte(src), config.Explicit, config.Gemini)
	if errs.Err() != nil {
		t.Fatal(errs)
	}
	out, lost, err := To(f, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "exit 2") || !strings.Contains(string(out), `"command": "true"`) {
		t.Errorf("claude output:\n%s", out)
	}
	if lost = notProtocol(lost); len(lost) != 1 || !lost[0].Dropped || lost[0].Hook != "blocker" {
		t.Errorf("claude losses: %v", lost)
	}
	out, _, err = To(f, "hookcore")
	if err != nil {
		t.Fatal(err)
	}
	g, errs := config.Parse("h.yaml", out, config.Explicit)
	if errs.Err() != nil {
		t.Fatalf("%v\n%s", errs, out)
	}
	var enabled []string
	for _, h := range g.Hooks {
		enabled = append(enabled, fmt.Sprintf("%s=%v", h.ID, h.Enabled))
	}
	if got := strings.Join(enabled, " "); got != "blocker=false logger=true" {
		t.Errorf("hookcore output: %s\n%s", got, out)
	}
	f, _ = config.ParseDialect("/p/.gemini/settings.json", []byte(strings.Replace(src, `"disabled": ["blocker"]`, `"enabled": false`, 1)), config.Explicit, config.Gemini)
	if _, lost, _ = To(f, "cursor"); len(notProtocol(lost)) != 2 {
		t.Errorf("enabled: false: cursor losses %v, want both hooks dropped", lost)
	}
}

// TestGeminiReadNamesEveryReadTool (stop 29): a matcher on Read becomes every Gemini CLI
// tool the bridge names Read, read_many_files with read_file, so a guard converted to
// Gemini sees both; and the result loads back as the one name Read. The list is anchored
// (stop 30): Gemini CLI searches a matcher's regex, so a bare read_file would also match an
// MCP tool filesystem__read_file.
func TestGeminiReadNamesEveryReadTool(t *testing.T) {
	t.Parallel()
	f, errs := config.Parse("h.yaml", []byte(`hooks:
  - {id: no-env, event: pre_tool_use, matcher: Read|Grep, if: 'Read(**/.env)', action: {type: command, command: "exit 2"}}
`), config.Explicit)
	if errs.Err() != nil {
		t.Fatal(errs)
	}
	out, _, err := To(f, "gemini")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"matcher": "^(?:read_file|read_many_files|grep_search|search_file_content)$"`) {
		t.Errorf("gemini output:\n%s", out)
	}
	g, errs := config.ParseDialect("/p/.gemini/settings.json", out, config.Explicit, config.Gemini)
	if errs.Err() != nil || len(g.Hooks) != 1 || g.Hooks[0].Matcher != "Read|Grep" {
		t.Errorf("loaded back: %v %+v", errs, g.Hooks)
	}
}

// TestOnErrorBlockConverts (new-user trial, stop 27): a guard's on_error: block is Cursor's
// failClosed: true, and Copilot CLI's preToolUse hooks fail closed by themselves; for the
// other agents it cannot be carried over and the guard then fails open, which is a warning
// (it was a plain loss line, not counted in convert's WARNING tally).
func TestOnErrorBlockConverts(t *testing.T) {
	t.Parallel()
	f, errs := config.Parse("h.yaml", []byte(`hooks:
  - id: no-rm-rf
    event: PreToolUse
    matcher: Bash
    on_error: block
    action: {type: command, command: "guard.sh"}
  - id: log
    event: PostToolUse
    on_error: block
    action: {type: command, command: "log.sh"}
`), config.Explicit)
	if f == nil || errs.Err() != nil {
		t.Fatal(errs)
	}
	lossOf := func(lost []Loss, id string) (what string, warning bool) {
		for _, l := range lost {
			if l.Hook == id && strings.Contains(l.What, "on_error") {
				return l.What, l.Warning
			}
		}
		return "", false
	}
	for _, target := range []string{"claude", "codex", "gemini"} {
		_, lost, err := To(f, target)
		if err != nil {
			t.Fatal(err)
		}
		if what, warning := lossOf(lost, "no-rm-rf"); !warning || !strings.Contains(what, "lets the call through") {
			t.Errorf("%s: guard's on_error loss %q (warning %v), want a warning", target, what, warning)
		}
		if what, warning := lossOf(lost, "log"); what == "" || warning {
			t.Errorf("%s: observer's on_error loss %q (warning %v), want a plain loss", target, what, warning)
		}
	}
	out, lost, err := To(f, "cursor")
	if err != nil {
		t.Fatal(err)
	}
	if what, _ := lossOf(lost, "no-rm-rf"); what != "" || strings.Count(string(out), `"failClosed": true`) != 2 {
		t.Errorf("cursor: loss %q, output:\n%s", what, out)
	}
	_, lost, err = To(f, "copilot")
	if err != nil {
		t.Fatal(err)
	}
	if what, _ := lossOf(lost, "no-rm-rf"); what != "" {
		t.Errorf("copilot: preToolUse guard's on_error reported lost: %q", what)
	}
}

// TestLossPrintable (red team round 35): a loss line holds the input file's text (an event
// name, a hook id); its control characters are shown as escapes, not sent to the terminal
// (an event name set the terminal's title and cleared its screen).
func TestLossPrintable(t *testing.T) {
	t.Parallel()
	l := Loss{Source: "s.json:1", Hook: "id\x1b[31mX", What: "event \"Stop\x1b]0;PWNED\a\x1b[2J\": codex has no equivalent", Dropped: true}
	if got := l.String(); strings.ContainsAny(got, "\x1b\a") {
		t.Errorf("raw control characters: %q", got)
	}
}

// notProtocol returns lost without the lines about a command's reply protocol (protocolLoss),
// which TestProtocolLoss checks, for the tests of other items.
func notProtocol(lost []Loss) []Loss {
	var out []Loss
	for _, l := range lost {
		if !strings.Contains(l.What, "hook protocol") {
			out = append(out, l)
		}
	}
	return out
}

package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// claudeScenario is a testdata/claude/NAME/observed.json: what the real Claude Code did with
// that directory's settings.json (run with ../shared/peer-claude/run-scenario.sh on the same
// directory, whose tools.json and prompt.txt drive the run), as cases fired through hookcore.
type claudeScenario struct {
	ClaudeCode string `json:"claude_code"`
	Observed   string `json:"observed"`
	// BrokenEntries marks a settings file with broken entries: they are skipped, not fatal.
	BrokenEntries bool `json:"broken_entries"`
	// NeedsMissing lists programs whose presence in PATH changes what was observed (the
	// peer had none of them); the scenario is skipped where one is found.
	NeedsMissing string `json:"needs_missing"`
	Cases        []struct {
		Event        string          `json:"event"`
		Tool         string          `json:"tool"`
		Input        json.RawMessage `json:"input"`
		ToolResponse json.RawMessage `json:"tool_response"`
		Prompt       string          `json:"prompt"`
		// Cwd is the session's working directory relative to the project (Claude Code's
		// Bash keeps a cd for the later calls and hooks); "" is the project root.
		Cwd string `json:"cwd"`
		// Close closes the Runner after the case, before "files" and "absent" are read: the
		// async hooks it started have finished.
		Close bool           `json:"close"`
		Want  map[string]any `json:"want"`
	} `json:"cases"`
}

// TestClaudeDifferential fires each scenario of testdata/claude through hookcore, in order,
// in one session and one project directory, and compares the Result with the values
// observed from the real Claude Code (its version is in each observed.json; all were run
// with 2.1.332). The keys of "want" are Result JSON fields (blocked, reason, permission,
// additional_context, updated_input) and: hooks, the number of hook records; keeps_working,
// Result.KeepsWorking; tool_output, Result.ToolOutput of the tool response; reason_parts,
// the reason as runs of [text, count]; outcomes, the records' outcomes; status_messages,
// the records' statusMessage; files, the content of project files the hooks wrote;
// absent, project files that must not exist; same_files, pairs of files with equal content.
// A scenario's files/ is copied into the project first, as the peer does.
func TestClaudeDifferential(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("testdata", "claude", "*", "observed.json"))
	if err != nil || len(dirs) < 9 {
		t.Fatalf("scenarios: %v %v", dirs, err)
	}
	for _, obs := range dirs {
		name := filepath.Base(filepath.Dir(obs))
		var sc claudeScenario
		readJSON(t, obs, &sc)
		if len(sc.Cases) == 0 {
			continue // testdata/claude/events has its own test
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, prog := range strings.Fields(sc.NeedsMissing) {
				if _, err := exec.LookPath(prog); err == nil {
					t.Skipf("%s is in PATH; the peer had none of %q", prog, sc.NeedsMissing)
				}
			}
			if sc.ClaudeCode == "" || sc.Observed == "" {
				t.Fatal("observed.json must say the Claude Code version and what was observed")
			}
			dir := t.TempDir()
			settings, err := os.ReadFile(filepath.Join(filepath.Dir(obs), "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			var set *config.Set
			if sc.BrokenEntries { // the file's broken entries are skipped, its valid hooks load
				set, _ = config.Load([]config.LayerPath{{Path: writeFile(t, dir, ".claude/settings.json", string(settings)), Layer: config.Explicit}})
			} else {
				set = loadConfig(t, dir, ".claude/settings.json", string(settings))
			}
			if files := filepath.Join(filepath.Dir(obs), "files"); exists(files) {
				copyTreeModes(t, files, dir)
			}
			r := newRunner(t, dir, set, hookcore.Options{})
			subst := func(raw json.RawMessage) json.RawMessage {
				return json.RawMessage(strings.ReplaceAll(string(raw), "{{WORKSPACE}}", dir))
			}
			for i, c := range sc.Cases {
				ev, ok := hook.ParseEvent(c.Event)
				if !ok {
					t.Fatalf("case %d: unknown event %q", i, c.Event)
				}
				in := &hook.Input{SessionID: "s1", Cwd: filepath.Join(dir, c.Cwd), ToolName: c.Tool, ToolInput: subst(c.Input),
					ToolResponse: subst(c.ToolResponse), Prompt: c.Prompt}
				res := r.Fire(context.Background(), ev, in)
				if c.Close {
					if err := r.Close(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				if d := cmp.Diff(wantOf(c.Want, dir), gotOf(t, c.Want, &res, c.Tool, in.ToolResponse, dir)); d != "" {
					t.Errorf("case %d (%s %s): (-real Claude Code +hookcore):\n%s", i, c.Event, c.Tool, d)
				}
			}
		})
	}
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// wantOf returns want with {{WORKSPACE}} replaced in its strings and reason_parts expanded.
func wantOf(want map[string]any, dir string) map[string]any {
	b, _ := json.Marshal(want)
	var out map[string]any
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), "{{WORKSPACE}}", dir)), &out)
	if parts, ok := out["reason_parts"].([]any); ok {
		var s strings.Builder
		for _, p := range parts {
			pp := p.([]any)
			s.WriteString(strings.Repeat(pp[0].(string), int(pp[1].(float64))))
		}
		out["reason_parts"] = s.String()
	}
	return out
}

// gotOf returns the keys of want read from res.
func gotOf(t *testing.T, want map[string]any, res *hook.Result, tool string, response json.RawMessage, dir string) map[string]any {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for k := range want {
		switch k {
		case "hooks":
			got[k] = float64(len(res.Hooks))
		case "keeps_working":
			got[k] = res.KeepsWorking()
		case "tool_output":
			var v any
			if err := json.Unmarshal(res.ToolOutput(tool, response), &v); err != nil {
				t.Fatalf("tool output: %v", err)
			}
			got[k] = v
		case "reason_parts":
			got[k] = res.Reason
		case "outcomes", "status_messages":
			var list []any
			for _, h := range res.Hooks {
				list = append(list, map[bool]string{true: h.Outcome.String(), false: h.StatusMessage}[k == "outcomes"])
			}
			got[k] = list
		case "files":
			files := map[string]any{}
			for name := range want[k].(map[string]any) {
				files[name] = readFile(t, dir, name)
			}
			got[k] = files
		case "absent":
			var gone []any
			for _, name := range want[k].([]any) {
				if _, err := os.Lstat(filepath.Join(dir, name.(string))); !os.IsNotExist(err) {
					continue // reported as missing from the list
				}
				gone = append(gone, name)
			}
			got[k] = gone
		case "same_files":
			var pairs []any
			for _, p := range want[k].([]any) {
				pp := p.([]any)
				a, b := readFile(t, dir, pp[0].(string)), readFile(t, dir, pp[1].(string))
				if a == "" || a != b {
					pp = []any{pp[0], pp[1], a, b}
				}
				pairs = append(pairs, pp)
			}
			got[k] = pairs
		default:
			v, ok := all[k]
			if !ok { // omitempty: the zero value
				v = map[bool]any{true: ""}[k != "blocked"]
				if k == "blocked" {
					v = false
				}
			}
			got[k] = v
		}
	}
	return got
}

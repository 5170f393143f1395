package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
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
	Cases         []struct {
		Event        string          `json:"event"`
		Tool         string          `json:"tool"`
		Input        json.RawMessage `json:"input"`
		ToolResponse json.RawMessage `json:"tool_response"`
		Prompt       string          `json:"prompt"`
		Want         map[string]any  `json:"want"`
	} `json:"cases"`
}

// TestClaudeDifferential fires each scenario of testdata/claude through hookcore, in order,
// in one session and one project directory, and compares the Result with the values
// observed from the real Claude Code (its version is in each observed.json; all were run
// with 2.1.332). The keys of "want" are Result JSON fields (blocked, reason, permission,
// additional_context, updated_input) and: hooks, the number of hook records; keeps_working,
// Result.KeepsWorking; tool_output, Result.ToolOutput of the tool response; reason_parts,
// the reason as runs of [text, count].
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
			r := newRunner(t, dir, set, hookcore.Options{})
			subst := func(raw json.RawMessage) json.RawMessage {
				return json.RawMessage(strings.ReplaceAll(string(raw), "{{WORKSPACE}}", dir))
			}
			for i, c := range sc.Cases {
				ev, ok := hook.ParseEvent(c.Event)
				if !ok {
					t.Fatalf("case %d: unknown event %q", i, c.Event)
				}
				in := &hook.Input{SessionID: "s1", Cwd: dir, ToolName: c.Tool, ToolInput: subst(c.Input),
					ToolResponse: subst(c.ToolResponse), Prompt: c.Prompt}
				res := r.Fire(context.Background(), ev, in)
				if d := cmp.Diff(wantOf(c.Want, dir), gotOf(t, c.Want, &res, c.Tool, in.ToolResponse)); d != "" {
					t.Errorf("case %d (%s %s): (-real Claude Code +hookcore):\n%s", i, c.Event, c.Tool, d)
				}
			}
		})
	}
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
func gotOf(t *testing.T, want map[string]any, res *hook.Result, tool string, response json.RawMessage) map[string]any {
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

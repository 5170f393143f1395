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

// TestClaudePublicSetups loads each of the ten public Claude Code hook setups of
// testdata/claude-public (their sources, and which scripts are stand-ins, are in its
// README.md) as a project's .claude/settings.json, with its files/ as the project, fires
// the scenario's cases and compares the Result with what the real Claude Code 2.1.332 did
// with the same settings and the same tool calls (peer-claude; observed.json says what was
// seen). A case with a "hookcore" value is a divergence hookcore keeps on purpose, with the
// reason in "why"; the test checks hookcore gives that value instead.
func TestClaudePublicSetups(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("testdata", "claude-public", "*", "observed.json"))
	if err != nil || len(dirs) != 10 {
		t.Fatalf("want ten setups: %v %v", dirs, err)
	}
	for _, obs := range dirs {
		src := filepath.Dir(obs)
		var sc struct {
			claudeScenario
			Source string `json:"source"`
			Cases  []struct {
				Event        string          `json:"event"`
				Tool         string          `json:"tool"`
				Input        json.RawMessage `json:"input"`
				ToolResponse json.RawMessage `json:"tool_response"`
				Prompt       string          `json:"prompt"`
				Want         map[string]any  `json:"want"`
				Hookcore     map[string]any  `json:"hookcore"`
				Why          string          `json:"why"`
			} `json:"cases"`
		}
		readJSON(t, obs, &sc)
		t.Run(filepath.Base(src), func(t *testing.T) {
			t.Parallel()
			if sc.ClaudeCode == "" || sc.Observed == "" || sc.Source == "" || len(sc.Cases) == 0 {
				t.Fatal("observed.json must name the source, the Claude Code version, what was observed, and cases")
			}
			dir := t.TempDir()
			if _, err := os.Stat(filepath.Join(src, "files")); err == nil {
				copyTreeModes(t, filepath.Join(src, "files"), dir)
			}
			settings, err := os.ReadFile(filepath.Join(src, "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			path := writeFile(t, dir, ".claude/settings.json", string(settings))
			set, _ := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}) // broken entries are skipped, as in discovery
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
					ToolResponse: subst(c.ToolResponse), Prompt: c.Prompt, Source: "startup"}
				res := r.Fire(context.Background(), ev, in)
				want, who := c.Want, "real Claude Code"
				if c.Hookcore != nil {
					if c.Why == "" {
						t.Fatalf("case %d: a kept divergence needs its why", i)
					}
					want, who = c.Hookcore, "hookcore's documented divergence"
				}
				if d := cmp.Diff(wantOf(want, dir), gotOf(t, want, &res, c.Tool, in.ToolResponse, dir)); d != "" {
					t.Errorf("case %d (%s %s): (-%s +hookcore):\n%s", i, c.Event, c.Tool, who, d)
				}
			}
		})
	}
}

// copyTreeModes copies the files under from into to, keeping their permission bits.
func copyTreeModes(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

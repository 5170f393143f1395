//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// claudeRuns is the part of a testdata/claude/NAME/observed.json (in the repository root)
// that needs the agent: what the real Claude Code did in a whole session with that
// directory's settings.json, tools.json and prompt.txt or prompts.txt (run with
// ../shared/peer-claude/run-scenario.sh on the directory), checked against hookcore run.
type claudeRuns struct {
	ClaudeCode string `json:"claude_code"`
	Observed   string `json:"observed"`
	Runs       []struct {
		// Prompt is the prompt of hookcore run; "" is prompt.txt.
		Prompt string `json:"prompt"`
		Want   struct {
			Exit int `json:"exit"`
			// Stdout holds texts the transcript shows, in any order.
			Stdout []string `json:"stdout"`
			// Files are workspace files and their content after the session, Absent files
			// that must not exist.
			Files  map[string]string `json:"files"`
			Absent []string          `json:"absent"`
			// Inputs are the hook inputs logged to inputs.jsonl by the scenario's hooks, in
			// order, each compared on the keys it has.
			Inputs []map[string]any `json:"inputs"`
		} `json:"want"`
	} `json:"runs"`
}

// TestClaudeRunScenarios runs the "runs" of testdata/claude/*/observed.json through
// hookcore run: the scenario's files/ and setup.sh (with PEER_OUT the run's directory,
// whose home/ is HOME) prepare the workspace, its settings.json is
// .claude/settings.json (named with --config), its tools.json is the scripted model (a
// turn's "preamble" is its text) and --permission-mode bypassPermissions stands for the
// peer's --dangerously-skip-permissions. The values were observed with Claude Code 2.1.332
// (each observed.json says what was seen).
func TestClaudeRunScenarios(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("hookcore")
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", "*", "observed.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, obs := range paths {
		scen := filepath.Dir(obs)
		var sc claudeRuns
		b, err := os.ReadFile(obs)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatalf("%s: %v", obs, err)
		}
		for i, run := range sc.Runs {
			n++
			t.Run(filepath.Base(scen)+"/"+string(rune('0'+i)), func(t *testing.T) {
				t.Parallel()
				if sc.ClaudeCode == "" || sc.Observed == "" {
					t.Fatal("observed.json must say the Claude Code version and what was observed")
				}
				out := t.TempDir()
				ws, home := filepath.Join(out, "workspace"), filepath.Join(out, "home")
				prepareWorkspace(t, scen, out, ws, home)
				prompt := run.Prompt
				if prompt == "" {
					prompt = strings.TrimSpace(readText(t, filepath.Join(scen, "prompt.txt")))
				}
				cmd := exec.Command(bin, "run", prompt, "--model", "scripted:"+filepath.Join(out, "script.json"),
					"--workspace", ws, "--config", filepath.Join(ws, ".claude", "settings.json"),
					"--permission-mode", "bypassPermissions")
				cmd.Dir = ws
				cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0"}
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				w := run.Want
				if code != w.Exit {
					t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, w.Exit, stdout.String(), stderr.String())
				}
				for _, s := range w.Stdout {
					if !strings.Contains(stdout.String(), s) {
						t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
					}
				}
				for name, want := range w.Files {
					if got := readText(t, filepath.Join(ws, name)); got != want {
						t.Errorf("%s = %q, want %q (real Claude Code)", name, got, want)
					}
				}
				for _, name := range w.Absent {
					if _, err := os.Lstat(filepath.Join(ws, name)); !os.IsNotExist(err) {
						t.Errorf("%s exists; Claude Code did not write it", name)
					}
				}
				if w.Inputs != nil {
					got := loggedInputs(t, filepath.Join(ws, "inputs.jsonl"), w.Inputs)
					if diff := cmp.Diff(w.Inputs, got); diff != "" {
						t.Errorf("hook inputs (-real Claude Code +hookcore):\n%s", diff)
					}
				}
			})
		}
	}
	if n < 9 {
		t.Fatalf("only %d run scenarios found", n)
	}
}

// prepareWorkspace builds the peer's layout under out: the workspace ws with the scenario's
// files/ and settings.json, home, script.json from tools.json, and runs setup.sh.
func prepareWorkspace(t *testing.T, scen, out, ws, home string) {
	t.Helper()
	for _, d := range []string{filepath.Join(ws, ".claude"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(scen, "files")); err == nil {
		if err := os.CopyFS(ws, os.DirFS(filepath.Join(scen, "files"))); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(ws, ".claude", "settings.json"), readText(t, filepath.Join(scen, "settings.json")))
	var turns []map[string]any
	if err := json.Unmarshal([]byte(readText(t, filepath.Join(scen, "tools.json"))), &turns); err != nil {
		t.Fatal(err)
	}
	for _, turn := range turns {
		if p, ok := turn["preamble"]; ok {
			turn["text"] = p
			delete(turn, "preamble")
		}
	}
	script, _ := json.Marshal(turns)
	write(t, filepath.Join(out, "script.json"), string(script))
	if setup := filepath.Join(scen, "setup.sh"); fileExists(setup) {
		abs, _ := filepath.Abs(setup)
		cmd := exec.Command(abs)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "PEER_OUT="+out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup.sh: %v\n%s", err, b)
		}
	}
}

// loggedInputs reads the JSON lines of path, each reduced to the keys of the want at its
// index (all keys past the end of want).
func loggedInputs(t *testing.T, path string, want []map[string]any) []map[string]any {
	t.Helper()
	var got []map[string]any
	for _, line := range strings.Split(readText(t, path), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if i := len(got); i < len(want) {
			kept := map[string]any{}
			for k := range want[i] {
				kept[k] = in[k]
			}
			in = kept
		}
		got = append(got, in)
	}
	return got
}

// readText returns the content of path, or "" when it does not exist.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookcore/hookcore/internal/cli"
)

// repoRoot is the module root, for the recorded sessions and the examples.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// session returns the path of a recorded session's main transcript in testdata/sessions.
func session(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "sessions", "session-"+name)
	files, err := filepath.Glob(filepath.Join(dir, "????????-????-????-????-????????????.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("session %s: %v %v", name, files, err)
	}
	return files[0]
}

// TestReplayScripts runs testdata/script/replay/*.txtar. They live in a folder of their
// own because they read the recorded sessions and the examples of the repository, which
// the scripts of testdata/script can not reach: this runner sets $ROOT (the module root)
// and $SESSIONS (testdata/sessions) besides HOME=$WORK/home. The scripts run hookcore with
// `exec hookcore ...` (registered by TestMain).
func TestReplayScripts(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join(root, "testdata", "script", "replay"),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("ROOT", root)
			env.Setenv("SESSIONS", filepath.Join(root, "testdata", "sessions"))
			if env.Getenv("GORACE") == "" {
				env.Setenv("GORACE", "atexit_sleep_ms=0")
			}
			return nil
		},
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// runMain runs the command line in-process and returns its exit code, stdout and stderr.
func runMain(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// timing matches what changes from run to run: hook times in the table and in JSON.
var timing = regexp.MustCompile(`(?m) +(<?[0-9.]+ms|-)(  |$)|"duration_ms":[0-9.e-]+`)

// replayJobs replays args with --jobs 1 and --jobs 4 and returns the --jobs 1 output after
// failing t if the two differ (timings aside).
func replayJobs(t *testing.T, args ...string) string {
	t.Helper()
	var outs [2]string
	for i, jobs := range []string{"1", "4"} {
		code, out, stderr := runMain(append(args, "--jobs", jobs)...)
		if code != 0 {
			t.Fatalf("--jobs %s: exit %d: %s", jobs, code, stderr)
		}
		outs[i] = timing.ReplaceAllString(out, " T$2")
	}
	if d := cmp.Diff(outs[0], outs[1]); d != "" {
		t.Errorf("--jobs 4 differs from --jobs 1 (-1 +4):\n%s", d)
	}
	return outs[0]
}

// TestReplayJobsSameOutput: --jobs 4 prints exactly what --jobs 1 prints (timings aside),
// table and JSON, on the recorded sessions with the example guardrails. The two sessions of
// the README quick start, whose hooks make most of the replay time, are replayed once per
// --jobs value by TestReplayQuickStart instead.
func TestReplayJobsSameOutput(t *testing.T) {
	t.Parallel()
	config := filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
	for _, name := range []string{"fix-failing-test", "long-output", "stop-gate", "subagent", "unicode"} {
		for _, mode := range []string{"table", "json"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				args := []string{"replay", session(t, name), "--config", config}
				if mode == "json" {
					args = append(args, "--json")
				}
				replayJobs(t, args...)
			})
		}
	}
}

// TestReplayDamagedFiles: a malformed line, a truncated file, an empty file, a binary file,
// a directory and a missing file each give a clear message or a correct replay.
func TestReplayDamagedFiles(t *testing.T) {
	t.Parallel()
	good, err := os.ReadFile(session(t, "guardrails"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(good, []byte("\n"))
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := bytes.Join([][]byte{bytes.Join(lines[:6], nil), []byte("{\"type\":\"user\", oops\n"), bytes.Join(lines[6:], nil)}, nil)
	binary := append([]byte{0x7f, 'E', 'L', 'F', 0, 0, 1}, bytes.Repeat([]byte{0xff, 0}, 200)...)
	tests := []struct {
		name     string
		path     string
		exit     int
		stdout   []string // substrings
		stderr   []string
		noStdout bool
	}{
		{"malformed line", write("malformed.jsonl", malformed), 0,
			[]string{"events         21\n", "1 line skipped (unknown or malformed); first malformed line: " + filepath.Join(dir, "malformed.jsonl") + ":7"}, nil, false},
		{"truncated", write("truncated.jsonl", good[:len(good)/2]), 0,
			[]string{"first malformed line: "}, nil, false},
		{"truncated at a line end", write("cut.jsonl", bytes.Join(lines[:20], nil)), 0,
			[]string{"tool calls"}, nil, false},
		{"empty", write("empty.jsonl", nil), 1, nil, []string{"empty.jsonl: empty session file\n"}, true},
		{"blank lines", write("blank.jsonl", []byte("\n\n  \n")), 1, nil, []string{"blank.jsonl: empty session file\n"}, true},
		{"binary", write("binary.jsonl", binary), 1, nil, []string{"binary.jsonl: not a recognised session format"}, true},
		{"plain text", write("notes.txt", []byte("hello\nworld\n")), 1, nil, []string{"notes.txt: not a recognised session format"}, true},
		{"directory", dir, 1, nil, []string{"is a directory"}, true},
		{"missing", filepath.Join(dir, "nope.jsonl"), 1, nil, []string{"nope.jsonl: no such file or directory"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runMain("replay", tt.path)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.exit, out, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.noStdout && out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
			if strings.Contains(stderr, "panic") {
				t.Errorf("panic:\n%s", stderr)
			}
		})
	}
}

// TestReplayQuickStart: the README quick start, replayed once with --jobs 1 and once with
// --jobs 4 (the same JSON lines, timings aside). The example config blocks the rm -rf, .env
// and package-lock.json calls of session-guardrails, rewrites its npm install and the pytest
// call of session-add-feature, and adds context at SessionStart. The table view of the same
// replay is testdata/script/replay/replay_example_guardrails.txtar.
func TestReplayQuickStart(t *testing.T) {
	t.Parallel()
	config := filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
	out := replayJobs(t, "replay", session(t, "guardrails"), session(t, "add-feature"), "--config", config, "--json")
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		for _, want := range []struct{ key, sub string }{
			{"rm", `"blocked":true,"reason":"'rm -rf' is blocked`},
			{"env", `"blocked":true,"reason":"secrets files (.env)`},
			{"lock", `"blocked":true,"reason":"package-lock.json is generated`},
			{"npm", `"updated_input":{"command":"cd docs-site && npm install --ignore-scripts --package-lock-only`},
			{"pytest", `"updated_input":{"command":"python3 -m unittest discover -s tests -q"`},
			{"context", `"additional_context":"Project notes: run the tests with`},
		} {
			if strings.Contains(l, want.sub) {
				got[want.key] = "ok"
			}
		}
	}
	want := map[string]string{"rm": "ok", "env": "ok", "lock": "ok", "npm": "ok", "pytest": "ok", "context": "ok"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("example guardrails (-want +got):\n%s\n%s", d, out)
	}
}

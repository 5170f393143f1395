package replay_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/replay"
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

// session returns the path of a recorded session's main transcript.
func session(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "sessions", "session-"+name)
	files, err := filepath.Glob(filepath.Join(dir, "????????-????-????-????-????????????.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("session %s: %v %v", name, files, err)
	}
	return files[0]
}

// guardrails is the example config of the README quick start.
func guardrails(t testing.TB) string {
	return filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
}

// runner builds a Runner from the config files (named by the user, so trusted); none: no
// hook.
func runner(t testing.TB, configs ...string) *hookcore.Runner {
	t.Helper()
	var paths []config.LayerPath
	for _, c := range configs {
		paths = append(paths, config.LayerPath{Path: c, Layer: config.Explicit})
	}
	r, err := hookcore.Load(paths, hookcore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return r
}

// run replays files with opts (Runner from configs, Cwd the test's temporary directory when
// unset) and returns stdout, stderr and Run's error.
func run(t testing.TB, files []string, opts replay.Options, configs ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	opts.Runner = runner(t, configs...)
	opts.Stdout, opts.Stderr = &out, &errb
	if opts.Cwd == "" {
		opts.Cwd = t.TempDir()
	}
	err := replay.Run(context.Background(), files, opts)
	return out.String(), errb.String(), err
}

// timing matches what changes from run to run: hook times in the table and in JSON.
var timing = regexp.MustCompile(`(?m) +(<?[0-9.]+ms|-)(  |$)|"duration_ms":[0-9.e-]+`)

// replayed is one replay of a set of sessions through the example guardrails, shared by the
// tests that read it: each (sessions, mode, jobs) is replayed once per test binary.
type replayed struct {
	once     sync.Once
	out, err string
}

var (
	replayedMu sync.Mutex
	replays    = map[string]*replayed{}
)

// guarded returns the output of replaying the sessions through the example guardrails
// with --jobs jobs, as JSON lines or the table, timings masked; the replay runs once per
// key, whichever test asks first.
func guarded(t *testing.T, jsonMode bool, jobs int, names ...string) string {
	t.Helper()
	key := strings.Join(names, ",") + "/" + strconv.FormatBool(jsonMode) + "/" + strconv.Itoa(jobs)
	replayedMu.Lock()
	rp := replays[key]
	if rp == nil {
		rp = &replayed{}
		replays[key] = rp
	}
	replayedMu.Unlock()
	rp.once.Do(func() {
		var files []string
		for _, n := range names {
			files = append(files, session(t, n))
		}
		// The package directory, as `hookcore replay` run here: the recorded cwd does not
		// exist, so the hooks run (and the JSON inputs show) the same directory every time.
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, err := run(t, files, replay.Options{JSON: jsonMode, Jobs: jobs, Cwd: wd}, guardrails(t))
		if err != nil {
			rp.err = err.Error() + "\n" + stderr
		}
		rp.out = timing.ReplaceAllString(out, " T$2")
	})
	if rp.err != "" {
		t.Fatalf("replay %s: %s", key, rp.err)
	}
	return rp.out
}

// TestJobsSameOutput: --jobs 4 prints exactly what --jobs 1 prints (timings aside), on the
// recorded sessions with the example guardrails. The JSON lines carry every event's input
// and result in session order, so they are compared for every session; the table, printed
// from the same ordered steps, is compared once, on the session with sub-agents. The two
// sessions of the README quick start are compared by TestQuickStart. Each session is
// replayed twice (once per --jobs value), not four times.
func TestJobsSameOutput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		jsonMode bool
	}{
		{"fix-failing-test", true}, {"long-output", true}, {"stop-gate", true}, {"unicode", true},
		{"subagent", false},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			one, four := guarded(t, tt.jsonMode, 1, tt.name), guarded(t, tt.jsonMode, 4, tt.name)
			if one == "" {
				t.Fatal("no output")
			}
			if d := cmp.Diff(one, four); d != "" {
				t.Errorf("--jobs 4 differs from --jobs 1 (-1 +4):\n%s", d)
			}
		})
	}
}

// TestQuickStart: the README quick start, replayed once with --jobs 1 and once with --jobs 4
// (the same JSON lines, timings aside). The example config blocks the rm -rf, .env and
// package-lock.json calls of session-guardrails, rewrites its npm install and the pytest
// call of session-add-feature, and adds context at SessionStart. The table view of the same
// replay is internal/cli/testdata/script/replay/replay_example_guardrails.txtar.
func TestQuickStart(t *testing.T) {
	t.Parallel()
	out := guarded(t, true, 1, "guardrails", "add-feature")
	if d := cmp.Diff(out, guarded(t, true, 4, "guardrails", "add-feature")); d != "" {
		t.Errorf("--jobs 4 differs from --jobs 1 (-1 +4):\n%s", d)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		for _, want := range []struct{ key, sub string }{
			{"rm", `"blocked":true,"reason":"recursive deletes (rm -r, rm -rf, in any spelling) are blocked`},
			{"env", `"blocked":true,"reason":"secrets files (.env, .env.*)`},
			{"lock", `"blocked":true,"reason":"package-lock.json and npm-shrinkwrap.json are generated`},
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

// TestDamagedFiles: a malformed line, a truncated file, an empty file, a binary file, a
// directory and a missing file each give a clear error or a correct replay.
func TestDamagedFiles(t *testing.T) {
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
		name   string
		path   string
		stdout []string // substrings; none: nothing on stdout
		err    string   // substring of Run's error; "": no error
	}{
		{"malformed line", write("malformed.jsonl", malformed),
			[]string{"events         21\n", "1 line skipped (unknown or malformed); first malformed line: " + filepath.Join(dir, "malformed.jsonl") + ":7"}, ""},
		{"truncated", write("truncated.jsonl", good[:len(good)/2]), []string{"first malformed line: "}, ""},
		{"truncated at a line end", write("cut.jsonl", bytes.Join(lines[:20], nil)), []string{"tool calls"}, ""},
		{"empty", write("empty.jsonl", nil), nil, "empty.jsonl: empty session file"},
		{"blank lines", write("blank.jsonl", []byte("\n\n  \n")), nil, "blank.jsonl: empty session file"},
		{"binary", write("binary.jsonl", binary), nil, "binary.jsonl: not a recognised session format"},
		{"plain text", write("notes.txt", []byte("hello\nworld\n")), nil, "notes.txt: not a recognised session format"},
		{"directory", dir, nil, "is a directory"},
		{"missing", filepath.Join(dir, "nope.jsonl"), nil, "nope.jsonl: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, _, err := run(t, []string{tt.path}, replay.Options{})
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v\nstdout:\n%s", err, out)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			if tt.stdout == nil && out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
		})
	}
}

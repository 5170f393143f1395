package main_test

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binDir    string // the two binaries, built once for the package's tests
	buildErr  error
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binaries builds the lean hook binary (-tags hookcore_lean) and the full hookcore into one
// directory, once, and returns it. It skips in -short.
func binaries(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "hookcore-hook-test-"); buildErr != nil {
			return
		}
		for _, b := range [][]string{
			{"build", "-tags", "hookcore_lean", "-o", filepath.Join(binDir, "hookcore-hook"), "github.com/hookcore/hookcore/cmd/hookcore-hook"},
			{"build", "-o", filepath.Join(binDir, "hookcore"), "github.com/hookcore/hookcore/cmd/hookcore"},
		} {
			if out, err := exec.Command("go", b...).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go %s: %v\n%s", strings.Join(b, " "), err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

// result is what an agent sees of one hook command.
type result struct {
	code           int
	stdout, stderr string
}

// run runs bin with args in dir, input on stdin, HOME home and a fresh state directory.
func run(t *testing.T, bin, dir, home, input string, args ...string) result {
	t.Helper()
	return runEnv(t, nil, bin, dir, home, input, args...)
}

// runEnv is run with env added to (and overriding) its environment.
func runEnv(t *testing.T, env []string, bin, dir, home, input string, args ...string) result {
	t.Helper()
	// A hang guard, not a time bound on the answer: a hand-over loop would run forever.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	c.Env = append([]string{"HOME=" + home, "PATH=/usr/bin:/bin", "HOOKCORE_STATE_DIR=" + t.TempDir()}, env...)
	c.Stdin = strings.NewReader(input)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not finish", bin, args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return result{code, out.String(), logTimes.ReplaceAllString(errb.String(), "")}
}

// logTimes are the parts of a log line that differ between two runs.
var logTimes = regexp.MustCompile(`time=\S+ |duration_ms=\S+ `)

const policy = `hooks:
  - id: block-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf/'
    action: {type: command, command: "echo 'HOOKCORE-BLOCK: rm -rf is not allowed here'"}
    reject: true
  - id: rewrite
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /REWRITE-ME/'
    action:
      type: command
      command: |
        printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}'
  - id: ask
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /ASK-ME/'
    action:
      type: command
      command: |
        printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"HOOKCORE-ASK"}}'
  - id: guard
    event: pre_tool_use
    matcher: Bash
    if: 'Bash(git push *)'
    action: {type: command, command: "echo 'no pushes' >&2; exit 2"}
  - id: context
    event: user_prompt_submit
    action: {type: prompt, message: "HOOKCORE-CTX: the branch is main"}
`

const httpPolicy = `hooks:
  - id: webhook
    event: pre_tool_use
    action: {type: http, url: "http://127.0.0.1:1/hook", allowed_hosts: ["127.0.0.1"]}
    on_error: block
`

const promptPolicy = `hooks:
  - id: judge
    event: pre_tool_use
    action: {type: prompt, prompt: "Is this safe? $ARGUMENTS"}
`

func claudeInput(cwd, event, tool, command string) string {
	if event == "UserPromptSubmit" {
		return `{"session_id":"s1","cwd":"` + cwd + `","hook_event_name":"UserPromptSubmit","prompt":"hello"}`
	}
	return `{"session_id":"s1","cwd":"` + cwd + `","hook_event_name":"` + event + `","tool_name":"` + tool + `","tool_input":{"command":"` + command + `"}}`
}

// TestLeanMatchesFull runs the lean hook binary and `hookcore hook` side by side on the same
// inputs and configs: every answer (exit status, stdout, stderr) is the same, whether the
// lean binary decides itself or hands the event over (issue 9: the lean binary is a faster
// start of the same hook command, never another decision).
func TestLeanMatchesFull(t *testing.T) {
	bin := binaries(t)
	work := t.TempDir()
	home := t.TempDir()
	for name, text := range map[string]string{"policy.yaml": policy, "http.yaml": httpPolicy, "prompt.yaml": promptPolicy,
		"broken.yaml": "hooks:\n  - id: x\n    event: pre_tool_use\n    action: {type: command, command: [unclosed\n"} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// discovery: the user's own hookcore config, no --config
	if err := os.MkdirAll(filepath.Join(home, ".hookcore"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".hookcore", "hooks.yaml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	pre := func(cmd string) string { return claudeInput(work, "PreToolUse", "Bash", cmd) }
	cases := []struct {
		name, input string
		args        []string
	}{
		{"allow", pre("ls -la"), []string{"claude", "--config", "policy.yaml"}},
		{"block", pre("rm -rf /"), []string{"claude", "--config", "policy.yaml"}},
		{"rewrite", pre("REWRITE-ME"), []string{"claude", "-c", "policy.yaml"}},
		{"ask", pre("ASK-ME"), []string{"claude", "--config=policy.yaml"}},
		{"shell rule", pre("cd x && git push origin main"), []string{"claude", "--config", "policy.yaml"}},
		{"context", claudeInput(work, "UserPromptSubmit", "", ""), []string{"claude", "--config", "policy.yaml"}},
		{"event override", pre("rm -rf /"), []string{"claude", "PreToolUse", "--config", "policy.yaml"}},
		{"hook word", pre("rm -rf /"), []string{"hook", "claude", "--config", "policy.yaml"}},
		{"codex", `{"session_id":"s1","cwd":"` + work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`, []string{"codex", "--config", "policy.yaml"}},
		{"gemini", `{"session_id":"s1","cwd":"` + work + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`, []string{"gemini", "--config", "policy.yaml"}},
		{"discovery", pre("rm -rf /"), []string{"claude"}},
		{"broken config", pre("ls"), []string{"claude", "--config", "broken.yaml"}},
		{"broken config, on-error allow", pre("ls"), []string{"claude", "--config", "broken.yaml", "--on-error", "allow"}},
		{"missing config", pre("ls"), []string{"claude", "--config", "nope.yaml"}},
		{"bad input", "{not json", []string{"claude", "--config", "policy.yaml"}},
		{"unknown agent", pre("ls"), []string{"nosuch", "--config", "policy.yaml"}},
		{"http hook (handed over)", pre("ls"), []string{"claude", "--config", "http.yaml"}},
		{"prompt hook (handed over)", pre("ls"), []string{"claude", "--config", "prompt.yaml", "-v"}},
		{"server (handed over)", pre("ls"), []string{"claude", "--config", "policy.yaml", "--server", "http://127.0.0.1:1", "--token", "t"}},
		{"help (handed over)", "", []string{"claude", "--help"}},
		{"unknown flag (handed over)", pre("ls"), []string{"claude", "--bogus"}},
		{"flag spelling it does not read (handed over)", pre("rm -rf /"), []string{"claude", "-v=true", "--config", "policy.yaml"}},
		{"shorthands run together (handed over)", pre("rm -rf /"), []string{"claude", "-vc", "policy.yaml"}},
		{"unknown event on the command line", pre("rm -rf /"), []string{"claude", "--trust", "false", "-c", "policy.yaml"}},
		{"unknown event, a call it would let through", pre("ls"), []string{"claude", "-c", "policy.yaml", "--", "--"}},
		{"EVENT other than the input's gate event", pre("rm -rf /"), []string{"claude", "Stop", "-c", "policy.yaml"}},
		{"http hook of another event", claudeInput(work, "PostToolUse", "Bash", "ls"), []string{"claude", "--config", "http.yaml"}},
		{"prompt hook of another event (handed over)", claudeInput(work, "PostToolUse", "Bash", "ls"), []string{"claude", "--config", "prompt.yaml"}},
		{"allow-host (handed over)", pre("ls"), []string{"claude", "--config", "policy.yaml", "--allow-host", "not a host"}},
		{"usage error: unknown agent", pre("rm -rf /"), []string{"claud", "--config", "policy.yaml"}},
		{"usage error: no agent", pre("rm -rf /"), []string{}},
		{"usage error: bad on-error", pre("rm -rf /"), []string{"claude", "--on-error", "alow"}},
		{"usage error: missing value", pre("rm -rf /"), []string{"claude", "--on-error"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fullArgs := c.args
			if len(fullArgs) == 0 || fullArgs[0] != "hook" {
				fullArgs = append([]string{"hook"}, fullArgs...)
			}
			want := run(t, filepath.Join(bin, "hookcore"), work, home, c.input, fullArgs...)
			got := run(t, filepath.Join(bin, "hookcore-hook"), work, home, c.input, c.args...)
			if got != want {
				t.Errorf("hookcore-hook %q:\n got  %+v\n want %+v (hookcore hook)", c.args, got, want)
			}
		})
	}
}

// TestNoArgumentsUnderClaudeCode: `hookcore install claude` writes exec form ("command":
// "/…/hookcore-hook", "args": ["hook", "claude"]); a Claude Code older than exec form
// ignores "args" and runs the program alone in sh -c (observed with 2.1.88). Started so — no
// arguments, CLAUDE_PROJECT_DIR set as Claude Code sets it for every hook, stdin not a
// terminal — both binaries are `hook claude`, and SessionStart tells the user why that
// Claude Code is worth updating. Before, the lean binary blocked every event with a usage
// error (the prompt included) and the full one printed its help with exit 0, which let
// every call through. Without CLAUDE_PROJECT_DIR nothing changes: no hook process.
func TestNoArgumentsUnderClaudeCode(t *testing.T) {
	bin := binaries(t)
	work := t.TempDir()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".hookcore"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".hookcore", "hooks.yaml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	claude := []string{"CLAUDE_PROJECT_DIR=" + work}
	start := `{"session_id":"s1","cwd":"` + work + `","hook_event_name":"SessionStart","source":"startup"}`
	for _, name := range []string{"hookcore-hook", "hookcore"} {
		t.Run(name, func(t *testing.T) {
			prog := filepath.Join(bin, name)
			if r := runEnv(t, claude, prog, work, home, claudeInput(work, "PreToolUse", "Bash", "rm -rf /")); r.code != 2 || !strings.Contains(r.stderr, "HOOKCORE-BLOCK") {
				t.Errorf("rm -rf with no arguments: %+v, want the policy's block", r)
			}
			if r := runEnv(t, claude, prog, work, home, claudeInput(work, "PreToolUse", "Bash", "ls")); r.code != 0 || r.stderr != "" {
				t.Errorf("ls with no arguments: %+v, want exit 0", r)
			}
			if r := runEnv(t, claude, prog, work, home, start); r.code != 0 || !strings.Contains(r.stdout, "older than exec form") {
				t.Errorf("SessionStart with no arguments: %+v, want the note", r)
			}
			if r := runEnv(t, claude, prog, work, home, start, "hook", "claude"); strings.Contains(r.stdout, "exec form") {
				t.Errorf("SessionStart with its arguments: %+v, want no note", r)
			}
			r := run(t, prog, work, home, claudeInput(work, "PreToolUse", "Bash", "rm -rf /"))
			switch {
			case name == "hookcore" && (r.code != 0 || !strings.Contains(r.stdout, "Usage:")):
				t.Errorf("no arguments outside a hook: %+v, want the help", r)
			case name == "hookcore-hook" && (r.code != 2 || !strings.Contains(r.stderr, "accepts between 1 and 2 arg(s)")):
				t.Errorf("no arguments outside a hook: %+v, want the usage error", r)
			}
		})
	}
}

// TestLeanAloneFailsClosed: without the full hookcore beside it or on PATH, the lean binary
// still decides what it runs itself, and blocks a gate event it would have to hand over,
// saying why (a guard fails closed), rather than letting it through.
func TestLeanAloneFailsClosed(t *testing.T) {
	bin := binaries(t)
	alone := t.TempDir()
	data, err := os.ReadFile(filepath.Join(bin, "hookcore-hook"))
	if err != nil {
		t.Fatal(err)
	}
	lean := filepath.Join(alone, "hookcore-hook")
	if err := os.WriteFile(lean, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := exec.LookPath("hookcore"); err == nil && (strings.HasPrefix(p, "/usr/bin/") || strings.HasPrefix(p, "/bin/")) {
		t.Skipf("a hookcore is installed in %s, on the test's PATH", p)
	}
	work := t.TempDir()
	for name, text := range map[string]string{"policy.yaml": policy, "http.yaml": httpPolicy} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	if r := run(t, lean, work, home, claudeInput(work, "PreToolUse", "Bash", "rm -rf /"), "claude", "--config", "policy.yaml"); r.code != 2 || !strings.Contains(r.stderr, "HOOKCORE-BLOCK") {
		t.Errorf("a config it runs itself: %+v", r)
	}
	r := run(t, lean, work, home, claudeInput(work, "PreToolUse", "Bash", "ls"), "claude", "--config", "http.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, "needs a http hook (webhook)") || !strings.Contains(r.stderr, "no full hookcore binary was found") || r.stdout != "" {
		t.Errorf("an http hook without the full binary: %+v, want exit 2 and why", r)
	}
	// An http hook of another event never runs on this one: no hand-over (stop 22).
	if r := run(t, lean, work, home, claudeInput(work, "PostToolUse", "Bash", "ls"), "claude", "--config", "http.yaml"); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("an event without http hooks, without the full binary: %+v, want exit 0", r)
	}
	if err := os.WriteFile(filepath.Join(work, "post.yaml"), []byte(strings.ReplaceAll(httpPolicy, "pre_tool_use", "post_tool_use")), 0o644); err != nil {
		t.Fatal(err)
	}
	// A feedback event's hook that cannot run blocks as a hook of the event would (red team
	// round 41: an exit 1 let a redaction hook's output through).
	r = run(t, lean, work, home, claudeInput(work, "PostToolUse", "Bash", "ls"), "claude", "--config", "post.yaml")
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"block"`) || !strings.Contains(r.stdout, "no full hookcore binary was found") {
		t.Errorf("a feedback event whose http hook needs the full binary: %+v, want the PostToolUse block", r)
	}
}

// TestHandOverHolds holds what a red team of the lean binary found (stop 22): a command line
// it does not parse, without a full binary, blocks instead of exiting 1; the environment
// cannot switch the hand-over off or loop it (HOOKCORE_HANDED_OVER was an environment
// variable, which a project's Claude Code settings set); a relative PATH entry never
// supplies the full binary, not even with GODEBUG=execerrdot=0; a symlinked hookcore-hook
// finds the hookcore beside the link; an unusable TMPDIR does not stop a hand-over; an
// unknown EVENT on the command line blocks (both binaries).
func TestHandOverHolds(t *testing.T) {
	bin := binaries(t)
	lean, err := os.ReadFile(filepath.Join(bin, "hookcore-hook"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := exec.LookPath("hookcore"); err == nil && (strings.HasPrefix(p, "/usr/bin/") || strings.HasPrefix(p, "/bin/")) {
		t.Skipf("a hookcore is installed in %s, on the test's PATH", p)
	}
	install := func(path string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	work, home := t.TempDir(), t.TempDir()
	install(filepath.Join(work, "policy.yaml"), []byte(policy))
	install(filepath.Join(work, "http.yaml"), []byte(httpPolicy))
	rm, ls := claudeInput(work, "PreToolUse", "Bash", "rm -rf /"), claudeInput(work, "PreToolUse", "Bash", "ls")
	alone := filepath.Join(t.TempDir(), "hookcore-hook")
	install(alone, lean)

	t.Run("unparsed line, no full binary", func(t *testing.T) {
		for _, args := range [][]string{{"claude", "-v=true", "--config", "policy.yaml"}, {"claude", "-vc", "policy.yaml"}, {"claude", "--help=false", "-c", "policy.yaml"}} {
			if r := run(t, alone, work, home, rm, args...); r.code != 2 || !strings.Contains(r.stderr, "no full hookcore binary") {
				t.Errorf("%q: %+v, want a block saying why", args, r)
			}
		}
		if r := run(t, alone, work, home, claudeInput(work, "Stop", "", ""), "claude", "-vc", "policy.yaml"); r.code == 0 && r.stdout == "" {
			t.Errorf("a Stop event: %+v, want the agent's failure answer", r)
		}
	})
	t.Run("environment", func(t *testing.T) {
		for _, env := range [][]string{{"HOOKCORE_HANDED_OVER=1"}, {"HOOKCORE_HANDED_OVER="}} {
			want := run(t, filepath.Join(bin, "hookcore"), work, home, ls, "hook", "claude", "-c", "http.yaml")
			if got := runEnv(t, env, filepath.Join(bin, "hookcore-hook"), work, home, ls, "claude", "-c", "http.yaml"); got != want {
				t.Errorf("%q: lean %+v, full %+v", env, got, want)
			}
			if got := runEnv(t, env, filepath.Join(bin, "hookcore-hook"), work, home, rm, "claude", "-vc", "policy.yaml"); got.code != 2 {
				t.Errorf("%q, -vc: lean %+v, want the full binary's block", env, got)
			}
		}
	})
	t.Run("two lean binaries naming each other", func(t *testing.T) {
		ring := t.TempDir()
		install(filepath.Join(ring, "d1", "lean"), lean)
		install(filepath.Join(ring, "d2", "lean"), lean)
		for _, l := range [][2]string{{"d1/hookcore", "../d2/lean"}, {"d2/hookcore", "../d1/lean"}} {
			if err := os.Symlink(l[1], filepath.Join(ring, l[0])); err != nil {
				t.Fatal(err)
			}
		}
		for _, env := range [][]string{nil, {"HOOKCORE_HANDED_OVER="}} {
			r := runEnv(t, env, filepath.Join(ring, "d1", "lean"), work, home, ls, "claude", "-c", "http.yaml")
			if r.code != 2 || !strings.Contains(r.stderr, "is a lean one too") {
				t.Errorf("%q: %+v, want a block saying the hand-over reached a lean binary", env, r)
			}
		}
	})
	t.Run("relative PATH entry", func(t *testing.T) {
		proj := t.TempDir()
		leak := filepath.Join(proj, "LEAKED")
		install(filepath.Join(proj, "bin", "hookcore"), []byte("#!/bin/sh\ncat > "+leak+"\n"))
		install(filepath.Join(proj, "http.yaml"), []byte(httpPolicy))
		for _, env := range [][]string{{"PATH=bin:/usr/bin:/bin"}, {"PATH=bin:/usr/bin:/bin", "GODEBUG=execerrdot=0"}} {
			r := runEnv(t, env, alone, proj, home, claudeInput(proj, "PreToolUse", "Bash", "rm -rf /"), "claude", "-c", "http.yaml")
			if _, err := os.Stat(leak); err == nil || r.code != 2 {
				t.Errorf("%q: %+v; the planted hookcore ran: %v", env, r, err == nil)
			}
		}
	})
	t.Run("a project's PATH, absolute", func(t *testing.T) {
		// Claude Code gives the project's settings env to the hook: with no full hookcore
		// beside the lean one, the hand-over would look hookcore up on that PATH. The lean
		// binary refuses the env before it hands anything over (red team round 45: a
		// repository's PATH and program ran in hookcore's place).
		proj := t.TempDir()
		leak := filepath.Join(proj, "LEAKED")
		install(filepath.Join(proj, "bin", "hookcore"), []byte("#!/bin/sh\ncat > "+leak+"\n"))
		install(filepath.Join(proj, "http.yaml"), []byte(httpPolicy))
		path := filepath.Join(proj, "bin") + ":/usr/bin:/bin"
		install(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"env": {"PATH": "`+path+`"}}`))
		r := runEnv(t, []string{"PATH=" + path}, alone, proj, home, claudeInput(proj, "PreToolUse", "Bash", "rm -rf /"), "claude", "-c", "http.yaml")
		if _, err := os.Stat(leak); err == nil || r.code != 2 || !strings.Contains(r.stderr, "sets PATH in its env") {
			t.Errorf("%+v; the planted hookcore ran: %v", r, err == nil)
		}
	})
	t.Run("symlinked hookcore-hook", func(t *testing.T) {
		link := t.TempDir()
		if err := os.Symlink(alone, filepath.Join(link, "hookcore-hook")); err != nil {
			t.Fatal(err)
		}
		full, err := os.ReadFile(filepath.Join(bin, "hookcore"))
		if err != nil {
			t.Fatal(err)
		}
		install(filepath.Join(link, "hookcore"), full)
		want := run(t, filepath.Join(bin, "hookcore"), work, home, ls, "hook", "claude", "-c", "http.yaml")
		if got := run(t, filepath.Join(link, "hookcore-hook"), work, home, ls, "claude", "-c", "http.yaml"); got != want {
			t.Errorf("lean %+v, full %+v", got, want)
		}
	})
	t.Run("unusable TMPDIR", func(t *testing.T) {
		env := []string{"TMPDIR=/nonexistent"}
		want := runEnv(t, env, filepath.Join(bin, "hookcore"), work, home, ls, "hook", "claude", "-c", "http.yaml")
		if got := runEnv(t, env, filepath.Join(bin, "hookcore-hook"), work, home, ls, "claude", "-c", "http.yaml"); got != want {
			t.Errorf("lean %+v, full %+v", got, want)
		}
	})
	t.Run("deleted working directory", func(t *testing.T) {
		// Both binaries block a gate event they cannot decide for want of a working
		// directory (red team round 10: exit 1, which Claude Code lets through).
		gone := t.TempDir()
		cfg := filepath.Join(work, "policy.yaml")
		full, lean := filepath.Join(bin, "hookcore"), filepath.Join(bin, "hookcore-hook")
		for _, b := range []struct {
			bin  string
			args []string
		}{
			{full, []string{"hook", "claude", "--config", cfg}},
			{full, []string{"-v", "hook", "claude", "--config", cfg}}, // round 11
			{full, []string{"--verbose", "fire", "PreToolUse", "--config", cfg}},
			{lean, []string{"claude", "--config", cfg}},
			{lean, []string{"-v", "claude", "--config", cfg}},
		} {
			args := b.args
			c := exec.Command("sh", "-c", `cd "$1" && rmdir "$1" && shift && exec "$@"`, "sh", gone, b.bin)
			c.Args = append(c.Args, args...)
			c.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "HOOKCORE_STATE_DIR=" + t.TempDir()}
			c.Stdin = strings.NewReader(ls)
			var errb bytes.Buffer
			c.Stderr = &errb
			err := c.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errb.String(), "working directory") {
				t.Errorf("%s %q in a deleted directory: %v, %s; want exit 2 saying why", b.bin, args, err, errb.String())
			}
			if err := os.MkdirAll(gone, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("version", func(t *testing.T) {
		want := run(t, filepath.Join(bin, "hookcore"), work, home, "", "--version")
		if got := run(t, filepath.Join(bin, "hookcore-hook"), work, home, "", "--version"); got != want || got.code != 0 {
			t.Errorf("hookcore-hook --version: %+v, hookcore --version: %+v", got, want)
		}
	})
	t.Run("unknown event on the command line", func(t *testing.T) {
		for _, args := range [][]string{{"hook", "claude", "--trust", "false", "-c", "policy.yaml"}, {"hook", "claude", "-c", "policy.yaml", "--", "-"}} {
			if r := run(t, filepath.Join(bin, "hookcore"), work, home, ls, args...); r.code != 2 || !strings.Contains(r.stderr, "unknown event") {
				t.Errorf("hookcore %q: %+v, want a block naming the unknown event", args, r)
			}
		}
	})
}

// TestNoMaxProcsUpdater: the lean hook binary is built without the runtime's background
// GOMAXPROCS updater (//go:debug updatemaxprocs=0 in main.go), a goroutine a process of a
// few milliseconds never needs (issue 9).
func TestNoMaxProcsUpdater(t *testing.T) {
	info, err := buildinfo.ReadFile(filepath.Join(binaries(t), "hookcore-hook"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range info.Settings {
		if s.Key == "DefaultGODEBUG" && slices.Contains(strings.Split(s.Value, ","), "updatemaxprocs=0") {
			return
		}
	}
	t.Errorf("DefaultGODEBUG of the lean hook binary lacks updatemaxprocs=0: %v", info.Settings)
}

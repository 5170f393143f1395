package hookcore_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// claudeSettings wraps handler JSON in a Claude Code settings file with one matcher group.
func claudeSettings(event, matcher string, handlers ...string) string {
	return `{"hooks": {"` + event + `": [{"matcher": "` + matcher + `", "hooks": [` + strings.Join(handlers, ", ") + `]}]}}`
}

// argvScript writes hooks/argv.sh, which appends its argv, one [word] a line, to argv.txt
// in the project dir.
func argvScript(t *testing.T, dir string) {
	writeFile(t, dir, "hooks/argv.sh", "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '[%s]\\n' \"$a\"; done >> \"$CLAUDE_PROJECT_DIR/argv.txt\"\n")
}

// TestClaudeExecForm: in a Claude Code settings file `command` + `args` is the exec form:
// command is the program, args its arguments, no shell, and only ${CLAUDE_PROJECT_DIR} is
// substituted. Observed with Claude Code 2.1.332 (peer-claude scenario: PreToolUse Bash
// handler {"command": "${CLAUDE_PROJECT_DIR}/hooks/argv.sh", "args":
// ["${CLAUDE_PROJECT_DIR}/x", "$HOME", "a b", "$(echo hi)"]}): argv.sh got
// [<project>/hooks/argv.sh] [<project>/x] [$HOME] [a b] [$(echo hi)]. Before issue 8
// the file was refused ("command and args are exclusive").
func TestClaudeExecForm(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	argvScript(t, dir)
	set := loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash",
		`{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/hooks/argv.sh", "args": ["${CLAUDE_PROJECT_DIR}/x", "$HOME", "a b", "$(echo hi)"]}`))
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"PreToolUse#1=ok"}, outcomes(res)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	want := "[" + filepath.Join(dir, "hooks/argv.sh") + "]\n[" + dir + "/x]\n[$HOME]\n[a b]\n[$(echo hi)]\n"
	if diff := cmp.Diff(want, readFile(t, dir, "argv.txt")); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
}

// TestClaudeExecFormEmptyArgs: `"args": []` is exec form too, with no arguments. Observed
// with Claude Code 2.1.332 (peer-claude, PreToolUse handler {"command": "/…/logger.py X",
// "args": []}): "failed to start", a non-blocking error, and the call ran; the same command
// without args runs logger.py in a shell. hookcore ran it in a shell, where `exit 2`
// blocked.
func TestClaudeExecFormEmptyArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	argvScript(t, dir)
	set := loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash",
		`{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/hooks/argv.sh x; exit 2", "args": []}`,
		`{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/hooks/argv.sh", "args": []}`))
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"PreToolUse#1=error", "PreToolUse#2=ok"}, outcomes(res)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	if res.Blocked {
		t.Errorf("blocked: %s", res.Reason)
	}
	if diff := cmp.Diff("["+filepath.Join(dir, "hooks/argv.sh")+"]\n", readFile(t, dir, "argv.txt")); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
}

// TestClaudePluginRootOutsidePlugin: a settings hook that names ${CLAUDE_PLUGIN_ROOT} does
// not run and does not block. Observed with Claude Code 2.1.332 (same scenario, with
// "${CLAUDE_PLUGIN_ROOT}" among the args): hook_response "Failed to run: Hook command
// references ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin", and the
// Bash call ran.
func TestClaudePluginRootOutsidePlugin(t *testing.T) {
	t.Parallel()
	for name, handler := range map[string]string{
		"exec form":  `{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/hooks/argv.sh", "args": ["${CLAUDE_PLUGIN_ROOT}"]}`,
		"shell form": `{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/argv.sh; exit 2"}`,
		"http url":   `{"type": "http", "url": "http://127.0.0.1:9/${CLAUDE_PLUGIN_ROOT}"}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			argvScript(t, dir)
			set := loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash", handler))
			r := newRunner(t, dir, set, hookcore.Options{})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
			if diff := cmp.Diff([]string{"PreToolUse#1=error"}, outcomes(res)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
			if res.Blocked || readFile(t, dir, "argv.txt") != "" {
				t.Errorf("blocked = %v, argv = %q; want neither", res.Blocked, readFile(t, dir, "argv.txt"))
			}
			if e := res.Hooks[0].Error; !strings.Contains(e, "CLAUDE_PLUGIN_ROOT") {
				t.Errorf("error = %q, want it to name CLAUDE_PLUGIN_ROOT", e)
			}
		})
	}
}

// TestClaudeAsyncGateHookCannotDecide: Claude Code accepts `async: true` (and asyncRewake)
// on PreToolUse and runs the hook in the background; its exit 2 does not block. Observed
// with Claude Code 2.1.332 (peer-claude: PreToolUse Bash {"command": ".../async-block.sh",
// "async": true}, the script writes a file and exits 2 with "ASYNC BLOCK"): the file was
// written, hook_response outcome "error", and the Bash call ran. Before issue 8 the whole
// file was refused ("async is not allowed on gate event").
func TestClaudeAsyncGateHookCannotDecide(t *testing.T) {
	t.Parallel()
	for _, field := range []string{`"async": true`, `"asyncRewake": true`} {
		t.Run(field, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			set := loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash",
				`{"type": "command", "command": "echo ran > async.txt; echo 'ASYNC BLOCK' >&2; exit 2", `+field+`}`))
			r := newRunner(t, dir, set, hookcore.Options{})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
			if res.Blocked {
				t.Errorf("an async hook blocked: %s", res.Reason)
			}
			if diff := cmp.Diff([]string{"PreToolUse#1=async"}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			closeCtx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if err := r.Close(closeCtx); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, dir, "async.txt"); got != "ran\n" {
				t.Errorf("async.txt = %q: the async hook did not run", got)
			}
		})
	}
}

// TestClaudeShellField: in a Claude Code settings file `shell: "bash"` is Claude Code's
// default shell and runs the command like no shell field, with /bin/sh (observed with
// Claude Code 2.1.332, testdata/claude/shell: both hooks reported /bin/sh, BASH_VERSION
// unset; before, hookcore ran them under bash); `shell: "powershell"` needs pwsh or
// powershell in PATH and, without it, is a hook that could not start, never a block.
func TestClaudeShellField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	probe := `echo \"${BASH_VERSION:-none} $0\" > `
	set := loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash",
		`{"type": "command", "command": "`+probe+`bash.txt", "shell": "bash"}`,
		`{"type": "command", "command": "`+probe+`default.txt"}`))
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if got, want := readFile(t, dir, "bash.txt"), readFile(t, dir, "default.txt"); got == "" || got != want {
		t.Errorf("shell bash ran %q, no shell field %q (records %v); want the same shell", got, want, outcomes(res))
	}
	if _, err := exec.LookPath("pwsh"); err == nil {
		return
	}
	if _, err := exec.LookPath("powershell"); err == nil {
		return
	}
	dir = t.TempDir()
	set = loadConfig(t, dir, "settings.json", claudeSettings("PreToolUse", "Bash",
		`{"type": "command", "command": "exit 2", "shell": "powershell"}`))
	r = newRunner(t, dir, set, hookcore.Options{})
	res = r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if res.Blocked || !strings.Contains(res.Hooks[0].Error, "powershell") {
		t.Errorf("blocked = %v, error = %q; want a launch error naming powershell", res.Blocked, res.Hooks[0].Error)
	}
}

// TestAsyncRewake: an asyncRewake hook runs in the background; when it exits 2, text in
// Claude Code's words goes to Options.OnRewake, which the reference agent gives the model on
// its next request; an async hook's additional context goes there too. Observed with Claude
// Code 2.1.332 (testdata/claude/async-rewake: PostToolUse Bash {"command": "case ...
// *lint-me*) echo 'REWAKE: lint failed in out.txt' >&2; echo 'rewake stdout'; exit 2;; esac",
// "asyncRewake": true}): the next request carried the system text `PostToolUse:Bash hook
// blocking error from command: "CMD": [CMD]: REWAKE: lint failed in out.txt` (stdout not
// included); testdata/claude/async: an async PostToolUse hook's additionalContext arrived as
// a system message in the first request after it finished. A plain async hook's exit 2,
// or an exit 0 without context, wakes nothing. Before, the text was hookcore's own
// ("PostToolUse hook PostToolUse#1 (asyncRewake) blocked: ...") and async context was lost.
func TestAsyncRewake(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		want          []string
	}{
		{"exit 2", `{"type": "command", "command": "echo 'REWAKE: lint failed' >&2; exit 2", "asyncRewake": true}`,
			[]string{`PostToolUse:Bash hook blocking error from command: "echo 'REWAKE: lint failed' >&2; exit 2": [echo 'REWAKE: lint failed' >&2; exit 2]: REWAKE: lint failed`}},
		{"exit 0", `{"type": "command", "command": "echo fine >&2", "asyncRewake": true}`, nil},
		{"plain async", `{"type": "command", "command": "echo 'REWAKE' >&2; exit 2", "async": true}`, nil},
		{"async context", `{"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"ASYNC CONTEXT\"}}'", "async": true}`,
			[]string{"ASYNC CONTEXT"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var mu sync.Mutex
			var got []string
			set := loadConfig(t, dir, "settings.json", claudeSettings("PostToolUse", "Bash", tt.handler))
			r := newRunner(t, dir, set, hookcore.Options{OnRewake: func(in *hook.Input, id, text string) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, text)
			}})
			res := r.Fire(context.Background(), hook.PostToolUse, bashCall(dir, "s1", "ls"))
			if diff := cmp.Diff([]string{"PostToolUse#1=async"}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if err := r.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rewakes (-want +got):\n%s", diff)
			}
		})
	}
}

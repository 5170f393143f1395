package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookcore/hookcore/hook"
)

// testEnv is a small, fixed base environment, so that tests do not depend on ours.
func testEnv() []string { return []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent"} }

func mkInput(dir, event, tool, toolInput string) *hook.Input {
	in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: event, ToolName: tool}
	if toolInput != "" {
		in.ToolInput = json.RawMessage(toolInput)
	}
	return in
}

// want describes the expected outcome of one Execute.
type want struct {
	d      hook.Decision // compared without Output and Truncated
	errIs  error         // nil: no error expected
	anyErr bool          // an error not wrapping a sentinel
	errHas string        // the error text contains this
	output string        // when set, Decision.Output must equal it
	files  map[string]string
	absent []string
}

func check(t *testing.T, dir string, d hook.Decision, err error, w want) {
	t.Helper()
	switch {
	case w.errIs != nil:
		if !errors.Is(err, w.errIs) {
			t.Errorf("err = %v, want %v", err, w.errIs)
		}
	case w.anyErr:
		if err == nil {
			t.Error("err = nil, want an error")
		}
		for _, s := range []error{hook.ErrTimeout, hook.ErrNotStarted, hook.ErrBadOutput} {
			if errors.Is(err, s) {
				t.Errorf("err = %v, should not wrap %v", err, s)
			}
		}
	default:
		if err != nil {
			t.Errorf("unexpected error: %v", err)
		}
	}
	if w.errHas != "" && (err == nil || !strings.Contains(err.Error(), w.errHas)) {
		t.Errorf("err = %v, want it to contain %q", err, w.errHas)
	}
	if diff := cmp.Diff(w.d, d, cmpopts.IgnoreFields(hook.Decision{}, "Output", "Truncated")); diff != "" {
		t.Errorf("decision mismatch (-want +got):\n%s", diff)
	}
	if w.output != "" && d.Output != w.output {
		t.Errorf("output = %q, want %q", d.Output, w.output)
	}
	for name, content := range w.files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("file %s: %v", name, err)
		} else if !strings.Contains(string(b), content) {
			t.Errorf("file %s = %q, want it to contain %q", name, b, content)
		}
	}
	for _, name := range w.absent {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("file %s exists", name)
		}
	}
}

func TestCommandConformance(t *testing.T) {
	t.Parallel()
	const fname = "notes; touch pwned \"$(touch pwned2)\" `touch pwned3`.md"
	bigInput, _ := json.Marshal(map[string]string{"path": "big.txt", "content": strings.Repeat("x", 2<<20)})
	tests := []struct {
		name    string
		cmd     Command
		event   string
		tool    string
		input   string
		resp    string
		want    want
		setup   func(t *testing.T, dir string)
		wait    time.Duration // sleep before checking files
		hookCtx func() (context.Context, context.CancelFunc)
	}{
		{name: "05 exit 2 blocks with stderr",
			cmd:   Command{Command: "echo 'no recursive deletes here' >&2; exit 2"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"cd /srv && rm -rf cache"}`,
			want: want{d: hook.Decision{Block: true, Reason: "no recursive deletes here", ExitCode: 2}, output: "no recursive deletes here\n"}},
		{name: "06 exit 1 is a non-blocking error",
			cmd:   Command{HookID: "h6", Command: "echo 'I would like to block' >&2; exit 1"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"rm -rf /"}`,
			want: want{d: hook.Decision{ExitCode: 1}, anyErr: true, errHas: `hook "h6" exited with code 1: I would like to block`}},
		{name: "07 codebot JSON block",
			cmd:   Command{Command: `printf '%s' '{"block": true, "reason": "writes to .env are not allowed"}'`},
			event: "PreToolUse", tool: "WriteFile", input: `{"path":".env","content":"TOKEN=x"}`,
			want: want{d: hook.Decision{Block: true, Reason: "writes to .env are not allowed"}}},
		{name: "08 updated input",
			cmd:   Command{Command: `printf '%s' '{"updated_input": {"command": "ls -la"}}'`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}}},
		{name: "08 next hook reads the rewritten input on stdin",
			cmd:   Command{Command: `python3 -c 'import json,sys; d=json.load(sys.stdin); open("seen.txt","w").write(d["tool_input"]["command"])'`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls -la"}`,
			want: want{files: map[string]string{"seen.txt": "ls -la"}}},
		{name: "09 additional context",
			cmd:   Command{Command: `printf '%s' '{"additional_context": "first: the repo uses Go 1.26"}'`},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "first: the repo uses Go 1.26"}}},
		{name: "10 s08 exit 2 injects stderr",
			cmd:   Command{HookID: "remind", Command: "echo 'remember: the build dir is generated' >&2; exit 2", ExitCodes: map[int]ExitAction{1: ExitBlock, 2: ExitInject}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"make clean"}`,
			want: want{d: hook.Decision{AdditionalContext: "remember: the build dir is generated", ExitCode: 2}}},
		{name: "10 s08 exit 1 blocks",
			cmd:   Command{HookID: "audit-only", Command: "echo 'blocked by s08 protocol' >&2; exit 1", ExitCodes: map[int]ExitAction{1: ExitBlock, 2: ExitInject}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"make clean"}`,
			want: want{d: hook.Decision{Block: true, Reason: "blocked by s08 protocol", ExitCode: 1}}},
		{name: "19 timeout kills the group",
			cmd:   Command{Command: "(sleep 1; echo late > late.txt) & sleep 30; exit 2", Timeout: 300 * time.Millisecond},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			wait: 1500 * time.Millisecond,
			want: want{d: hook.Decision{ExitCode: -1}, errIs: hook.ErrTimeout, absent: []string{"late.txt"}}},
		{name: "20 file path shell quoted",
			cmd:   Command{Command: "printf '%s' $FILE_PATH > bare.txt\nprintf '%s' \"$FILE_PATH\" > quoted.txt\nprintf '%s' \"path=$FILE_PATH;\" > embedded.txt\n"},
			event: "PostToolUse", tool: "WriteFile", resp: `{"ok":true}`,
			input: func() string {
				b, _ := json.Marshal(map[string]string{"path": fname, "content": "x"})
				return string(b)
			}(),
			want: want{files: map[string]string{"bare.txt": fname, "quoted.txt": fname, "embedded.txt": "path=" + fname + ";"},
				absent: []string{"pwned", "pwned2", "pwned3"}}},
		{name: "21 tool args variable",
			cmd:   Command{Command: `printf '%s|%s|%s' $TOOL_NAME $TOOL_ARGS.command "$NO_SUCH_VAR" > log.txt`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"go test ./..."}`,
			want: want{files: map[string]string{"log.txt": "Bash|go test ./...|"}}},
		{name: "23 plain stdout is context on UserPromptSubmit",
			cmd:   Command{Command: "echo 'Current branch: feature/login'"},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "Current branch: feature/login"}}},
		{name: "plain stdout is context on SessionStart (alias spelling)",
			cmd:   Command{Command: "printf 'ctx\\n\\n  '"},
			event: "session_start",
			want:  want{d: hook.Decision{AdditionalContext: "ctx"}}},
		{name: "plain stdout is ignored on PreToolUse",
			cmd:   Command{Command: "echo 'just logging'"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{output: "just logging\n"}},
		{name: "33 env and stdin",
			cmd:   Command{Command: "printf '%s %s %s\\n' \"$HOOK_EVENT\" \"$HOOK_TOOL_NAME\" \"$HOOK_SESSION_ID\" > env.txt\nprintf '%s\\n' \"$HOOK_TOOL_INPUT\" >> env.txt\ncat > stdin.json\n"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"make build"}`,
			want: want{files: map[string]string{"env.txt": "PreToolUse Bash s1\n{\"command\":\"make build\"}", "stdin.json": `"tool_name":"Bash"`}}},
		{name: "35 continue false",
			cmd:   Command{Command: `printf '%s' '{"continue": false, "stopReason": "budget exhausted"}'`},
			event: "PostToolUse", tool: "Bash", input: `{"command":"ls"}`, resp: `{"stdout":"a\n"}`,
			want: want{d: hook.Decision{StopAgent: true, StopReason: "budget exhausted"}}},
		{name: "36 large input, stdin never read",
			cmd:   Command{Command: "echo 'too big to write' >&2; exit 2"},
			event: "PreToolUse", tool: "WriteFile", input: string(bigInput),
			want: want{d: hook.Decision{Block: true, Reason: "too big to write", ExitCode: 2}}},
		{name: "37 exit 2 with empty stderr names the hook",
			cmd:   Command{HookID: "silent-guard", Command: "exit 2"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: `hook "silent-guard" blocked (exit 2) without a reason`, ExitCode: 2}}},
		{name: "37 blank stderr names the hook",
			cmd:   Command{HookID: "blank", Command: "printf '  \\n' >&2; exit 2"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: `hook "blank" blocked (exit 2) without a reason`, ExitCode: 2}}},
		{name: "38 broken JSON is an error and nothing is used",
			cmd:   Command{Command: `printf '%s' '{"additional_context": '; exit 0`},
			event: "UserPromptSubmit",
			want:  want{errIs: hook.ErrBadOutput, output: `{"additional_context": `}},
		{name: "38 killed by a signal",
			cmd:   Command{Command: "kill -9 $$"},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{ExitCode: -1}, anyErr: true, errHas: "killed by signal killed"}},
		{name: "a failed hook's stderr in the error is escaped, line breaks kept",
			cmd:   Command{HookID: "utf16", Command: `printf 'T\000r\000a\000c\000e\000\n\033[31mred \377\n' >&2; exit 3`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{ExitCode: 3}, anyErr: true, errHas: `hook "utf16" exited with code 3: T\x00r\x00a\x00c\x00e\x00` + "\n" + `\x1b[31mred \xff`}},
		{name: "non-zero exit still honours a valid envelope",
			cmd:   Command{Command: `printf '%s' '{"additional_context": "still said"}'; echo oops >&2; exit 3`},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "still said", ExitCode: 3}, anyErr: true, errHas: "exited with code 3: oops"}},
		{name: "non-zero exit ignores a broken envelope",
			cmd:   Command{Command: `printf '{"block": "yes"}'; exit 1`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{ExitCode: 1}, anyErr: true}},
		// Exit 2 reads a valid envelope on stdout: its context always, its reason when
		// stderr is blank (Claude Code 2.1.332, testdata/claude/exit2-json of the root
		// package); codebot files do not.
		{name: "exit 2 keeps stdout context",
			cmd:   Command{Command: `printf '{"additional_context": "x", "updatedInput": {"a": 1}}'; echo no >&2; exit 2`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "no", AdditionalContext: "x", ExitCode: 2}}},
		{name: "exit 2 reason from stdout when stderr is blank",
			cmd:   Command{Command: `printf '{"hookSpecificOutput": {"permissionDecision": "allow", "permissionDecisionReason": "json reason"}}'; exit 2`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "json reason", ExitCode: 2}}},
		{name: "exit 2 codebot does not read stdout",
			cmd:   Command{Codebot: true, Command: `printf '{"additional_context": "x"}'; echo no >&2; exit 2`},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "no", ExitCode: 2}}},
		{name: "mapped block falls back to stdout",
			cmd:   Command{Command: "echo 'from stdout'; exit 1", ExitCodes: map[int]ExitAction{1: ExitBlock}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "from stdout", ExitCode: 1}}},
		{name: "mapped block with no output names the hook",
			cmd:   Command{HookID: "quiet", Command: "exit 1", ExitCodes: map[int]ExitAction{1: ExitBlock}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: `hook "quiet" blocked (exit 1) without a reason`, ExitCode: 1}}},
		{name: "mapped inject falls back to stdout",
			cmd:   Command{Command: "echo 'ctx from stdout'; exit 2", ExitCodes: map[int]ExitAction{2: ExitInject}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{AdditionalContext: "ctx from stdout", ExitCode: 2}}},
		{name: "unmapped 2 with a map still blocks", // red team round 20: {1: block} took 2's block away
			cmd:   Command{Command: "echo nope >&2; exit 2", ExitCodes: map[int]ExitAction{1: ExitBlock}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "nope", ExitCode: 2}}},
		{name: "mapped ok reads the envelope",
			cmd:   Command{Command: `printf '{"block": true, "reason": "r"}'; exit 5`, ExitCodes: map[int]ExitAction{5: ExitOK}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{d: hook.Decision{Block: true, Reason: "r", ExitCode: 5}}},
		{name: "mapped error",
			cmd:   Command{Command: "exit 0", ExitCodes: map[int]ExitAction{0: ExitError}},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{anyErr: true, errHas: "exited with code 0"}},
		{name: "unmapped 0 with a map is success",
			cmd:   Command{Command: "echo hi", ExitCodes: map[int]ExitAction{1: ExitBlock}},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "hi"}}},
		{name: "exec form gets exact values and no shell",
			cmd:   Command{Args: []string{"sh", "-c", `printf '%s|%s' "$1" "$2" > out.txt`, "sh", "$FILE_PATH", "$HOME;$(x)"}},
			event: "PostToolUse", tool: "WriteFile", input: `{"path":"a b; $(touch pwned).md"}`,
			want: want{files: map[string]string{"out.txt": "a b; $(touch pwned).md|$HOME;$(x)"}, absent: []string{"pwned"}}},
		{name: "direct execution",
			cmd:   Command{Command: "printf direct"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			want: want{output: "direct"}},
		{name: "env HOOK_TOOL_OUTPUT on PostToolUse",
			cmd:   Command{Command: `printf '%s' "$HOOK_TOOL_OUTPUT" > out.txt`},
			event: "PostToolUse", tool: "Bash", input: `{"command":"ls"}`, resp: `"a\nb"`,
			want: want{files: map[string]string{"out.txt": "a\nb"}}},
		{name: "env FILE_PATH and project dirs",
			cmd:   Command{Command: `printf '%s|%s|%s' "$FILE_PATH" "$CLAUDE_PROJECT_DIR" "$HOOKCORE_PROJECT_DIR" > out.txt`, ProjectDir: "/proj"},
			event: "PreToolUse", tool: "Edit", input: `{"file_path":"x.go"}`,
			want: want{files: map[string]string{"out.txt": "x.go|/proj|/proj"}}},
		{name: "codebot keys on stdin",
			cmd:   Command{Command: "cat > stdin.json", Codebot: true},
			event: "PostToolUseFailure", tool: "Bash", input: `{"command":"false"}`, resp: `"exit 1"`,
			want: want{files: map[string]string{"stdin.json": `"args":{"command":"false"},"event":"PostToolUseFailure","is_error":true,"output":"exit 1","tool":"Bash"}`}}},
		{name: "caller cancellation is not a timeout",
			cmd:   Command{Command: "sleep 30; touch finished"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			hookCtx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(200*time.Millisecond, cancel)
				return ctx, cancel
			},
			want: want{d: hook.Decision{ExitCode: -1}, errIs: context.Canceled, absent: []string{"finished"}}},
		{name: "caller deadline is a timeout",
			cmd:   Command{Command: "sleep 30; touch finished"},
			event: "PreToolUse", tool: "Bash", input: `{"command":"ls"}`,
			hookCtx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 200*time.Millisecond)
			},
			want: want{d: hook.Decision{ExitCode: -1}, errIs: hook.ErrTimeout, absent: []string{"finished"}}},
		{name: "background job holding stdout does not hang",
			cmd:   Command{Command: "sleep 30 & echo '{\"additional_context\": \"done\"}'"},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "done"}}},
		{name: "escaped grandchild holding stdout does not hang",
			cmd:   Command{Command: "setsid sh -c 'echo $$ > pid; exec sleep 30' & echo hi", Grace: 300 * time.Millisecond},
			event: "UserPromptSubmit",
			want:  want{d: hook.Decision{AdditionalContext: "hi"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			in := mkInput(dir, tt.event, tt.tool, tt.input)
			if tt.resp != "" {
				in.ToolResponse = json.RawMessage(tt.resp)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			if tt.hookCtx != nil {
				ctx, cancel = tt.hookCtx()
			}
			defer cancel()
			c := tt.cmd
			if c.Env == nil {
				c.Env = testEnv()
			}
			// A hook that is waited for instead of killed shows as an outcome, not as a time:
			// the default ctx (20 s, for work of milliseconds) turns a hang into a timeout
			// error, and the sleeps are longer than it.
			d, err := c.Execute(ctx, in)
			time.Sleep(tt.wait)
			check(t, dir, d, err, tt.want)
			killPidFile(dir)
		})
	}
}

// killPidFile kills a process a test hook left running on purpose.
func killPidFile(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		return
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err == nil && pid > 0 {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
}

package command

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

var cmpIgnoreOutput = cmpopts.IgnoreFields(hook.Decision{}, "Output", "Truncated")

// hugeValue is n bytes of text that tries every way out of a shell word, with multi-byte
// characters straddling the chunk boundaries and no NUL byte.
func hugeValue(n int) string {
	const piece = "rm -rf / é ✓ $(touch pwned) `touch pwned2` \"'\\ * ? ~ ; | & \n\t"
	s := strings.Repeat(piece, n/len(piece)+1)
	return hookio.CutUTF8(s, n)
}

func hugeInput(dir string, value string) *hook.Input {
	in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: "Bash"}
	in.ToolInput, _ = json.Marshal(map[string]string{"command": value})
	return in
}

// TestCommandHugeValue: a context variable far over Linux's 128 KiB cap on one environment
// string (MAX_ARG_STRLEN) still arrives as exactly one word with its exact content, bare,
// in double quotes and in a here-document. Regression: a 200 KB $TOOL_ARGS.command made
// exec fail with E2BIG, the hook "could not start" and a guard was bypassed.
func TestCommandHugeValue(t *testing.T) {
	t.Parallel()
	forms := []struct {
		name, script string
		want         func(v string) string
	}{
		{"bare", `printf '%s' $TOOL_ARGS.command > out.txt`, func(v string) string { return v }},
		{"quoted", `printf '%s' "$TOOL_ARGS.command" > out.txt`, func(v string) string { return v }},
		{"embedded", `printf '%s' "<${TOOL_ARGS.command}>" > out.txt`, func(v string) string { return "<" + v + ">" }},
		{"one word", `set -- $TOOL_ARGS.command; printf '%s' "$#" > out.txt`, func(string) string { return "1" }},
		{"heredoc", "cat > out.txt <<EOF\n$TOOL_ARGS.command\nEOF", func(v string) string { return v + "\n" }},
	}
	for _, size := range []int{200_000, 1_000_000} {
		v := hugeValue(size)
		for _, f := range forms {
			t.Run(f.name+"/"+strings.Repeat("k", size/100_000), func(t *testing.T) {
				t.Parallel()
				if size > 500_000 && runtime.GOOS != "linux" {
					t.Skip("a 1 MB environment fits under Linux's ARG_MAX (2 MiB), not everywhere")
				}
				dir := t.TempDir()
				c := &Command{Command: f.script, Env: testEnv()}
				d, err := c.Execute(context.Background(), hugeInput(dir, v))
				if err != nil {
					t.Fatalf("Execute: %v (output %.200q)", err, d.Output)
				}
				got, err := os.ReadFile(filepath.Join(dir, "out.txt"))
				if err != nil {
					t.Fatal(err)
				}
				want := f.want(v)
				if len(got) != len(want) || sha256.Sum256(got) != sha256.Sum256([]byte(want)) {
					t.Errorf("got %d bytes (sha256 %x), want %d bytes (sha256 %x)",
						len(got), sha256.Sum256(got), len(want), sha256.Sum256([]byte(want)))
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != "out.txt" {
						t.Errorf("the value ran something: %s exists", e.Name())
					}
				}
			})
		}
	}
}

// TestCommandHugeGuard is the reported bypass: a guard that reads $TOOL_ARGS.command and
// exits 2 must run, and block, on a 200 KB command.
func TestCommandHugeGuard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := &Command{Command: `x=$TOOL_ARGS.command; printf '%s' "${#x}" >&2; exit 2`, Env: append(testEnv(), "LC_ALL=C")}
	d, err := c.Execute(context.Background(), hugeInput(dir, strings.Repeat("a", 200_000)))
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := hook.Decision{Block: true, Reason: "200000", ExitCode: 2}
	if diff := cmp.Diff(want, d, cmpIgnoreOutput); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCommandInputTooLarge: arguments and environment over what exec accepts give an error
// wrapping hook.ErrInputTooLarge (and hook.ErrNotStarted), never a run and never a block:
// 3 MB in a shell-form variable (over ARG_MAX however it is chunked), and in the exec form
// one argument over 128 KiB or 3 MB in all.
func TestCommandInputTooLarge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  Command
		size int
	}{
		{"shell form 3 MB", Command{Command: `printf '%s' "$TOOL_ARGS.command" > out.txt`}, 3_000_000},
		{"shell form 3 MB, two variables", Command{Command: `printf '%s' $TOOL_ARGS.command $TOOL_ARGS > out.txt`}, 1_000_000},
		{"exec form 200 KB", Command{Args: []string{"sh", "-c", `printf '%s' "$1" > out.txt`, "sh", "$TOOL_ARGS.command"}}, 200_000},
		{"exec form 3 MB", Command{Args: []string{"sh", "-c", `printf '%s' "$1" > out.txt`, "sh", "$TOOL_ARGS.command"}}, 3_000_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tt.cmd.Env = testEnv()
			tt.cmd.HookID = "guard"
			d, err := tt.cmd.Execute(context.Background(), hugeInput(dir, strings.Repeat("a", tt.size)))
			if !errors.Is(err, hook.ErrInputTooLarge) || !errors.Is(err, hook.ErrNotStarted) {
				t.Fatalf("err = %v, want ErrInputTooLarge and ErrNotStarted", err)
			}
			var e *hook.InputTooLargeError
			if !errors.As(err, &e) || e.Bytes < tt.size {
				t.Errorf("err = %#v, want an *InputTooLargeError of at least %d bytes", e, tt.size)
			}
			if diff := cmp.Diff(hook.Decision{ExitCode: -1}, d); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.txt")); err == nil {
				t.Error("the hook ran")
			}
		})
	}
}

// TestCommandExecFormLargeArg: an exec-form argument under the per-string cap arrives whole.
func TestCommandExecFormLargeArg(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v := hugeValue(100_000)
	c := &Command{Args: []string{"sh", "-c", `printf '%s' "$1" > out.txt`, "sh", "$TOOL_ARGS.command"}, Env: testEnv()}
	if _, err := c.Execute(context.Background(), hugeInput(dir, v)); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(got) != v {
		t.Errorf("got %d bytes, want %d", len(got), len(v))
	}
}

// TestCommandEnvFromInputCut: every environment variable set from the input (FILE_PATH,
// HOOK_SESSION_ID, HOOK_TOOL_NAME, HOOK_EVENT) is cut at 10 000 bytes like HOOK_TOOL_INPUT,
// so a huge value cannot stop the hook from starting; the $FILE_PATH placeholder still
// gives the exact value.
func TestCommandEnvFromInputCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := hugeValue(200_000)
	in := &hook.Input{SessionID: long, Cwd: dir, HookEventName: long, ToolName: long}
	in.ToolInput, _ = json.Marshal(map[string]string{"file_path": long})
	c := Command{Env: testEnv(), Command: `printf '%s' "$FILE_PATH" > exact.txt; ` +
		`printf '%s' "${FILE_PATH%}" > FILE_PATH.txt; printf '%s' "$HOOK_SESSION_ID" > HOOK_SESSION_ID.txt; ` +
		`printf '%s' "$HOOK_TOOL_NAME" > HOOK_TOOL_NAME.txt; printf '%s' "$HOOK_EVENT" > HOOK_EVENT.txt`}
	if _, err := c.Execute(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("exact.txt"); got != long {
		t.Errorf("$FILE_PATH: %d bytes, want %d", len(got), len(long))
	}
	for _, name := range []string{"FILE_PATH", "HOOK_SESSION_ID", "HOOK_TOOL_NAME", "HOOK_EVENT"} {
		if got, want := read(name+".txt"), hookio.CutUTF8(long, maxEnvValue); got != want {
			t.Errorf("%s: %d bytes, want the first %d", name, len(got), len(want))
		}
	}
}

// TestSubstituteShellChunks: a value over envChunk bytes is split into several private
// variables, referenced one after the other in one word.
func TestSubstituteShellChunks(t *testing.T) {
	t.Parallel()
	v := strings.Repeat("x", envChunk) + "yz"
	in := hugeInput("/w", v)
	got := substituteShell(`a $TOOL_ARGS.command "<$TOOL_ARGS.command>" $EVENT`, in)
	want := shellVars{
		script: `a "${__HOOKCORE_V1_0}${__HOOKCORE_V1_1}" "<${__HOOKCORE_V1_0}${__HOOKCORE_V1_1}>" "${__HOOKCORE_V2}"`,
		env: []string{"__HOOKCORE_V1_0=" + strings.Repeat("x", envChunk), "__HOOKCORE_V1_1=yz",
			"__HOOKCORE_V2=PreToolUse"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(shellVars{})); diff != "" {
		t.Errorf("(-want +got):\n%.2000s", diff)
	}
	// Chunks end on a UTF-8 boundary.
	for _, c := range chunks(strings.Repeat("é", envChunk)) {
		if len(c) > envChunk || !strings.HasPrefix(c, "é") {
			t.Errorf("chunk of %d bytes starting %q", len(c), c[:2])
		}
	}
}

func TestUnchunk(t *testing.T) {
	t.Parallel()
	in := hugeInput("/w", strings.Repeat("x", 3*envChunk))
	script := `a $TOOL_ARGS.command "<$TOOL_ARGS.command>" $EVENT`
	if got, want := unchunk(substituteShell(script, in).script), substituteShell(script, hugeInput("/w", "x")).script; got != want {
		t.Errorf("unchunk = %q, want %q", got, want)
	}
}

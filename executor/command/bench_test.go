package command

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// BenchmarkBareExec is the baseline: a plain os/exec run of /bin/true.
func BenchmarkBareExec(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommandTrue runs /bin/true as a command hook (direct execution, input on stdin,
// HOOK_* environment, process group, capped output). Compare with BenchmarkBareExec.
func BenchmarkCommandTrue(b *testing.B) {
	wd, _ := os.Getwd()
	c := &Command{Command: "/bin/true"}
	in := &hook.Input{SessionID: "s1", Cwd: wd, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: []byte(`{"command":"ls"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Execute(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommandShell runs a command that needs sh -c, with a context variable.
func BenchmarkCommandShell(b *testing.B) {
	wd, _ := os.Getwd()
	c := &Command{Command: `test -n "$TOOL_NAME"`}
	in := &hook.Input{SessionID: "s1", Cwd: wd, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: []byte(`{"command":"ls"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Execute(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSubstituteShell(b *testing.B) {
	in := &hook.Input{ToolInput: []byte(`{"path":"a b.go","command":"go test"}`)}
	b.ReportAllocs()
	for b.Loop() {
		substituteShell(`printf '%s' "$FILE_PATH" $TOOL_ARGS.command | grep -q x && echo "$(basename $FILE_PATH)"`, in)
	}
}

// BenchmarkSubstituteShellArith substitutes a script that must be parsed for arithmetic
// contexts (it has a '['), with a variable in one.
func BenchmarkSubstituteShellArith(b *testing.B) {
	in := &hook.Input{ToolInput: []byte(`{"path":"a b.go","n":3}`)}
	b.ReportAllocs()
	for b.Loop() {
		substituteShell(`[ -f "$FILE_PATH" ] && echo $(( $TOOL_ARGS.n + 1 ))`, in)
	}
}

package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// TestDeferredChecksReportTheSameError: under checkDeferred Execute skips the stats of the
// working directory and of an absolute program; when the start then fails, its error must
// be the one the checks give (checkAll), word for word, never a bare exec error, and a launch
// failure is never a block.
func TestDeferredChecksReportTheSameError(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data.txt")
	if err := os.WriteFile(data, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(tmp, "missing")
	tests := []struct {
		name      string
		cmd       Command
		cwd       string
		toolInput string
	}{
		{name: "absolute program missing", cmd: Command{Command: "/no/such/hookcore-program --x"}, cwd: tmp},
		{name: "absolute program is a directory", cmd: Command{Command: tmp}, cwd: tmp},
		{name: "absolute program not executable", cmd: Command{Command: data}, cwd: tmp},
		{name: "missing working directory", cmd: Command{Command: "/bin/true"}, cwd: missing},
		{name: "working directory is a file", cmd: Command{Command: "/bin/true"}, cwd: data},
		{name: "missing working directory, shell", cmd: Command{Command: "true; exit 2"}, cwd: missing},
		{name: "missing working directory, relative program", cmd: Command{Command: "./guard.sh"}, cwd: missing},
		{name: "exec form absolute program missing", cmd: Command{Args: []string{"/no/such/hookcore-program"}}, cwd: tmp},
		{name: "exec form missing working directory", cmd: Command{Args: []string{"/bin/true"}}, cwd: missing},
		{name: "missing working directory before bad input", cmd: Command{Command: "/bin/true"}, cwd: missing, toolInput: `{"command":`},
		{name: "absolute program missing, bad input", cmd: Command{Command: "/no/such/hookcore-program"}, cwd: tmp, toolInput: `{"command":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := tt.cmd
			c.Env = testEnv()
			toolInput := tt.toolInput
			if toolInput == "" {
				toolInput = `{"command":"ls"}`
			}
			in := mkInput(tt.cwd, "PreToolUse", "Bash", toolInput)
			_, checked := c.prepare(in, checkAll)
			if checked == nil {
				t.Fatal("prepare(checkAll) succeeded, want a launch failure")
			}
			d, err := c.Execute(context.Background(), in)
			if !errors.Is(err, hook.ErrNotStarted) {
				t.Fatalf("err = %v, want ErrNotStarted", err)
			}
			if d.Block {
				t.Error("a launch failure blocked")
			}
			if want := fmt.Sprintf("hook %s: %v: %v", c.name(), hook.ErrNotStarted, checked); err.Error() != want {
				t.Errorf("err = %q\nwant  %q (the checks' error)", err, want)
			}
		})
	}
}

// TestDeferredChecksSameLaunch: for commands that start, prepare under checkDeferred
// launches exactly what it launches under checkAll.
func TestDeferredChecksSameLaunch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []Command{
		{Command: "/bin/true"},
		{Command: "/bin/echo a b"},
		{Command: "true"},
		{Command: "/usr/bin/env true"},
		{Command: "/bin/sh -c true"},
		{Command: `/bin/echo "$TOOL_NAME"`},
		{Command: "exit 0"},
		{Args: []string{"/bin/echo", "$TOOL_NAME"}},
		{Args: []string{"echo", "x"}},
	} {
		c.Env = testEnv()
		in := mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`)
		all, err := c.prepare(in, checkAll)
		if err != nil {
			t.Fatalf("%q: prepare(checkAll): %v", c.name(), err)
		}
		deferred, err := c.prepare(in, checkDeferred)
		if err != nil {
			t.Fatalf("%q: prepare(checkDeferred): %v", c.name(), err)
		}
		if fmt.Sprintf("%+v", all) != fmt.Sprintf("%+v", deferred) {
			t.Errorf("%q: launch\n%+v under checkDeferred, want\n%+v", c.name(), deferred, all)
		}
	}
}

// BenchmarkPrepare measures what Execute does before the start for /bin/true (issue 14: a
// command hook's fixed overhead over a bare exec).
func BenchmarkPrepare(b *testing.B) {
	wd, _ := os.Getwd()
	c := &Command{Command: "/bin/true"}
	in := &hook.Input{SessionID: "s1", Cwd: wd, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: []byte(`{"command":"ls -la"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.prepare(in, checkDeferred); err != nil {
			b.Fatal(err)
		}
	}
}

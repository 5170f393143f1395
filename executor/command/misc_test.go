package command

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/hook"
)

func TestExitAction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want ExitAction
		ok   bool
		str  string
	}{
		{"ok", ExitOK, true, "ok"},
		{"continue", ExitOK, true, "ok"},
		{"block", ExitBlock, true, "block"},
		{" Block ", ExitBlock, true, "block"},
		{"inject", ExitInject, true, "inject"},
		{"context", ExitInject, true, "inject"},
		{"error", ExitError, true, "error"},
		{"deny", ExitOK, false, "ok"},
	}
	for _, tt := range tests {
		got, ok := ParseExitAction(tt.in)
		if got != tt.want || ok != tt.ok || got.String() != tt.str {
			t.Errorf("ParseExitAction(%q) = %v, %v", tt.in, got, ok)
		}
	}
	if s := ExitAction(9).String(); s != "ExitAction(9)" {
		t.Errorf("String = %q", s)
	}
}

func TestCommandKey(t *testing.T) {
	t.Parallel()
	in := &hook.Input{Cwd: "/w", ToolInput: json.RawMessage(`{"path": "a b.go"}`)}
	tests := []struct {
		name string
		cmd  Command
		in   *hook.Input
		want string
	}{
		{"values inlined", Command{Command: `lint "$FILE_PATH" $HOME`}, in, "lint \"a b.go\" $HOME\x00/w"},
		{"exec form", Command{Args: []string{"lint", "$FILE_PATH"}}, in, "\"lint\" \"a b.go\"\x00/w"},
		{"other dir", Command{Command: "lint"}, &hook.Input{Cwd: "/x"}, "lint\x00/x"},
	}
	for _, tt := range tests {
		if got := tt.cmd.Key(tt.in); got != tt.want {
			t.Errorf("%s: Key = %q, want %q", tt.name, got, tt.want)
		}
	}
	a := Command{Command: "lint $FILE_PATH"}
	other := &hook.Input{Cwd: "/w", ToolInput: json.RawMessage(`{"path": "c.go"}`)}
	if a.Key(in) == a.Key(other) {
		t.Error("different values give the same key")
	}
}

func TestCommandEnvCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("é", 6000) // 12 000 bytes
	in := mkInput(dir, "PostToolUse", "Write", "")
	in.ToolInput, _ = json.Marshal(map[string]string{"content": long})
	in.ToolResponse, _ = json.Marshal(long)
	c := Command{Command: `printf '%s' "$HOOK_TOOL_INPUT" > in.txt; printf '%s' "$HOOK_TOOL_OUTPUT" > out.txt; printf '%s' "${HOOK_TOOL_INPUT_TRUNCATED-unset}" > cut.txt`, Env: testEnv()}
	if _, err := c.Execute(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	// The cut is said (red team round 31: 10 KB of padding before rm -rf passed a grep of
	// HOOK_TOOL_INPUT).
	if b, _ := os.ReadFile(filepath.Join(dir, "cut.txt")); string(b) != "1" {
		t.Errorf("HOOK_TOOL_INPUT_TRUNCATED = %q, want 1", b)
	}
	in.ToolInput = json.RawMessage(`{"command":"ls"}`)
	if _, err := c.Execute(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "cut.txt")); string(b) != "unset" {
		t.Errorf("short input: HOOK_TOOL_INPUT_TRUNCATED = %q, want it unset", b)
	}
	in.ToolInput, _ = json.Marshal(map[string]string{"content": long})
	if _, err := c.Execute(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"in.txt", "out.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > maxEnvValue || len(b) < maxEnvValue-4 || !utf8.Valid(b) {
			t.Errorf("%s: %d bytes, valid UTF-8 %v", name, len(b), utf8.Valid(b))
		}
	}
}

func TestCommandOutputCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := Command{Command: "printf 0123456789; printf abcdefghij >&2; exit 1", MaxOutput: 4, Env: testEnv()}
	d, err := c.Execute(context.Background(), mkInput(dir, "PreToolUse", "Bash", `{}`))
	if err == nil {
		t.Fatal("want an error for exit 1")
	}
	want := hook.Decision{ExitCode: 1, Output: "abcd0123", Truncated: true}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCommandEmptyCwd: an input without cwd runs in the process's working directory.
func TestCommandEmptyCwd(t *testing.T) {
	t.Parallel()
	wd, _ := os.Getwd()
	c := Command{Command: "pwd", Env: testEnv()}
	d, err := c.Execute(context.Background(), &hook.Input{HookEventName: "SessionStart"})
	if err != nil {
		t.Fatal(err)
	}
	if d.AdditionalContext != wd {
		t.Errorf("ran in %q, want %q", d.AdditionalContext, wd)
	}
}

// TestCommandConcurrent: one Command used from many goroutines.
func TestCommandConcurrent(t *testing.T) {
	t.Parallel()
	c := &Command{Command: `printf '%s' "$TOOL_ARGS.n"`, Env: testEnv()}
	dir := t.TempDir()
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			in := mkInput(dir, "SessionStart", "", "")
			in.ToolInput, _ = json.Marshal(map[string]int{"n": i})
			d, err := c.Execute(context.Background(), in)
			if err == nil && d.AdditionalContext != strconv.Itoa(i) {
				err = errors.New("wrong value " + d.AdditionalContext)
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

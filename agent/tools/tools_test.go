package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore/agent/tools"
)

func workspace(t *testing.T) (tools.Workspace, string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\nworld\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(root, "escape")))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "secret-link")))
	must(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
	return tools.Workspace{Root: root}, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResolveConfinement(t *testing.T) {
	t.Parallel()
	w, outside := workspace(t)
	tests := []struct {
		path    string
		outside bool
	}{
		{"a.txt", false},
		{"sub/new/file.txt", false},
		{"./sub/../a.txt", false},
		{"../x", true},
		{"sub/../../x", true},
		{filepath.Join(outside, "secret.txt"), true},
		{"escape/secret.txt", true},
		{"escape/new.txt", true},
		{"secret-link", true},
		{"/etc/passwd", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			_, err := w.Resolve(tt.path)
			if got := errors.Is(err, tools.ErrOutside); got != tt.outside {
				t.Errorf("Resolve(%q) = %v, outside %v, want %v", tt.path, err, got, tt.outside)
			}
		})
	}
}

func run(t *testing.T, tool interface {
	Run(context.Context, json.RawMessage) (json.RawMessage, error)
}, input string) (string, error) {
	t.Helper()
	out, err := tool.Run(context.Background(), json.RawMessage(input))
	var s string
	if len(out) > 0 && out[0] == '"' {
		_ = json.Unmarshal(out, &s)
	} else {
		s = string(out)
	}
	return s, err
}

func TestFileTools(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t)
	if got, err := run(t, tools.ReadFile{W: w}, `{"path":"a.txt"}`); err != nil || got != "hello\nworld\n" {
		t.Errorf("ReadFile = %q, %v", got, err)
	}
	if _, err := run(t, tools.ReadFile{W: w}, `{"path":"secret-link"}`); !errors.Is(err, tools.ErrOutside) {
		t.Errorf("ReadFile through a symlink out of the root: %v", err)
	}
	if _, err := run(t, tools.WriteFile{W: w}, `{"path":"../evil.txt","content":"x"}`); !errors.Is(err, tools.ErrOutside) {
		t.Errorf("WriteFile ../: %v", err)
	}
	if _, err := run(t, tools.WriteFile{W: w}, `{"path":"d/e/f.txt","content":"made"}`); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.Root, "d/e/f.txt")); string(b) != "made" {
		t.Errorf("WriteFile wrote %q", b)
	}
	if _, err := run(t, tools.EditFile{W: w}, `{"path":"a.txt","old_string":"o","new_string":"0"}`); err == nil || !strings.Contains(err.Error(), "occurs 2 times") {
		t.Errorf("EditFile ambiguous: %v", err)
	}
	if _, err := run(t, tools.EditFile{W: w}, `{"path":"a.txt","old_string":"world","new_string":"there"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, tools.EditFile{W: w}, `{"path":"a.txt","old_string":"missing","new_string":"x"}`); err == nil {
		t.Error("EditFile of a missing string succeeded")
	}
	if b, _ := os.ReadFile(filepath.Join(w.Root, "a.txt")); string(b) != "hello\nthere\n" {
		t.Errorf("after EditFile: %q", b)
	}
	if p := (tools.WriteFile{}).ChangedFile(json.RawMessage(`{"path":"x.go"}`)); p != "x.go" {
		t.Errorf("ChangedFile = %q", p)
	}
}

func TestBash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, input string
		bash        tools.Bash
		want        string // substring of the output or error
		wantErr     bool
	}{
		{name: "ok", input: `{"command":"pwd; echo err >&2"}`, want: `"stderr":"err\n"`},
		{name: "exit code", input: `{"command":"echo broken; exit 3"}`, want: "exit code 3\nbroken", wantErr: true},
		{name: "timeout kills the group", input: `{"command":"sleep 30 & sleep 30","timeout":300}`, want: "timed out", wantErr: true},
		{name: "output cap", input: `{"command":"yes | head -c 100000"}`, bash: tools.Bash{MaxOutput: 1000}, want: "[output truncated]"},
		{name: "empty", input: `{"command":" "}`, want: "empty command", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := tt.bash
			b.Dir = dir
			// A run that waits for the 30 s sleeps instead of killing them meets the 20 s
			// context and fails with its error ("timed out" comes from the tool's own 300 ms).
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out, err := b.Run(ctx, json.RawMessage(tt.input))
			got := string(out)
			if err != nil {
				got = err.Error()
			}
			if (err != nil) != tt.wantErr || !strings.Contains(got, tt.want) {
				t.Errorf("Bash(%s) = %q, %v; want %q (error %v)", tt.input, out, err, tt.want, tt.wantErr)
			}
		})
	}
	out, _ := (&tools.Bash{Dir: dir}).Run(context.Background(), json.RawMessage(`{"command":"pwd"}`))
	var o tools.BashOutput
	_ = json.Unmarshal(out, &o)
	real, _ := filepath.EvalSymlinks(dir)
	if strings.TrimSpace(o.Stdout) != real && strings.TrimSpace(o.Stdout) != dir {
		t.Errorf("pwd = %q, want %q", o.Stdout, dir)
	}
}

// TestToolsRefuseAmbiguousInput: each tool decodes exactly the keys hooks read; an input
// with a case twin or a key that only folds to a field is refused before anything runs
// (issue 10.4), even when a tool is used without the Session's own check.
func TestToolsRefuseAmbiguousInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := tools.Workspace{Root: dir}
	cases := []struct {
		tool interface {
			Run(context.Context, json.RawMessage) (json.RawMessage, error)
		}
		input string
	}{
		{&tools.Bash{Dir: dir}, `{"command":"ls","Command":"touch victim"}`},
		{&tools.Bash{Dir: dir}, `{"Command":"touch victim"}`},
		{tools.WriteFile{W: w}, `{"path":"ok.txt","Path":"victim","content":"x"}`},
		{tools.WriteFile{W: w}, `{"PATH":"victim","content":"x"}`},
		{tools.EditFile{W: w}, `{"path":"victim","old_string":"a","Old_String":"b","new_string":"c"}`},
	}
	for _, c := range cases {
		_, err := c.tool.Run(context.Background(), json.RawMessage(c.input))
		if err == nil || !strings.Contains(err.Error(), "ambiguous tool input") {
			t.Errorf("%T(%s) = %v, want the ambiguous input refused", c.tool, c.input, err)
		}
	}
	for _, name := range []string{"victim", "ok.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists: a tool ran on an ambiguous input", name)
		}
	}
}

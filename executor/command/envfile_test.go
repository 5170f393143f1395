package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSessionEnvDir: the session id is one path element under dir, whatever it holds.
func TestSessionEnvDir(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"abc-123": "/d/abc-123", "../x": "/d/.._x", "..": "/d/__", "a/b": "/d/a_b", "": "",
	} {
		if got := SessionEnvDir("/d", id); got != want {
			t.Errorf("SessionEnvDir(/d, %q) = %q, want %q", id, got, want)
		}
	}
}

// TestCommandEnvFile: a command with EnvFileDir gets CLAUDE_ENV_FILE under the session's
// directory, and what it writes there is listed by SessionEnvFiles.
func TestCommandEnvFile(t *testing.T) {
	t.Parallel()
	dir, envDir := t.TempDir(), t.TempDir()
	c := Command{Command: `echo 'export A=1' >> "$CLAUDE_ENV_FILE"`, Env: testEnv(), EnvFileDir: envDir, EnvFileName: "sessionstart-hook-0.sh"}
	if _, err := c.Execute(context.Background(), mkInput(dir, "SessionStart", "", "")); err != nil {
		t.Fatal(err)
	}
	files := SessionEnvFiles(envDir, "s1")
	if diff := cmp.Diff([]string{filepath.Join(envDir, "s1", "sessionstart-hook-0.sh")}, files); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	b, _ := os.ReadFile(files[0])
	if strings.TrimSpace(string(b)) != "export A=1" {
		t.Errorf("env file = %q", b)
	}
	if SessionEnvFiles(envDir, "other") != nil {
		t.Error("another session sees the file")
	}
}

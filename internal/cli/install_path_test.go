//go:build !hookcore_lean

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallWarnsOffPath: when install writes its default command and no "hookcore" is on
// PATH (the binary run with `go run`, or a test binary), it warns: the agent would not find
// its hook command, and Claude Code lets a call through when the command fails (new-user
// trial, stop 21). Not parallel: it changes PATH.
func TestInstallWarnsOffPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", filepath.Join(dir, "nothing-here"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"install", "claude", "--dry-run"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(errb.String(), `"hookcore" is not on PATH, so the agent will not find its hook command`) {
		t.Errorf("stderr = %q, want the PATH warning", errb.String())
	}
	errb.Reset()
	if code := Main([]string{"install", "claude", "--dry-run", "--command", "/opt/hookcore"}, strings.NewReader(""), &out, &errb); code != 0 || strings.Contains(errb.String(), "not on PATH") {
		t.Errorf("with --command: exit %d, stderr %q, want no warning", code, errb.String())
	}
}

//go:build linux || darwin

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/pipetest"
)

// TestNamedPipesNeverHang: every file a config or a repository names is opened without
// waiting for a writer and refused when it is not a regular file (internal/regularfile):
// the config files (ReadFile, issue 10.2), a repository's .mcp.json, a settings file read
// for enabledPlugins. A repository that shipped .mcp.json as a named pipe
// (or a symlink to one) hung `hookcore hook claude` at every event until the agent's
// timeout, which Claude Code treats as a non-blocking error: the tool call went ahead
// (stop 23: found while profiling the hook process's file reads).
func TestNamedPipesNeverHang(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	fifo := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		pipetest.Make(t, p)
		return p
	}

	t.Run("ReadFile", func(t *testing.T) {
		p := fifo(".hookcore/hooks.yaml")
		var err error
		pipetest.Returns(t, p, func() { _, _, err = ReadFile(p) })
		if err == nil || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
			t.Errorf("ReadFile(fifo) = %v, want not a regular file (a named pipe)", err)
		}
	})
	t.Run("symlink to a named pipe", func(t *testing.T) {
		p := filepath.Join(root, "link.yaml")
		if err := os.Symlink(filepath.Join(root, ".hookcore/hooks.yaml"), p); err != nil {
			t.Fatal(err)
		}
		var f *File
		var probs ErrorList
		pipetest.Returns(t, filepath.Join(root, ".hookcore/hooks.yaml"), func() { f, probs = ParseFile(p, Project) })
		if !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "named pipe") {
			t.Errorf("ParseFile(symlink to fifo): failed %v, %v", f.Failed, probs)
		}
	})
	t.Run(".mcp.json", func(t *testing.T) {
		p := fifo(".mcp.json")
		var got []MCPSource
		pipetest.Returns(t, p, func() { got = MCPSources(root, "", nil) })
		if len(got) != 0 {
			t.Errorf("MCPSources with a named pipe .mcp.json = %+v, want none", got)
		}
	})
	t.Run("enabledPlugins settings", func(t *testing.T) {
		p := fifo(".claude/settings.json")
		var got []string
		pipetest.Returns(t, p, func() { got = EnabledPlugins([]LayerPath{{Path: p, Layer: Project}}, true) })
		if len(got) != 0 {
			t.Errorf("EnabledPlugins = %v, want none", got)
		}
	})
}

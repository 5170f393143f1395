//go:build linux || darwin

package hookcore_test

import (
	"path/filepath"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/pipetest"
)

// TestCoverHookNamedPipe: a repository script that is a named pipe is hashed as "not a
// regular file" at once. Its open waited for a writer, so computing the trust digest hung
// every hook event of a repository that shipped one (stop 23).
func TestCoverHookNamedPipe(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	fifo := filepath.Join(root, "x.sh")
	pipetest.Make(t, fifo)
	var c hookcore.HookCover
	pipetest.Returns(t, fifo, func() {
		c = hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "bash x.sh"}}, &config.File{Path: filepath.Join(root, ".hookcore/hooks.yaml")}, root)
	})
	if len(c.Files) != 1 || c.Files[0].SHA256 != "not a regular file" {
		t.Errorf("files %+v, want x.sh as not a regular file", c.Files)
	}
}

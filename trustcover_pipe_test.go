//go:build linux || darwin

package hookcore_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
)

// TestCoverHookNamedPipe: a repository script that is a named pipe is hashed as "not a
// regular file" at once. Its open waited for a writer, so computing the trust digest hung
// every hook event of a repository that shipped one (stop 23). The hang guard opens the
// pipe's other end after a minute so that a regression fails instead of hanging.
func TestCoverHookNamedPipe(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	fifo := filepath.Join(root, "x.sh")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan hookcore.HookCover)
	go func() {
		done <- hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "bash x.sh"}}, &config.File{Path: filepath.Join(root, ".hookcore/hooks.yaml")}, root)
	}()
	var c hookcore.HookCover
	select {
	case c = <-done:
	case <-time.After(time.Minute):
		if w, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("hashing the named pipe x.sh waited for a writer")
	}
	if len(c.Files) != 1 || c.Files[0].SHA256 != "not a regular file" {
		t.Errorf("files %+v, want x.sh as not a regular file", c.Files)
	}
}

//go:build linux || darwin

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// returnsDespitePipe runs read, which opens the named pipe fifo, and fails the test when it
// waits for a writer: after a minute (a hang guard, not a measure of speed) the test opens
// and closes the pipe's other end so that read returns, then reports it.
func returnsDespitePipe(t *testing.T, fifo string, read func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); read() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		if w, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			w.Close() // the open waiting for a writer returns, and its read ends at EOF
		}
		<-done
		t.Fatalf("opening the named pipe %s waited for a writer", fifo)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// TestNamedPipesNeverHang: every file a config or a repository names is opened without
// waiting for a writer and refused when it is not a regular file: the config files
// (ReadFile, issue 10.2), a repository's .mcp.json, a settings file read for
// enabledPlugins, a plugin's metadata. A repository that shipped .mcp.json as a named pipe
// (or a symlink to one) hung `hookcore hook claude` at every event until the agent's
// timeout, which Claude Code treats as a non-blocking error: the tool call went ahead
// (stop 23: found while profiling the hook process's file reads).
func TestNamedPipesNeverHang(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	fifo := func(rel string) string {
		p := filepath.Join(root, rel)
		mkfifo(t, p)
		return p
	}

	t.Run("ReadFile", func(t *testing.T) {
		p := fifo(".hookcore/hooks.yaml")
		var err error
		returnsDespitePipe(t, p, func() { _, _, err = ReadFile(p) })
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
		returnsDespitePipe(t, filepath.Join(root, ".hookcore/hooks.yaml"), func() { f, probs = ParseFile(p, Project) })
		if !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "named pipe") {
			t.Errorf("ParseFile(symlink to fifo): failed %v, %v", f.Failed, probs)
		}
	})
	t.Run(".mcp.json", func(t *testing.T) {
		p := fifo(".mcp.json")
		var got []MCPSource
		returnsDespitePipe(t, p, func() { got = MCPSources(root, "", nil) })
		if len(got) != 0 {
			t.Errorf("MCPSources with a named pipe .mcp.json = %+v, want none", got)
		}
	})
	t.Run("enabledPlugins settings", func(t *testing.T) {
		p := fifo(".claude/settings.json")
		var got []string
		returnsDespitePipe(t, p, func() { got = EnabledPlugins([]LayerPath{{Path: p, Layer: Project}}, true) })
		if len(got) != 0 {
			t.Errorf("EnabledPlugins = %v, want none", got)
		}
	})
	t.Run("ReadCapped", func(t *testing.T) {
		p := fifo("meta.json")
		var err error
		returnsDespitePipe(t, p, func() { _, _, err = ReadCapped(p, 1<<20) })
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("ReadCapped(fifo) = %v", err)
		}
	})
}

// TestOpenRegularLeavesBlockingMode: the file OpenRegular returns reads as a blocking file
// (O_NONBLOCK is only for the open), so a read is a plain read, and the content is the
// file's.
func TestOpenRegularLeavesBlockingMode(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(p, []byte("hooks: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, st, err := OpenRegular(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	if err := raw.Control(func(fd uintptr) {
		var e syscall.Errno
		r, _, e1 := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags, e = int(r), e1
		if e != 0 {
			t.Error(e)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("flags %#x: O_NONBLOCK still set", flags)
	}
	if st.Size() != 10 {
		t.Errorf("size %d", st.Size())
	}
	b := make([]byte, 64)
	n, _ := f.Read(b)
	if string(b[:n]) != "hooks: []\n" {
		t.Errorf("read %q", b[:n])
	}
}

//go:build linux || darwin

package regularfile

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hookcore/hookcore/internal/pipetest"
)

// TestOpenRefusesWhatIsNotAFile: Open never waits on a named pipe (pipetest.Returns) and refuses
// it, a directory and a device by kind; Read caps the size and refuses a pseudo-file.
func TestOpenRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	pipetest.Make(t, fifo)
	var err error
	pipetest.Returns(t, fifo, func() { _, _, err = Read(fifo, 1<<20) })
	var ke *KindError
	if !errors.As(err, &ke) || err.Error() != "not a regular file (a named pipe)" {
		t.Errorf("Read(named pipe) = %v", err)
	}
	if _, st, err := Open(dir); st == nil || err == nil || err.Error() != "not a regular file (a directory)" {
		t.Errorf("Open(dir) = %v, %v", st, err)
	}
	if _, _, err := Open("/dev/null"); err == nil || err.Error() != "not a regular file (a character device)" {
		t.Errorf("Open(/dev/null) = %v", err)
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing) = %v", err)
	}

	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, st, err := Read(big, 99); !errors.Is(err, ErrTooLarge) || st.Size() != 100 {
		t.Errorf("Read(100 bytes, cap 99) = %v", err)
	}
	if b, _, err := Read(big, 100); err != nil || len(b) != 100 {
		t.Errorf("Read(100 bytes, cap 100) = %d bytes, %v", len(b), err)
	}
	if _, err := os.Stat("/proc/self/environ"); err == nil {
		if _, _, err := Read("/proc/self/environ", 1<<20); !errors.Is(err, ErrPseudoFile) {
			t.Errorf("Read(/proc/self/environ) = %v", err)
		}
	}
}

// TestOpenNeverOpensWhatIsNotAFile: what is not a regular file is refused by a stat before
// any open (opening a device runs its driver's open: as root, /dev/watchdog arms the
// watchdog). A Unix socket shows it: opening one fails with ENXIO, so an open-first Open
// answered "no such device or address" instead of naming the kind (stop 23, red team).
func TestOpenNeverOpensWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	link := filepath.Join(t.TempDir(), "settings.json")
	if err := os.Symlink(sock, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sock, link} {
		_, st, err := Open(p)
		var ke *KindError
		if !errors.As(err, &ke) || st == nil || err.Error() != "not a regular file (a socket)" {
			t.Errorf("Open(%s) = %v (%T)", p, err, err)
		}
	}
}

// TestOpenLeavesBlockingMode: the file Open returns reads as a blocking file (O_NONBLOCK is
// only for the open), so a read is a plain read, and the content is the file's.
func TestOpenLeavesBlockingMode(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(p, []byte("hooks: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, st, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	if err := raw.Control(func(fd uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if e != 0 {
			t.Error(e)
		}
		flags = r
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

// TestDirNamesNeverWaits: DirNames reads only a directory; a named pipe where a directory
// is expected is never opened (red team round 16: a FIFO at .github/hooks hung discovery's
// open until the agent's timeout), and a directory past max is incomplete.
func TestDirNamesNeverWaits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "hooks")
	pipetest.Make(t, fifo)
	var names []string
	var complete bool
	pipetest.Returns(t, fifo, func() { names, complete = DirNames(fifo, 10) })
	if len(names) != 0 || !complete {
		t.Errorf("DirNames(named pipe) = %q, %v", names, complete)
	}
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if names, complete := DirNames(dir, 4); len(names) != 4 || !complete {
		t.Errorf("DirNames(4 names, max 4) = %q, %v", names, complete)
	}
	if names, complete := DirNames(dir, 3); names != nil || complete {
		t.Errorf("DirNames(4 names, max 3) = %q, %v", names, complete)
	}
}

package regularfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// readCalls returns the read system calls the calling thread made so far: syscr of
// /proc/thread-self/io (task I/O accounting), which counts read, pread and readv. ok is
// false where the kernel does not keep it.
func readCalls(t *testing.T) (n int, ok bool) {
	t.Helper()
	data, err := os.ReadFile("/proc/thread-self/io")
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(data) {
		if v, found := bytes.CutPrefix(line, []byte("syscr: ")); found {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			return n, err == nil
		}
	}
	return 0, false
}

// TestReadCallsBySize: Read reads a file whose size did not change since it was opened in
// two read system calls, the second seeing the end, whatever its size (an empty one in one) (io.ReadAll, which
// it used, grew its buffer from 512 bytes: nine reads for the 6 KB ~/.claude/settings.json
// of bench/hookbridge.sh, read at every hook event; issue 9). Counted by the kernel, on the
// test's own thread.
func TestReadCallsBySize(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, ok := readCalls(t)
	if !ok {
		t.Skip("no /proc/thread-self/io")
	}
	after, _ := readCalls(t)
	own := after - before // what readCalls itself reads
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 6264, 100 << 10} {
		p := filepath.Join(dir, strconv.Itoa(size))
		want := bytes.Repeat([]byte{'x'}, size)
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := readCalls(t)
		got, _, err := Read(p, 1<<20)
		after, _ := readCalls(t)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Read(%d bytes) = %d bytes, %v", size, len(got), err)
		}
		calls := 2
		if size == 0 {
			calls = 1 // the end, at once
		}
		if n := after - before - own; n != calls {
			t.Errorf("Read(%d bytes) made %d read system calls, want %d", size, n, calls)
		}
	}
	// At the cap: limit+1 bytes are read, no more, in as few calls.
	p := filepath.Join(dir, "capped")
	if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ = readCalls(t)
	_, _, err := Read(p, 4095)
	after, _ = readCalls(t)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read(4096 bytes, cap 4095) = %v", err)
	}
	if n := after - before - own; n != 0 {
		t.Errorf("Read(4096 bytes, cap 4095) made %d read system calls, want 0 (its size says so)", n)
	}
}

// TestOpenAbsent: an absent file (or a link to one) is the open's *fs.PathError, found by
// the stat that comes first; no open follows it (one system call, not two: the trust store,
// .mcp.json and the project's settings files are absent at most hook events; issue 9).
func TestOpenAbsent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(missing, dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{missing, dangling, filepath.Join(dir, "no-dir", "x.json")} {
		_, st, err := Open(p)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != p || !errors.Is(err, fs.ErrNotExist) || st != nil {
			t.Errorf("Open(%s) = %v, %#v; want the open's ErrNotExist", p, st, err)
		}
		if _, _, err := Read(p, 1<<20); err == nil || err.Error() != "open "+p+": no such file or directory" {
			t.Errorf("Read(%s) = %v", p, err)
		}
	}
}

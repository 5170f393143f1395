package cli

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/hookcore/hookcore/trust"
)

// TestHookEventOpensEachFileOnce: one event of the installed hook command
// (BenchmarkHookInstalled's setup, with a trust store that holds another workspace's grant)
// opens the trust store once — the event's lookups (the grant enclosing the working
// directory, the grant of the workspace's config, the Runner's trust gate) share one read of
// it, where each read it (issue 9: three opens) — and each config file once. Counted by the
// kernel (inotify's IN_OPEN), in the process itself.
func TestHookEventOpensEachFileOnce(t *testing.T) { // not parallel: HOME and the working directory
	dir := t.TempDir()
	home, proj, input := installedSetup(t, dir)
	other := filepath.Join(dir, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := trust.DefaultStore(home).Grant(other, trust.Digest(), time.Now()); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("HOOKCORE_STATE_DIR", filepath.Join(dir, "state"))
	t.Chdir(proj)

	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	defer unix.Close(fd)
	watched := map[int32]string{}
	for _, d := range []string{filepath.Join(home, ".hookcore"), filepath.Join(home, ".claude")} {
		// The closes too: inotify merges an event with the last one queued when they are the
		// same, and two reads of a file in a row would count as one open.
		wd, err := unix.InotifyAddWatch(fd, d, unix.IN_OPEN|unix.IN_CLOSE_NOWRITE)
		if err != nil {
			t.Skipf("inotify: %v", err)
		}
		watched[int32(wd)] = d
	}
	var stderr bytes.Buffer
	if code := Main([]string{"hook", "claude"}, bytes.NewReader(input), io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.Bytes())
	}

	opened := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EAGAIN) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for ev := buf[:n]; len(ev) >= unix.SizeofInotifyEvent; {
			wd := int32(binary.NativeEndian.Uint32(ev[0:4]))
			mask := binary.NativeEndian.Uint32(ev[4:8])
			size := int(binary.NativeEndian.Uint32(ev[12:16]))
			name := string(bytes.TrimRight(ev[unix.SizeofInotifyEvent:unix.SizeofInotifyEvent+size], "\x00"))
			if mask&unix.IN_OPEN != 0 {
				opened[filepath.Join(watched[wd], name)]++
			}
			ev = ev[unix.SizeofInotifyEvent+size:]
		}
	}
	want := map[string]int{
		filepath.Join(home, ".hookcore", "trust.json"):  1,
		filepath.Join(home, ".hookcore", "hooks.yaml"):  1,
		filepath.Join(home, ".claude", "settings.json"): 1,
	}
	if diff := cmp.Diff(want, opened); diff != "" {
		t.Errorf("files opened by one event (-want +got):\n%s", diff)
	}
}

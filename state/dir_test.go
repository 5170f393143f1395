package state_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookcore/hookcore/state"
)

// TestMain lets the test binary act as one hook process (as os/exec's tests re-execute
// themselves): with STATE_HELPER_DIR set it claims a shared once key and a key of its own,
// bumps the session's counter, prints "first" when its claim of the shared key was the
// first, and exits.
func TestMain(m *testing.M) {
	if dir := os.Getenv("STATE_HELPER_DIR"); dir != "" {
		os.Exit(helper(dir, os.Getenv("STATE_HELPER_ID")))
	}
	os.Exit(m.Run())
}

func helper(dir, id string) int {
	st := &state.Dir{Path: dir}
	ctx := context.Background()
	first, err := state.Claim(ctx, st, "one-session", state.OnceKey("SessionStart", "shared"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := state.Claim(ctx, st, "one-session", state.OnceKey("SessionStart", "own-"+id)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := st.Update(ctx, "one-session", func(s *state.Session) { s.Stops++ }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if first {
		fmt.Print("first")
	}
	return 0
}

func TestDir(t *testing.T) {
	t.Parallel()
	storeConformance(t, &state.Dir{Path: filepath.Join(t.TempDir(), "state")})
}

// TestDirConcurrentProcesses: 100 processes updating one session at once (issue 9.3: Claude
// Code runs several hook processes at once) lose no update, and exactly one of them gets
// the first claim of a once hook.
func TestDirConcurrentProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts 100 processes")
	}
	dir := filepath.Join(t.TempDir(), "state")
	const n = 100
	var wg sync.WaitGroup
	outs := make([]string, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "STATE_HELPER_DIR="+dir, fmt.Sprintf("STATE_HELPER_ID=%d", i))
			out, err := cmd.Output()
			outs[i], errs[i] = string(out), err
		}()
	}
	wg.Wait()
	firsts := 0
	for i := range outs {
		if errs[i] != nil {
			t.Fatalf("helper %d: %v", i, errs[i])
		}
		if strings.Contains(outs[i], "first") {
			firsts++
		}
	}
	if firsts != 1 {
		t.Errorf("%d processes got the first claim of the once hook, want 1", firsts)
	}
	var got state.Session
	if err := (&state.Dir{Path: dir}).Update(context.Background(), "one-session", func(s *state.Session) { got = *s }); err != nil {
		t.Fatal(err)
	}
	if got.Stops != n {
		t.Errorf("counter = %d after %d concurrent increments: updates were lost", got.Stops, n)
	}
	if len(got.Once) != n+1 {
		t.Errorf("%d once keys recorded, want %d (one shared, one per process)", len(got.Once), n+1)
	}
}

// TestDirSweepsOldSessions: session files not written for MaxAge are removed by the next
// sweep; recent ones and other files stay.
func TestDirSweepsOldSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := &state.Dir{Path: dir, MaxAge: time.Hour, SweepEvery: time.Nanosecond}
	ctx := context.Background()
	for _, s := range []string{"old", "new"} {
		if _, err := state.Claim(ctx, st, s, "k"); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "session-*.json"))
	if len(files) != 2 {
		t.Fatalf("%d session files, want 2", len(files))
	}
	// Age one file by its mtime; which one is "old" does not matter to the sweep.
	past := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(files[0], past, past); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond) // past SweepEvery (1 ns) on any clock granularity
	if _, err := state.Claim(ctx, st, "third", "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Errorf("old session file still there (err %v)", err)
	}
	if _, err := os.Stat(files[1]); err != nil {
		t.Errorf("recent session file swept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Errorf("a file that is not a session was swept: %v", err)
	}
}

// TestDirTornFile: a session file that does not decode (a crash mid-write) reads as an
// empty session instead of failing every event.
func TestDirTornFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := &state.Dir{Path: dir}
	ctx := context.Background()
	if _, err := state.Claim(ctx, st, "s", "k"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "session-*.json"))
	if err := os.WriteFile(files[0], []byte(`{"once":{"k":tr`), 0o600); err != nil {
		t.Fatal(err)
	}
	first, err := state.Claim(ctx, st, "s", "k")
	if err != nil || !first {
		t.Fatalf("Claim after a torn write = %v, %v; want true, nil", first, err)
	}
}

// TestDirForget: Forget drops one session.
func TestDirForget(t *testing.T) {
	t.Parallel()
	st := &state.Dir{Path: t.TempDir()}
	ctx := context.Background()
	state.Claim(ctx, st, "s", "k") //nolint:errcheck // checked by the next claim
	st.Forget("s")
	if first, err := state.Claim(ctx, st, "s", "k"); err != nil || !first {
		t.Fatalf("Claim after Forget = %v, %v; want true, nil", first, err)
	}
}

// TestDirRefusesPlantedFiles (red team round 33): a symbolic link planted where a session's
// file or the sweep mark goes is never followed (the store overwrote the link's target with
// the session's JSON), and a directory others may write is not used.
func TestDirRefusesPlantedFiles(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and modes are Unix's here")
	}
	root := t.TempDir()
	victim := filepath.Join(root, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Find the session file's name from an update of the session in another directory.
	probe := &state.Dir{Path: filepath.Join(root, "probe")}
	if err := probe.Update(context.Background(), "s1", func(s *state.Session) { s.Stops++ }); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(probe.Path, "session-*.json"))
	if len(names) != 1 {
		t.Fatalf("probe files: %v", names)
	}
	for _, name := range []string{filepath.Base(names[0]), ".swept"} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	st := &state.Dir{Path: dir}
	if err := st.Update(context.Background(), "s1", func(s *state.Session) { s.Stops++ }); err == nil {
		t.Error("Update through a planted link: no error")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the link's target was written: %q", data)
	}

	shared := filepath.Join(root, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	err := (&state.Dir{Path: shared}).Update(context.Background(), "s1", func(s *state.Session) { s.Stops++ })
	if err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("Update in a directory all may write: %v", err)
	}
}

// TestDirHolds: Holds says whether a session has a file, and allocates nothing (not
// parallel: AllocsPerRun).
func TestDirHolds(t *testing.T) {
	d := &state.Dir{Path: t.TempDir()}
	if d.Holds("s1") {
		t.Fatal("holds a session never written")
	}
	if err := d.Update(context.Background(), "s1", func(s *state.Session) { s.Stops = 1 }); err != nil {
		t.Fatal(err)
	}
	if !d.Holds("s1") || d.Holds("s2") {
		t.Errorf("holds s1 %v, s2 %v; want true, false", d.Holds("s1"), d.Holds("s2"))
	}
	if n := testing.AllocsPerRun(100, func() { d.Holds("7f3c9a2e-5d41-4b8e-9c1f-2a6b8d0e4f13") }); n != 0 && runtime.GOOS == "linux" && !raceEnabled {
		t.Errorf("Holds: %v allocations, want 0", n)
	}
}

// TestDirWorkspaceRecord: a WorkspaceKey's record is a file of its own ("workspace-*"),
// that Holds finds and Forget removes, and that the sweep keeps past MaxAge (the next
// session in the workspace may come weeks later) until WorkspaceMaxAge (red team round 65).
func TestDirWorkspaceRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := &state.Dir{Path: dir, MaxAge: time.Hour, SweepEvery: time.Nanosecond}
	ctx := context.Background()
	key := state.WorkspaceKey("/home/u/proj")
	if st.Holds(key) {
		t.Fatal("holds a record never written")
	}
	if err := st.Update(ctx, key, func(s *state.Session) { s.Tripwire = &state.Baseline{Event: "Stop"} }); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "workspace-*.json"))
	if len(files) != 1 || !st.Holds(key) || st.Holds("/home/u/proj") {
		t.Fatalf("records %v, holds %v; want one record, held", files, st.Holds(key))
	}
	sweep := func(age time.Duration) {
		t.Helper()
		past := time.Now().Add(-age)
		if err := os.Chtimes(files[0], past, past); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		if _, err := state.Claim(ctx, st, "other", "k"); err != nil {
			t.Fatal(err)
		}
	}
	sweep(2 * time.Hour)
	if !st.Holds(key) {
		t.Error("a record older than MaxAge was swept")
	}
	sweep(state.WorkspaceMaxAge + time.Hour)
	if st.Holds(key) {
		t.Error("a record older than WorkspaceMaxAge was kept")
	}
	if err := st.Update(ctx, key, func(s *state.Session) { s.Stops = 1 }); err != nil {
		t.Fatal(err)
	}
	st.Forget(key)
	if st.Holds(key) {
		t.Error("Forget kept the record")
	}
}

package hookcore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore/state"
)

// TestTripwireBounds: a file over the hashing cap is compared by size, mtime, ctime and
// inode and not read, and an in-place rewrite of the same length with its mtime set back
// is still seen (the ctime); a directory tree is hashed up to tripwireMaxFiles entries and
// compared by stat past them, so an edit past the hashing bound is seen too.
func TestTripwireBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 2*tripwireMaxHash), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range tripwireMaxFiles + 10 {
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("f%05d", i)), []byte("a"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{big, tree}
	old := snapshot(paths, nil, nil)
	if st := old[big]; st.Sum != "" || st.Size != 2*tripwireMaxHash || st.MTime == 0 || st.CTime == 0 {
		t.Errorf("big file: %+v, want size, mtime and ctime, no digest", st)
	}
	past := filepath.Join(tree, fmt.Sprintf("f%05d", tripwireMaxFiles+5))
	if !old[tree].Partial || old[tree].Cut || len(old) != tripwireMaxFiles+12 || old[past].Sum != "" || old[past].CTime == 0 {
		t.Errorf("tree: %+v, %d entries, past the bound %+v; want partial, not cut, %d, stat only", old[tree], len(old), old[past], tripwireMaxFiles+12)
	}
	if got := diffFiles(old, snapshot(paths, nil, old)); len(got) != 0 {
		t.Errorf("unchanged: %v", got)
	}
	time.Sleep(10 * time.Millisecond) // a ctime the clock can tell apart
	rewrite := func(p string, at int64, b []byte) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(b, at); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	rewrite(big, 0, []byte(`{"disableAllHooks": true}`))
	rewrite(past, 0, []byte("b"))
	if err := os.WriteFile(filepath.Join(tree, "f00001"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(diffFiles(old, snapshot(paths, nil, old)), "\n")
	may := ": content may have changed (compared by size, mtime, ctime and inode: over the hashing bounds, its mtime, ctime or inode changed)"
	want := big + may + "\n" + filepath.Join(tree, "f00001") + ": content changed\n" + past + may
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

// TestTripwireCut: a tree of more than tripwireMaxStat entries is walked up to them and
// marked cut; a file in one snapshot only under it is not compared, and cutTrees names it.
func TestTripwireCut(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 000 files")
	}
	t.Parallel()
	tree := filepath.Join(t.TempDir(), "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range tripwireMaxStat + 5 {
		f, err := os.Create(filepath.Join(tree, fmt.Sprintf("f%05d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	old := snapshot([]string{tree}, nil, nil)
	if !old[tree].Cut || len(old) != tripwireMaxStat+1 {
		t.Fatalf("tree: %+v, %d entries; want cut, %d", old[tree], len(old), tripwireMaxStat+1)
	}
	if got := cutTrees(old); len(got) != 1 || got[0] != tree {
		t.Errorf("cutTrees: %v", got)
	}
	if err := os.WriteFile(filepath.Join(tree, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := diffFiles(old, snapshot([]string{tree}, nil, old)); len(got) != 0 {
		t.Errorf("diff past the bound: %v", got)
	}
}

// TestFileChangeEveryDifference: a call that edits a file and changes its mode is reported
// with both (new-user trial, stop 32: "mode changed" alone hid the edit, and a user told so
// would chmod it back and look no further).
func TestFileChangeEveryDifference(t *testing.T) {
	t.Parallel()
	a := state.FileState{Type: "f", Mode: 0o644, Size: 10, Sum: "aa"}
	for _, c := range []struct {
		name string
		b    state.FileState
		want string
	}{
		{"mode and content", state.FileState{Type: "f", Mode: 0o600, Size: 14, Sum: "bb"}, "mode changed (0600, was 0644), content changed"},
		{"mode only", state.FileState{Type: "f", Mode: 0o600, Size: 10, Sum: "aa"}, "mode changed (0600, was 0644)"},
		{"content only", state.FileState{Type: "f", Mode: 0o644, Size: 10, Sum: "cc"}, "content changed"},
		{"nothing", a, ""},
		{"removed", state.FileState{}, "removed"},
	} {
		if got := fileChange(a, c.b); got != c.want {
			t.Errorf("%s: fileChange = %q, want %q", c.name, got, c.want)
		}
	}
}

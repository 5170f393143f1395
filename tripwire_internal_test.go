package hookcore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTripwireBounds: a file over the hashing cap is compared by size, mtime and inode and
// not read; a directory tree is walked up to the cap on files, and a file in one snapshot
// only under a tree cut at the cap is not compared (the walk's window may have moved), while
// the files both snapshots hold still are.
func TestTripwireBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, tripwireMaxHash+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range tripwireMaxFiles + 10 {
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("f%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{big, tree}
	old := snapshot(paths, nil, nil)
	if st := old[big]; st.Sum != "" || st.Size != tripwireMaxHash+1 || st.MTime == 0 {
		t.Errorf("big file: %+v, want size and mtime, no digest", st)
	}
	if !old[tree].Partial || len(old) != tripwireMaxFiles+2 {
		t.Errorf("tree: partial %v, %d entries; want partial, %d", old[tree].Partial, len(old), tripwireMaxFiles+2)
	}
	if got := diffFiles(old, snapshot(paths, nil, old)); len(got) != 0 {
		t.Errorf("unchanged: %v", got)
	}
	// A new first name moves the window: the name pushed out is not "removed".
	if err := os.WriteFile(filepath.Join(tree, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tree, "f00001"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(big, later, later); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(diffFiles(old, snapshot(paths, nil, old)), "\n")
	want := big + ": content may have changed (a file over the hashing cap: its mtime or inode changed)\n" + filepath.Join(tree, "f00001") + ": content changed"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

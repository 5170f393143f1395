package hookcore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/regularfile"
)

// TestGlobBoundedIsGlob: under its bound, globBounded matches what filepath.Glob matches,
// in the same order.
func TestGlobBoundedIsGlob(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, p := range []string{"a/x.sh", "a/y.sh", "a/.h.sh", "b/x.sh", "b/c/z.py", "[x].sh", "s p/q.sh"} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	for _, pat := range []string{"*/*.sh", "a/*", "*/c/*.py", "?/x.sh", "[ab]/x.sh", `\[x\].sh`, "l/*.sh", "s p/*", "missing/*", "a/x.sh", "a/nope.sh", "[", "*/[", "*"} {
		want, _ := filepath.Glob(filepath.Join(root, pat))
		got, ok := globBounded(filepath.Join(root, pat), maxCoverMatches)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%s: got %q (%v), want %q", pat, got, ok, want)
		}
	}
}

// TestCoverGlobIsBounded: a glob in a trusted hook's command that the repository's files make
// match more than maxCoverMatches paths at any level is not covered, in bounded work:
// `l*/…/l*` through eight symlinks to "." matched 8^12 paths and hung every hook event
// (stop 23, red team); filepath.Glob found all 8^5 of the five-level one.
func TestCoverGlobIsBounded(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 8 {
		if err := os.Symlink(".", filepath.Join(root, "l"+string(rune('0'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "x.sh"), []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := &config.File{Path: filepath.Join(root, ".hookcore", "hooks.yaml")}
	for _, cmd := range []string{"cat l*/l*/l*/l*/l*", "cat l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*", "cat l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/nothing"} {
		c := CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: cmd}}, f, root)
		if len(c.Files) != 0 || !slices.ContainsFunc(c.NotCovered, func(s string) bool { return strings.Contains(s, "matches more than 64 paths") }) {
			t.Errorf("%s: files %d, not covered %q", cmd, len(c.Files), c.NotCovered)
		}
	}
	// Within the bound, the pattern's matches are bound as before (and the pattern is
	// reported: the shell expands it when the hook runs).
	c := CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "cat l0/*.sh"}}, f, root)
	var got []string
	for _, cf := range c.Files {
		got = append(got, filepath.Base(cf.Path))
	}
	if diff := cmp.Diff([]string{"x.sh"}, got); diff != "" || len(c.NotCovered) != 1 {
		t.Errorf("l0/*.sh: files (-want +got):\n%s, not covered %q", diff, c.NotCovered)
	}
}

// TestCoverFilesAreBounded: a trusted hook's cover hashes a file reached through many paths
// once (by identity), and binds at most maxCoverFiles files; past them the command is not
// covered. A 10 KB command named one 64 MiB file through a thousand symlink paths and hashed
// it a thousand times at every hook event (stop 23, red team).
func TestCoverFilesAreBounded(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 10 {
		if err := os.Symlink(".", filepath.Join(root, string(rune('0'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "big"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	var words []string
	for i := range 300 {
		words = append(words, fmt.Sprintf("%d/%d/%d/big", i/100, i/10%10, i%10))
	}
	f := &config.File{Path: filepath.Join(root, ".hookcore", "hooks.yaml")}
	memo := hashMemo{}
	c := coverHookMemo(&config.Hook{ID: "h", Action: config.Action{Command: "cat " + strings.Join(words, " ")}}, f, root, memo)
	if len(c.Files) != maxCoverFiles {
		t.Errorf("%d files bound, want %d", len(c.Files), maxCoverFiles)
	}
	if !slices.ContainsFunc(c.NotCovered, func(s string) bool { return strings.Contains(s, "more than 256 files") }) {
		t.Errorf("not covered %q, want the cap", c.NotCovered)
	}
	if len(memo) != 1 {
		t.Errorf("%d files hashed, want 1 (one file through many paths)", len(memo))
	}
	for _, cf := range c.Files {
		if cf.SHA256 != c.Files[0].SHA256 {
			t.Fatalf("%s hashed %s, %s hashed %s", cf.Path, cf.SHA256, c.Files[0].Path, c.Files[0].SHA256)
		}
	}
}

// TestGlobReadsBoundedNames: a glob through a directory of more than maxGlobDirNames names
// is not followed, whether or not anything matches: a pattern that matched nothing still
// read every name of every directory it met (stop 23, red team round 15).
func TestGlobReadsBoundedNames(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxGlobDirNames + 1 {
		f, err := os.Create(filepath.Join(big, fmt.Sprintf("f%05d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for _, pat := range []string{"big/*.go", "*/nothing*", "big/f00001"} {
		got, ok := globBounded(filepath.Join(root, pat), maxCoverMatches)
		want := pat == "big/f00001" // no meta: a plain lookup
		if ok != want || (ok && len(got) != 1) {
			t.Errorf("%s: %d matches, ok %v", pat, len(got), ok)
		}
	}
	if names, complete := regularfile.DirNames(big, maxGlobDirNames+1); !complete || len(names) != maxGlobDirNames+1 {
		t.Errorf("at the cap: %d names, complete %v", len(names), complete)
	}
}

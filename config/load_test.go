package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadSameFileOnce: a config file named more than once — absolute, through "..", through
// a symlink, through a hard link — is loaded once, under its first path and layer, so its
// hooks do not run twice (issue 8.8).
func TestLoadSameFileOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := write(t, dir, "conf/hooks.yaml", hooksYAML)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.yaml")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	other := write(t, dir, "other.yaml", hooksYAML) // same content, another file
	paths := []LayerPath{
		{Path: path, Layer: Explicit},
		{Path: filepath.Join(dir, "sub", "..", "conf", "hooks.yaml"), Layer: Explicit},
		{Path: link, Layer: User},
		{Path: hard, Layer: Project},
		{Path: other, Layer: Explicit},
		{Path: dir + "/conf/./hooks.yaml", Layer: Local},
	}
	set, probs := Load(paths)
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range set.Files {
		got = append(got, f.Path+" "+f.Layer.String())
	}
	want := []string{path + " explicit", other + " explicit"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("files %q, want %q", got, want)
	}
	if n := len(set.Hooks()); n != 2 {
		t.Errorf("%d hooks, want 2", n)
	}
}

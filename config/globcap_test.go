package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoveryCapsGlobFiles: one discovery pattern loads at most MaxGlobFiles files, in
// lexical order; the next one is refused with why, as that layer's load error, and the rest
// are not looked at. A repository with 60 000 .github/hooks/*.json files made every hook
// event take 23 s (stop 23, red team), past which the agent lets the tool call through.
func TestDiscoveryCapsGlobFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := MaxGlobFiles + 50
	for i := range n {
		write(t, work, fmt.Sprintf(".github/hooks/h%04d.json", i), `{"version": 1, "hooks": {}}`)
	}
	paths, err := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(dir, "etc")}.Paths()
	if err != nil {
		t.Fatal(err)
	}
	var hooks []LayerPath
	for _, p := range paths {
		if strings.Contains(p.Path, ".github/hooks/") {
			hooks = append(hooks, p)
		}
	}
	if len(hooks) != MaxGlobFiles+1 {
		t.Fatalf("%d .github/hooks paths, want %d and one refused", len(hooks), MaxGlobFiles+1)
	}
	last := hooks[MaxGlobFiles]
	if filepath.Base(last.Path) != fmt.Sprintf("h%04d.json", MaxGlobFiles) || !strings.Contains(last.Refused, fmt.Sprintf("%d files match", n)) {
		t.Errorf("refused %+v", last)
	}
	for _, p := range hooks[:MaxGlobFiles] {
		if p.Refused != "" {
			t.Errorf("%s refused", p.Path)
		}
	}
	set, probs := Load(paths)
	var got []string
	for _, p := range probs {
		got = append(got, p.Error())
	}
	if len(probs) != 1 || probs[0].Pos.File != last.Path || !strings.Contains(probs[0].Msg, "hookcore loads the first 100 by name") {
		t.Errorf("problems %q, want the refused file's one", got)
	}
	f := set.Files[len(set.Files)-1]
	if f.Path != last.Path || !f.Failed || f.Layer != Project {
		t.Errorf("refused file loaded as %+v", f)
	}
}

// TestFileIndexIsSameFile: the index finds a file by identity, as os.SameFile does: a hard
// link and a symlink are the file they name; another file with the same content is not.
func TestFileIndexIsSameFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := write(t, dir, "a.json", "{}")
	b := write(t, dir, "b.json", "{}")
	hard := filepath.Join(dir, "hard.json")
	soft := filepath.Join(dir, "soft.json")
	if err := os.Link(a, hard); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(a, soft); err != nil {
		t.Skip(err)
	}
	stat := func(p string) os.FileInfo {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	seen := []os.FileInfo{stat(a)}
	var x fileIndex
	x.add(seen[0], 0)
	at := func(i int) os.FileInfo { return seen[i] }
	for _, tt := range []struct {
		path string
		want int
	}{{a, 0}, {hard, 0}, {soft, 0}, {b, -1}} {
		if got := x.find(stat(tt.path), at); got != tt.want {
			t.Errorf("find(%s) = %d, want %d", filepath.Base(tt.path), got, tt.want)
		}
	}
}

// TestDiscoveryCapsGlobDirectory: a discovery pattern's directory is read up to
// maxDiscoveryDirNames names; past them none of its files load, and the pattern is refused
// with why (a load error of its layer). Reading and sorting a million names took 1.7 s per
// hook event (stop 23, red team round 15).
func TestDiscoveryCapsGlobDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	hooks := filepath.Join(work, ".github", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxDiscoveryDirNames + 1 {
		f, err := os.Create(filepath.Join(hooks, fmt.Sprintf("n%05d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	paths, err := Discovery{Cwd: work, Home: filepath.Join(dir, "home"), ManagedDir: filepath.Join(dir, "etc")}.Paths()
	if err != nil {
		t.Fatal(err)
	}
	var refused []LayerPath
	for _, p := range paths {
		if strings.Contains(p.Path, ".github") {
			refused = append(refused, p)
		}
	}
	if len(refused) != 1 || refused[0].Path != filepath.Join(hooks, "*.json") || !strings.Contains(refused[0].Refused, "holds more than 10000 names") {
		t.Errorf(".github/hooks paths %+v", refused)
	}
}

// TestFrontmatterPathsCapped: skill and sub-agent files are bounded as discovery's patterns
// are: at most MaxGlobFiles per pattern, the next refused (red team round 16 noticed the
// unbounded glob, which `run` and `trust` use).
func TestFrontmatterPathsCapped(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range MaxGlobFiles + 5 {
		write(t, root, fmt.Sprintf(".claude/agents/a%04d.md", i), "---\nname: a\n---\n")
	}
	write(t, root, ".claude/skills/s1/SKILL.md", "---\nname: s\n---\n")
	paths := FrontmatterPaths(root, "")
	if len(paths) != 1+MaxGlobFiles+1 {
		t.Fatalf("%d paths", len(paths))
	}
	if filepath.Base(paths[0].Path) != "SKILL.md" || paths[MaxGlobFiles].Refused != "" || !strings.Contains(paths[MaxGlobFiles+1].Refused, "more than 100 files match") {
		t.Errorf("paths %+v ... %+v", paths[0], paths[MaxGlobFiles+1])
	}
}

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// countingFS is osLookFS, recording each call as "op path".
type countingFS struct {
	mu    sync.Mutex
	calls []string
}

func (c *countingFS) note(op, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, op+" "+name)
}

func (c *countingFS) Lstat(name string) (fs.FileInfo, error) {
	c.note("lstat", name)
	return os.Lstat(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.note("stat", name)
	return os.Stat(name)
}

func (c *countingFS) Readlink(name string) (string, error) {
	c.note("readlink", name)
	return os.Readlink(name)
}

func (c *countingFS) Glob(dir, pattern string, maxNames int) ([]string, bool, error) {
	c.note("glob", filepath.Join(dir, pattern))
	return osLookFS{}.Glob(dir, pattern, maxNames)
}

// count returns how many calls of each operation c recorded.
func (c *countingFS) count() map[string]int {
	n := map[string]int{}
	for _, call := range c.calls {
		op, _, _ := strings.Cut(call, " ")
		n[op]++
	}
	return n
}

// lookLayout is a home, a project and an administrator's directories under one directory.
type lookLayout struct{ home, work, managed, gemini string }

func newLookLayout(t *testing.T) lookLayout {
	dir := t.TempDir()
	l := lookLayout{home: filepath.Join(dir, "home"), work: filepath.Join(dir, "work"),
		managed: filepath.Join(dir, "managed"), gemini: filepath.Join(dir, "gemini-cli", "settings.json")}
	for _, d := range []string{l.home, filepath.Join(l.work, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l lookLayout) discovery(fsys lookFS) Discovery {
	return Discovery{Cwd: l.work, Home: l.home, ProjectRoot: l.work, ManagedDir: l.managed, GeminiSystemSettings: l.gemini, fs: fsys}
}

// TestLookCalls bounds the file system calls of Look (issue 9: a hook event under Claude Code
// stated every candidate of every agent, 24 of them, and read each absent one's link as
// well: 50 calls for bench/hookbridge.sh's installed case with the three patterns' listings
// and Gemini CLI's check, 52 with nothing anywhere): an absent file costs one lstat, and
// none when it is in a directory that is missing and holds another candidate (one stat for
// that directory) or when it is a pattern whose directory is missing (its listing said so);
// a file one lstat; a link one more; a dangling link its readlink too.
func TestLookCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, l lookLayout)
		want  map[string]int
	}{
		{"nothing anywhere", func(*testing.T, lookLayout) {},
			// 11 lstats: 6 in the home, 3 in the project, the managed settings and
			// Gemini CLI's system file; 5 stats for the directories of two candidates
			// (~/.codex; .hookcore, .claude, .minicode and .codex of the project); the
			// three patterns' listings and that of ~/.gemini/extensions (stop 31). 20
			// calls, 52 before.
			map[string]int{"lstat": 11, "stat": 5, "glob": 4}},
		{"bench/hookbridge.sh's installed case", func(t *testing.T, l lookLayout) {
			write(t, l.home, ".hookcore/hooks.yaml", hooksYAML)
			write(t, l.home, ".claude/settings.json", `{"model": "opus"}`)
		}, map[string]int{"lstat": 11, "stat": 5, "glob": 4}},
		{"a project's .claude with both settings files", func(t *testing.T, l lookLayout) {
			write(t, l.work, ".claude/settings.json", `{}`)
			write(t, l.work, ".claude/settings.local.json", `{}`)
		}, map[string]int{"lstat": 13, "stat": 5, "glob": 4}},
		{"a link, and a dangling one", func(t *testing.T, l lookLayout) {
			target := write(t, l.home, "dotfiles/hooks.yaml", hooksYAML)
			symlink(t, target, filepath.Join(l.home, ".hookcore", "hooks.yaml"))
			symlink(t, filepath.Join(l.home, "dotfiles", "gone.json"), filepath.Join(l.home, ".gemini", "settings.json"))
		}, map[string]int{"lstat": 11, "stat": 7, "readlink": 1, "glob": 4}},
		{"a pattern that matches", func(t *testing.T, l lookLayout) {
			write(t, l.work, ".github/hooks/a.json", `{}`)
			write(t, l.work, ".github/hooks/b.json", `{}`)
		}, map[string]int{"lstat": 13, "stat": 5, "glob": 4}},
		{"a pattern whose directory is empty", func(t *testing.T, l lookLayout) {
			if err := os.MkdirAll(filepath.Join(l.home, ".copilot", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"lstat": 12, "stat": 5, "glob": 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLookLayout(t)
			tt.setup(t, l)
			c := &countingFS{}
			if _, err := l.discovery(c).Look(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, c.count()); diff != "" {
				t.Errorf("calls (-want +got):\n%s\n%q", diff, c.calls)
			}
		})
	}
}

// TestLookFindsWhatStatFound: Look's candidates are what discovery found before it counted
// its calls (TestLookCalls), when every candidate was stated and an absent one's link read:
// the same Found and Err, and the same duplicates, for files, links, dangling links, link
// loops, directories and regular files where the other is expected, missing and empty
// directories and patterns.
func TestLookFindsWhatStatFound(t *testing.T) {
	t.Parallel()
	l := newLookLayout(t)
	mkdir := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Home: a file, a link to it (a duplicate), a dangling link, a link loop, a directory
	// where a file is expected, a regular file where a directory is, a link to a
	// directory, an empty pattern directory.
	user := write(t, l.home, ".hookcore/hooks.yaml", hooksYAML)
	symlink(t, user, filepath.Join(l.home, ".minicode", "config.yaml"))
	symlink(t, filepath.Join(l.home, "gone"), filepath.Join(l.home, ".claude", "settings.json"))
	symlink(t, filepath.Join(l.home, ".gemini", "loop"), filepath.Join(l.home, ".gemini", "settings.json"))
	symlink(t, filepath.Join(l.home, ".gemini", "settings.json"), filepath.Join(l.home, ".gemini", "loop"))
	mkdir(filepath.Join(l.home, ".cursor", "hooks.json"))
	write(t, l.home, ".codebot", "not a directory")
	write(t, l.home, "codex-real/config.toml", "")
	symlink(t, filepath.Join(l.home, "codex-real"), filepath.Join(l.home, ".codex"))
	mkdir(filepath.Join(l.home, ".copilot", "hooks"))
	// Project: a dangling link where a directory is expected, a directory of two
	// candidates with one of them, a regular file where a pattern's directory is, a
	// link to the user's file (which loads as the user's), a directory where a file is.
	symlink(t, filepath.Join(l.work, "gone"), filepath.Join(l.work, ".minicode"))
	write(t, l.work, ".claude/settings.local.json", `{}`)
	write(t, l.work, ".github/hooks", "not a directory")
	symlink(t, user, filepath.Join(l.work, ".hookcore", "hooks.yaml"))
	mkdir(filepath.Join(l.work, ".cursor", "hooks.json"))
	// Managed: two drop-in files, a link loop where the directory of a file is.
	write(t, l.managed, "managed-settings.d/a.json", `{}`)
	write(t, l.managed, "managed-settings.d/b.json", `{}`)
	symlink(t, filepath.Join(l.managed, "x"), filepath.Join(l.managed, "y"))
	symlink(t, filepath.Join(l.managed, "y"), filepath.Join(l.managed, "x"))
	got, err := l.discovery(nil).Look()
	if err != nil {
		t.Fatal(err)
	}
	d := l.discovery(nil)
	d.Settings = []string{filepath.Join(l.managed, "x", "s.json"), filepath.Join(l.managed, "x", "t.json")}
	withSettings, err := d.Look()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, withSettings[len(withSettings)-2:]...)

	type seen struct {
		Path       string
		Found, Dup bool
		Err        string
	}
	summary := func(cands []Candidate) []seen {
		var out []seen
		for _, c := range cands {
			s := seen{Path: c.Path, Found: c.Found, Dup: c.Dup}
			if c.Err != nil {
				s.Err = c.Err.Error()
			}
			out = append(out, s)
		}
		return out
	}
	// want: each candidate as Look examined it before issue 9's stop 30, a stat, then a
	// readlink when the stat found nothing.
	want := append([]Candidate(nil), got...)
	for i := range want {
		c := &want[i]
		c.Found, c.Err, c.st = false, nil, nil
		st, err := os.Stat(c.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if target, lerr := os.Readlink(c.Path); lerr == nil {
				c.Found, c.Err = true, fmt.Errorf("a symbolic link to %s, which does not exist", target)
			}
		case err != nil:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			c.Found, c.Err = true, err
		default:
			c.Found, c.st = true, st
		}
	}
	markDups(want)
	if diff := cmp.Diff(summary(want), summary(got)); diff != "" {
		t.Errorf("candidates (-stat and readlink +Look):\n%s", diff)
	}
	if n := len(got); n < 20 {
		t.Errorf("%d candidates", n)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// lookFS is the file system as Look sees it: os.Lstat, os.Stat, os.Readlink and
// regularfile.Glob in osLookFS, what a Discovery without one uses. Internal tests count its
// calls, each one system call or one directory listing.
type lookFS interface {
	Lstat(name string) (fs.FileInfo, error)
	Stat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	Glob(dir, pattern string, maxNames int) (matches []string, complete bool, err error)
}

// osLookFS is the operating system's lookFS.
type osLookFS struct{}

func (osLookFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (osLookFS) Stat(name string) (fs.FileInfo, error)  { return os.Stat(name) }
func (osLookFS) Readlink(name string) (string, error)   { return os.Readlink(name) }
func (osLookFS) Glob(dir, pattern string, maxNames int) ([]string, bool, error) {
	return regularfile.Glob(dir, pattern, maxNames)
}

// fsys is d's lookFS.
func (d Discovery) fsys() lookFS {
	if d.fs == nil {
		return osLookFS{}
	}
	return d.fs
}

// examine looks up each candidate of cands that is neither Refused (found, as such) nor
// absent, setting Found, Err and st as Look documents, in as few system calls as the
// answers allow (issue 9: a hook event stated about 25 absent files, and read each one's
// link as well):
//
//   - an lstat answers for a path where nothing is (no file and no dangling link) and for a
//     file that is not a link; a link is stated then, and a dangling link's target read for
//     its error (what a stat, then a readlink when it failed, answered before);
//   - a directory that two or more candidates are in (.codex/hooks.json and config.toml,
//     .claude/settings.json and settings.local.json, ...) is stated first, unless a pattern
//     listed it (listed): when it does not exist, neither does any path in it, nor a link
//     there, and none of them is looked up. One call for the directory where there were
//     two for its files; one more when it exists.
func (d Discovery) examine(cands []Candidate, listed map[string]bool) {
	fsys := d.fsys()
	in := map[string]int{} // directory: how many candidates to look up are in it
	for _, c := range cands {
		if c.Refused == "" && !c.absent {
			in[filepath.Dir(c.Path)]++
		}
	}
	missing := map[string]bool{} // the shared directories stated: whether each is missing
	for i := range cands {
		c := &cands[i]
		if c.Refused != "" {
			c.Found = true
			continue
		}
		if c.absent {
			continue
		}
		if dir := filepath.Dir(c.Path); in[dir] > 1 && !listed[dir] {
			gone, stated := missing[dir]
			if !stated {
				_, err := fsys.Stat(dir)
				gone = errors.Is(err, fs.ErrNotExist)
				missing[dir] = gone
			}
			if gone {
				continue
			}
		}
		lookUp(fsys, c)
	}
}

// lookUp sets c's Found, Err and st from what is at c.Path.
func lookUp(fsys lookFS, c *Candidate) {
	st, err := fsys.Lstat(c.Path)
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		st, err = fsys.Stat(c.Path)
		if errors.Is(err, fs.ErrNotExist) {
			// A symbolic link whose target is missing (a dotfiles checkout not there yet) is
			// a config the user meant to have: its load error, not "not found" and no guard
			// (new-user trial, stop 24).
			if target, lerr := fsys.Readlink(c.Path); lerr == nil {
				c.Found, c.Err = true, fmt.Errorf("a symbolic link to %s, which does not exist", target)
			}
			return
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		c.Found, c.Err = true, err
		return
	}
	c.Found, c.st = true, st
}

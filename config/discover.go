package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultDir is the directory name of the discovered layers when Discovery.Dir is empty.
const DefaultDir = ".hookcore"

// Discovery finds the layered config files of DESIGN.md section 4. Its zero value uses the
// process's working directory and home directory and ".hookcore".
type Discovery struct {
	// Cwd is the working directory; "" means os.Getwd.
	Cwd string
	// Home is the user's home directory; "" means os.UserHomeDir (no user layer when that
	// fails).
	Home string
	// Dir is the name of the config directory, ".hookcore" when empty; a harness may use its
	// own (".minicode", ".codebot").
	Dir string
	// ProjectRoot is where the project and local layers are looked up; when empty it is
	// ProjectRoot(Cwd).
	ProjectRoot string
}

// LayerPath is one discovered config file and its layer.
type LayerPath struct {
	Path  string
	Layer Layer
}

// Candidate is one config file that discovery looked for.
type Candidate struct {
	LayerPath
	// Found is set when something exists at Path (it may still fail to load) or Path could
	// not be examined.
	Found bool
	// Dup is set when Path is a file already found under an earlier candidate (compared
	// with os.SameFile); such a candidate is not loaded again.
	Dup bool
	// Err is why Path could not be examined (a symlink loop, a regular file where a
	// directory should be, permission denied); nil when it does not exist or was examined.
	Err error
}

// Look returns every config file discovery looks for, in load order, with what it found
// (see Paths). It fails only when the working directory cannot be found: a problem with one
// candidate is that candidate's Err, so a repository cannot make discovery as a whole fail
// (issue 10.2).
func (d Discovery) Look() ([]Candidate, error) {
	dir := d.Dir
	if dir == "" {
		dir = DefaultDir
	}
	cwd := d.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cwd = wd
	}
	home := d.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	root := d.ProjectRoot
	if root == "" {
		root = ProjectRoot(cwd)
	}
	var out []Candidate
	add := func(path string, layer Layer) {
		out = append(out, Candidate{LayerPath: LayerPath{Path: path, Layer: layer}})
	}
	if home != "" {
		add(filepath.Join(home, dir, "hooks.yaml"), User)
	}
	add(filepath.Join(root, dir, "hooks.yaml"), Project)
	add(filepath.Join(root, dir, "hooks.local.yaml"), Local)

	var seen []fs.FileInfo
	for i := range out {
		c := &out[i]
		st, err := os.Stat(c.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			c.Found, c.Err = true, err
			continue
		}
		c.Found = true
		for _, s := range seen {
			if os.SameFile(s, st) {
				c.Dup = true
			}
		}
		if !c.Dup {
			seen = append(seen, st)
		}
	}
	return out, nil
}

// Paths returns the config files that exist, in load order: user ~/<Dir>/hooks.yaml, project
// <root>/<Dir>/hooks.yaml, local <root>/<Dir>/hooks.local.yaml. A file reached twice (the
// working directory is $HOME, or a symlink points at another layer's file) is returned once,
// under its first layer, compared with os.SameFile (DESIGN.md section 7); the returned Path
// is the path as discovered, not the real path. A path that exists but cannot be examined
// (a symlink loop, permission denied, `.hookcore` a regular file) is returned too: loading
// it reports the problem as that file's error, which an untrusted project layer ignores.
// Paths fails only when the working directory cannot be found.
func (d Discovery) Paths() ([]LayerPath, error) {
	cands, err := d.Look()
	if err != nil {
		return nil, err
	}
	var out []LayerPath
	for _, c := range cands {
		if c.Found && !c.Dup {
			out = append(out, c.LayerPath)
		}
	}
	return out, nil
}

// ProjectRoot returns the git top-level of cwd: the nearest directory at or above cwd that
// holds a ".git" entry (a directory, or a file as in worktrees and submodules); cwd itself
// (made absolute) when there is none (DESIGN.md section 7, "Project root").
func ProjectRoot(cwd string) string {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return cwd
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		dir = parent
	}
}

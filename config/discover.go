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

// Paths returns the config files that exist, in load order: user ~/<Dir>/hooks.yaml, project
// <root>/<Dir>/hooks.yaml, local <root>/<Dir>/hooks.local.yaml. A file reached twice (the
// working directory is $HOME, or a symlink points at another layer's file) is returned once,
// under its first layer, compared by real path (DESIGN.md section 7); the returned Path is
// the path as discovered, not the real path. A file that exists but cannot be examined
// (permission denied) is an error.
func (d Discovery) Paths() ([]LayerPath, error) {
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
	var candidates []LayerPath
	if home != "" {
		candidates = append(candidates, LayerPath{filepath.Join(home, dir, "hooks.yaml"), User})
	}
	candidates = append(candidates,
		LayerPath{filepath.Join(root, dir, "hooks.yaml"), Project},
		LayerPath{filepath.Join(root, dir, "hooks.local.yaml"), Local})

	var out []LayerPath
	seen := map[string]bool{}
	for _, c := range candidates {
		st, err := os.Stat(c.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			continue
		}
		real, err := filepath.EvalSymlinks(c.Path)
		if err != nil {
			return nil, err
		}
		if real, err = filepath.Abs(real); err != nil {
			return nil, err
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, c)
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

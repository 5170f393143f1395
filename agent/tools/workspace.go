package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/agent"
)

// ErrOutside is wrapped by Workspace.Resolve for a path that escapes the workspace root.
var ErrOutside = errors.New("path is outside the workspace")

// Workspace is the directory the file tools may touch. Its zero value is the process's
// working directory.
type Workspace struct {
	Root string
}

func (w Workspace) root() (string, error) {
	r := w.Root
	if r == "" {
		r = "."
	}
	abs, err := filepath.Abs(r)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Resolve returns the absolute, symlink-free path of p (relative paths are taken from the
// root). The deepest existing ancestor of p is resolved through its symbolic links, so a
// link pointing out of the root is caught even when p itself does not exist yet. A path
// outside the root is an error wrapping ErrOutside.
func (w Workspace) Resolve(p string) (string, error) {
	root, err := w.root()
	if err != nil {
		return "", fmt.Errorf("workspace: %w", err)
	}
	if p == "" {
		return "", errors.New("empty path")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	// Resolve the deepest existing ancestor, keep the rest as written.
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", err
	}
	full := filepath.Join(real, rest)
	if full != root && !strings.HasPrefix(full, root+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s", ErrOutside, p)
	}
	return full, nil
}

// All returns the four built-in tools for w with default limits.
func All(w Workspace) []agent.Tool {
	return []agent.Tool{&Bash{Dir: w.Root}, ReadFile{W: w}, WriteFile{W: w}, EditFile{W: w}}
}

package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Apply writes the plan: a backup of the old file (FILE.hookcore-YYYYMMDD-HHMMSS.bak beside
// Path, returned; "" when there was no file), then the new content atomically: a temporary
// file in the directory of the file written, synced, given the old file's mode and renamed
// over it. When Path is a symbolic link (a dotfiles setup), the file written is the one it
// points to, so the link stays a link; a link to nothing is an error, not replaced. A plan
// that changes nothing writes nothing.
func (p *Plan) Apply(now time.Time) (backup string, err error) {
	if !p.Changed {
		return "", nil
	}
	path, err := target(p.Path)
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if p.Old != nil {
		backup = fmt.Sprintf("%s.hookcore-%s.bak", p.Path, now.UTC().Format("20060102-150405.000000000"))
		if err := os.WriteFile(backup, p.Old, mode); err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".hookcore-*")
	if err != nil {
		return backup, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(p.New); err != nil {
		tmp.Close()
		return backup, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return backup, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return backup, err
	}
	if err := tmp.Close(); err != nil {
		return backup, err
	}
	return backup, os.Rename(tmp.Name(), path)
}

// target is the file that writing path changes: path itself, or, when path is a symbolic
// link, the file it points to, every link resolved. The error is a link to nothing (writing
// would replace the link with a file: new-user trial, stop 22) or a loop of links.
func target(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil // no file yet, or no link: a read or write reports other errors
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		dest, _ := os.Readlink(path)
		return "", fmt.Errorf("%s is a symbolic link to %s, which does not exist: hookcore does not replace a link with a file (create the file it points to, or remove the link)", path, dest)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return real, nil
}

package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hookcore/hookcore/config"
)

// ReadOnly reports whether the settings file that was read (links resolved) has no write
// permission for its owner (chmod a-w: mode 0444): Apply would replace it all the same, as a
// rename needs only the directory's permission, and keep its mode. The CLI refuses such a
// file (new-user trial, stop 30: a 0444 ~/.claude/settings.json was rewritten unasked).
func (p *Plan) ReadOnly() bool { return p.info != nil && p.info.Mode().Perm()&0o200 == 0 }

// Perm is the permission bits of the settings file that was read; 0 when there was none.
func (p *Plan) Perm() fs.FileMode {
	if p.info == nil {
		return 0
	}
	return p.info.Mode().Perm()
}

// Apply writes the plan: a backup of the old file (FILE.hookcore-YYYYMMDD-HHMMSS.bak beside
// Path, or in BackupDir with Path's directories in its name, %-separated; returned; "" when
// there was no file), then the new content atomically: a temporary
// file in the directory of the file written, synced, given the old file's mode and renamed
// over it. When Path is a symbolic link (a dotfiles setup), the file written is the one it
// points to, so the link stays a link; a link to nothing is an error, not replaced. A plan
// that changes nothing writes nothing.
//
// The file written is the one the plan read (Install, Uninstall): Apply refuses, writing
// nothing, when Path no longer resolves to it or the file changed since (size, time or
// content), so a link swapped between plan and write cannot make it overwrite a file no
// backup holds (red team 11). A Plan made by hand (convert -o) is checked against its Old.
// Only a regular file is read or written. On an error nothing is left behind: no backup, no
// temporary file.
func (p *Plan) Apply(now time.Time) (backup string, err error) {
	if !p.Changed {
		return "", nil
	}
	file := p.file
	if file == "" {
		if file, err = resolvePath(p.Path); err != nil {
			return "", err
		}
	}
	if err := p.unchanged(file); err != nil {
		return "", err
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", writeError(p.Path, file, err)
	}
	mode := os.FileMode(0o644)
	if p.info != nil {
		mode = p.info.Mode().Perm()
	} else if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	// The temporary file first: where the directory cannot be written, nothing is made.
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".hookcore-*")
	if err != nil {
		return "", writeError(p.Path, file, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(p.New)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", writeError(p.Path, file, err)
	}
	if p.Old != nil {
		backup = p.Path
		if p.BackupDir != "" {
			if backup, err = backupName(p.Path, p.BackupDir); err != nil {
				return "", fmt.Errorf("cannot keep the old file as a backup: %w (nothing written)", err)
			}
		}
		backup = fmt.Sprintf("%s.hookcore-%s.bak", backup, now.UTC().Format("20060102-150405.000000000"))
		if err := writeNew(backup, p.Old, mode); err != nil {
			return "", fmt.Errorf("cannot keep the old file as a backup: %w (nothing written)", err)
		}
	}
	if err = p.unchanged(file); err == nil {
		if p.Delete {
			err = os.Remove(file)
		} else {
			err = os.Rename(tmp.Name(), file)
		}
		if err != nil {
			err = writeError(p.Path, file, err)
		}
	}
	if err != nil && backup != "" {
		os.Remove(backup) //nolint:errcheck // the old file is unchanged: its backup goes
		backup = ""
	}
	return backup, err
}

// backupName returns where in dir the backup of path goes, without its ".hookcore-TIME.bak":
// the last three names of path joined by %, cut to 64 bytes each, and the first 12 hex digits
// of the SHA-256 of path made absolute ("proj%.claude%settings.local.json.3f2a9c1b0d4e"), so
// that two projects' settings files never share a name and no name passes the file
// system's 255 bytes (red team round 29: the whole path in the name made a project 190 bytes
// deep impossible to uninstall from). dir is made 0700 if missing; it must be a directory,
// not a symbolic link (a link planted there wrote a backup of settings.local.json into the
// repository), and is made 0700 if it is wider.
func backupName(path, dir string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory (a symbolic link?): the backup would go where it points", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", err
		}
	}
	cut := func(s string) string {
		if len(s) > 64 {
			s = s[:64]
		}
		return s
	}
	sum := sha256.Sum256([]byte(abs))
	parent := filepath.Dir(abs)
	name := cut(filepath.Base(filepath.Dir(parent))) + "%" + cut(filepath.Base(parent)) + "%" + cut(filepath.Base(abs)) + "." + hex.EncodeToString(sum[:6])
	return filepath.Join(dir, name), nil
}

// unchanged returns an error when p.Path no longer resolves to file, or file is not what
// the plan read.
func (p *Plan) unchanged(file string) error {
	now, err := resolvePath(p.Path)
	if err != nil {
		return err
	}
	if now != file {
		return fmt.Errorf("%s now resolves to %s, not to %s, the file hookcore read: nothing written (run the command again)", p.Path, now, file)
	}
	cur, info, err := readRegular(file)
	if err != nil {
		return err
	}
	if (cur == nil) != (p.Old == nil) || !bytes.Equal(cur, p.Old) ||
		p.info != nil && (!os.SameFile(info, p.info) || !info.ModTime().Equal(p.info.ModTime()) || info.Size() != p.info.Size()) {
		return fmt.Errorf("%s changed since hookcore read it: nothing written (run the command again)", file)
	}
	return nil
}

// writeNew writes data to a file that must not exist yet (a link placed at its name is
// not followed).
func writeNew(name string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name) //nolint:errcheck // a partial backup is no backup
	}
	return err
}

// writeError says which file could not be written, and through which link.
func writeError(path, file string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if file != path {
		return fmt.Errorf("cannot write %s (the file %s points to) in %s: %v (nothing written)", file, path, filepath.Dir(file), err)
	}
	return fmt.Errorf("cannot write %s in %s: %v (nothing written)", path, filepath.Dir(file), err)
}

// resolvePath is the file that writing path changes, every symbolic link of every
// component resolved (filepath.EvalSymlinks); a missing tail (no file yet, no directory
// yet) is kept as it is. The error is a link to nothing on the way (writing would replace
// the link with a file: new-user trial, stop 22) or a loop of links.
func resolvePath(path string) (string, error) {
	p, rest := filepath.Clean(path), ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if e := notDir(path, err); e != err {
				return "", e
			}
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dest, _ := os.Readlink(p)
			return "", fmt.Errorf("%s is a symbolic link to %s, which does not exist: hookcore does not replace a link with a file (create the file it points to, or remove the link)", p, dest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(path), nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// notDir is err, or, when it is ENOTDIR, an error naming the directory on the way to path
// that is a file (new-user trial, stop 28: ".claude/settings.json: not a directory" did not
// say which).
func notDir(path string, err error) error {
	if !errors.Is(err, syscall.ENOTDIR) {
		return err
	}
	for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
		if st, serr := os.Stat(d); serr == nil && !st.IsDir() {
			return fmt.Errorf("%s is a file, not a directory, so %s cannot be there: move the file away (the agent reads no settings there either)", d, filepath.Base(path))
		}
	}
	return err
}

// readRegular reads the settings file at file (links resolved): nil, nil when there is
// none. The error is a file that is not a regular file (a device, a FIFO, a directory: red
// team 11, a link to /dev/zero read forever and one to a device had it replaced by a
// regular file) or one larger than config.MaxFileSize (512 KiB), which no settings file is.
func readRegular(file string) ([]byte, fs.FileInfo, error) {
	fi, err := os.Lstat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, notDir(file, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file (%s): hookcore reads and writes only a regular settings file", file, config.FileKind(fi.Mode()))
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !os.SameFile(fi, fi2) {
		return nil, nil, fmt.Errorf("%s changed while hookcore read it", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, config.MaxFileSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > config.MaxFileSize {
		return nil, nil, fmt.Errorf("%s is larger than %d KiB, the most hookcore reads of a settings file", file, config.MaxFileSize>>10)
	}
	return data, fi, nil
}

// under reports whether path (links resolved) is dir or lies in it.
func under(path, dir string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

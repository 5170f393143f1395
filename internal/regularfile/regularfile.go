// Package regularfile opens and reads the files hookcore does not own — a config file, a
// repository's .mcp.json or script, the settings read for enabledPlugins — and the stores it
// reads at every hook event, so that none of them can make a hook process wait or read
// what is not a file: the open never waits (O_NONBLOCK), the file must be regular by fstat
// on the opened descriptor, and a read stops at a cap. A repository controls most of these
// paths (issue 10.2; stop 23: a named pipe .mcp.json hung `hookcore hook claude` at every
// event until the agent's timeout, which agents treat as a non-blocking error).
package regularfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Open opens the file at path for reading: opened without blocking (O_NONBLOCK, so a named
// pipe or a device does not hang the open: a repository that ships one, or a symlink to one,
// must not hang the hook process), and required to be a regular file by fstat on the opened
// descriptor (not a FIFO, device, socket or directory: `/dev/stdin`, `/dev/zero` or a named
// pipe behind a symlink are refused, and the check cannot be raced by swapping the file
// after a stat). The file it returns reads in blocking mode, and on Unix it is not
// registered with Go's network poller (a regular file never waits; registering it cost every
// hook process the poller's set-up, issue 9). The caller closes it.
//
// Errors: the *fs.PathError of the open (fs.ErrNotExist, a symlink loop, permission), or
// *KindError for a file that is not regular, returned with its FileInfo; a file that is not
// regular when first looked at is never opened, and neither is one the stat does not find
// (its error is the open's, Op "open": one system call for an absent file, not two).
func Open(path string) (*os.File, fs.FileInfo, error) {
	// A stat first, so that what is not a regular file is refused without being opened:
	// opening a device runs its driver's open, which can act (as root, opening
	// /dev/watchdog arms the watchdog; a tape rewinds), and a repository's symlink chooses
	// the device (stop 23, red team). The fstat after the open still decides: a swap between
	// the two is refused there.
	st, err := os.Stat(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist):
		// Nothing to open, and the open would say so too (it resolves the same path): the
		// open's error without the open, which a hook event paid for each absent file it
		// reads (the trust store, .mcp.json, the project's settings; issue 9).
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: pe.Err}
	case err == nil && !st.Mode().IsRegular():
		return nil, st, &KindError{Mode: st.Mode()}
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, st, &KindError{Mode: st.Mode()}
	}
	return f, st, nil
}

// ErrTooLarge is Read's error for a file larger than its cap.
var ErrTooLarge = errors.New("larger than the cap")

// ErrPseudoFile is Read's error for a /proc or /sys pseudo-file, which fstat shows as an
// empty regular file but which reads content (/proc/self/environ would put the environment
// into an error message).
var ErrPseudoFile = errors.New("not a regular file (a pseudo-file such as /proc/self/environ: its size is 0 but it reads content)")

// Read reads the regular file at path, opened by Open, through a cap of max bytes (a file
// that grows while read cannot exhaust memory). It returns the content and the file's
// FileInfo (for os.SameFile). Errors: Open's; ErrTooLarge (with the FileInfo: its Size says
// by how much when the file was already larger when opened); ErrPseudoFile; the read's error
// without its *fs.PathError wrapper.
func Read(path string, max int64) ([]byte, fs.FileInfo, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, st, ErrTooLarge
	}
	data, err := readUpTo(f, st.Size(), max)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, st, err
	}
	if int64(len(data)) > max {
		return nil, st, ErrTooLarge
	}
	if st.Size() == 0 && len(data) > 0 {
		return nil, st, ErrPseudoFile
	}
	return data, st, nil
}

// readUpTo reads f to its end, or to limit+1 bytes, which says that it holds more than
// limit. Its first buffer holds size+1 bytes (size: the file's size when opened; 512 at
// least, as a pseudo-file's size is 0), so that a file that did not change since reads in
// two system calls, the second seeing the end: io.ReadAll's buffer, grown from 512 bytes,
// took nine for a 6 KB settings file at every hook event (issue 9). A file that grows
// meanwhile reads on, in a growing buffer.
func readUpTo(f *os.File, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, min(max(min(size, limit)+1, 512), limit+1))
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grow
		}
		n, err := f.Read(data[len(data):min(int64(cap(data)), limit+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
	return data, nil
}

// KindError is Open's error for a file that is not regular: "not a regular file (a named
// pipe)".
type KindError struct{ Mode fs.FileMode }

func (e *KindError) Error() string { return "not a regular file (" + Kind(e.Mode) + ")" }

// Kind names the kind of a file that is not regular ("a directory", "a named pipe", "a
// character device", ...), for an error that says why hookcore does not read it.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// ID is a file's identity (Identity): its device and inode on Unix.
type ID struct{ Dev, Ino uint64 }

// DirNames returns the names in the directory dir, in the order the system gives them,
// complete false when it holds more than max (then not all are read, and none returned): a
// repository's directory may hold millions of names, and a caller that needs them all
// (to sort, to match a pattern) must not read them at every hook event (stop 23, red team
// round 15). What is not a directory, or cannot be read, holds none: it is never opened
// as anything else, and the open does not wait (O_DIRECTORY, O_NONBLOCK).
func DirNames(dir string, max int) (names []string, complete bool) {
	names, complete, _ = dirNames(dir, max)
	return names, complete
}

// dirNames is DirNames with why dir holds no names: the *fs.PathError of its stat or open,
// or *KindError when it is not a directory; nil when it was read.
func dirNames(dir string, max int) (names []string, complete bool, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, true, err
	}
	if !st.IsDir() {
		return nil, true, &KindError{Mode: st.Mode()} // a named pipe or a device is never opened (round 16: a FIFO at .github/hooks hung the open)
	}
	d, err := openDir(dir)
	if err != nil {
		return nil, true, err
	}
	defer d.Close()
	for {
		batch, err := d.Readdirnames(256)
		names = append(names, batch...)
		if len(names) > max {
			return nil, false, nil
		}
		if err != nil || len(batch) == 0 {
			return names, true, nil
		}
	}
}

// Glob returns the entries of the directory dir whose names match pattern (one path
// element, filepath.Match's syntax), joined to dir, in lexical order: filepath.Glob's
// answer for dir/pattern, read with DirNames. complete is false, with no matches, when dir
// holds more than maxNames names. err says why dir holds none: the *fs.PathError of its
// stat (fs.ErrNotExist when it does not exist: then no path under it does either, which a
// caller need not look up again) or of its open, or *KindError when it is not a directory;
// nil when it was read, matches or not.
func Glob(dir, pattern string, maxNames int) (matches []string, complete bool, err error) {
	names, complete, err := dirNames(dir, maxNames)
	if !complete || err != nil {
		return nil, complete, err
	}
	slices.Sort(names)
	for _, n := range names {
		if ok, _ := filepath.Match(pattern, n); ok {
			matches = append(matches, filepath.Join(dir, n))
		}
	}
	return matches, true, nil
}

package config

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// ReadFile reads the config file at path the way every config file is read
// (internal/regularfile): opened without blocking (O_NONBLOCK, so a FIFO or a device does
// not hang the open), required to be a regular file by fstat on the opened descriptor (not
// a FIFO, device, socket or directory: `/dev/stdin`, `/dev/zero` or a named pipe behind a
// symlink are refused, and the check cannot be raced by swapping the file after a stat; a
// /proc or /sys pseudo-file, which fstat shows as an empty regular file, is refused when it
// reads content), and read through a cap of MaxFileSize bytes (so a file that grows while
// read cannot exhaust memory). It returns the content and the file's FileInfo (for
// os.SameFile). A repository controls its project config, so any of these is that file's
// error, never a hang or a crash (issue 10.2).
//
// Errors are the *fs.PathError of the open (fs.ErrNotExist, a symlink loop, permission), or
// a plain error saying what kind of file it is or that it passes the size cap.
func ReadFile(path string) ([]byte, fs.FileInfo, error) {
	data, st, err := regularfile.Read(path, MaxFileSize)
	if errors.Is(err, regularfile.ErrTooLarge) {
		if st.Size() > MaxFileSize {
			return nil, st, fmt.Errorf("config file is %d bytes; the limit is %d KiB", st.Size(), MaxFileSize>>10)
		}
		return nil, st, fmt.Errorf("config file is larger than %d KiB; the limit is %d KiB", MaxFileSize>>10, MaxFileSize>>10)
	}
	return data, st, err
}

// FileKind names the kind of a file that is not regular ("a directory", "a named pipe", "a
// character device", ...), for an error that says why hookcore does not read it.
func FileKind(m fs.FileMode) string { return regularfile.Kind(m) }

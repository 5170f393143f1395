package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadFile reads the config file at path the way every config file is read: opened without
// blocking (O_NONBLOCK, so a FIFO or a device does not hang the open), required to be a
// regular file by fstat on the opened descriptor (not a FIFO, device, socket or directory:
// `/dev/stdin`, `/dev/zero` or a named pipe behind a symlink are refused, and the check
// cannot be raced by swapping the file after a stat; a /proc or /sys pseudo-file, which
// fstat shows as an empty regular file, is refused when it reads content), and read
// through a cap of
// MaxFileSize bytes (so a file that grows while read cannot exhaust memory). It returns the
// content and the file's FileInfo (for os.SameFile). A repository controls its project
// config, so any of these is that file's error, never a hang or a crash (issue 10.2).
//
// Errors are the *fs.PathError of the open (fs.ErrNotExist, a symlink loop, permission), or
// a plain error saying what kind of file it is or that it passes the size cap.
func ReadFile(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, fmt.Errorf("not a regular file (%s)", FileKind(st.Mode()))
	}
	if st.Size() > MaxFileSize {
		return nil, st, fmt.Errorf("config file is %d bytes; the limit is %d KiB", st.Size(), MaxFileSize>>10)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, st, err
	}
	if len(data) > MaxFileSize {
		return nil, st, fmt.Errorf("config file is larger than %d KiB; the limit is %d KiB", MaxFileSize>>10, MaxFileSize>>10)
	}
	if st.Size() == 0 && len(data) > 0 {
		// /proc and /sys files are "regular" with size 0: /proc/self/environ would put the
		// environment's text into this file's error messages.
		return nil, st, errors.New("not a regular file (a pseudo-file such as /proc/self/environ: its size is 0 but it reads content)")
	}
	return data, st, nil
}

// FileKind names the kind of a file that is not regular ("a directory", "a named pipe", "a
// character device", ...), for an error that says why hookcore does not read it.
func FileKind(m fs.FileMode) string {
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

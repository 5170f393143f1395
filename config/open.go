package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// OpenRegular opens the file at path for reading the way hookcore opens every file that a
// config or a repository names (config files, .mcp.json, the settings read for
// enabledPlugins, the scripts a trust grant hashes): opened without blocking (O_NONBLOCK, so
// a named pipe or a device does not hang the open: a repository that ships one, or a
// symlink to one, must not hang the hook process until the agent's timeout, which agents
// treat as a non-blocking error: fail open), and required to be a regular file by fstat on
// the opened descriptor (not a FIFO, device, socket or directory: `/dev/stdin`, `/dev/zero`
// or a named pipe behind a symlink are refused, and the check cannot be raced by swapping
// the file after a stat). The file it returns reads in blocking mode, and on Unix it is not
// registered with Go's network poller (a regular file never waits; registering it cost the
// hook process the poller's set-up at every start, issue 9). The caller closes it.
//
// Errors are the *fs.PathError of the open (fs.ErrNotExist, a symlink loop, permission), or
// a plain error saying what kind of file it is ("not a regular file (a named pipe)"); the
// FileInfo is returned with the latter.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, st, fmt.Errorf("not a regular file (%s)", FileKind(st.Mode()))
	}
	return f, st, nil
}

// ReadFile reads the config file at path the way every config file is read: opened by
// OpenRegular (never a hang on a named pipe or device, a regular file only), a /proc or
// /sys pseudo-file, which fstat shows as an empty regular file, refused when it reads
// content, and read through a cap of MaxFileSize bytes (so a file that grows while read
// cannot exhaust memory). It returns the content and the file's FileInfo (for
// os.SameFile). A repository controls its project config, so any of these is that file's
// error, never a hang or a crash (issue 10.2).
//
// Errors are OpenRegular's, or a plain error saying that the file passes the size cap or
// is a pseudo-file.
func ReadFile(path string) ([]byte, fs.FileInfo, error) {
	data, st, err := readCapped(path, MaxFileSize)
	if errors.Is(err, errTooLarge) {
		if st.Size() > MaxFileSize {
			return nil, st, fmt.Errorf("config file is %d bytes; the limit is %d KiB", st.Size(), MaxFileSize>>10)
		}
		return nil, st, fmt.Errorf("config file is larger than %d KiB; the limit is %d KiB", MaxFileSize>>10, MaxFileSize>>10)
	}
	return data, st, err
}

// ReadCapped reads the regular file at path as ReadFile does, with a cap of max bytes
// instead of MaxFileSize: for the other files a config or a repository names (a .mcp.json,
// a settings file read for enabledPlugins, a plugin's metadata). Errors are ReadFile's,
// the size error saying "larger than max bytes".
func ReadCapped(path string, max int64) ([]byte, fs.FileInfo, error) {
	data, st, err := readCapped(path, max)
	if errors.Is(err, errTooLarge) {
		return nil, st, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return data, st, err
}

var errTooLarge = errors.New("too large")

func readCapped(path string, max int64) ([]byte, fs.FileInfo, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, st, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, st, err
	}
	if int64(len(data)) > max {
		return nil, st, errTooLarge
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

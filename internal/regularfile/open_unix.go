//go:build unix

package regularfile

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNonBlocking opens path read-only with O_NONBLOCK (a named pipe with no writer does not
// hang the open) and O_NOCTTY (a terminal does not become the process's), then clears
// O_NONBLOCK on the descriptor before os.NewFile wraps it: os.OpenFile would register the
// descriptor with the runtime's network poller, whose first use sets the poller up (an
// epoll instance, an eventfd, a thread that waits on them) in every hook process for no
// use, since Open reads only regular files (issue 9, the cold start). Errors are
// *fs.PathError, as os.OpenFile's.
func openNonBlocking(path string) (*os.File, error) { return openNoWait(path, syscall.O_NOCTTY) }

// openDir opens the directory path for reading its names: O_DIRECTORY makes the open fail
// on anything else, so a named pipe swapped in after a stat is not opened, and, as
// openNonBlocking's, the open does not wait and the file is kept off the poller.
func openDir(path string) (*os.File, error) { return openNoWait(path, syscall.O_DIRECTORY) }

// openNoWait opens path read-only with O_NONBLOCK and flags, then clears O_NONBLOCK before
// os.NewFile wraps the descriptor (see openNonBlocking). flags must hold no file status
// flag (O_APPEND, O_ASYNC, O_DIRECT, O_NOATIME): clearing O_NONBLOCK clears those too.
func openNoWait(path string, flags int) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|flags, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		// The status flags set are O_NONBLOCK alone (O_RDONLY, O_CLOEXEC and the flags of
		// openDir and openNonBlocking are not status flags, which F_SETFL leaves as they
		// are): one F_SETFL to 0 clears it, where syscall.SetNonblock read the flags first,
		// a second fcntl for every file a hook event reads (issue 9).
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, 0); err != nil {
			syscall.Close(fd)
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

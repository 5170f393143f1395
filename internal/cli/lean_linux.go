//go:build hookcore_lean && linux

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// inputFile is data in an anonymous memory file (memfd_create), positioned at its start:
// no file system is needed, so an unusable $TMPDIR cannot stop a hand-over. Where the
// kernel has no memfd it is tempInput's file.
func inputFile(data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("hookcore-input", unix.MFD_CLOEXEC)
	if err != nil {
		return tempInput(data)
	}
	f := os.NewFile(uintptr(fd), "hookcore-input")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return tempInput(data)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return tempInput(data)
	}
	return f, nil
}

package state

import (
	"os"
	"syscall"
	"unsafe"
)

// exists reports whether there is a file at the path p (not NUL-terminated), following
// symbolic links: faccessat(2) with F_OK on a NUL-terminated copy on the stack, so that
// no allocation is made for a path of up to 511 bytes (Dir.Holds).
func exists(p []byte) bool {
	var buf [512]byte
	if len(p) >= len(buf) {
		_, err := os.Stat(string(p))
		return err == nil
	}
	copy(buf[:], p)
	fd := _AT_FDCWD
	_, _, errno := syscall.Syscall(syscall.SYS_FACCESSAT, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), 0)
	return errno == 0
}

// _AT_FDCWD is AT_FDCWD: a path relative to the working directory.
const _AT_FDCWD = -0x64

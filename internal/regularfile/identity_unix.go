//go:build unix

package regularfile

import (
	"io/fs"
	"syscall"
)

// Identity returns the identity of the file st describes, the device and inode that
// os.SameFile compares on Unix, for a map keyed by file; ok is false outside Unix and for a
// FileInfo not from the operating system.
func Identity(st fs.FileInfo) (id ID, ok bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ID{}, false
	}
	return ID{Dev: uint64(sys.Dev), Ino: uint64(sys.Ino)}, true //nolint:unconvert // the types differ across systems
}

// Owner returns the user id that owns the file st describes; ok is false outside Unix and
// for a FileInfo not from the operating system.
func Owner(st fs.FileInfo) (uid uint32, ok bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return sys.Uid, true
}

package regularfile

import (
	"io/fs"
	"syscall"
)

// ChangeTime returns the inode change time of the file st describes, in nanoseconds since
// the epoch (see ctime_linux.go).
func ChangeTime(st fs.FileInfo) (ns int64, ok bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return sys.Ctimespec.Sec*1e9 + sys.Ctimespec.Nsec, true
}

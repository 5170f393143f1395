//go:build linux || darwin

package regularfile

import (
	"io/fs"
	"syscall"
)

// ChangeTime returns the inode change time of the file st describes, in nanoseconds since
// the epoch: the time no program can set back (touch sets the modification time, not this
// one). ok is false where it is not known here (ctime_other.go) and for a FileInfo not from
// the operating system.
func ChangeTime(st fs.FileInfo) (ns int64, ok bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	ts := ctimespec(sys)
	return ts.Nano(), true
}

//go:build unix

package match

import (
	"os"
	"syscall"
)

// linkCount returns the number of hard links of the file fi describes (st_nlink), 1 when
// the system does not say.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// writable reports whether the hook's user may write the file or directory p (access(2)
// with W_OK: always, for root, on a file system mounted read-write).
func writable(p string) bool { return syscall.Access(p, 2) == nil }

//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"syscall"
)

// mayWrite reports whether the process may change the file p or create it: p is writable,
// or the nearest existing directory above it is (access(2), W_OK: the effective user, root
// included, and read-only mounts).
func mayWrite(p string) bool {
	const wOK = 2
	if syscall.Access(p, wOK) == nil {
		return true
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			return syscall.Access(d, wOK) == nil
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

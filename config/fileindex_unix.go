//go:build unix

package config

import (
	"io/fs"
	"syscall"
)

// fileID is a file's identity: os.SameFile compares these on Unix.
type fileID struct{ dev, ino uint64 }

func identity(st fs.FileInfo) (fileID, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(sys.Dev), uint64(sys.Ino)}, true //nolint:unconvert // Dev and Ino differ in type across systems
}

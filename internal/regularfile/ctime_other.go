//go:build !linux && !darwin

package regularfile

import "io/fs"

// ChangeTime returns false: the inode change time is read on Linux and macOS only.
func ChangeTime(fs.FileInfo) (int64, bool) { return 0, false }

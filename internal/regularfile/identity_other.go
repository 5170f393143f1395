//go:build !unix

package regularfile

import "io/fs"

// Identity returns ok false outside Unix: compare files with os.SameFile there.
func Identity(fs.FileInfo) (id ID, ok bool) { return ID{}, false }

// Owner returns false: file owners are Unix's here.
func Owner(fs.FileInfo) (uint32, bool) { return 0, false }

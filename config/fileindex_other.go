//go:build !unix

package config

import "io/fs"

// fileID is unused outside Unix: files are compared with os.SameFile.
type fileID struct{}

func identity(fs.FileInfo) (fileID, bool) { return fileID{}, false }

//go:build !unix

package regularfile

import "os"

// openNonBlocking opens path read-only. Outside Unix, opening a named pipe or a device does
// not wait for a writer the way Unix's open does; Open still refuses what is not a
// regular file.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// openDir opens the directory path for reading its names.
func openDir(path string) (*os.File, error) { return os.Open(path) }

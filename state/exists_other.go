//go:build !linux

package state

import "os"

// exists reports whether there is a file at the path p, following symbolic links.
func exists(p []byte) bool {
	_, err := os.Stat(string(p))
	return err == nil
}

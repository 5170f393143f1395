//go:build hookcore_lean && !linux

package cli

import "os"

// inputFile is data in an unlinked temporary file (tempInput): this system has no memfd.
func inputFile(data []byte) (*os.File, error) { return tempInput(data) }

//go:build !unix

package state

import (
	"context"
	"errors"
	"os"
)

func lockFile(context.Context, *os.File) error {
	return errors.New("file locks are not supported on this platform; use hookcore serve")
}

func unlockFile(*os.File) {}

const openNoFollow = 0

func foreignDir(os.FileInfo) string { return "" }

//go:build !linux

package cli

import "os"

// startedAs is the first argument this process was started with (argv[0]): os.Args[0].
func startedAs() string { return os.Args[0] }

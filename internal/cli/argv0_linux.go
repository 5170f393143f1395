package cli

import (
	"bytes"
	"os"
)

// startedAs is the first argument this process was started with (argv[0]), as the program
// that started it passed it to execve: the name a shell ran, without a slash when it looked
// that name up on PATH. Read from /proc/self/cmdline, which os.Args[0] may not be (a test
// harness such as testscript rewrites it); os.Args[0] when that cannot be read.
func startedAs() string {
	data, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(data) == 0 {
		return os.Args[0]
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}

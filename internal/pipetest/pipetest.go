//go:build linux || darwin

// Package pipetest is a test helper: it runs code that opens a named pipe and fails the test,
// instead of hanging it, when the open waits for a writer.
package pipetest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// Make creates a named pipe at path, or skips the test where the system has none.
func Make(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// Returns runs fn, which opens the named pipe fifo, and fails the test when fn waits for a
// writer: after a minute (a hang guard, not a measure of speed) it opens and closes the
// pipe's other end, so that the waiting open returns and its read ends at EOF, then reports
// it.
func Returns(t testing.TB, fifo string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		if w, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatalf("opening the named pipe %s waited for a writer", fifo)
	}
}

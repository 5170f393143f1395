//go:build !hookcore_lean

package cli

import (
	"os"
	"testing"
)

// TestIsTerminalNotDevNull: /dev/null is a character device, not a terminal (new-user
// trial, stop 22: `fire EVENT < /dev/null` said it read from the terminal).
func TestIsTerminalNotDevNull(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("isTerminal(/dev/null) = true")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) {
		t.Error("isTerminal(pipe) = true")
	}
}

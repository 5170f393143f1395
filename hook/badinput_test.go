package hook

import (
	"errors"
	"fmt"
	"testing"
)

// TestBadInputFamily: ErrInputTooLarge and *InputTooLargeError are kinds of ErrBadInput, and
// not the other way round.
func TestBadInputFamily(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                  string
		err                   error
		badInput, inputTooBig bool
	}{
		{"ErrBadInput", ErrBadInput, true, false},
		{"ErrInputTooLarge", ErrInputTooLarge, true, true},
		{"wrapped ErrInputTooLarge", fmt.Errorf("hook x: %w", ErrInputTooLarge), true, true},
		{"*InputTooLargeError", fmt.Errorf("hook x: %w: %w", ErrNotStarted, &InputTooLargeError{Bytes: 1}), true, true},
		{"wrapped ErrBadInput", fmt.Errorf("hook x: %w: %w", ErrNotStarted, ErrBadInput), true, false},
		{"ErrNotStarted", ErrNotStarted, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := errors.Is(tt.err, ErrBadInput); got != tt.badInput {
				t.Errorf("errors.Is(%v, ErrBadInput) = %v", tt.err, got)
			}
			if got := errors.Is(tt.err, ErrInputTooLarge); got != tt.inputTooBig {
				t.Errorf("errors.Is(%v, ErrInputTooLarge) = %v", tt.err, got)
			}
		})
	}
	if got, want := ErrInputTooLarge.Error(), "hook input is too large for a command"; got != want {
		t.Errorf("ErrInputTooLarge = %q, want %q", got, want)
	}
}

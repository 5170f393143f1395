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

// TestInputFieldTypeWords: a field of the wrong type is named in the words of the JSON the
// agent sent, not of Go's decoder (new-user trial, stop 27: "json: cannot unmarshal number
// into Go value of type string").
func TestInputFieldTypeWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"session_id": 5}`, `hook input field "session_id" is a number, not a string`},
		{`{"stop_hook_active": "yes"}`, `hook input field "stop_hook_active" is a string, not true or false`},
		{`{"cwd": ["a"]}`, `hook input field "cwd" is a list, not a string`},
		{`{"session_id": {"a": 1}}`, `hook input field "session_id" is an object, not a string`},
	} {
		var in Input
		err := in.UnmarshalJSON([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.in, err, tt.want)
		}
	}
}

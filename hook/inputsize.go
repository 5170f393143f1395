package hook

import "fmt"

// InputTooLargeError is the error a command executor returns when a hook's arguments and
// environment, built from the input, are more than a program can be started with. It
// matches ErrInputTooLarge and ErrBadInput with errors.Is; find it with errors.As for the size.
type InputTooLargeError struct {
	// Bytes is the size of the arguments and environment the program would have been given,
	// counted as Linux counts it: every string with its NUL and a pointer (8 bytes).
	Bytes int
	// Detail says which limit was passed ("more than 1572864 in all", "one string of
	// 200013 bytes, more than 131072", "the system refused them: argument list too long").
	Detail string
}

// Error returns "hook input is too large for a command (N bytes of arguments and
// environment; detail)".
func (e *InputTooLargeError) Error() string {
	return fmt.Sprintf("%v (%d bytes of arguments and environment; %s)", ErrInputTooLarge, e.Bytes, e.Detail)
}

// Is reports whether target is ErrInputTooLarge or ErrBadInput.
func (e *InputTooLargeError) Is(target error) bool {
	return target == ErrInputTooLarge || target == ErrBadInput
}

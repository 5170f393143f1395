package command

import (
	"fmt"
	"strings"
)

// ExitAction is what a command hook's exit code means when the hook maps it explicitly
// (config `exit_codes: {1: block, 2: inject}`, the s08 protocol of seed 002).
type ExitAction int

const (
	// ExitOK is success: stdout is read as on exit 0 (envelope, or plain-text context).
	ExitOK ExitAction = iota
	// ExitBlock blocks; the reason is stderr, or stdout when stderr is blank, or a text
	// naming the hook.
	ExitBlock
	// ExitInject adds stderr, or stdout when stderr is blank, as additional context.
	ExitInject
	// ExitError is a non-blocking failure, as an unmapped non-zero exit code.
	ExitError
)

// String returns "ok", "block", "inject" or "error".
func (a ExitAction) String() string {
	switch a {
	case ExitOK:
		return "ok"
	case ExitBlock:
		return "block"
	case ExitInject:
		return "inject"
	case ExitError:
		return "error"
	}
	return fmt.Sprintf("ExitAction(%d)", int(a))
}

// ParseExitAction reads an action name, case-insensitively: "ok" or "continue" (ExitOK),
// "block", "inject" or "context" (ExitInject), "error". ok is false for anything else.
func ParseExitAction(s string) (a ExitAction, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "ok", "continue", "allow":
		return ExitOK, true
	case "block":
		return ExitBlock, true
	case "inject", "context":
		return ExitInject, true
	case "error":
		return ExitError, true
	}
	return ExitOK, false
}

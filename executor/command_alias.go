package executor

import "github.com/hookcore/hookcore/executor/command"

// The command executor moved to package executor/command (issue 13; docs/decisions.md,
// "The command executor in executor/command"). These names stay here for one release as
// aliases of the new ones, with the same values and behaviour.

// Command runs a hook as a child process.
//
// Deprecated: use command.Command (package executor/command).
type Command = command.Command

// DefaultTimeout is a command hook's timeout when Command.Timeout is zero (60 s).
//
// Deprecated: use command.DefaultTimeout.
const DefaultTimeout = command.DefaultTimeout

// ExitAction is what a command hook's exit code means when the hook maps it explicitly.
//
// Deprecated: use command.ExitAction.
type ExitAction = command.ExitAction

// The exit actions.
//
// Deprecated: use command.ExitOK, command.ExitBlock, command.ExitInject and
// command.ExitError.
const (
	ExitOK     = command.ExitOK
	ExitBlock  = command.ExitBlock
	ExitInject = command.ExitInject
	ExitError  = command.ExitError
)

// ParseExitAction reads an action name; see command.ParseExitAction.
//
// Deprecated: use command.ParseExitAction.
func ParseExitAction(s string) (ExitAction, bool) { return command.ParseExitAction(s) }

// ErrArithValue is wrapped by the error of a command hook whose context variable is used in
// an arithmetic context and is not a plain integer; it is command.ErrArithValue itself, so
// errors.Is matches either name.
//
// Deprecated: use command.ErrArithValue.
var ErrArithValue = command.ErrArithValue

// EnvFileEvents are the events whose command hooks get CLAUDE_ENV_FILE (the same slice as
// command.EnvFileEvents).
//
// Deprecated: use command.EnvFileEvents.
var EnvFileEvents = command.EnvFileEvents

// SessionEnvDir returns the directory of session's env files under dir; see
// command.SessionEnvDir.
//
// Deprecated: use command.SessionEnvDir.
func SessionEnvDir(dir, session string) string { return command.SessionEnvDir(dir, session) }

// SessionEnvFiles returns the env files the hooks of session wrote under dir; see
// command.SessionEnvFiles.
//
// Deprecated: use command.SessionEnvFiles.
func SessionEnvFiles(dir, session string) []string { return command.SessionEnvFiles(dir, session) }

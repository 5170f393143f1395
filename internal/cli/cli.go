// Package cli is the hookcore command line: check, list, fire, trust (and the commands of
// later issues). Main is the whole program, so tests drive it in-process or as a binary.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// shutdowner is what Main needs of a telemetry provider: a bounded flush.
type shutdowner interface {
	Shutdown(ctx context.Context) error
}

// Exit codes of every command (DESIGN.md section 9).
const (
	ExitOK      = 0 // allowed, or check found no error
	ExitFailure = 1 // usage or config error; check found an error
	ExitBlocked = 2 // fire: a hook blocked
)

// exitError carries an exit code out of a cobra command. Its message, if any, was already
// printed.
type exitError struct {
	code int
	msg  string
	// broken names the broken hook entries of a file the user named in hookcore's own
	// dialect (load's strict rule): exit 1, and on a gate event fire blocks with them as
	// the reason (gateBlock).
	broken string
}

func (e *exitError) Error() string { return e.msg }

func exitWith(code int) error { return &exitError{code: code} }

// env is what every command reads from the process: streams, directories and the logger.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cwd, home      string
	verbose        bool
	tel            shutdowner // the telemetry provider (-tags otel), flushed when Main returns; nil: off
	// args are Main's arguments, for the lean hook binary's hand-over to the full hookcore.
	args []string
	// handedOver is the lean hook binary's --handed-over, once its flags are parsed.
	handedOver bool
	// argless is set when the process was started with no arguments as Claude Code's hook
	// command, and runs as `hook claude` (arglessClaude).
	argless bool
	// hookBudget, when not 0, replaces agentBudget (tests).
	hookBudget time.Duration
	// transport is how serve and `hook --server` check each other (the full build's; the
	// lean binary hands --server over). The zero value is the default.
	transport transportOptions //lint:ignore U1000 the lean build (-tags hookcore_lean) has no serve and no --server
	// helpAnswer, when not nil, is the exit code of the answer the hook command gave to a
	// help request it was not asked for in a terminal (hookHelp); Main returns it.
	helpAnswer *int //lint:ignore U1000 the lean build (-tags hookcore_lean) hands help over
	// bundleCache, when set, is where rego hooks keep their bundle_url bundles (serve sets
	// its state directory); else the hook command's state directory (bundleCacheDir).
	bundleCache string
}

// handedOverFlag marks the command line a lean hook binary (cmd/hookcore-hook) hands to
// another hookcore: a hidden flag of the hook command, which the lean binary reads as "do
// not hand over again". A command-line flag, not an environment variable: a project's
// Claude Code settings set the hooks' environment (red team, the lean binary).
const handedOverFlag = "--handed-over"

func (e *env) logger() *slog.Logger {
	level := slog.LevelWarn
	if e.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// newEnv is the env of Main: the streams, args, working directory and home directory. When
// the working directory is unknown (deleted under the process) it says so on stderr and
// returns nil and the exit code: the hook command's fail-closed answer (failArgs), else 1.
func newEnv(args []string, stdin io.Reader, stdout, stderr io.Writer) (*env, int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, args: args}
	var err error
	if e.cwd, err = os.Getwd(); err != nil {
		// A guard cannot run its hooks without a working directory: the hook command
		// blocks, as for any event it cannot decide, and so does fire on a gate event (red
		// team rounds 10 and 11: exit 1 let the call through, also after `-v`).
		why := "the working directory is unknown: " + err.Error()
		words := positional(args)
		switch {
		case len(words) > 0 && words[0] == "hook":
			return nil, e.failArgs(args, why)
		case len(words) > 1 && words[0] == "fire":
			if ev, ok := hook.ParseEvent(words[1]); ok && ev.Kind() == hook.Gate {
				fmt.Fprintln(stderr, "hookcore:", why+"; blocking "+string(ev)+" rather than letting it through unguarded")
				return nil, ExitBlocked
			}
		}
		fmt.Fprintln(stderr, "hookcore:", err)
		return nil, ExitFailure
	}
	e.home, _ = os.UserHomeDir()
	return e, ExitOK
}

// positional returns the words of args that do not start with "-" (a flag's value word
// included: enough to see the command after the root's -v or --verbose, which take none). Only
// for telling which command a command line runs before it is parsed.
func positional(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
		}
	}
	return out
}

// exitCode is the exit code of a command's error (nil: 0), after printing its message.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "hookcore:", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "hookcore:", err)
	return ExitFailure
}

// isTerminal reports whether s (a stream: stdin, stdout or stderr) is a character device
// other than /dev/null (a terminal, in practice), without a dependency. /dev/null is one too,
// and `fire EVENT < /dev/null` said it was reading from the terminal (new-user trial, stop 22).
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// arglessClaude reports whether a hookcore started with no arguments (args) is Claude Code's
// hook command, to be run as `hook claude`: the environment has CLAUDE_PROJECT_DIR, which
// Claude Code sets for every hook process (observed with 2.1.332 and 2.1.88) and not for its
// Bash tool's commands (2.1.332), and stdin is not a terminal. `hookcore install claude` writes
// exec form ("command": "/…/hookcore-hook", "args": ["hook", "claude"]); a Claude Code older
// than exec form ignores "args" and runs "command" alone in a shell (observed with 2.1.88;
// 2.1.197 and later take it). The lean binary then answered "accepts between 1 and 2
// arg(s)" with exit 2 at every event, the prompt included, and the full one printed its help
// with exit 0, which lets every call through.
func arglessClaude(args []string, stdin io.Reader) bool {
	return len(args) == 0 && os.Getenv("CLAUDE_PROJECT_DIR") != "" && !isTerminal(stdin)
}

// arglessNote is what SessionStart tells the user when the hook command ran as `hook
// claude` because it was started with no arguments (arglessClaude): this Claude Code runs
// the entries through a shell, where a project's settings env reaches before hookcore does.
const arglessNote = "hookcore: this Claude Code ran hookcore's hook command without its arguments: it is older than exec form (\"args\", which it ignores) and runs the command through sh -c, where a project's settings env can wrap it in its own program (CLAUDE_CODE_SHELL_PREFIX) or load its own code (LD_PRELOAD) before hookcore starts; hookcore ran as `hook claude`. Update Claude Code (2.1.197 and later run exec form with no shell)"

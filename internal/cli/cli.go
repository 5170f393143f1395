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

	"github.com/spf13/cobra"
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
	// strict: a config error in a file the user named in hookcore's own dialect, which
	// exits 1 on every event (fire does not turn it into a block: the user is authoring).
	strict bool
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
}

func (e *env) logger() *slog.Logger {
	level := slog.LevelWarn
	if e.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// Main runs the hookcore command line with args (without the program name) and returns the
// exit code: 0 ok, 1 usage or config error, 2 blocked (fire).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	var err error
	if e.cwd, err = os.Getwd(); err != nil {
		fmt.Fprintln(stderr, "hookcore:", err)
		return ExitFailure
	}
	e.home, _ = os.UserHomeDir()

	root := &cobra.Command{
		Use:           "hookcore",
		Short:         "A lifecycle-hook engine for AI coding agents",
		Long:          "hookcore runs user hooks (commands, webhooks, LLM judges, context injection) at an AI\ncoding agent's lifecycle events, from MiniCode YAML, codebot JSON or Claude Code settings.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().BoolVarP(&e.verbose, "verbose", "v", false, "log every hook run on stderr")
	if len(args) > 0 && args[0] == "hook" {
		// The hook command is an agent's hook command, started for every event: the tree
		// holds it alone, because building the other commands and their flags costs about
		// a tenth of its start (docs/decisions.md, "Cold start of the hook path, second
		// pass"). Its flags, help and errors are the same: cobra shows a subcommand's
		// siblings nowhere, and the version flag is the root's alone.
		root.AddCommand(hookCmd(e))
	} else {
		root.AddCommand(checkCmd(e), listCmd(e), fireCmd(e), trustCmd(e))
		root.AddCommand(replayCmd(e))
		root.AddCommand(runCmd(e))
		root.AddCommand(hookCmd(e), installCmd(e), uninstallCmd(e), serveCmd(e), convertCmd(e))
		root.AddCommand(auditCmd(e), versionCmd(e), testCmd(e), initCmd(e), schemaCmd(e), coverageCmd(e))
		root.Version = versionString()
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err = root.Execute()
	e.flushTelemetry()
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

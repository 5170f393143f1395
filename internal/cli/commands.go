//go:build !hookcore_lean

package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// Main runs the hookcore command line with args (without the program name) and returns the
// exit code: 0 ok, 1 usage or config error, 2 blocked (fire).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	argless := arglessClaude(args, stdin)
	if argless {
		args = []string{"hook", "claude"} // not the help, exit 0: that lets the call through
	}
	e, code := newEnv(args, stdin, stdout, stderr)
	if e == nil {
		return code
	}
	e.argless = argless

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
		addCommands(root, e) // every command; the lean hook binary's: hook alone (lean.go)
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	e.flushTelemetry()
	if err == nil && e.helpAnswer != nil {
		return *e.helpAnswer
	}
	return exitCode(err, stderr)
}

// addCommands adds every command of the hookcore CLI to root, and its version.
func addCommands(root *cobra.Command, e *env) {
	root.AddCommand(checkCmd(e), listCmd(e), fireCmd(e), trustCmd(e))
	root.AddCommand(replayCmd(e))
	root.AddCommand(runCmd(e))
	hook := hookCmd(e)
	root.AddCommand(hook, installCmd(e), uninstallCmd(e), serveCmd(e), convertCmd(e))
	root.AddCommand(auditCmd(e), versionCmd(e), testCmd(e), initCmd(e), schemaCmd(e), coverageCmd(e))
	root.Version = versionString()
	singleValued(root, hook) // a flag given twice with two values is an error, not the last
	argsUsage(root)
}

// argsUsage makes the argument-count errors of root's commands say the command's usage
// line and where its help is (new-user trial, stop 32: `hookcore install` said only
// "accepts 1 arg(s), received 0").
func argsUsage(root *cobra.Command) {
	for _, c := range root.Commands() {
		if check := c.Args; check != nil && c.Name() != "hook" { // hook answers in its agent's protocol
			c.Args = func(cmd *cobra.Command, args []string) error {
				err := check(cmd, args)
				var own *exitError // a command's own answer (hook's exit 2 fails closed): kept
				if err == nil || errors.As(err, &own) || !strings.Contains(err.Error(), "arg(s)") {
					return err
				}
				return fmt.Errorf("%s: %v; usage: %s (see %s --help)", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), err, cmd.UseLine(), cmd.CommandPath())
			}
		}
		argsUsage(c)
	}
}

// lacks reports what l needs that this build cannot run: nothing, as this build has every
// executor the CLI links (the lean hook binary's is in lean.go).
func (e *env) lacks(*loaded, *configFlags, hook.Event) string { return "" }

// handOver is never called in this build (lacks reports nothing): it fails closed.
func (e *env) handOver(p bridge.Protocol, event hook.Event, _ []byte, need string, block bool) bridge.Answer {
	return p.Fail(event, "internal error: the config needs "+need+", which this build lacks", block)
}

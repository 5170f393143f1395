//go:build !hookcore_lean

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/internal/replay"
)

// replayFlags are the options of hookcore replay (and coverage).
type replayFlags struct {
	cf      configFlags
	events  []string
	json    bool
	only    string
	jobs    int
	expect  string
	noColor bool
	// coverage: collect a coverage report (hookcore coverage) instead of the table.
	coverage bool
}

func replayCmd(e *env) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE...",
		Short: "Run a recorded agent session through the hooks and show what they would have done",
		Long: `replay reads recorded sessions (Claude Code transcripts with their sub-agents, or
hookcore session logs; the format is detected from the content) and fires each event through
the hooks. Hook commands run for real; tools are not executed. When a PreToolUse hook blocks a
call, the call's later events are not fired; when it rewrites the input, they get the
rewritten input. The output is a table, one row per tool call (and per other event a hook
acted on), then a summary; --json prints one line per event instead. With --expect, the
decisions are checked against an expectations file. Exit status: 0, or 1 on a usage, config
or read error or an unmet expectation. See docs/replay.md.`,
		Example: `  hookcore replay ~/.claude/projects/-home-me-app/0c1d….jsonl --config .hookcore/hooks.yaml
  hookcore replay session.jsonl -c hooks.yaml --only blocked
  hookcore replay session.jsonl -c hooks.yaml --expect policy-test.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.replay(cmd, &f, args)
		},
	}
	f.cf.registerRun(cmd)
	fl := cmd.Flags()
	fl.StringSliceVar(&f.events, "events", nil, "fire only these events (comma-separated, any spelling: PreToolUse,stop,turn_start)")
	fl.BoolVar(&f.json, "json", false, "print one JSON line per replayed event (the fire result plus index, input, tool_use_id, timestamp)")
	fl.StringVar(&f.only, "only", "", "show only rows (or JSON lines) that are blocked, or changed (anything but allowed)")
	fl.IntVar(&f.jobs, "jobs", 1, "fire up to N independent events in parallel; output stays in session order")
	fl.StringVar(&f.expect, "expect", "", "check the decisions against this expectations file (YAML); exit 1 when one is not met")
	fl.BoolVar(&f.noColor, "no-color", false, "never colour the table (it is coloured only when stdout is a terminal)")
	return cmd
}

// coverageCmd is `hookcore coverage SESSION...` (issue 11.4): for every tool call of the
// recorded sessions, which gate hooks looked at it and what they decided; which tools and
// which events no hook covers. It replays the sessions as `replay` does (hooks run for real,
// tools do not), sub-agents included.
func coverageCmd(e *env) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "coverage SESSION...",
		Short: "Show which tool calls and events of recorded sessions the hooks cover, and which no guard looks at",
		Long: `coverage replays recorded sessions (as replay does: hook commands run, tools do not) and
reports, per tool call, the gate hooks (PreToolUse, PermissionRequest) that ran on it and
their decision; then, per tool, how many of its calls a guard looked at; then, per event,
how many times it fired and how many times a hook ran. Tools and events that no hook covered
are listed at the end. Sub-agent calls are included and marked. --json prints one object.`,
		Example: `  hookcore coverage ~/.claude/projects/-home-me-app/*.jsonl --config .hookcore/hooks.yaml`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.coverage = true
			return e.replay(cmd, &f, args)
		},
	}
	f.cf.registerRun(cmd)
	cmd.Flags().BoolVar(&f.json, "json", false, "print the coverage as one JSON object")
	cmd.Flags().IntVar(&f.jobs, "jobs", 1, "fire up to N independent events in parallel")
	return cmd
}

// replay checks the flags, loads the config and the expectations, builds the Runner and
// hands the rest to replay.Run; it waits for the async hooks before it returns.
func (e *env) replay(cmd *cobra.Command, f *replayFlags, files []string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	events, err := replay.ParseEvents(f.events)
	if err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	if err := replay.CheckOnly(f.only); err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	if f.jobs < 1 {
		return &exitError{code: ExitFailure, msg: fmt.Sprintf("--jobs must be at least 1, not %d", f.jobs)}
	}
	var exp *replay.Expectations
	if f.expect != "" {
		path := f.expect
		if !filepath.IsAbs(path) {
			path = filepath.Join(e.cwd, path)
		}
		var problems []string
		exp, problems = replay.LoadExpectations(path, f.expect)
		for _, p := range problems {
			fmt.Fprintln(e.stderr, p)
		}
		if exp == nil {
			return exitWith(ExitFailure)
		}
	}
	l, err := e.load(&f.cf)
	if err != nil {
		return err
	}
	if l.looked != nil && len(l.set.Files) == 0 {
		e.noConfig(l.looked) // issue 8.3: never "allowed" silently for want of a config
	}
	r, err := e.runner(l, &f.cf, hookcore.Options{})
	if err != nil {
		return err
	}
	defer waitAsync(ctx, r, DefaultAsyncWait, e.stderr) // bounded, and cut short by SIGTERM/SIGINT (issue 10.8)
	err = replay.Run(ctx, files, replay.Options{
		Runner:   r,
		Events:   events,
		JSON:     f.json,
		Only:     f.only,
		Jobs:     f.jobs,
		Expect:   exp,
		Coverage: f.coverage,
		Color:    isTerminal(e.stdout) && !f.noColor && os.Getenv("NO_COLOR") == "",
		TTY:      isTerminal(e.stdout),
		Progress: isTerminal(e.stderr),
		Cwd:      e.cwd,
		Stdout:   e.stdout,
		Stderr:   e.stderr,
	})
	switch {
	case errors.Is(err, replay.ErrExpectations):
		return exitWith(ExitFailure) // the unmet expectations are printed
	case err != nil:
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	return nil
}

package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

// replayFlags are the options of hookcore replay.
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
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return e.replay(ctx, &f, args)
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

func (e *env) replay(ctx context.Context, f *replayFlags, files []string) error {
	filter, err := parseEvents(f.events)
	if err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	switch f.only {
	case "", "blocked", "changed":
	default:
		msg := fmt.Sprintf("--only must be blocked or changed, not %q", f.only)
		if s := suggestOnly(f.only); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return &exitError{code: ExitFailure, msg: msg}
	}
	if f.jobs < 1 {
		return &exitError{code: ExitFailure, msg: fmt.Sprintf("--jobs must be at least 1, not %d", f.jobs)}
	}
	var exp *expectations
	if f.expect != "" {
		path := f.expect
		if !filepath.IsAbs(path) {
			path = filepath.Join(e.cwd, path)
		}
		var problems []string
		exp, problems = loadExpectations(path, f.expect)
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

	var srcs []*source
	defer func() {
		for _, s := range srcs {
			s.rd.Close()
			s.f.Close()
		}
	}()
	for _, name := range files {
		s, err := e.openSource(name)
		if err != nil {
			return &exitError{code: ExitFailure, msg: err.Error()}
		}
		srcs = append(srcs, s)
	}

	out := bufio.NewWriterSize(e.stdout, 64<<10)
	rp := &replayer{
		ctx:    ctx,
		r:      r,
		flags:  f,
		filter: filter,
		exp:    exp,
		rep:    newReport(out, f, isTerminal(e.stdout) && !f.noColor && os.Getenv("NO_COLOR") == "", len(srcs) > 1),
		prog:   &progress{w: e.stderr, on: isTerminal(e.stderr)},
		cwds:   e.cwds(),
	}
	rp.rep.cwd = e.cwd
	rp.rep.tty = isTerminal(e.stdout)
	rp.rep.exp = exp
	rp.rep.errw = e.stderr
	if f.coverage {
		rp.rep.cov = newCoverage()
	}
	if f.jobs > 1 {
		rp.sem = make(chan struct{}, f.jobs)
	}
	readErr := rp.all(srcs)
	rp.prog.clear()
	rp.rep.end()
	if err := out.Flush(); err != nil {
		return err
	}
	if readErr != nil {
		return &exitError{code: ExitFailure, msg: readErr.Error()}
	}
	if exp != nil {
		w := e.stdout
		if f.json {
			w = e.stderr
		}
		if !exp.report(w, e.stderr) {
			return exitWith(ExitFailure)
		}
	}
	return nil
}

// suggestOnly returns the --only value closest to s: one it starts, or one a typo away.
func suggestOnly(s string) string {
	for _, v := range []string{"blocked", "changed"} {
		if s != "" && strings.HasPrefix(v, strings.ToLower(s)) {
			return v
		}
	}
	return config.Suggest(s, []string{"blocked", "changed"})
}

// parseEvents reads the --events list; nil means every event.
func parseEvents(names []string) (map[hook.Event]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	set := map[hook.Event]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		ev, ok := hook.ParseEvent(n)
		if !ok {
			msg := fmt.Sprintf("--events: unknown event %q", n)
			if s := config.Suggest(n, hook.EventNames()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, errors.New(msg)
		}
		set[ev] = true
	}
	return set, nil
}

// replayer reads the sources, fires their events and hands them, in session order, to the
// report. With --jobs N > 1, tool events of different calls fire concurrently (at most N at
// once); the events of one call fire in order (each waits for the previous one, whose block
// or rewrite it depends on), and every other event is a barrier: it fires alone, after
// everything before it, because it may depend on all of it (Stop, UserPromptSubmit,
// SessionStart, SessionEnd, SubagentStart/Stop, compaction). Output order never changes.
type replayer struct {
	ctx    context.Context
	r      *hookcore.Runner
	flags  *replayFlags
	filter map[hook.Event]bool
	exp    *expectations
	rep    *report
	prog   *progress
	cwds   cwds
	track  tracker
	seq    int

	sem     chan struct{} // nil: run inline (--jobs 1)
	wg      sync.WaitGroup
	pending []*step // read, not yet printed, oldest first
}

// all replays every source in order; it returns the first read error.
func (rp *replayer) all(srcs []*source) error {
	for i, src := range srcs {
		rp.rep.file(src.name)
		err := rp.source(src, i, len(srcs))
		rp.wait()
		rp.flush(true)
		rp.rep.endFile(src)
		if err != nil {
			return err
		}
	}
	return nil
}

func (rp *replayer) source(src *source, i, n int) error {
	for {
		if err := rp.ctx.Err(); err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		ev, err := src.rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", src.name, err)
		}
		rp.seq++
		rp.submit(rp.prepare(ev, src.name))
		rp.prog.update(src.name, i, n, src.cr.n, src.size, rp.seq)
	}
}

// prepare turns an event into a step: its call, its place in the call's chain, the filter.
func (rp *replayer) prepare(ev *transcript.Event, file string) *step {
	s := &step{seq: rp.seq, file: file, ev: ev, cwd: ev.Input.Cwd, fire: rp.filter == nil || rp.filter[ev.Event]}
	if isToolEvent(ev.Event) {
		c := rp.track.assign(ev)
		s.call, s.prev, c.last = c, c.last, s
	} else if ev.Event == hook.Stop && ev.Input.AgentID == "" {
		rp.track.reset()
	}
	if s.fire {
		rp.cwds.fix(ev.Input)
	}
	return s
}

// submit fires s (inline, or in the background with --jobs) and prints what is ready.
func (rp *replayer) submit(s *step) {
	switch {
	case !s.fire:
		// Not selected: printed (counted) in order, never fired.
	case rp.sem == nil:
		run(rp.ctx, rp.r, s)
	case s.call == nil:
		rp.wait() // a barrier: everything before it has fired
		run(rp.ctx, rp.r, s)
	default:
		s.done = make(chan struct{})
		rp.sem <- struct{}{}
		rp.wg.Add(1)
		go func() {
			defer rp.wg.Done()
			defer func() { <-rp.sem }()
			defer close(s.done)
			run(rp.ctx, rp.r, s)
		}()
	}
	rp.pending = append(rp.pending, s)
	rp.flush(false)
	if max := 4*cap(rp.sem) + 16; len(rp.pending) > max {
		<-rp.pending[0].done // bound the steps held in memory
		rp.flush(false)
	}
}

// wait waits for every step fired in the background.
func (rp *replayer) wait() { rp.wg.Wait() }

// flush prints the finished steps at the head of the queue; all: the queue is complete.
func (rp *replayer) flush(all bool) {
	n := 0
	for _, s := range rp.pending {
		if s.done != nil {
			if all {
				<-s.done
			} else {
				select {
				case <-s.done:
				default:
					goto stop
				}
			}
		}
		rp.emit(s)
		n++
	}
stop:
	if n > 0 {
		clear(rp.pending[:n])
		rp.pending = rp.pending[n:]
		if rp.rep.tty {
			rp.prog.clear()
			rp.rep.out.Flush()
		}
	}
}

// emit hands one finished step to the report.
func (rp *replayer) emit(s *step) { rp.rep.step(s) }

package replay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

// Options configure one replay. The zero value of every field but Runner works: every event,
// the table on io.Discard, one event at a time.
type Options struct {
	// Runner fires the events; required. Replay does not close it (async hooks are the
	// caller's to wait for).
	Runner *hookcore.Runner
	// Events selects the events to fire (ParseEvents); nil fires every event. The others are
	// read and counted, never fired.
	Events map[hook.Event]bool
	// JSON prints one JSON line per fired event instead of the table.
	JSON bool
	// Only is "", "blocked" or "changed" (CheckOnly): the rows, or JSON lines, to print.
	Only string
	// Jobs is how many independent events may fire at once (--jobs); below 1 means 1.
	Jobs int
	// Expect, when set, is checked against the rows (LoadExpectations).
	Expect *Expectations
	// Coverage collects the coverage report (hookcore coverage) instead of the table.
	Coverage bool
	// Color paints the table with ANSI colours; TTY flushes stdout after each row (stdout is
	// a terminal); Progress draws a progress bar on Stderr (stderr is a terminal).
	Color, TTY, Progress bool
	// Cwd is the directory relative FILE names, and relative hook sources in JSON, are
	// resolved against; a recorded working directory that does not exist here is replaced
	// by it (CwdFixer). "" is the process's working directory.
	Cwd string
	// Stdout gets the table, the JSON lines or the coverage report, and the expectations'
	// verdict in table mode; Stderr the notes, unmet expectations and the progress bar. Nil
	// is io.Discard.
	Stdout, Stderr io.Writer
}

// ErrExpectations is returned by Run when an expectation is not met; the unmet ones have
// been printed on Stderr and the verdict on Stdout (on Stderr with JSON).
var ErrExpectations = errors.New("expectations not met")

// Run replays the recorded sessions of files (Claude Code transcripts with their
// sub-agents, or hookcore session logs; the format is detected from the content) through
// opts.Runner, in order, and prints what the hooks decided (docs/replay.md). Hook commands
// run for real; tools are not executed. When a PreToolUse hook blocks a call, the call's
// later events are not fired; when it rewrites the input, they get the rewritten input
// (DESIGN.md section 7).
//
// Errors: a file that cannot be opened, before anything is printed; one that is not a session
// (empty, or of another format) when it is the only file, or when no file is a session (of
// several files, one that is not a session is skipped with a warning on Stderr); a
// read error after the output so far (its message names the file); "interrupted" wrapping
// ctx.Err() when ctx is done; ErrExpectations. A hook that fails is not an error of Run: it
// is counted in the summary.
func Run(ctx context.Context, files []string, opts Options) error {
	if opts.Runner == nil {
		return errors.New("replay: no Runner")
	}
	if err := CheckOnly(opts.Only); err != nil {
		return err
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		opts.Cwd = wd
	}
	var srcs []*source
	defer func() {
		for _, s := range srcs {
			s.rd.Close()
			s.f.Close()
		}
	}()
	var skipped []string
	for _, name := range files {
		s, err := openSource(name, opts.Cwd)
		switch {
		case err != nil && len(files) > 1 && notASession(err):
			// A glob over a folder of recordings names other files too (new-user trial,
			// stop 30: `replay sessions/*.jsonl` stopped at the first log of hook inputs).
			fmt.Fprintf(opts.Stderr, "hookcore: warning: %v: skipped\n", err)
			skipped = append(skipped, name)
			continue
		case err != nil:
			return err
		}
		srcs = append(srcs, s)
	}
	if len(srcs) == 0 {
		return fmt.Errorf("none of the %d files is a recorded session (a Claude Code transcript or a hookcore session log); nothing was replayed", len(skipped))
	}

	out := bufio.NewWriterSize(opts.Stdout, 64<<10)
	rp := &replayer{
		ctx:    ctx,
		r:      opts.Runner,
		filter: opts.Events,
		exp:    opts.Expect,
		rep:    newReport(out, &opts, len(srcs) > 1),
		prog:   &progress{w: opts.Stderr, on: opts.Progress},
		cwds:   NewCwdFixer(opts.Cwd, opts.Stderr),
	}
	if opts.Coverage {
		rp.rep.cov = newCoverage()
	}
	if opts.Jobs > 1 {
		rp.sem = make(chan struct{}, opts.Jobs)
	}
	readErr := rp.all(srcs)
	rp.prog.clear()
	rp.rep.end()
	if err := out.Flush(); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	if x := opts.Expect; x != nil {
		w := opts.Stdout
		if opts.JSON {
			w = opts.Stderr
		}
		if !x.report(w, opts.Stderr) {
			return ErrExpectations
		}
	}
	return nil
}

// notASession reports whether err, openSource's, says the file is empty or not a recorded
// session, rather than that it could not be read.
func notASession(err error) bool {
	return errors.Is(err, transcript.ErrEmpty) || errors.Is(err, transcript.ErrUnrecognised)
}

// CheckOnly returns an error, with a suggestion, unless only is "", "blocked" or "changed".
func CheckOnly(only string) error {
	switch only {
	case "", "blocked", "changed":
		return nil
	}
	msg := fmt.Sprintf("--only must be blocked or changed, not %q", only)
	if s := suggestOnly(only); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
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

// ParseEvents reads an --events list (any spelling: PreToolUse, pre_tool_use, turn_start);
// nil means every event. An unknown name is an error with a suggestion.
func ParseEvents(names []string) (map[hook.Event]bool, error) {
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
	filter map[hook.Event]bool
	exp    *Expectations
	rep    *report
	prog   *progress
	cwds   *CwdFixer
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
		rp.cwds.Fix(ev.Input)
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

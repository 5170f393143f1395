package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// Column widths of the table, in runes; the reason column is cut at reasonWidth.
const (
	indexWidth    = 4
	toolWidth     = 16
	inputWidth    = 40
	hooksWidth    = 20
	decisionWidth = 9
	timeWidth     = 7
	reasonWidth   = 72
	// maxOpenRows bounds the rows waiting for their call to end before they are printed
	// anyway (a call denied in the recording never gets a Post event).
	maxOpenRows = 256
)

// report turns finished steps, in session order, into table rows or JSON lines, and counts
// what happened for the summary. It runs on the reading goroutine only.
type report struct {
	out   *bufio.Writer
	errw  io.Writer
	flags *Options
	color bool // ANSI colours in the table
	tty   bool // stdout is a terminal: flush as rows come
	multi bool // several files: a heading per file
	exp   *Expectations
	enc   *json.Encoder
	cwd   string // hook sources in JSON are shown relative to it

	cov *coverage // hookcore coverage: collect instead of printing rows

	rows   []*row // not yet printed, in order
	headed bool
	t      tally
}

// tally is what the summary counts.
type tally struct {
	events, fired, notFired, unselected         int
	calls, blocked, rewritten, asked, feedback  int
	context, errors, skippedHooks, eventsHooked int
	times                                       []time.Duration // hook time of each event that ran hooks
	skippedLines, orphans, missingSubagents     int
	missingPaths                                []string // the sub-agent files looked for, as the user named the session
	firstMalformed                              string
}

func newReport(out *bufio.Writer, o *Options, multi bool) *report {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &report{out: out, errw: o.Stderr, flags: o, color: o.Color, tty: o.TTY, multi: multi,
		exp: o.Expect, enc: enc, cwd: o.Cwd}
}

// file starts the rows of a file: a heading when several files are replayed.
func (rp *report) file(name string) {
	if rp.flags.JSON || !rp.multi {
		return
	}
	if rp.headed {
		fmt.Fprintln(rp.out)
	}
	fmt.Fprintln(rp.out, rp.paint(bold, "== "+name))
	rp.headed = false
}

// step takes the next finished step.
func (rp *report) step(s *step) {
	rp.t.events++
	ev := s.ev.Event
	if ev == hook.UserPromptSubmit || ev == hook.SessionEnd || ev == hook.Stop && s.ev.Input.AgentID == "" {
		rp.finalizeAll() // every call before a new prompt or the end of a turn has ended
	}
	switch {
	case !s.fire:
		rp.t.unselected++
		return
	case s.skipped:
		rp.t.notFired++
		return
	}
	rp.t.fired++
	res := &s.res
	rp.t.errors += res.Errors
	if res.AdditionalContext != "" {
		rp.t.context++
	}
	for _, h := range res.Hooks {
		if h.Outcome == hook.OutcomeSkipped {
			rp.t.skippedHooks++
		}
	}
	if len(res.Hooks) > 0 {
		rp.t.eventsHooked++
		rp.t.times = append(rp.t.times, s.wall)
	}
	if rp.cov != nil {
		rp.cov.add(s)
		return
	}
	if rp.flags.JSON {
		rp.jsonLine(s)
	}
	if c := s.call; c != nil {
		if c.row == nil {
			in := s.in
			c.row = &row{index: c.index, id: c.id, tool: c.tool, sub: in.AgentID != "",
				summary: summarize(in.ToolInput, s.cwd)}
			rp.rows = append(rp.rows, c.row)
		}
		if !c.row.final {
			c.row.add(s)
			c.row.final = ev == hook.PostToolUse || ev == hook.PostToolUseFailure ||
				ev.Kind() == hook.Gate && (res.Blocked || !res.Continue)
		}
	} else if actedOn(res) {
		rw := &row{event: ev, tool: string(ev), sub: s.ev.Input.AgentID != "", summary: eventSummary(s.in), final: true}
		rw.add(s)
		rp.rows = append(rp.rows, rw)
	}
	rp.print()
}

// finalizeAll marks every waiting row final and prints it.
func (rp *report) finalizeAll() {
	for _, rw := range rp.rows {
		rw.final = true
	}
	rp.print()
}

// print prints the final rows at the head of the queue.
func (rp *report) print() {
	for len(rp.rows) > 0 && (rp.rows[0].final || len(rp.rows) > maxOpenRows) {
		rw := rp.rows[0]
		rw.final = true
		rp.rows[0] = nil
		rp.rows = rp.rows[1:]
		rp.done(rw)
	}
}

// done counts a finished row, checks it against the expectations and prints it.
func (rp *report) done(rw *row) {
	if rw.index > 0 {
		rp.t.calls++
	}
	switch rw.dec {
	case decBlocked:
		rp.t.blocked++
	case decRewritten:
		rp.t.rewritten++
	case decAsk:
		rp.t.asked++
	case decFeedback:
		rp.t.feedback++
	}
	if rp.exp != nil {
		rp.exp.observe(rw)
	}
	if rp.flags.JSON || !rp.show(rw.dec) {
		return
	}
	if !rp.headed {
		h := pad("#", indexWidth, true) + "  " + pad("TOOL", toolWidth, false) + "  " + pad("INPUT", inputWidth, false) + "  " +
			pad("HOOKS", hooksWidth, false) + "  " + pad("DECISION", decisionWidth, false) + "  " + pad("TIME", timeWidth, true) + "  REASON"
		fmt.Fprintln(rp.out, rp.paint(bold, h))
		rp.headed = true
	}
	idx := "-"
	if rw.index > 0 {
		idx = strconv.Itoa(rw.index)
	}
	tool := rw.tool
	if rw.sub {
		tool = "↳ " + tool
	}
	var b strings.Builder
	b.WriteString(pad(idx, indexWidth, true) + "  ")
	b.WriteString(pad(tool, toolWidth, false) + "  ")
	b.WriteString(pad(rw.summary, inputWidth, false) + "  ")
	b.WriteString(pad(strings.Join(rw.hooks, ","), hooksWidth, false) + "  ")
	b.WriteString(rp.paint(decisionColor[rw.dec], pad(rw.dec.String(), decisionWidth, false)) + "  ")
	b.WriteString(pad(millis(rw.wall), timeWidth, true))
	if r := flatLine(rw.reason); r != "" {
		b.WriteString("  " + cut(r, reasonWidth))
	}
	fmt.Fprintln(rp.out, strings.TrimRight(b.String(), " "))
}

// show applies --only to a row's decision.
func (rp *report) show(d decision) bool {
	switch rp.flags.Only {
	case "blocked":
		return d == decBlocked
	case "changed":
		return d != decAllowed
	}
	return true
}

// jsonEvent is one line of --json: the fire result (DESIGN.md section 7) plus where the
// event is in the replay and the input the hooks received.
type jsonEvent struct {
	// Index is the event's 1-based position in the replay (all files, every event read,
	// fired or not), so it is stable across --events and --only.
	Index int    `json:"index"`
	File  string `json:"file"`
	// Call is the tool-call number shown in the table; omitted for other events.
	Call int `json:"call,omitempty"`
	hook.Result
	Input     *hook.Input `json:"input"`
	ToolUseID string      `json:"tool_use_id,omitempty"`
	Timestamp string      `json:"timestamp,omitempty"` // RFC 3339, UTC, of the recorded line
}

func (rp *report) jsonLine(s *step) {
	switch rp.flags.Only {
	case "blocked":
		if !s.res.Blocked && s.res.Continue {
			return
		}
	case "changed":
		if d, _ := classify(s); d == decAllowed {
			return
		}
	}
	j := jsonEvent{Index: s.seq, File: s.file, Result: s.res, Input: s.in, ToolUseID: s.in.ToolUseID}
	if j.Hooks == nil {
		j.Hooks = []hook.Record{}
	} else {
		j.Hooks = append([]hook.Record(nil), j.Hooks...)
		relSources(j.Hooks, rp.cwd)
	}
	if s.call != nil {
		j.Call = s.call.index
		if j.ToolUseID == "" {
			j.ToolUseID = s.call.id
		}
	}
	if !s.ev.Time.IsZero() {
		j.Timestamp = s.ev.Time.UTC().Format(time.RFC3339Nano)
	}
	if err := rp.enc.Encode(&j); err != nil {
		fmt.Fprintln(rp.errw, "hookcore: event", s.seq, "json:", err)
	}
}

// endFile prints the rows still waiting and adds the reader's counts.
func (rp *report) endFile(src *source) {
	rp.finalizeAll()
	st := src.rd.Stats()
	rp.t.skippedLines += st.Skipped
	rp.t.orphans += st.Orphans
	rp.t.missingSubagents += st.MissingSubagents
	for _, p := range st.MissingSubagentPaths {
		// Shown under the session file's name as the user gave it, as the malformed line is.
		rp.t.missingPaths = append(rp.t.missingPaths, strings.Replace(p, strings.TrimSuffix(src.path, ".jsonl"), strings.TrimSuffix(src.name, ".jsonl"), 1))
	}
	if rp.t.firstMalformed == "" && st.FirstMalformed != "" {
		// Shown as the user named the file, not as the absolute path the reader was given.
		rp.t.firstMalformed = strings.Replace(st.FirstMalformed, src.path, src.name, 1)
	}
}

// missingNote is the note on n sub-agent transcripts not found: the files looked for (the
// first three) and where Claude Code keeps them (new-user trial: the note named neither).
func missingNote(n int, paths []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sub-agent %s not found", n, plural(n, "transcript"))
	if len(paths) > 0 {
		shown := paths[:min(len(paths), 3)]
		b.WriteString(": looked for " + strings.Join(shown, ", "))
		if more := len(paths) - len(shown); more > 0 {
			fmt.Fprintf(&b, " and %d more", more)
		}
	}
	b.WriteString(" (Claude Code keeps a session's sub-agent transcripts beside it, in <session file without .jsonl>/subagents/agent-<agentId>.jsonl with a .meta.json; copy that folder next to the session file to replay their calls)")
	return b.String()
}

// end prints the summary (table mode) or, with --json, the reader's warnings on stderr.
func (rp *report) end() {
	if rp.cov != nil {
		if err := rp.cov.print(rp.out, rp.flags.JSON); err != nil {
			fmt.Fprintln(rp.errw, "hookcore:", err)
		}
		return
	}
	t := &rp.t
	var notes []string
	if t.skippedLines > 0 {
		n := fmt.Sprintf("%d %s skipped (unknown or malformed)", t.skippedLines, plural(t.skippedLines, "line"))
		if t.firstMalformed != "" {
			n += "; first malformed line: " + t.firstMalformed
		}
		notes = append(notes, n)
	}
	if t.orphans > 0 {
		notes = append(notes, fmt.Sprintf("%d tool results without their tool call", t.orphans))
	}
	if t.missingSubagents > 0 {
		notes = append(notes, missingNote(t.missingSubagents, t.missingPaths))
	}
	if rp.flags.JSON {
		for _, n := range notes {
			fmt.Fprintln(rp.errw, "hookcore: note:", n)
		}
		return
	}
	if rp.headed || rp.multi {
		fmt.Fprintln(rp.out)
	}
	line := func(k, v string) { fmt.Fprintf(rp.out, "%-14s %s\n", k, v) }
	ev := strconv.Itoa(t.events)
	var parts []string
	if t.fired != t.events {
		parts = append(parts, fmt.Sprintf("%d fired", t.fired))
	}
	if t.notFired > 0 {
		parts = append(parts, fmt.Sprintf("%d not fired because their call was blocked", t.notFired))
	}
	if t.unselected > 0 {
		parts = append(parts, fmt.Sprintf("%d not selected by --events", t.unselected))
	}
	if len(parts) > 0 {
		ev += " (" + strings.Join(parts, ", ") + ")"
	}
	line("events", ev)
	line("tool calls", strconv.Itoa(t.calls))
	line("blocked", strconv.Itoa(t.blocked))
	line("rewritten", strconv.Itoa(t.rewritten))
	if t.asked > 0 {
		line("ask", strconv.Itoa(t.asked))
	}
	if t.feedback > 0 {
		line("feedback", strconv.Itoa(t.feedback))
	}
	line("context added", strconv.Itoa(t.context))
	line("hook errors", strconv.Itoa(t.errors))
	if len(t.times) > 0 {
		ts := slices.Clone(t.times)
		slices.Sort(ts)
		line("hook time", fmt.Sprintf("p50 %s  p95 %s  max %s  (%d %s ran hooks)",
			millis(rank(ts, 0.50)), millis(rank(ts, 0.95)), millis(ts[len(ts)-1]), len(ts), plural(len(ts), "event")))
	} else {
		line("hook time", "no hook ran")
	}
	if t.skippedHooks > 0 {
		line("skipped hooks", fmt.Sprintf("%d (untrusted project config: see hookcore trust, or pass --trust)", t.skippedHooks))
	}
	for _, n := range notes {
		line("note", n)
	}
}

// rank returns the nearest-rank percentile p of sorted.
func rank(sorted []time.Duration, p float64) time.Duration {
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// ANSI styles of the table.
const (
	bold   = "1"
	red    = "31"
	green  = "32"
	yellow = "33"
	blue   = "34"
	purple = "35"
	cyan   = "36"
)

var decisionColor = [...]string{decAllowed: green, decContext: blue, decFeedback: yellow, decRewritten: cyan, decAsk: purple, decBlocked: red}

// paint wraps s in an ANSI style when colours are on.
func (rp *report) paint(style, s string) string {
	if !rp.color {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// relSources shortens each record's source (an absolute config path and line) to a path
// relative to cwd when the file is under it, as hookcore list and check print them.
func relSources(recs []hook.Record, cwd string) {
	prefix := cwd + string(filepath.Separator)
	for i := range recs {
		recs[i].Source = strings.TrimPrefix(recs[i].Source, prefix)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

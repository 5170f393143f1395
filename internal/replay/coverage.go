package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// coverage collects what the coverage report shows, in session order.
type coverage struct {
	calls  []*covCall
	byCall map[*call]*covCall
	tools  map[string]*covTool
	events map[hook.Event]*covEvent
}

type covCall struct {
	Index    int      `json:"index"`
	Tool     string   `json:"tool"`
	Subagent bool     `json:"subagent,omitempty"`
	ID       string   `json:"tool_use_id,omitempty"`
	Input    string   `json:"input"`
	Guards   []string `json:"guards"`   // ids of the gate hooks that ran on the call
	Hooks    []string `json:"hooks"`    // ids of every hook that ran on the call's events
	Decision string   `json:"decision"` // allowed, blocked, rewritten, ask, context, feedback
	Reason   string   `json:"reason,omitempty"`
	dec      decision
}

type covTool struct {
	Tool    string `json:"tool"`
	Calls   int    `json:"calls"`
	Guarded int    `json:"guarded"` // calls at least one gate hook ran on
	Blocked int    `json:"blocked"`
}

type covEvent struct {
	Event  string `json:"event"`
	Fired  int    `json:"fired"`
	Hooked int    `json:"hooked"` // times at least one hook ran (not skipped)
}

func newCoverage() *coverage {
	return &coverage{byCall: map[*call]*covCall{}, tools: map[string]*covTool{}, events: map[hook.Event]*covEvent{}}
}

// ran returns the ids of the hooks of res that ran (were not skipped).
func ran(res *hook.Result) []string {
	var ids []string
	for _, h := range res.Hooks {
		if h.Outcome != hook.OutcomeSkipped {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

func addUnique(list []string, ids ...string) []string {
	for _, id := range ids {
		if !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}

// add takes one fired step.
func (cv *coverage) add(s *step) {
	ev := s.ev.Event
	ce := cv.events[ev]
	if ce == nil {
		ce = &covEvent{Event: string(ev)}
		cv.events[ev] = ce
	}
	ce.Fired++
	ids := ran(&s.res)
	if len(ids) > 0 {
		ce.Hooked++
	}
	c := s.call
	if c == nil {
		return
	}
	cc := cv.byCall[c]
	if cc == nil {
		cc = &covCall{Index: c.index, Tool: c.tool, Subagent: s.in.AgentID != "", ID: c.id,
			Input: summarize(s.in.ToolInput, s.cwd), Guards: []string{}, Hooks: []string{}}
		cv.byCall[c] = cc
		cv.calls = append(cv.calls, cc)
		ct := cv.tools[c.tool]
		if ct == nil {
			ct = &covTool{Tool: c.tool}
			cv.tools[c.tool] = ct
		}
		ct.Calls++
	}
	ct := cv.tools[c.tool]
	if ev.Kind() == hook.Gate && len(ids) > 0 {
		if len(cc.Guards) == 0 {
			ct.Guarded++
		}
		cc.Guards = addUnique(cc.Guards, ids...)
	}
	cc.Hooks = addUnique(cc.Hooks, ids...)
	if d, reason := classify(s); d > cc.dec || cc.Decision == "" {
		if d == decBlocked && cc.dec != decBlocked {
			ct.Blocked++
		}
		cc.dec, cc.Reason = d, reason
		cc.Decision = d.String()
	}
}

func (cv *coverage) sortedTools() []*covTool {
	out := make([]*covTool, 0, len(cv.tools))
	for _, t := range cv.tools {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *covTool) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

func (cv *coverage) sortedEvents() []*covEvent {
	var out []*covEvent
	for _, ev := range hook.Events() { // registry order
		if ce := cv.events[ev]; ce != nil {
			out = append(out, ce)
		}
	}
	return out
}

// print writes the report.
func (cv *coverage) print(w *bufio.Writer, asJSON bool) error {
	var unguarded, uncovered, unguardedText []string
	for _, t := range cv.sortedTools() {
		if t.Guarded < t.Calls {
			unguarded = append(unguarded, t.Tool)
			unguardedText = append(unguardedText, fmt.Sprintf("%s (%d of %d calls)", t.Tool, t.Calls-t.Guarded, t.Calls))
		}
	}
	for _, e := range cv.sortedEvents() {
		if e.Hooked == 0 {
			uncovered = append(uncovered, e.Event)
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Calls           []*covCall  `json:"calls"`
			Tools           []*covTool  `json:"tools"`
			Events          []*covEvent `json:"events"`
			UnguardedTools  []string    `json:"unguarded_tools"`
			UncoveredEvents []string    `json:"uncovered_events"`
		}{nonNil(cv.calls), nonNil(cv.sortedTools()), nonNil(cv.sortedEvents()), nonNil(unguarded), nonNil(uncovered)})
	}
	guarded := 0
	for _, c := range cv.calls {
		if len(c.Guards) > 0 {
			guarded++
		}
	}
	fmt.Fprintf(w, "Tool calls: %d, %d looked at by a guard (a PreToolUse or PermissionRequest hook that ran)\n", len(cv.calls), guarded)
	fmt.Fprintf(w, "%4s  %-14s %-24s %-10s %s\n", "#", "tool", "guards", "decision", "input")
	for _, c := range cv.calls {
		tool := c.Tool
		if c.Subagent {
			tool += " (sub)"
		}
		guards := strings.Join(c.Guards, ",")
		if guards == "" {
			guards = "-"
		}
		fmt.Fprintf(w, "%4d  %-14s %-24s %-10s %s\n", c.Index, cut(tool, 14), cut(guards, 24), c.Decision, cut(flatLine(c.Input), 60))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-20s %6s %8s %8s\n", "tool", "calls", "guarded", "blocked")
	for _, t := range cv.sortedTools() {
		fmt.Fprintf(w, "%-20s %6d %8d %8d\n", cut(t.Tool, 20), t.Calls, t.Guarded, t.Blocked)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-20s %6s %8s\n", "event", "fired", "hooked")
	for _, e := range cv.sortedEvents() {
		fmt.Fprintf(w, "%-20s %6d %8d\n", e.Event, e.Fired, e.Hooked)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Calls no guard looked at: %s\n", orNone(unguardedText))
	fmt.Fprintf(w, "Events no hook ran on: %s\n", orNone(uncovered))
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

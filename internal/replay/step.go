package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

// step is one recorded event on its way through the replay: read, fired (or not), printed.
// The fields below "set by run" are written by the goroutine that fires the step before it
// closes done, and read by the printer only after done is closed.
type step struct {
	seq  int    // 1-based position of the event in the whole replay (every file, every event)
	file string // the FILE argument it came from
	cwd  string // the recorded working directory (before cwds.fix)
	ev   *transcript.Event
	call *call // the tool call it belongs to; nil for a non-tool event
	fire bool  // selected by --events
	prev *step // the previous step of the same call, which this one waits for
	done chan struct{}

	// set by run:
	in      *hook.Input // the input the hooks got; nil when the step was not fired
	res     hook.Result
	wall    time.Duration // Fire's wall time
	skipped bool          // not fired: an earlier event of its call was blocked
}

// call is one tool call of the session, tracked by tool_use_id.
type call struct {
	index int    // 1-based tool-call number, across all files (the table's # column)
	id    string // tool_use_id; "" when the input had none
	tool  string
	agent string          // agent_type when a sub-agent made the call
	input json.RawMessage // tool_input of the first event as recorded
	last  *step           // the call's latest step, for the next one to wait on

	// Owned by the call's chain of steps (each runs after the previous one is done):
	// what the gate hooks made of the call.
	effective json.RawMessage // tool_input after PreToolUse (and PermissionRequest) rewrites
	blocked   bool

	row *row // the call's table row; owned by the printer
}

// isToolEvent reports whether e belongs to one tool call: the events that carry tool_name
// and tool_use_id (PermissionRequest carries no id) and that depend on the call's PreToolUse.
func isToolEvent(e hook.Event) bool {
	switch e {
	case hook.PreToolUse, hook.PermissionRequest, hook.PermissionDenied, hook.PostToolUse, hook.PostToolUseFailure:
		return true
	}
	return false
}

// tracker assigns events to tool calls. It is used only by the reading goroutine.
type tracker struct {
	calls int              // tool calls seen so far
	byID  map[string]*call // open calls by tool_use_id
	open  []*call          // open calls, oldest first
}

// assign returns the call of a tool event: the open call with its tool_use_id, or for a
// PermissionRequest (which has none) the latest open call of the same tool with the same
// recorded input, else the latest of the same tool; a PreToolUse or an unknown id starts a
// new call. Post events close the call.
func (t *tracker) assign(ev *transcript.Event) *call {
	in := ev.Input
	var c *call
	if in.ToolUseID != "" {
		c = t.byID[in.ToolUseID]
	} else if ev.Event != hook.PreToolUse {
		for i := len(t.open) - 1; i >= 0; i-- {
			o := t.open[i]
			if o.tool != in.ToolName {
				continue
			}
			if c == nil {
				c = o
			}
			if string(o.input) == string(in.ToolInput) {
				c = o
				break
			}
		}
	}
	if c == nil {
		t.calls++
		c = &call{index: t.calls, id: in.ToolUseID, tool: in.ToolName, agent: in.AgentType, input: in.ToolInput}
		if t.byID == nil {
			t.byID = map[string]*call{}
		}
		if c.id != "" {
			t.byID[c.id] = c
		}
		t.open = append(t.open, c)
	}
	if ev.Event == hook.PostToolUse || ev.Event == hook.PostToolUseFailure {
		t.close(c)
	}
	return c
}

func (t *tracker) close(c *call) {
	if c.id != "" && t.byID[c.id] == c {
		delete(t.byID, c.id)
	}
	t.open = slices.DeleteFunc(t.open, func(o *call) bool { return o == c })
}

// reset forgets the open calls: at the main agent's Stop every call of the turn has ended
// (a call denied in the recording never gets a Post event), so memory stays flat.
func (t *tracker) reset() {
	clear(t.byID)
	t.open = t.open[:0]
}

// CwdFixer replaces a recorded working directory that does not exist on this machine (a
// session recorded elsewhere) with the replay's own, so that command hooks can start; each
// missing directory is reported once. `replay`, `fire`, `hook` and `serve` use it. It is not
// safe for concurrent use.
type CwdFixer struct {
	here  string
	notes io.Writer
	what  string          // what the note calls the directory
	known map[string]bool // directory → exists
}

// NewCwdFixer returns a fixer for a replay, which replaces missing directories with here
// and writes "hookcore: note: the recorded working directory DIR does not exist here; hooks
// run in HERE" on notes (nil: nowhere), once per directory.
func NewCwdFixer(here string, notes io.Writer) *CwdFixer {
	return &CwdFixer{here: here, notes: notes, what: "the recorded working directory"}
}

// NewInputCwdFixer is NewCwdFixer for a hook input an agent or a user sends (`hook`,
// `serve`, `fire`), whose note names the input's field: "hookcore: note: the hook input's
// cwd DIR does not exist here; hooks run in HERE" (new-user trial, stop 33: a hook author
// could not place "the recorded working directory").
func NewInputCwdFixer(here string, notes io.Writer) *CwdFixer {
	return &CwdFixer{here: here, notes: notes, what: "the hook input's cwd"}
}

// Fix sets in.Cwd to the fixer's directory when in.Cwd is set and is not a directory here
// (os.Stat, once per directory), and returns in.
func (c *CwdFixer) Fix(in *hook.Input) *hook.Input {
	if in.Cwd == "" || in.Cwd == c.here {
		return in
	}
	ok, seen := c.known[in.Cwd]
	if !seen {
		fi, err := os.Stat(in.Cwd)
		ok = err == nil && fi.IsDir()
		if c.known == nil {
			c.known = map[string]bool{}
		}
		c.known[in.Cwd] = ok
		if !ok && c.notes != nil {
			fmt.Fprintf(c.notes, "hookcore: note: %s %s does not exist here; hooks run in %s\n", c.what, in.Cwd, c.here)
		}
	}
	if !ok {
		in.Cwd = c.here
	}
	return in
}

// run fires one step through the Runner. A tool event waits for the previous event of its
// call; it is not fired when that call was blocked, and it gets the call's input as the gate
// hooks rewrote it (DESIGN.md section 7: "the next events of the same call see the
// rewritten input").
func run(ctx context.Context, r *hookcore.Runner, s *step) {
	if s.prev != nil && s.prev.done != nil {
		<-s.prev.done
	}
	in := s.ev.Input
	c := s.call
	if c != nil {
		if c.blocked {
			s.skipped = true
			return
		}
		if s.ev.Event != hook.PreToolUse && c.effective != nil && string(c.effective) != string(in.ToolInput) {
			in.ToolInput = c.effective
		}
	}
	start := time.Now()
	s.res = r.Fire(ctx, s.ev.Event, in)
	s.wall = time.Since(start)
	s.in = in
	if in.HookEventName == "" {
		in.HookEventName = string(s.res.Event)
	}
	if c != nil && s.ev.Event.Kind() == hook.Gate {
		if s.res.Blocked {
			c.blocked = true
		}
		switch {
		case s.res.UpdatedInput != nil:
			c.effective = s.res.UpdatedInput
		case s.ev.Event == hook.PreToolUse:
			c.effective = in.ToolInput
		}
	}
}

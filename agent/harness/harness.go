package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// AgentName is written in the session log's header.
const AgentName = "hookcore-agent/0.1.0"

// Options configures a Harness. Runner is required.
type Options struct {
	Runner *hookcore.Runner
	// Log receives the session log (docs/session-log.md): a header, then one line per
	// event fired, each written with one Write call. Nil writes none.
	Log io.Writer
	// TranscriptPath is the transcript_path given to hooks (the session log's path).
	TranscriptPath string
	// Trace is told of each hook decision as a Step of kind agent.StepHook; the same
	// function usually goes to agent.Options.Trace.
	Trace func(agent.Step)
	// Now is the clock of the log's timestamps; nil means time.Now.
	Now func() time.Time
}

// Harness runs hooks at the agent's lifecycle moments. It is safe for concurrent use.
type Harness struct {
	opts   Options
	mu     sync.Mutex // orders log lines
	header bool
	err    error // the first log write error
}

var _ agent.Observer = (*Harness)(nil)

// New returns a Harness.
func New(opts Options) *Harness {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Harness{opts: opts}
}

// Err returns the first error writing the session log (the session goes on without it).
func (h *Harness) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// Fire runs event's hooks through the Runner, writes the log line and traces the
// decision. Every event of the agent goes through here.
func (h *Harness) Fire(ctx context.Context, event hook.Event, in *hook.Input) hook.Result {
	in.HookEventName = string(event)
	res := h.opts.Runner.Fire(ctx, event, in)
	h.log(event, in, &res)
	if h.opts.Trace != nil {
		if text := Describe(in, &res); text != "" {
			h.opts.Trace(agent.Step{Kind: agent.StepHook, AgentID: in.AgentID, Text: text, IsError: res.Blocked})
		}
	}
	return res
}

type logEntry struct {
	Event  hook.Event   `json:"event"`
	Time   string       `json:"time"`
	Input  *hook.Input  `json:"input"`
	Result *hook.Result `json:"result,omitempty"`
}

// log writes one session-log line; the header goes first, with the first event's session.
func (h *Harness) log(event hook.Event, in *hook.Input, res *hook.Result) {
	if h.opts.Log == nil {
		return
	}
	now := h.opts.Now().UTC()
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.header {
		h.header = true
		header := map[string]any{
			"format": "hookcore-session-log", "version": 1,
			"agent": AgentName, "time": now.Format(time.RFC3339Nano),
		}
		if in.SessionID != "" { // Startup comes before any session
			header["session_id"] = in.SessionID
		}
		hdr, _ := json.Marshal(header)
		h.write(hdr)
	}
	e := logEntry{Event: event, Time: now.Format(time.RFC3339Nano), Input: in}
	if len(res.Hooks) > 0 {
		e.Result = res
	}
	line, err := marshal(e)
	if err != nil {
		h.err = fmt.Errorf("session log: %w", err)
		return
	}
	h.write(line)
}

func (h *Harness) write(line []byte) {
	if h.err != nil {
		return
	}
	if _, err := h.opts.Log.Write(append(line, '\n')); err != nil {
		h.err = fmt.Errorf("session log: %w", err)
	}
}

// marshal writes v as compact JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// Describe returns a one-line account of what the hooks did for one event, for a live
// display, or "" when no hook ran: "PreToolUse Bash: blocked by no-rm-rf: REASON",
// "PreToolUse Bash: input rewritten by fix-cmd: {...}", "UserPromptSubmit: context from
// inject-rules (42 chars)", ...
func Describe(in *hook.Input, res *hook.Result) string {
	if len(res.Hooks) == 0 {
		return ""
	}
	head := string(res.Event)
	if in.ToolName != "" {
		head += " " + in.ToolName
	}
	var parts []string
	for _, r := range res.Hooks {
		if r.StatusMessage != "" {
			parts = append(parts, fmt.Sprintf("%s shows %q", r.ID, oneLine(r.StatusMessage)))
		}
		switch r.Outcome {
		case hook.OutcomeBlock:
			parts = append(parts, fmt.Sprintf("blocked by %s: %s", r.ID, oneLine(r.Reason)))
		case hook.OutcomeUpdate:
			parts = append(parts, fmt.Sprintf("input rewritten by %s: %s", r.ID, res.UpdatedInput))
		case hook.OutcomeContext:
			parts = append(parts, fmt.Sprintf("context from %s", r.ID))
		case hook.OutcomeError, hook.OutcomeTimeout:
			parts = append(parts, fmt.Sprintf("%s %s: %s", r.ID, r.Outcome, oneLine(r.Error)))
		case hook.OutcomeSkipped:
			parts = append(parts, fmt.Sprintf("%s skipped: %s", r.ID, r.Error))
		default:
			if r.Reason != "" {
				parts = append(parts, fmt.Sprintf("%s %s: %s", r.ID, r.Outcome, oneLine(r.Reason)))
			} else {
				parts = append(parts, fmt.Sprintf("%s %s", r.ID, r.Outcome))
			}
		}
	}
	if res.Permission != hook.NoPermission {
		parts = append(parts, "permission "+res.Permission.String())
	}
	if res.SystemMessage != "" {
		parts = append(parts, "message: "+oneLine(res.SystemMessage))
	}
	return head + ": " + strings.Join(parts, "; ")
}

// oneLine collapses the white space of s (line breaks included) and cuts it at 300 runes.
func oneLine(s string) string {
	return text.Truncate(strings.Join(strings.Fields(s), " "), 300, "…")
}

// Startup fires Startup (the process started), with cwd.
func (h *Harness) Startup(ctx context.Context, cwd string) {
	h.Fire(ctx, hook.Startup, &hook.Input{Cwd: cwd, TranscriptPath: h.opts.TranscriptPath})
}

// Shutdown fires Shutdown (the process is about to exit), with cwd. It does not wait for
// async hooks: call Runner.Close for that.
func (h *Harness) Shutdown(ctx context.Context, cwd string) {
	h.Fire(ctx, hook.Shutdown, &hook.Input{Cwd: cwd, TranscriptPath: h.opts.TranscriptPath})
}

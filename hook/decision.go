package hook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Permission is a permission decision a PreToolUse or PermissionRequest hook can make
// (Claude Code's permissionDecision). The zero value, NoPermission, says nothing.
type Permission int

const (
	NoPermission Permission = iota
	// Allow lets the call through without asking the user. It never loosens a static deny rule
	// of the harness (DESIGN.md section 7).
	Allow
	// Ask asks the harness to put the call to the user; it is not a block.
	Ask
	// Deny blocks the call; the reason goes back to the model.
	Deny
	// Defer hands the call to whoever runs the agent: the tool does not run and the agent
	// stops, to be resumed later (Claude Code's permissionDecision "defer": in -p mode it
	// ends the run with stop_reason "tool_deferred", 2.1.332, testdata/claude/defer). It is
	// not a block.
	Defer
)

// String returns "", "allow", "ask", "deny" or "defer".
func (p Permission) String() string {
	switch p {
	case Defer:
		return "defer"
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return ""
}

// ParsePermission reads "allow", "ask", "deny" or "defer" (Claude Code also says "approve"
// for allow and "block" for deny in its older decision field). ok is false for anything else.
func ParsePermission(s string) (p Permission, ok bool) {
	switch s {
	case "allow", "approve":
		return Allow, true
	case "ask":
		return Ask, true
	case "deny", "block":
		return Deny, true
	case "defer":
		return Defer, true
	}
	return NoPermission, false
}

// MarshalJSON writes the permission as its string.
func (p Permission) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// UnmarshalJSON reads "", "allow", "ask", "deny" or "defer" (and the synonyms
// ParsePermission takes).
func (p *Permission) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		*p = NoPermission
		return nil
	}
	v, ok := ParsePermission(s)
	if !ok {
		return fmt.Errorf("unknown permission %q", s)
	}
	*p = v
	return nil
}

// Stronger reports whether p outranks q when several hooks decide: deny > defer > ask >
// allow > none (Claude Code's precedence, research note section 4.3).
func (p Permission) Stronger(q Permission) bool {
	rank := [...]int{NoPermission: 0, Allow: 1, Ask: 2, Defer: 3, Deny: 4}
	return rank[p] > rank[q]
}

// Decision is what one hook says about one event, normalised from whatever it printed or
// returned. Its zero value is "ran, nothing to say". An executor returns a Decision and, when
// the hook failed, an error; a block is a Decision, never an error.
type Decision struct {
	// Block vetoes a gate event's action, or (on feedback events) asks the agent to keep
	// working; Reason says why, for the model.
	Block  bool
	Reason string
	// Permission is Claude Code's permissionDecision; Deny implies Block.
	Permission Permission
	// AdditionalContext is text for the model (DESIGN.md section 7 joins it across hooks).
	AdditionalContext string
	// UpdatedInput replaces the tool input whole; nil when the hook did not rewrite it.
	// It is always a JSON object.
	UpdatedInput json.RawMessage
	// DisplayContent replaces, on MessageDisplay, the message text shown to the user
	// (Claude Code's hookSpecificOutput.displayContent); "" when the hook gave none. The
	// model and the transcript keep the original text.
	DisplayContent string
	// UpdatedToolOutput replaces, on PostToolUse, the tool output the model sees (Claude
	// Code's hookSpecificOutput.updatedToolOutput, any JSON value); nil when the hook did
	// not replace it.
	UpdatedToolOutput json.RawMessage
	// UpdatedMCPToolOutput is Claude Code's older updatedMCPToolOutput: like
	// UpdatedToolOutput, for MCP tools (mcp__server__tool) only.
	UpdatedMCPToolOutput json.RawMessage
	// StopAgent is Claude Code's "continue": false: the harness should stop the whole agent,
	// with StopReason shown to the user.
	StopAgent  bool
	StopReason string
	// SystemMessage is shown to the user, not to the model.
	SystemMessage string
	// SuppressOutput hides the hook's stdout from the transcript (Claude Code).
	SuppressOutput bool

	// ExitCode is the process's exit code for command hooks, -1 when none (not a process,
	// killed by a signal, never started).
	ExitCode int
	// Output is the hook's raw output for diagnostics and feedback (command: stderr and
	// stdout; http: the body), capped by the executor.
	Output string
	// Truncated is set when the executor cut the hook's output at its cap.
	Truncated bool
}

// Outcome is the strongest thing a hook did during one event, as recorded in Result.Hooks.
type Outcome int

const (
	// OutcomeOK: ran, nothing to say.
	OutcomeOK Outcome = iota
	// OutcomeContext: added context.
	OutcomeContext
	// OutcomeUpdate: rewrote the tool input.
	OutcomeUpdate
	// OutcomeBlock: blocked (or, on_error: block, failed closed; or was not approved).
	OutcomeBlock
	// OutcomeError: failed without blocking (bad exit code, bad JSON, could not start, panic).
	OutcomeError
	// OutcomeTimeout: ran past its timeout and was stopped.
	OutcomeTimeout
	// OutcomeSkipped: not run (once already fired, untrusted layer, approval denied on an
	// event where it could not block).
	OutcomeSkipped
	// OutcomeAsync: started in the background; its result is logged, not merged.
	OutcomeAsync
)

var outcomeNames = [...]string{"ok", "context", "update", "block", "error", "timeout", "skipped", "async"}

// String returns the outcome's name as written in results: "ok", "context", "update",
// "block", "error", "timeout", "skipped" or "async".
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// MarshalJSON writes the outcome as its name.
func (o Outcome) MarshalJSON() ([]byte, error) { return json.Marshal(o.String()) }

// UnmarshalJSON reads an outcome name.
func (o *Outcome) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for i, n := range outcomeNames {
		if n == s {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("unknown outcome %q", s)
}

// Errors an executor returns, to be tested with errors.Is.
var (
	// ErrTimeout: the hook ran past its timeout; it and its process group were stopped.
	ErrTimeout = errors.New("hook timed out")
	// ErrNotStarted: the hook could not start (missing program, missing script of a known
	// interpreter, bad URL). It is never read as a deliberate block (DESIGN.md section 6).
	ErrNotStarted = errors.New("hook could not start")
	// ErrBadOutput: the hook printed an envelope that does not parse; nothing of it is used.
	ErrBadOutput = errors.New("hook output is not a valid envelope")
	// ErrInputTooLarge: the hook could not be given this input. A command hook's arguments
	// and environment (context variables, exec-form arguments) would be more than the system
	// lets a program be started with (Linux execve: 128 KiB per string, about 2 MiB in all).
	// The input, which the model controls, caused it, not the config, so on a gate event the
	// Runner blocks instead of failing open (a guard must not be bypassed by padding the
	// input). Errors wrapping it also wrap ErrNotStarted; *InputTooLargeError carries the size.
	// It is a kind of ErrBadInput: errors.Is(ErrInputTooLarge, ErrBadInput) is true.
	ErrInputTooLarge error = inputKind("hook input is too large for a command")
)

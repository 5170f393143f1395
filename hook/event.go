package hook

import "strings"

// Event is the canonical name of a lifecycle moment, such as "PreToolUse".
// The zero value is not an event; use ParseEvent to turn a user's spelling into one.
type Event string

// The events of DESIGN.md section 3. PermissionDenied and PostCompact are Claude Code events
// that the seeds do not name; they are known so that Claude Code settings load unchanged.
const (
	Startup            Event = "Startup"
	Shutdown           Event = "Shutdown"
	SessionStart       Event = "SessionStart"
	SessionEnd         Event = "SessionEnd"
	UserPromptSubmit   Event = "UserPromptSubmit"
	PreSend            Event = "PreSend"
	PostReceive        Event = "PostReceive"
	PreToolUse         Event = "PreToolUse"
	PermissionRequest  Event = "PermissionRequest"
	PermissionDenied   Event = "PermissionDenied"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	FileChange         Event = "FileChange"
	CommandExecute     Event = "CommandExecute"
	Stop               Event = "Stop"
	PostStopValidation Event = "PostStopValidation"
	Notification       Event = "Notification"
	PreCompact         Event = "PreCompact"
	PostCompact        Event = "PostCompact"
	Error              Event = "Error"
	TaskCreated        Event = "TaskCreated"
	TaskCompleted      Event = "TaskCompleted"
	SubagentStart      Event = "SubagentStart"
	SubagentStop       Event = "SubagentStop"
)

// Kind says what a hook on an event can do (DESIGN.md section 3).
type Kind int

const (
	// Observe hooks cannot block; they may run asynchronously.
	Observe Kind = iota
	// Feedback hooks run synchronously after the fact; a block is fed back to the model so it
	// keeps working (Stop, PostToolUse, PostStopValidation).
	Feedback
	// Gate hooks run synchronously before the action; the first block stops the action.
	Gate
)

// String returns "observe", "feedback" or "gate".
func (k Kind) String() string {
	switch k {
	case Gate:
		return "gate"
	case Feedback:
		return "feedback"
	default:
		return "observe"
	}
}

type eventInfo struct {
	event      Event
	kind       Kind
	matchField string   // the input field the matcher tests; "" when the event has none
	aliases    []string // MiniCode spellings that mean the same moment
}

var registry = []eventInfo{
	{Startup, Observe, "", []string{"startup"}},
	{Shutdown, Observe, "", []string{"shutdown"}},
	{SessionStart, Observe, "source", []string{"session_start"}},
	{SessionEnd, Observe, "reason", []string{"session_end"}},
	{UserPromptSubmit, Gate, "", []string{"turn_start"}},
	{PreSend, Observe, "", []string{"pre_send"}},
	{PostReceive, Observe, "", []string{"post_receive"}},
	{PreToolUse, Gate, "tool_name", []string{"pre_tool_use"}},
	{PermissionRequest, Gate, "tool_name", []string{"permission_request"}},
	{PermissionDenied, Observe, "tool_name", nil},
	{PostToolUse, Feedback, "tool_name", []string{"post_tool_use"}},
	{PostToolUseFailure, Feedback, "tool_name", nil},
	{FileChange, Observe, "tool_name", []string{"file_change"}},
	{CommandExecute, Observe, "", []string{"command_execute"}},
	{Stop, Feedback, "", []string{"turn_end"}},
	{PostStopValidation, Feedback, "", nil},
	{Notification, Observe, "notification_type", nil},
	{PreCompact, Observe, "trigger", []string{"compact"}},
	{PostCompact, Observe, "trigger", nil},
	{Error, Observe, "", []string{"error"}},
	{TaskCreated, Gate, "tool_name", nil},
	{TaskCompleted, Gate, "tool_name", nil},
	{SubagentStart, Observe, "agent_type", nil},
	{SubagentStop, Feedback, "agent_type", nil},
}

var byKey = func() map[string]int {
	m := make(map[string]int)
	for i, e := range registry {
		m[normalize(string(e.event))] = i
		for _, a := range e.aliases {
			m[normalize(a)] = i
		}
	}
	return m
}()

// normalize lower-cases a name and removes underscores and hyphens, so that "pre_tool_use",
// "PreToolUse" and "pretooluse" are one key (DESIGN.md section 3).
func normalize(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// ParseEvent returns the canonical event for a name in any supported spelling: canonical
// ("PreToolUse"), snake case ("pre_tool_use"), lower case, or a MiniCode alias ("turn_start"
// is UserPromptSubmit, "turn_end" is Stop, "compact" is PreCompact). ok is false for an
// unknown name.
func ParseEvent(name string) (e Event, ok bool) {
	i, ok := byKey[normalize(strings.TrimSpace(name))]
	if !ok {
		return "", false
	}
	return registry[i].event, true
}

// Events returns every known event in registry order.
func Events() []Event {
	out := make([]Event, len(registry))
	for i, e := range registry {
		out[i] = e.event
	}
	return out
}

// EventNames returns every accepted spelling: canonical names and aliases, for "did you
// mean" suggestions.
func EventNames() []string {
	var out []string
	for _, e := range registry {
		out = append(out, string(e.event))
		out = append(out, e.aliases...)
	}
	return out
}

func (e Event) info() (eventInfo, bool) {
	i, ok := byKey[normalize(string(e))]
	if !ok {
		return eventInfo{}, false
	}
	return registry[i], true
}

// Valid reports whether e is a known event name in any spelling.
func (e Event) Valid() bool { _, ok := e.info(); return ok }

// Kind returns the event's kind; unknown events are Observe.
func (e Event) Kind() Kind { i, _ := e.info(); return i.kind }

// MatchField returns the input field that a hook's matcher tests on this event: "tool_name"
// on tool events, "source" on SessionStart, "reason" on SessionEnd, "trigger" on
// PreCompact, "notification_type" on Notification, "agent_type" on SubagentStart and
// SubagentStop (as Claude Code does); "" when the event has no match field.
func (e Event) MatchField() string { i, _ := e.info(); return i.matchField }

// Aliases returns the MiniCode spellings of e (may be empty).
func (e Event) Aliases() []string { i, _ := e.info(); return i.aliases }

// IsStopLike reports whether e is a Stop-type feedback event, whose block makes the agent
// continue and whose re-entry carries stop_hook_active (Stop, SubagentStop).
func (e Event) IsStopLike() bool { return e == Stop || e == SubagentStop }

package hook

import "strings"

// Event is the canonical name of a lifecycle moment, such as "PreToolUse".
// The zero value is not an event; use ParseEvent to turn a user's spelling into one.
type Event string

// The events of DESIGN.md section 3: the seeds' moments and every hook event of Claude Code
// 2.1.x (research note section 1), so that a current Claude Code settings file loads
// unchanged. PreModelSwitch and PostModelSwitch are in the list of valid events that
// Claude Code 2.1.332 prints for an unknown one (scenario testdata/claude/events, observed
// with ../shared/peer-claude); what they do is not yet observed, so they are registered as
// observe events without a matcher. PreSkillShellCommand, in the same list, is observed:
// Claude Code fires it before each shell command a skill or slash command runs (its
// "!`cmd`" lines), with tool_name "Bash" and tool_input {"command"}, and does not run the
// command on exit 2 or permissionDecision "deny" (red team round 39): a gate on tool_name.
const (
	Startup              Event = "Startup"
	Shutdown             Event = "Shutdown"
	SessionStart         Event = "SessionStart"
	SessionEnd           Event = "SessionEnd"
	Setup                Event = "Setup"
	UserPromptSubmit     Event = "UserPromptSubmit"
	UserPromptExpansion  Event = "UserPromptExpansion"
	PreSend              Event = "PreSend"
	PostReceive          Event = "PostReceive"
	MessageDisplay       Event = "MessageDisplay"
	PreToolUse           Event = "PreToolUse"
	PermissionRequest    Event = "PermissionRequest"
	PermissionDenied     Event = "PermissionDenied"
	PostToolUse          Event = "PostToolUse"
	PostToolUseFailure   Event = "PostToolUseFailure"
	PostToolBatch        Event = "PostToolBatch"
	FileChange           Event = "FileChange"
	CommandExecute       Event = "CommandExecute"
	Stop                 Event = "Stop"
	StopFailure          Event = "StopFailure"
	PostStopValidation   Event = "PostStopValidation"
	Notification         Event = "Notification"
	PreCompact           Event = "PreCompact"
	PostCompact          Event = "PostCompact"
	Error                Event = "Error"
	TaskCreated          Event = "TaskCreated"
	TaskCompleted        Event = "TaskCompleted"
	TeammateIdle         Event = "TeammateIdle"
	SubagentStart        Event = "SubagentStart"
	SubagentStop         Event = "SubagentStop"
	ConfigChange         Event = "ConfigChange"
	CwdChanged           Event = "CwdChanged"
	DirectoryAdded       Event = "DirectoryAdded"
	FileChanged          Event = "FileChanged"
	InstructionsLoaded   Event = "InstructionsLoaded"
	Elicitation          Event = "Elicitation"
	ElicitationResult    Event = "ElicitationResult"
	WorktreeCreate       Event = "WorktreeCreate"
	WorktreeRemove       Event = "WorktreeRemove"
	PreModelSwitch       Event = "PreModelSwitch"
	PostModelSwitch      Event = "PostModelSwitch"
	PreSkillShellCommand Event = "PreSkillShellCommand"
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
	matchField string     // the input field the matcher tests; "" when the event has none
	handlers   handlerSet // the Claude Code handler types the event accepts
	aliases    []string   // MiniCode spellings that mean the same moment
}

// handlerSet is a set of Claude Code handler types (research note section 1.5).
type handlerSet uint8

const (
	hCommand handlerSet = 1 << iota
	hHTTP
	hMCPTool
	hPrompt
	hAgent

	allHandlers = hCommand | hHTTP | hMCPTool | hPrompt | hAgent
	noModel     = hCommand | hHTTP | hMCPTool // no prompt or agent hooks
	commandMCP  = hCommand | hMCPTool         // SessionStart and Setup: no http either
)

// claudeHandlers names the bits of handlerSet, in the order Event.Handlers lists them.
var claudeHandlers = [...]struct {
	name string
	bit  handlerSet
}{{"command", hCommand}, {"http", hHTTP}, {"mcp_tool", hMCPTool}, {"prompt", hPrompt}, {"agent", hAgent}}

// registry holds every event: kind, match field and handler types from the research note,
// section 1 (Claude Code 2.1.240 docs), checked against Claude Code 2.1.332 where the
// reference agent has the moment (scenario testdata/claude/events). Claude Code's own
// events that can veto what comes next (a compaction, a settings change, an elicitation, a
// worktree, the next model call after a batch) are gates; those whose block makes the agent
// keep working are feedback.
var registry = []eventInfo{
	{Startup, Observe, "", allHandlers, []string{"startup"}},
	{Shutdown, Observe, "", allHandlers, []string{"shutdown"}},
	{SessionStart, Observe, "source", commandMCP, []string{"session_start"}},
	{SessionEnd, Observe, "reason", noModel, []string{"session_end"}},
	{Setup, Observe, "trigger", commandMCP, nil},
	{UserPromptSubmit, Gate, "", allHandlers, []string{"turn_start"}},
	{UserPromptExpansion, Gate, "command_name", allHandlers, nil},
	{PreSend, Observe, "", allHandlers, []string{"pre_send"}},
	{PostReceive, Observe, "", allHandlers, []string{"post_receive"}},
	{MessageDisplay, Observe, "", noModel, nil},
	{PreToolUse, Gate, "tool_name", allHandlers, []string{"pre_tool_use"}},
	{PermissionRequest, Gate, "tool_name", allHandlers, []string{"permission_request"}},
	{PermissionDenied, Observe, "tool_name", allHandlers, nil},
	{PostToolUse, Feedback, "tool_name", allHandlers, []string{"post_tool_use"}},
	{PostToolUseFailure, Feedback, "tool_name", allHandlers, nil},
	{PostToolBatch, Gate, "", allHandlers, nil},
	{FileChange, Observe, "tool_name", allHandlers, []string{"file_change"}},
	{CommandExecute, Observe, "", allHandlers, []string{"command_execute"}},
	{Stop, Feedback, "", allHandlers, []string{"turn_end"}},
	{StopFailure, Observe, "error", noModel, nil},
	{PostStopValidation, Feedback, "", allHandlers, nil},
	{Notification, Observe, "notification_type", noModel, nil},
	{PreCompact, Gate, "trigger", noModel, []string{"compact"}},
	{PostCompact, Observe, "trigger", noModel, nil},
	{Error, Observe, "", allHandlers, []string{"error"}},
	{TaskCreated, Gate, "", allHandlers, nil},
	{TaskCompleted, Gate, "", allHandlers, nil},
	{TeammateIdle, Feedback, "", allHandlers, nil},
	{SubagentStart, Observe, "agent_type", noModel, nil},
	{SubagentStop, Feedback, "agent_type", allHandlers, nil},
	{ConfigChange, Gate, "source", noModel, nil},
	{CwdChanged, Observe, "", noModel, nil},
	{DirectoryAdded, Observe, "source", noModel, nil},
	{FileChanged, Observe, "file_path", noModel, nil},
	{InstructionsLoaded, Observe, "load_reason", noModel, nil},
	{Elicitation, Gate, "mcp_server_name", noModel, nil},
	{ElicitationResult, Gate, "mcp_server_name", noModel, nil},
	{WorktreeCreate, Gate, "", noModel, nil},
	{WorktreeRemove, Observe, "", noModel, nil},
	{PreModelSwitch, Observe, "", allHandlers, nil},
	{PostModelSwitch, Observe, "", allHandlers, nil},
	{PreSkillShellCommand, Gate, "tool_name", allHandlers, nil},
}

// lookup returns the index in registry of the event named name in any spelling, -1 for
// none: a scan of the registry (about 50 events and their aliases), canonical names compared
// first, so that a hook process builds no table at start-up.
func lookup(name string) int {
	for i := range registry {
		if string(registry[i].event) == name {
			return i
		}
	}
	for i, e := range registry {
		if sameKey(string(e.event), name) {
			return i
		}
		for _, a := range e.aliases {
			if sameKey(a, name) {
				return i
			}
		}
	}
	return -1
}

// sameKey reports whether a and b are one name once lower-cased and without underscores
// and hyphens, so that "pre_tool_use", "PreToolUse" and "pretooluse" are one key (DESIGN.md
// section 3).
func sameKey(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && (a[i] == '_' || a[i] == '-') {
			i++
		}
		for j < len(b) && (b[j] == '_' || b[j] == '-') {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lower(a[i]) != lower(b[j]) {
			return false
		}
		i, j = i+1, j+1
	}
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// ParseEvent returns the canonical event for a name in any supported spelling: canonical
// ("PreToolUse"), snake case ("pre_tool_use"), lower case, or a MiniCode alias ("turn_start"
// is UserPromptSubmit, "turn_end" is Stop, "compact" is PreCompact). ok is false for an
// unknown name.
func ParseEvent(name string) (e Event, ok bool) {
	i := lookup(strings.TrimSpace(name))
	if i < 0 {
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
	i := lookup(string(e))
	if i < 0 {
		return eventInfo{}, false
	}
	return registry[i], true
}

// Valid reports whether e is a known event name in any spelling.
func (e Event) Valid() bool { _, ok := e.info(); return ok }

// Kind returns the event's kind; unknown events are Observe.
func (e Event) Kind() Kind { i, _ := e.info(); return i.kind }

// MatchField returns the input field that a hook's matcher tests on this event, as Claude
// Code names it: "tool_name" on tool events, "source" on SessionStart, ConfigChange and
// DirectoryAdded, "reason" on SessionEnd, "trigger" on Setup, PreCompact and PostCompact,
// "notification_type" on Notification, "agent_type" on SubagentStart and SubagentStop,
// "command_name" on UserPromptExpansion, "error" on StopFailure, "load_reason" on
// InstructionsLoaded, "mcp_server_name" on Elicitation and ElicitationResult, and
// "file_path" on FileChanged (whose matcher tests the file's base name, see
// Input.MatchFieldValue); "" when the event has no match field, and a matcher is ignored.
func (e Event) MatchField() string { i, _ := e.info(); return i.matchField }

// Handlers returns the Claude Code handler types a hook on e may have, from "command",
// "http", "mcp_tool", "prompt" and "agent" (research note section 1.5: SessionStart and
// Setup take command and mcp_tool only; the events that cannot veto anything take no prompt
// or agent hooks). It is nil for an unknown event.
func (e Event) Handlers() []string {
	i, ok := e.info()
	if !ok {
		return nil
	}
	var out []string
	for _, h := range claudeHandlers {
		if i.handlers&h.bit != 0 {
			out = append(out, h.name)
		}
	}
	return out
}

// AcceptsHandler reports whether a hook of handler type typ may be on e: one of the types
// Handlers lists, or a type that is not Claude Code's (hookcore's own "inject" and "func",
// which every event accepts). It is false for an unknown event.
func (e Event) AcceptsHandler(typ string) bool {
	i, ok := e.info()
	if !ok {
		return false
	}
	for _, h := range claudeHandlers {
		if h.name == typ {
			return i.handlers&h.bit != 0
		}
	}
	return true
}

// Aliases returns the MiniCode spellings of e (may be empty).
func (e Event) Aliases() []string { i, _ := e.info(); return i.aliases }

// IsStopLike reports whether e is a Stop-type feedback event, whose block makes the agent
// continue and whose re-entry carries stop_hook_active (Stop, SubagentStop).
func (e Event) IsStopLike() bool { return e == Stop || e == SubagentStop }

package hook

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClaudeEventsRegistered checks every hook event of Claude Code 2.1.x against the
// research note's section 1 (kind, matcher field) and its section 1.5 (handler types). The
// names are those Claude Code 2.1.332 lists as valid when it skips an unknown event
// ("Unknown hook event "BogusEvent" was ignored. Valid events: ..."; scenario
// testdata/claude/events run with ../shared/peer-claude), less the three whose behaviour is
// not yet observed, which TestUnobservedClaudeEventsLoad covers.
func TestClaudeEventsRegistered(t *testing.T) {
	t.Parallel()
	all := []string{"command", "http", "mcp_tool", "prompt", "agent"}
	noModel := []string{"command", "http", "mcp_tool"}
	commandMCP := []string{"command", "mcp_tool"}
	tests := []struct {
		event    Event
		kind     Kind
		field    string
		handlers []string
	}{
		{PreToolUse, Gate, "tool_name", all},
		{PostToolUse, Feedback, "tool_name", all},
		{PostToolUseFailure, Feedback, "tool_name", all},
		{PostToolBatch, Gate, "", all},
		{PermissionRequest, Gate, "tool_name", all},
		{PermissionDenied, Observe, "tool_name", all},
		{UserPromptSubmit, Gate, "", all},
		{UserPromptExpansion, Gate, "command_name", all},
		{Stop, Feedback, "", all},
		{StopFailure, Observe, "error", noModel},
		{SubagentStart, Observe, "agent_type", noModel},
		{SubagentStop, Feedback, "agent_type", all},
		{TaskCreated, Gate, "", all},
		{TaskCompleted, Gate, "", all},
		{TeammateIdle, Feedback, "", all},
		{Notification, Observe, "notification_type", noModel},
		{MessageDisplay, Observe, "", noModel},
		{PreCompact, Gate, "trigger", noModel},
		{PostCompact, Observe, "trigger", noModel},
		{SessionStart, Observe, "source", commandMCP},
		{SessionEnd, Observe, "reason", noModel},
		{Setup, Observe, "trigger", commandMCP},
		{ConfigChange, Gate, "source", noModel},
		{CwdChanged, Observe, "", noModel},
		{DirectoryAdded, Observe, "source", noModel},
		{FileChanged, Observe, "file_path", noModel},
		{InstructionsLoaded, Observe, "load_reason", noModel},
		{Elicitation, Gate, "mcp_server_name", noModel},
		{ElicitationResult, Gate, "mcp_server_name", noModel},
		{WorktreeCreate, Gate, "", noModel},
		{WorktreeRemove, Observe, "", noModel},
	}
	if len(tests) != 31 {
		t.Fatalf("%d events in the table, want the 31 of the research note", len(tests))
	}
	for _, tt := range tests {
		t.Run(string(tt.event), func(t *testing.T) {
			t.Parallel()
			got, ok := ParseEvent(string(tt.event))
			if !ok || got != tt.event {
				t.Fatalf("ParseEvent(%q) = %q, %v", tt.event, got, ok)
			}
			if k := got.Kind(); k != tt.kind {
				t.Errorf("Kind = %v, want %v", k, tt.kind)
			}
			if f := got.MatchField(); f != tt.field {
				t.Errorf("MatchField = %q, want %q", f, tt.field)
			}
			if d := cmp.Diff(tt.handlers, got.Handlers()); d != "" {
				t.Errorf("Handlers (-want +got):\n%s", d)
			}
			for _, h := range all {
				want := false
				for _, w := range tt.handlers {
					want = want || w == h
				}
				if got.AcceptsHandler(h) != want {
					t.Errorf("AcceptsHandler(%q) = %v, want %v", h, !want, want)
				}
			}
			if !got.AcceptsHandler("inject") || !got.AcceptsHandler("func") {
				t.Error("hookcore's own handler types must be accepted on every event")
			}
		})
	}
}

// TestUnobservedClaudeEventsLoad: the events Claude Code 2.1.332 lists as valid beyond the
// research note's 31 are known (so a file that uses them loads); the two not yet observed
// cannot block; PreSkillShellCommand, observed (red team round 39), is a gate on the tool
// name, as Claude Code asks it before a skill's shell command runs.
func TestUnobservedClaudeEventsLoad(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"PreModelSwitch", "PostModelSwitch"} {
		e, ok := ParseEvent(name)
		if !ok || e.Kind() != Observe || e.MatchField() != "" {
			t.Errorf("%s: ParseEvent ok=%v kind=%v field=%q", name, ok, e.Kind(), e.MatchField())
		}
	}
	if e, ok := ParseEvent("PreSkillShellCommand"); !ok || e.Kind() != Gate || e.MatchField() != "tool_name" {
		t.Errorf("PreSkillShellCommand: ParseEvent ok=%v kind=%v field=%q", ok, e.Kind(), e.MatchField())
	}
	if Event("Bogus").AcceptsHandler("command") || Event("Bogus").Handlers() != nil {
		t.Error("an unknown event accepts no handler")
	}
}

// TestMatchFieldValueNewFields: the match fields of the events added for Claude Code 2.1.x
// read from the payload Claude Code sends; FileChanged tests the changed file's base name.
func TestMatchFieldValueNewFields(t *testing.T) {
	t.Parallel()
	var in Input
	payload := `{"hook_event_name":"X","error":"rate_limit","command_name":"review",
		"load_reason":"session_start","mcp_server_name":"github","file_path":"/p/src/.envrc"}`
	if err := json.Unmarshal([]byte(payload), &in); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"error": "rate_limit", "command_name": "review", "load_reason": "session_start",
		"mcp_server_name": "github", "file_path": ".envrc", "nope": "",
	}
	for field, v := range want {
		if got := in.MatchFieldValue(field); got != v {
			t.Errorf("MatchFieldValue(%q) = %q, want %q", field, got, v)
		}
	}
	for e, v := range map[Event]string{StopFailure: "rate_limit", UserPromptExpansion: "review",
		InstructionsLoaded: "session_start", Elicitation: "github", FileChanged: ".envrc"} {
		if got := in.MatchValue(e); got != v {
			t.Errorf("MatchValue(%s) = %q, want %q", e, got, v)
		}
	}
}

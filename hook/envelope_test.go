package hook

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseEnvelope(t *testing.T) {
	t.Parallel()
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name     string
		stdout   string
		event    Event
		want     Decision
		envelope bool
		bad      bool
	}{
		{name: "empty", stdout: "", event: PreToolUse},
		{name: "plain text", stdout: "Current branch: main\n", event: UserPromptSubmit},
		{name: "plain text starting with bracket", stdout: "[1, 2]", event: PreToolUse},
		{name: "empty object", stdout: "{}", event: PreToolUse, envelope: true},
		{name: "leading blanks and BOM", stdout: " \n\t\xef\xbb\xbf {\"block\": true}", event: PreToolUse,
			want: Decision{Block: true}, envelope: true},
		// codebot (seed 000).
		{name: "codebot block", stdout: `{"block": true, "reason": "writes to .env are not allowed"}`, event: PreToolUse,
			want: Decision{Block: true, Reason: "writes to .env are not allowed"}, envelope: true},
		{name: "codebot block false", stdout: `{"block": false, "reason": "fine"}`, event: PreToolUse,
			want: Decision{Reason: "fine"}, envelope: true},
		{name: "codebot context", stdout: `{"additional_context": "first: the repo uses Go 1.26"}`, event: UserPromptSubmit,
			want: Decision{AdditionalContext: "first: the repo uses Go 1.26"}, envelope: true},
		{name: "codebot updated input compacted", stdout: "{\"updated_input\": {\"command\":  \"ls -la\",\n \"x\": [1, 2]}}", event: PreToolUse,
			want: Decision{UpdatedInput: raw(`{"command":"ls -la","x":[1,2]}`)}, envelope: true},
		{name: "unknown keys are fine", stdout: `{"block": true, "extra": {"a": [1]}, "Block": "yes"}`, event: PreToolUse,
			want: Decision{Block: true}, envelope: true},
		{name: "null counts as absent", stdout: `{"block": null, "reason": null, "updated_input": null, "hookSpecificOutput": null}`, event: PreToolUse,
			envelope: true},
		// s08 (seed 002).
		{name: "s08 updatedInput", stdout: `{"updatedInput": {"command": "ls"}}`, event: PreToolUse,
			want: Decision{UpdatedInput: raw(`{"command":"ls"}`)}, envelope: true},
		// Claude Code top level.
		{name: "claude decision block", stdout: `{"decision": "block", "reason": "tests are failing: fix TestLogin first"}`, event: Stop,
			want: Decision{Block: true, Reason: "tests are failing: fix TestLogin first"}, envelope: true},
		{name: "claude decision approve", stdout: `{"decision": "approve", "reason": "safe"}`, event: PreToolUse,
			want: Decision{Permission: Allow, Reason: "safe"}, envelope: true},
		{name: "claude decision deny spelling", stdout: `{"decision": "deny", "reason": "no"}`, event: PreToolUse,
			want: Decision{Permission: Deny, Block: true, Reason: "no"}, envelope: true},
		{name: "claude decision empty", stdout: `{"decision": ""}`, event: PreToolUse, envelope: true},
		{name: "claude continue false", stdout: `{"continue": false, "stopReason": "budget exhausted"}`, event: PostToolUse,
			want: Decision{StopAgent: true, StopReason: "budget exhausted"}, envelope: true},
		{name: "claude continue true", stdout: `{"continue": true, "stopReason": "ignored"}`, event: PostToolUse, envelope: true},
		{name: "claude system message and suppress", stdout: `{"systemMessage": "heads up", "suppressOutput": true}`, event: PostToolUse,
			want: Decision{SystemMessage: "heads up", SuppressOutput: true}, envelope: true},
		{name: "top-level additionalContext", stdout: `{"additionalContext": "camel"}`, event: SessionStart,
			want: Decision{AdditionalContext: "camel"}, envelope: true},
		// Claude Code hookSpecificOutput.
		{name: "claude deny", stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed"}}`, event: PreToolUse,
			want: Decision{Block: true, Permission: Deny, Reason: "rm -rf is not allowed"}, envelope: true},
		{name: "claude deny falls back to reason", stdout: `{"reason": "outer", "hookSpecificOutput": {"permissionDecision": "deny"}}`, event: PreToolUse,
			want: Decision{Block: true, Permission: Deny, Reason: "outer"}, envelope: true},
		{name: "claude ask is not a block", stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "confirm push"}}`, event: PreToolUse,
			want: Decision{Permission: Ask, Reason: "confirm push"}, envelope: true},
		{name: "claude allow with updated input", stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "rewritten", "updatedInput": {"command": "ls -la", "description": "list"}}}`, event: PreToolUse,
			want: Decision{Permission: Allow, Reason: "rewritten", UpdatedInput: raw(`{"command":"ls -la","description":"list"}`)}, envelope: true},
		{name: "claude post tool block with context", stdout: `{"decision": "block", "reason": "lint failed", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "run gofmt"}}`, event: PostToolUse,
			want: Decision{Block: true, Reason: "lint failed", AdditionalContext: "run gofmt"}, envelope: true},
		{name: "claude permission request allow", stdout: `{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}`, event: PermissionRequest,
			want: Decision{Permission: Allow}, envelope: true},
		{name: "claude permission request allow updated", stdout: `{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedInput": {"command": "ls"}}}}`, event: PermissionRequest,
			want: Decision{Permission: Allow, UpdatedInput: raw(`{"command":"ls"}`)}, envelope: true},
		{name: "claude permission request deny", stdout: `{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "not on main"}}}`, event: PermissionRequest,
			want: Decision{Permission: Deny, Block: true, Reason: "not on main"}, envelope: true},
		{name: "claude permission request deny interrupt", stdout: `{"hookSpecificOutput": {"decision": {"behavior": "deny", "message": "stop now", "interrupt": true}}}`, event: PermissionRequest,
			want: Decision{Permission: Deny, Block: true, Reason: "stop now", StopAgent: true, StopReason: "stop now"}, envelope: true},
		{name: "context pieces joined in order", stdout: `{"additional_context": "a", "additionalContext": "b", "hookSpecificOutput": {"additionalContext": "c"}}`, event: UserPromptSubmit,
			want: Decision{AdditionalContext: "a\n\nb\n\nc"}, envelope: true},
		{name: "updated input precedence", stdout: `{"updated_input": {"a": 1}, "updatedInput": {"a": 2}, "hookSpecificOutput": {"updatedInput": {"a": 3}}}`, event: PreToolUse,
			want: Decision{UpdatedInput: raw(`{"a":3}`)}, envelope: true},
		{name: "block next to allow is deny", stdout: `{"block": true, "reason": "r", "hookSpecificOutput": {"permissionDecision": "allow"}}`, event: PreToolUse,
			want: Decision{Block: true, Permission: Deny, Reason: "r"}, envelope: true},
		{name: "event alias in hookEventName", stdout: `{"hookSpecificOutput": {"hookEventName": "pre_tool_use", "permissionDecision": "allow"}}`, event: PreToolUse,
			want: Decision{Permission: Allow}, envelope: true},
		{name: "unknown hookEventName not checked", stdout: `{"hookSpecificOutput": {"hookEventName": "FutureEvent", "permissionDecision": "allow"}}`, event: PreToolUse,
			want: Decision{Permission: Allow}, envelope: true},
		{name: "unknown event not checked", stdout: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "allow"}}`, event: "",
			want: Decision{Permission: Allow}, envelope: true},
		// Invalid envelopes: nothing is used.
		{name: "truncated JSON", stdout: `{"additional_context": `, event: UserPromptSubmit, envelope: true, bad: true},
		{name: "wrong type block", stdout: `{"block": "yes", "additional_context": "leak"}`, event: PreToolUse, envelope: true, bad: true},
		{name: "wrong type reason", stdout: `{"block": true, "reason": 3}`, event: PreToolUse, envelope: true, bad: true},
		{name: "wrong type continue", stdout: `{"continue": "false"}`, event: PreToolUse, envelope: true, bad: true},
		{name: "updated input not an object", stdout: `{"updated_input": "ls -la"}`, event: PreToolUse, envelope: true, bad: true},
		{name: "updatedInput array", stdout: `{"updatedInput": [1]}`, event: PreToolUse, envelope: true, bad: true},
		{name: "hso updatedInput string", stdout: `{"hookSpecificOutput": {"updatedInput": "x"}}`, event: PreToolUse, envelope: true, bad: true},
		{name: "hso not an object", stdout: `{"hookSpecificOutput": "deny"}`, event: PreToolUse, envelope: true, bad: true},
		{name: "unknown permissionDecision", stdout: `{"hookSpecificOutput": {"permissionDecision": "maybe"}}`, event: PreToolUse, envelope: true, bad: true},
		{name: "unknown decision", stdout: `{"decision": "stop"}`, event: Stop, envelope: true, bad: true},
		{name: "unknown behavior", stdout: `{"hookSpecificOutput": {"decision": {"behavior": "perhaps"}}}`, event: PermissionRequest, envelope: true, bad: true},
		{name: "decision object wrong type", stdout: `{"hookSpecificOutput": {"decision": "allow"}}`, event: PermissionRequest, envelope: true, bad: true},
		{name: "trailing garbage", stdout: `{"block": true} and more`, event: PreToolUse, envelope: true, bad: true},
		{name: "two objects", stdout: "{}\n{}", event: PreToolUse, envelope: true, bad: true},
		{name: "log line in braces", stdout: "{hook} running", event: PreToolUse, envelope: true, bad: true},
		{name: "mismatched hookEventName", stdout: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "allow"}}`, event: PreToolUse, envelope: true, bad: true},
		// Claude Code 2.1.332 (testdata/claude/defer, foreign-fields, updated-output of the
		// root package).
		{name: "claude defer", stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer", "permissionDecisionReason": "deferred"}}`, event: PreToolUse,
			want: Decision{Permission: Defer, Reason: "deferred"}, envelope: true},
		{name: "permission request decision on UserPromptSubmit is ignored", stdout: `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "decision": {"behavior": "deny", "message": "no"}, "permissionDecision": "deny", "additionalContext": "ups ctx"}}`, event: UserPromptSubmit,
			want: Decision{AdditionalContext: "ups ctx"}, envelope: true},
		{name: "permissionDecision and updatedInput on PostToolUse are ignored", stdout: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny", "updatedInput": {"command": "echo hacked"}}}`, event: PostToolUse,
			envelope: true},
		{name: "updated tool output", stdout: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "REDACTED", "stderr": ""}, "updatedMCPToolOutput": "m"}}`, event: PostToolUse,
			want: Decision{UpdatedToolOutput: raw(`{"stdout":"REDACTED","stderr":""}`), UpdatedMCPToolOutput: raw(`"m"`)}, envelope: true},
		// Claude Code 2.1.332, testdata/claude/display of the root package.
		{name: "display content", stdout: `{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": "[shown] hi"}}`, event: MessageDisplay,
			want: Decision{DisplayContent: "[shown] hi"}, envelope: true},
		{name: "display content on Stop is ignored", stdout: `{"hookSpecificOutput": {"displayContent": "x"}}`, event: Stop, envelope: true},
		{name: "display content wrong type", stdout: `{"hookSpecificOutput": {"displayContent": 1}}`, event: MessageDisplay, envelope: true, bad: true},
		{name: "updated tool output on PreToolUse is ignored", stdout: `{"hookSpecificOutput": {"updatedToolOutput": "x"}}`, event: PreToolUse, envelope: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, isEnvelope, err := ParseEnvelope([]byte(tt.stdout), tt.event)
			if isEnvelope != tt.envelope {
				t.Errorf("isEnvelope = %v, want %v", isEnvelope, tt.envelope)
			}
			if tt.bad {
				if !errors.Is(err, ErrBadOutput) {
					t.Fatalf("err = %v, want ErrBadOutput", err)
				}
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decision mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseEnvelope(f *testing.F) {
	seeds := []string{
		``, `plain text`, `{}`, `{"block": true, "reason": "r"}`, `{"block": "yes"}`,
		`{"additional_context": "c", "updated_input": {"a": 1}}`, `{"updatedInput": {"command": "ls"}}`,
		`{"continue": false, "stopReason": "s", "systemMessage": "m", "suppressOutput": true}`,
		`{"decision": "block", "reason": "r", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c"}}`,
		`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}`,
		`{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedInput": {}}}}`,
		`{"additional_context": `, " \n{\"updated_input\": [1]}", `{"a":1} x`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), string(PreToolUse))
	}
	f.Add([]byte(`{"hookSpecificOutput": {"hookEventName": "Stop"}}`), string(Stop))
	f.Fuzz(func(t *testing.T, stdout []byte, event string) {
		d, isEnvelope, err := ParseEnvelope(stdout, Event(event))
		if err != nil {
			if !errors.Is(err, ErrBadOutput) || !isEnvelope {
				t.Fatalf("error %v with isEnvelope=%v", err, isEnvelope)
			}
			if diff := cmp.Diff(Decision{}, d); diff != "" {
				t.Fatalf("a bad envelope leaked fields:\n%s", diff)
			}
			return
		}
		if !isEnvelope {
			if diff := cmp.Diff(Decision{}, d); diff != "" {
				t.Fatalf("plain text produced a decision:\n%s", diff)
			}
			return
		}
		if d.UpdatedInput != nil {
			var m map[string]any
			if json.Unmarshal(d.UpdatedInput, &m) != nil || m == nil {
				t.Fatalf("updated input %q is not a JSON object", d.UpdatedInput)
			}
		}
		if d.Permission == Deny && !d.Block {
			t.Fatalf("deny without block: %+v", d)
		}
		if d.Block && (d.Permission == Allow || d.Permission == Ask) {
			t.Fatalf("block with %v", d.Permission)
		}
	})
}

func TestResultJSONRoundTrip(t *testing.T) {
	t.Parallel()
	want := Result{Event: PreToolUse, Blocked: true, Reason: "r", Permission: Deny, Continue: true,
		Hooks: []Record{{ID: "a", Type: "command", Outcome: OutcomeBlock}}}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got Result
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("a logged result must decode back: %v", err)
	}
	if got.Permission != Deny || got.Hooks[0].Outcome != OutcomeBlock || !got.Blocked {
		t.Fatalf("round trip lost fields: %+v", got)
	}
}

package bridge_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestGateBlockNeverAllows: on every gate event of hookcore's registry, for every protocol,
// a blocked result is never encoded as an allow — exit 0 with nothing that says deny (red
// team round 59: Claude Code's UserPromptExpansion, ConfigChange, Elicitation,
// ElicitationResult, WorktreeCreate and PostToolBatch were answered with nothing, and
// Claude Code went ahead).
func TestGateBlockNeverAllows(t *testing.T) {
	t.Parallel()
	results := map[string]hook.Result{
		"blocked":           with(func(r *hook.Result) { r.Blocked, r.Reason = true, "guard says no" }),
		"blocked no reason": with(func(r *hook.Result) { r.Blocked = true }),
		"deny":              with(func(r *hook.Result) { r.Permission, r.Reason = hook.Deny, "guard says no" }),
		"blocked allow":     with(func(r *hook.Result) { r.Blocked, r.Permission = true, hook.Allow }),
		"blocked context":   with(func(r *hook.Result) { r.Blocked, r.AdditionalContext = true, "ctx" }),
	}
	var gates, feedback []hook.Event
	for _, ev := range hook.Events() {
		switch ev.Kind() {
		case hook.Gate:
			gates = append(gates, ev)
		case hook.Feedback:
			feedback = append(feedback, ev)
		}
	}
	if len(gates) == 0 {
		t.Fatal("the registry has no gate event")
	}
	for _, name := range bridge.Names() {
		p, _ := bridge.Lookup(name)
		events := gates
		if name == "claude" || name == "codex" {
			// Claude Code takes a block on its feedback events too (PostToolUse, Stop,
			// SubagentStop: the decision; TeammateIdle: exit 2; red team round 60: a blocked
			// TeammateIdle was answered with nothing, and the teammate went idle).
			events = append(slices.Clone(gates), feedback...)
		}
		for _, ev := range events {
			for rname, res := range results {
				t.Run(name+"/"+string(ev)+"/"+rname, func(t *testing.T) {
					t.Parallel()
					res := res
					res.Event = ev
					a := p.Encode(ev, &hook.Input{HookEventName: string(ev)}, &res)
					if a.Code == 0 && !saysDeny(a.Stdout) {
						t.Errorf("a block is encoded as an allow: exit 0, stdout %q, stderr %q", a.Stdout, a.Stderr)
					}
					if a.Code != 0 && a.Stderr == "" {
						t.Errorf("exit %d with an empty reason on stderr", a.Code)
					}
					if len(a.Stdout) > 0 && !json.Valid(a.Stdout) {
						t.Errorf("stdout is not JSON: %s", a.Stdout)
					}
					if name == "claude" {
						// hookcore serve's answer to a Claude Code http hook: no exit status.
						if body, ok := bridge.ClaudeHTTP(ev, a); !ok || !saysDeny(body) {
							t.Errorf("http hook answer %q (ok %v) is not a block", body, ok)
						}
					}
				})
			}
		}
	}
}

// saysDeny reports whether stdout, an exit-0 answer, holds a block in one of the forms the
// protocols write: a top-level decision "block" or "deny", a permission or
// permissionDecision "deny", a behavior "deny" (top level or hookSpecificOutput.decision),
// hookSpecificOutput.permissionDecision "deny", hookSpecificOutput.action "decline", or
// Cursor's beforeSubmitPrompt continue:false.
func saysDeny(stdout []byte) bool {
	if len(stdout) == 0 {
		return false
	}
	var o struct {
		Decision           string
		Permission         string
		PermissionDecision string
		Behavior           string
		Continue           *bool
		UserMessage        string `json:"user_message"`
		HSO                struct {
			PermissionDecision string
			Action             string
			Decision           struct{ Behavior string }
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(stdout, &o) != nil {
		return false
	}
	return o.Decision == "block" || o.Decision == "deny" || o.Permission == "deny" ||
		o.PermissionDecision == "deny" || o.Behavior == "deny" ||
		o.HSO.PermissionDecision == "deny" || o.HSO.Action == "decline" || o.HSO.Decision.Behavior == "deny" ||
		o.Continue != nil && !*o.Continue && o.UserMessage != ""
}

// TestClaudeGateBlocks: the answer Claude Code and Codex get for a block on each gate event
// (research note sections 1 and 4: the top-level decision "block" where the hooks reference
// lists it, hookSpecificOutput.action "decline" on the Elicitation events, and exit 2 with
// the reason on stderr where the event has no JSON block — WorktreeCreate fails on any
// non-zero exit — or, for Codex, where its schema has no such event).
func TestClaudeGateBlocks(t *testing.T) {
	t.Parallel()
	res := with(func(r *hook.Result) { r.Blocked, r.Reason = true, "no" })
	decision := func(hook.Event) answer { return answer{Stdout: `{"decision":"block","reason":"no"}` + "\n"} }
	decline := func(ev hook.Event) answer {
		return answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"` + string(ev) + `","action":"decline"}}` + "\n"}
	}
	exit2 := func(hook.Event) answer { return answer{Code: 2, Stderr: "no"} }
	tests := []struct {
		event       hook.Event
		claude, cdx func(hook.Event) answer
	}{
		{hook.PreToolUse, exit2, exit2},
		{hook.PreSkillShellCommand, exit2, exit2},
		{hook.UserPromptSubmit, decision, decision},
		{hook.UserPromptExpansion, decision, exit2},
		{hook.PostToolBatch, decision, exit2},
		{hook.ConfigChange, decision, exit2},
		{hook.PreCompact, decision, exit2},
		{hook.Elicitation, decline, exit2},
		{hook.ElicitationResult, decline, exit2},
		{hook.WorktreeCreate, exit2, exit2},
		{hook.TaskCreated, exit2, exit2},
		{hook.TaskCompleted, exit2, exit2},
	}
	for _, tt := range tests {
		for _, p := range []bridge.Protocol{bridge.Claude{}, bridge.Codex{}} {
			t.Run(p.Name()+"/"+string(tt.event), func(t *testing.T) {
				t.Parallel()
				want := tt.claude(tt.event)
				if p.Name() == "codex" {
					want = tt.cdx(tt.event)
				}
				r := res
				r.Event = tt.event
				if diff := cmp.Diff(want, text(p.Encode(tt.event, nil, &r))); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestDecodeDuplicateKeys (red team round 59): every protocol's Decode refuses a hook input
// with a top-level key twice (tool_input, tool_name, the event's field), as it refuses a tool
// input with a key twice: an error wrapping hook.ErrAmbiguousInput, which the hook command
// and serve answer with Fail, closed on gate events.
func TestDecodeDuplicateKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		p     bridge.Protocol
		input string
	}{
		{"claude tool_input", bridge.Claude{}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`},
		{"claude hook_event_name", bridge.Claude{}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"hook_event_name":"PostToolUse"}`},
		{"claude tool_name", bridge.Claude{}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_name":"Read"}`},
		{"claude matcher field", bridge.Claude{}, `{"hook_event_name":"ConfigChange","source":"policy_settings","source":"project_settings"}`},
		{"claude case twin", bridge.Claude{}, `{"hook_event_name":"PreToolUse","tool_name":"Read","Tool_Name":"Bash","tool_input":{}}`},
		{"codex escaped", bridge.Codex{}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_\u0069nput":{"command":"rm -rf /"}}`},
		{"gemini", bridge.Gemini{}, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`},
		{"cursor", bridge.Cursor{}, `{"hook_event_name":"beforeShellExecution","command":"ls","command":"rm -rf /"}`},
		{"copilot", bridge.Copilot{}, `{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolArgs":"{\"command\":\"rm -rf /\"}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := tt.p.Decode([]byte(tt.input), "")
			if !errors.Is(err, hook.ErrAmbiguousInput) {
				t.Errorf("Decode error = %v, want hook.ErrAmbiguousInput", err)
			}
		})
	}
}

// TestClaudeGateEventsObserved pins hookcore's Claude answers on the four gate events that
// were observed with the real Claude Code 2.1.332 (docs/decisions.md, "Gate events observed
// with the real Claude Code (stop 34)"), beyond their blocks (TestClaudeGateBlocks):
//   - UserPromptExpansion and PostToolBatch take hookSpecificOutput.additionalContext (the
//     model saw "UserPromptExpansion hook additional context: X" and "PostToolBatch hook
//     additional context: X"); hookcore dropped it;
//   - Elicitation and ElicitationResult ignore continue: false (the elicitation went on to
//     the user, the turn went on): hookcore's stop declines the elicitation as well;
//   - WorktreeCreate reads a command hook's stdout as the new worktree's path, JSON or not
//     (`{"continue": false, ...}` became "worktree directory .../{"continue": ...} does not
//     exist"): hookcore writes no JSON there, and a stop exits 2 with the stop reason.
func TestClaudeGateEventsObserved(t *testing.T) {
	t.Parallel()
	stop := func(r *hook.Result) { r.Continue, r.StopReason = false, "halt" }
	tests := []struct {
		name  string
		event hook.Event
		res   hook.Result
		want  answer
	}{
		{"expansion context", hook.UserPromptExpansion, with(func(r *hook.Result) { r.AdditionalContext = "ctx" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"ctx"}}` + "\n"}},
		{"batch context", hook.PostToolBatch, with(func(r *hook.Result) { r.AdditionalContext = "ctx" }),
			answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"ctx"}}` + "\n"}},
		{"batch block with context", hook.PostToolBatch, with(func(r *hook.Result) { r.Blocked, r.Reason, r.AdditionalContext = true, "no", "ctx" }),
			answer{Stdout: `{"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"ctx"}}` + "\n"}},
		{"elicitation stop", hook.Elicitation, with(stop),
			answer{Stdout: `{"continue":false,"stopReason":"halt","hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}}` + "\n"}},
		{"elicitation result stop", hook.ElicitationResult, with(stop),
			answer{Stdout: `{"continue":false,"stopReason":"halt","hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"decline"}}` + "\n"}},
		{"worktree stop", hook.WorktreeCreate, with(stop), answer{Code: 2, Stderr: "halt"}},
		{"worktree stop without reason", hook.WorktreeCreate, with(func(r *hook.Result) { r.Continue = false }), answer{Code: 2, Stderr: "stopped by a hookcore WorktreeCreate hook"}},
		{"worktree block with message", hook.WorktreeCreate, with(func(r *hook.Result) { r.Blocked, r.Reason, r.SystemMessage = true, "no", "note" }), answer{Code: 2, Stderr: "no"}},
		{"worktree message only", hook.WorktreeCreate, with(func(r *hook.Result) { r.SystemMessage = "note" }), answer{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tt.res
			r.Event = tt.event
			if diff := cmp.Diff(tt.want, text(bridge.Claude{}.Encode(tt.event, nil, &r))); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

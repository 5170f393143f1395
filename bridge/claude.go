package bridge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// Claude is Claude Code's hook protocol (the "hooks" of settings.json, command and http
// hooks). Input: the hook input JSON of the hooks reference, event in hook_event_name,
// decoded unchanged into hook.Input (hookcore's input is Claude Code's). Output, per event,
// as the hooks reference's output schema wants it and as Claude Code 2.1.332 was observed
// to apply it (../shared/peer-claude):
//
//   - PreToolUse: a block without a permission decision exits 2 with the reason on stderr
//     (the model sees it verbatim); otherwise hookSpecificOutput with permissionDecision
//     allow / ask / deny, permissionDecisionReason, updatedInput (applied without a
//     permission decision too, observed: Claude Code's own permission flow then runs on the
//     rewritten input, so a rewrite never loosens it) and additionalContext.
//   - PermissionRequest: hookSpecificOutput.decision {behavior: deny, message} or
//     {behavior: allow[, updatedInput]}; exit 2 is ignored on this event, so a block is JSON.
//   - UserPromptSubmit, UserPromptExpansion, PostToolUse, PostToolUseFailure, PostToolBatch,
//     Stop, SubagentStop, ConfigChange, PreCompact: a block is the top-level decision
//     "block" with reason; additionalContext (where the schema has it) goes in
//     hookSpecificOutput.
//   - Elicitation, ElicitationResult: a block is hookSpecificOutput.action "decline", and
//     so is a stop (Claude Code ignores continue: false there; observed, stop 34).
//   - WorktreeCreate, TaskCreated, TaskCompleted, and any other gate: a block exits 2 with
//     the reason on stderr (claudeBlockForm; a gate's block is never dropped). On
//     WorktreeCreate, whose stdout Claude Code reads as the new worktree's path, a stop
//     exits 2 too and nothing else is written (worktreeAnswer).
//   - SessionStart, SubagentStart, UserPromptExpansion, PostToolBatch: additionalContext in
//     hookSpecificOutput.
//   - Every event: continue:false + stopReason, systemMessage.
//
// Nothing is printed when there is nothing to say. Codex shares this protocol, minus the
// fields its strict schema lacks (see Codex).
type Claude struct{}

// Name returns "claude".
func (Claude) Name() string { return "claude" }

// Decode implements Protocol.
func (Claude) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	return decodeClaudeShape(data, override)
}

func decodeClaudeShape(data []byte, override string) (hook.Event, *hook.Input, error) {
	in := &hook.Input{}
	if t := trim(data); len(t) > 0 {
		// Unmarshal checks the JSON itself: validObject, a second scan, only words the
		// error (issue 9: one scan of the input less per hook process).
		if t[0] != '{' {
			return "", nil, validObject(t)
		}
		if err := json.Unmarshal(data, in); err != nil {
			if verr := validObject(t); verr != nil {
				return "", nil, verr
			}
			return "", nil, fmt.Errorf("hook input is not a valid hook input: %v", err)
		}
		if err := checkKeys(t); err != nil {
			return "", nil, err
		}
	}
	name := override
	if name == "" {
		name = in.HookEventName
	}
	if name == "" {
		return "", nil, noEvent(data)
	}
	ev, ok := hook.ParseEvent(name)
	if !ok {
		ev = hook.Event(name) // an event hookcore does not know: no hook matches, answer nothing
	}
	return ev, in, nil
}

// Encode implements Protocol.
func (Claude) Encode(event hook.Event, _ *hook.Input, res *hook.Result) Answer {
	return encodeClaudeShape(event, res, false)
}

// contextEvent reports whether event's hookSpecificOutput has additionalContext.
func contextEvent(event hook.Event) bool {
	switch event {
	case hook.PreToolUse, hook.PostToolUse, hook.PostToolUseFailure, hook.UserPromptSubmit,
		hook.SessionStart, hook.SubagentStart, hook.Stop, hook.SubagentStop,
		// Observed with Claude Code 2.1.332 (stop 34): the model gets "UserPromptExpansion
		// hook additional context: X" with the expanded prompt, and "PostToolBatch hook
		// additional context: X" before its next call.
		hook.UserPromptExpansion, hook.PostToolBatch:
		return true
	}
	return false
}

// blockForm is the form in which an agent of Claude Code's protocol takes a block on an
// event (claudeBlockForm).
type blockForm int

const (
	// blockNone: the event cannot be blocked; a block is not written.
	blockNone blockForm = iota
	// blockDecision: the top-level decision "block" with reason.
	blockDecision
	// blockDecline: hookSpecificOutput.action "decline" (the Elicitation events).
	blockDecline
	// blockExit: exit 2 with the reason on stderr.
	blockExit
)

// claudeBlockForm returns how Claude Code (codex: Codex) takes a block on event, for the
// events encodeClaudeShape does not answer in their own way (PreToolUse,
// PreSkillShellCommand, PermissionRequest, PostToolUse). The research note's top-level
// decision list (section 4.2: UserPromptSubmit, UserPromptExpansion, PostToolUse,
// PostToolUseFailure, PostToolBatch, Stop, SubagentStop, ConfigChange, PreCompact) gets the
// decision "block"; Elicitation and ElicitationResult get hookSpecificOutput.action
// "decline" (section 1.4); every other gate — WorktreeCreate, which fails on any non-zero
// exit, TaskCreated, TaskCompleted, and any gate the registry gains — exits 2 with the reason
// on stderr, Claude Code's block on every event that can be blocked (section 4.1), and so
// does a feedback event without a decision of its own (TeammateIdle; red team round 60). Codex
// has the decision only on UserPromptSubmit, PostToolUse, Stop and SubagentStop (and
// PostToolUseFailure, kept as before); its other gates, and the events it does not have,
// exit 2, its documented block. A gate is never left without a block (red team round 59:
// six of Claude Code's gates were answered with nothing, and Claude Code went ahead).
func claudeBlockForm(event hook.Event, codex bool) blockForm {
	switch event {
	case hook.UserPromptSubmit, hook.PostToolUse, hook.PostToolUseFailure, hook.Stop, hook.SubagentStop:
		return blockDecision
	case hook.UserPromptExpansion, hook.PostToolBatch, hook.ConfigChange, hook.PreCompact:
		if !codex {
			return blockDecision
		}
	case hook.Elicitation, hook.ElicitationResult:
		if !codex {
			return blockDecline
		}
	}
	if k := event.Kind(); k == hook.Gate || k == hook.Feedback {
		// A feedback event without a decision of its own (TeammateIdle: "exit 2, or
		// continue: false"; red team round 60) takes exit 2, whose stderr Claude Code feeds
		// back; an event that cannot be blocked takes nothing.
		return blockExit
	}
	return blockNone
}

// encodeClaudeShape is Claude's Encode; codex restricts it to Codex's schema.
func encodeClaudeShape(event hook.Event, res *hook.Result, codex bool) Answer {
	var top, hso obj
	hso.set("hookEventName", string(event))
	blocked := res.Blocked || res.Permission == hook.Deny
	reason := reasonOr(res.Reason, event)
	if event == hook.WorktreeCreate {
		return worktreeAnswer(res, blocked, reason)
	}
	exitBlock := false
	switch event {
	case hook.PreToolUse, hook.PreSkillShellCommand:
		// PreSkillShellCommand (a skill's "!`cmd`" line) takes PreToolUse's answer: exit 2
		// or permissionDecision "deny" keep the command from running, and Claude Code
		// 2.1.332 does not run a command an updatedInput changed (red team round 39).
		perm := res.Permission
		if codex && perm == hook.Ask {
			// Codex rejects "ask" as an unsupported decision and lets the call through;
			// hookcore keeps the guard: the call is denied with the reason.
			perm, blocked = hook.Deny, true
			reason = "this call needs a person's confirmation, which a Codex hook cannot ask for: " + reason
		}
		if codex && perm == hook.Defer {
			// Codex has no defer: passed through, the call ran (observed, codex-cli 0.171.0).
			perm, blocked = hook.Deny, true
			reason = deferredReason(res.Reason)
		}
		if codex && perm == hook.NoPermission && !blocked && res.UpdatedInput != nil {
			// Observed with codex-cli 0.171.0: Codex applies updatedInput only with
			// permissionDecision "allow" (without it the original command runs).
			perm = hook.Allow
		}
		switch {
		case blocked && perm != hook.Deny:
			exitBlock = true
		case perm != hook.NoPermission:
			hso.set("permissionDecision", perm.String())
			if res.Reason != "" || perm == hook.Deny {
				hso.set("permissionDecisionReason", reason)
			}
		}
		if !blocked && res.UpdatedInput != nil {
			hso.set("updatedInput", json.RawMessage(res.UpdatedInput))
		}
	case hook.PermissionRequest:
		var d obj
		switch {
		case blocked:
			d.set("behavior", "deny").set("message", reason)
		case res.Permission == hook.Allow:
			d.set("behavior", "allow")
			if res.UpdatedInput != nil && !codex { // Codex fails closed on updatedInput here
				d.set("updatedInput", json.RawMessage(res.UpdatedInput))
			}
		}
		if !d.empty() {
			hso.set("decision", &d)
		}
	case hook.PostToolUse:
		if blocked {
			top.set("decision", "block").set("reason", reason)
		}
		// The tool output the model sees instead (Claude Code 2.1.x; not in Codex's schema).
		if !codex && res.UpdatedToolOutput != nil {
			hso.set("updatedToolOutput", json.RawMessage(res.UpdatedToolOutput))
		}
		if !codex && res.UpdatedMCPToolOutput != nil {
			hso.set("updatedMCPToolOutput", json.RawMessage(res.UpdatedMCPToolOutput))
		}
	default:
		if !blocked {
			break
		}
		switch claudeBlockForm(event, codex) {
		case blockDecision:
			top.set("decision", "block").set("reason", reason)
		case blockDecline:
			hso.set("action", "decline")
		case blockExit:
			exitBlock = true
		}
	}
	if !blocked && !res.Continue && claudeBlockForm(event, codex) == blockDecline {
		// Claude Code 2.1.332 ignores continue: false on the Elicitation events (observed,
		// stop 34: the elicitation went on to the user and the turn went on): hookcore's
		// stop declines the elicitation, the answer its block gets.
		hso.set("action", "decline")
	}
	if res.AdditionalContext != "" && contextEvent(event) && !(codex && !codexContextEvent(event)) {
		hso.set("additionalContext", res.AdditionalContext)
	}
	if !res.Continue {
		top.set("continue", false)
		if res.StopReason != "" {
			top.set("stopReason", res.StopReason)
		}
	}
	if res.SystemMessage != "" {
		top.set("systemMessage", res.SystemMessage)
	}
	if len(hso.keys) > 1 {
		top.set("hookSpecificOutput", &hso)
	}
	var a Answer
	if exitBlock {
		a.Code, a.Stderr = 2, oneLine(reason)
	}
	if !top.empty() {
		a.Stdout = marshal(&top)
	}
	return a
}

// worktreeAnswer is the answer on WorktreeCreate. Claude Code 2.1.332 reads a command
// hook's stdout there as the path of the worktree the hook created, JSON or not (observed,
// stop 34: `{"continue": false, ...}` became "worktree directory DIR/{"continue": ...} does
// not exist"), and fails the creation on any non-zero exit, the reason from stderr
// ("Error creating worktree: WorktreeCreate hook failed: COMMAND: REASON"). So no JSON: a
// block, and a stop, exit 2 with the reason on stderr; otherwise nothing, which Claude
// Code takes as a failed creation too ("hook succeeded but returned no worktree path"):
// hookcore does not create worktrees, so a WorktreeCreate hook of hookcore's can only
// refuse one (docs/decisions.md, stop 34). systemMessage has nowhere to go.
func worktreeAnswer(res *hook.Result, blocked bool, reason string) Answer {
	switch {
	case blocked:
		return Answer{Code: 2, Stderr: oneLine(reason)}
	case !res.Continue:
		why := res.StopReason
		if strings.TrimSpace(why) == "" {
			why = "stopped by a hookcore WorktreeCreate hook"
		}
		return Answer{Code: 2, Stderr: oneLine(why)}
	}
	return Answer{}
}

// Fail implements Protocol: on a gate event with block, exit 2 with the reason on stderr
// (PermissionRequest: a JSON deny, since Claude Code ignores exit 2 there); on a feedback
// event with block, the block of that event (failFeedback: Stop and PostToolUse get
// {"decision":"block"}); otherwise exit 1 with why on stderr, which Claude Code shows as a
// non-blocking hook error.
func (Claude) Fail(event hook.Event, why string, block bool) Answer {
	return failClaudeShape(event, why, block, false)
}

func failClaudeShape(event hook.Event, why string, block, codex bool) Answer {
	if block {
		if a, ok := failFeedback(event, why, func(ev hook.Event, _ *hook.Input, res *hook.Result) Answer {
			return encodeClaudeShape(ev, res, codex)
		}); ok {
			return a
		}
	}
	if !block || event.Kind() != hook.Gate {
		return Answer{Code: 1, Stderr: oneLine(failReason(why))}
	}
	if event == hook.PermissionRequest {
		res := hook.Result{Event: event, Blocked: true, Reason: failReason(why), Continue: true}
		return encodeClaudeShape(event, &res, codex)
	}
	return Answer{Code: 2, Stderr: oneLine(failReason(why))}
}

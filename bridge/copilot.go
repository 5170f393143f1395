package bridge

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hookcore/hookcore/hook"
)

// Copilot is GitHub Copilot CLI's hook protocol (.github/hooks/*.json, version 1, the
// camelCase payload format), from its documentation (docs.github.com, "GitHub Copilot CLI
// hooks reference" and "Hooks configuration"; payloads quoted in the golden tests). Copilot
// CLI is closed source and has no offline runner here.
//
// Input: camelCase fields sessionId, timestamp (Unix milliseconds), cwd, toolName, toolArgs
// (the tool's arguments as a JSON-encoded string of an object; an object itself is taken
// too; on preToolUse and permissionRequest, a toolArgs that is missing, or is not an
// object nor a string holding one, is an error wrapping ErrToolInput), toolResult {resultType, textResultForLlm}, prompt, source,
// reason, error {message, name}. Most payloads do not name their event, so the event comes
// from the EVENT argument (`hookcore hook copilot preToolUse`, which `hookcore install
// copilot` writes), else from hookEventName, else from the fields (toolResult →
// postToolUse, toolName → preToolUse, prompt → userPromptSubmitted, error →
// errorOccurred). Events: sessionStart, sessionEnd, userPromptSubmitted → UserPromptSubmit,
// preToolUse, postToolUse, permissionRequest, agentStop → Stop, subagentStop,
// errorOccurred → Error, notification. Tool names: bash → Bash, view → Read, edit → Edit,
// create → Write (the agent's own name stays in Extra["copilot_tool_name"]).
//
// Output (exit 0, JSON): preToolUse answers permissionDecision allow / deny / ask with
// permissionDecisionReason (a defer, Claude Code's, which Copilot lacks, is a deny saying
// the call was deferred to a person; Copilot's command hooks take no rewritten arguments, so a
// rewrite is a deny naming the rewritten call); permissionRequest answers behavior allow /
// deny with message; agentStop and subagentStop answer decision "block" with reason, which
// makes the agent continue. Other events' output is ignored by Copilot; nothing is printed,
// except that a block on another gate (userPromptSubmitted, or an event Copilot CLI lacks
// named in hookcore's spelling) exits 2 with the reason on stderr.
type Copilot struct{}

var copilotEvents = sync.OnceValue(func() map[string]hook.Event {
	return map[string]hook.Event{
		"sessionStart": hook.SessionStart, "sessionEnd": hook.SessionEnd,
		"userPromptSubmitted": hook.UserPromptSubmit, "preToolUse": hook.PreToolUse,
		"postToolUse": hook.PostToolUse, "permissionRequest": hook.PermissionRequest,
		"agentStop": hook.Stop, "subagentStop": hook.SubagentStop,
		"errorOccurred": hook.Error, "notification": hook.Notification,
	}
})

var copilotTools = sync.OnceValue(func() map[string]string {
	return map[string]string{"bash": "Bash", "view": "Read", "edit": "Edit", "create": "Write"}
})

// Name returns "copilot".
func (Copilot) Name() string { return "copilot" }

// Decode implements Protocol.
// NamesEvent reports whether a Copilot CLI input names its event (hookEventName): Copilot
// CLI's payloads do not, and Decode then takes the event from the command line's EVENT, or
// guesses it from the fields (toolName: preToolUse), a guess the command line overrides
// (new-user trial, stop 27: `hook copilot permissionRequest`, what install writes, was
// refused as naming another event than the input's guessed preToolUse).
func (Copilot) NamesEvent(data []byte) bool {
	m, err := object(data)
	return err == nil && str(m, "hookEventName") != ""
}

func (Copilot) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	m, err := object(data)
	if err != nil {
		return "", nil, err
	}
	name := override
	if name == "" {
		name = str(m, "hookEventName")
	}
	if name == "" {
		switch {
		case m["toolResult"] != nil:
			name = "postToolUse"
		case m["toolName"] != nil:
			name = "preToolUse"
		case m["prompt"] != nil:
			name = "userPromptSubmitted"
		case m["error"] != nil:
			name = "errorOccurred"
		default:
			return "", nil, noEvent(data)
		}
	}
	ev, ok := parseEvent(name, copilotEvents())
	if !ok {
		ev = hook.Event(name)
	}
	in := &hook.Input{
		HookEventName: string(ev), SessionID: str(m, "sessionId"), Cwd: str(m, "cwd"),
		Prompt: str(m, "prompt"), Source: str(m, "source"), Reason: str(m, "reason"),
		Extra: map[string]json.RawMessage{},
	}
	if t := str(m, "toolName"); t != "" {
		in.ToolName = t
		if c, ok := copilotTools()[t]; ok {
			in.ToolName = c
			in.Extra["copilot_tool_name"] = marshalString(t)
		}
	}
	// A gate without a tool name is Incomplete's to refuse (ErrNoTool).
	if in.ToolInput, err = toolInput(ev, "toolArgs", m["toolArgs"]); err != nil && in.ToolName != "" {
		return "", nil, err
	}
	if v, ok := m["toolResult"]; ok {
		in.ToolResponse = v
	}
	if v, ok := m["error"]; ok {
		var e struct{ Message string }
		if json.Unmarshal(v, &e) == nil {
			in.Error = e.Message
		} else {
			in.Error = str(m, "error")
		}
	}
	for k, v := range m {
		switch k {
		case "sessionId", "cwd", "prompt", "source", "reason", "toolName", "toolArgs", "toolResult", "error", "hookEventName":
		default:
			in.Extra[k] = v
		}
	}
	return ev, in, nil
}

// Encode implements Protocol.
func (Copilot) Encode(event hook.Event, _ *hook.Input, res *hook.Result) Answer {
	var o obj
	blocked := res.Blocked || res.Permission == hook.Deny
	reason := reasonOr(res.Reason, event)
	switch event {
	case hook.PreToolUse:
		if res.Permission == hook.Defer && !blocked {
			blocked, reason = true, deferredReason(res.Reason) // Copilot CLI has no defer
		}
		if res.UpdatedInput != nil && !blocked {
			blocked = true
			reason = fmt.Sprintf("hookcore policy rewrites this call; Copilot CLI cannot run a rewritten call, run this instead: %s", res.UpdatedInput)
		}
		switch {
		case blocked:
			o.set("permissionDecision", "deny").set("permissionDecisionReason", reason)
		case res.Permission == hook.Ask:
			o.set("permissionDecision", "ask")
			if res.Reason != "" {
				o.set("permissionDecisionReason", res.Reason)
			}
		case res.Permission == hook.Allow:
			o.set("permissionDecision", "allow")
		}
	case hook.PermissionRequest:
		switch {
		case blocked:
			o.set("behavior", "deny").set("message", reason)
		case res.Permission == hook.Allow:
			o.set("behavior", "allow")
		}
	case hook.Stop, hook.SubagentStop:
		if blocked {
			o.set("decision", "block").set("reason", reason)
		}
	default:
		if blocked && event.Kind() == hook.Gate {
			// A gate Copilot CLI's JSON cannot block (userPromptSubmitted, whose output it
			// discards, or hookcore's name of an event it lacks): exit 2 with the reason, as
			// Fail does, never an answer that reads as an allow (red team round 59).
			return Answer{Code: 2, Stderr: oneLine(reason)}
		}
	}
	if o.empty() {
		return Answer{}
	}
	return Answer{Stdout: marshal(&o)}
}

// Fail implements Protocol: on a gate event with block, a JSON deny (preToolUse,
// permissionRequest) with exit 2 and the reason on stderr too; otherwise exit 1.
func (c Copilot) Fail(event hook.Event, why string, block bool) Answer {
	if a, ok := failFeedback(event, why, c.Encode); ok && block {
		return a
	}
	if !block || event.Kind() != hook.Gate {
		return Answer{Code: 1, Stderr: oneLine(failReason(why))}
	}
	res := hook.Result{Event: event, Blocked: true, Reason: failReason(why), Continue: true}
	a := c.Encode(event, nil, &res)
	a.Code, a.Stderr = 2, oneLine(failReason(why))
	return a
}

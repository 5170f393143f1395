package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/hook"
)

// Cursor is Cursor's hook protocol (.cursor/hooks.json, version 1), from its documentation
// (cursor.com/docs/agent/hooks; the payloads quoted in the golden tests come from it and
// from ../shared/research/other-agents-hooks.md section 1.3). Cursor is closed source and has
// no offline runner here, so this mapping is tested against those payloads only.
//
// Input: common fields conversation_id (→ session_id), generation_id, hook_event_name,
// workspace_roots (the first → cwd), model, cursor_version, user_email (kept in Extra).
// Events: beforeShellExecution {command, cwd} → PreToolUse of tool "Bash" with
// tool_input {"command"} (a command missing, empty or not a string is an error wrapping
// ErrToolInput, as is a missing file_path on beforeReadFile and, on the gates, a tool_input
// that is missing or neither an object nor a string holding one); afterShellExecution {command, output} → PostToolUse of "Bash";
// beforeMCPExecution {tool_name, tool_input (a JSON string)} → PreToolUse; afterMCPExecution
// {tool_name, tool_input, result_json} → PostToolUse; beforeReadFile {file_path} →
// PreToolUse of "Read"; afterFileEdit {file_path, edits} → PostToolUse of "Edit";
// preToolUse / postToolUse / postToolUseFailure {tool_name, tool_input} → PreToolUse /
// PostToolUse / PostToolUseFailure; beforeSubmitPrompt {prompt} → UserPromptSubmit; stop
// {status, loop_count} → Stop (stop_hook_active when loop_count > 0); subagentStop →
// SubagentStop; subagentStart, sessionStart, sessionEnd, preCompact → their events.
//
// Output (exit 0, JSON): before* and preToolUse answer permission allow / deny / ask (allow
// only when a hook allowed the call: with no decision the answer is empty, and Cursor's own
// approval applies — an "allow" for every call no hook objects to would approve them all) with
// user_message and agent_message (the reason, for the user and the model); beforeReadFile
// has permission only; beforeSubmitPrompt answers continue:false with user_message; stop
// and subagentStop answer followup_message (the block reason, sent as the next user
// message); sessionStart answers additional_context. Cursor cannot take a rewritten
// command, so a rewrite on a before* event is a deny whose message names the rewritten
// input: the guard holds, and the model can run the rewritten call itself. Cursor has no
// defer (Claude Code's permissionDecision "defer"), so a deferred call is a deny saying so.
// A block on any other gate (preCompact, or an event Cursor lacks named in hookcore's
// spelling) exits 2 with the reason on stderr, Cursor's deny.
type Cursor struct{}

var cursorEvents = sync.OnceValue(func() map[string]hook.Event {
	return map[string]hook.Event{
		"beforeShellExecution": hook.PreToolUse, "afterShellExecution": hook.PostToolUse,
		"beforeMCPExecution": hook.PreToolUse, "afterMCPExecution": hook.PostToolUse,
		"beforeReadFile": hook.PreToolUse, "afterFileEdit": hook.PostToolUse,
		"preToolUse": hook.PreToolUse, "postToolUse": hook.PostToolUse,
		"postToolUseFailure": hook.PostToolUseFailure, "beforeSubmitPrompt": hook.UserPromptSubmit,
		"stop": hook.Stop, "subagentStart": hook.SubagentStart, "subagentStop": hook.SubagentStop,
		"sessionStart": hook.SessionStart, "sessionEnd": hook.SessionEnd, "preCompact": hook.PreCompact,
	}
})

// Name returns "cursor".
func (Cursor) Name() string { return "cursor" }

// Decode implements Protocol.
func (Cursor) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	m, err := object(data)
	if err != nil {
		return "", nil, err
	}
	native := override
	if native == "" {
		native = str(m, "hook_event_name")
	}
	if native == "" {
		return "", nil, noEvent(data)
	}
	ev, ok := parseEvent(native, cursorEvents())
	if !ok {
		ev = hook.Event(native)
	}
	in := &hook.Input{HookEventName: string(ev), SessionID: str(m, "conversation_id"), Extra: map[string]json.RawMessage{}}
	var roots []string
	if v, ok := m["workspace_roots"]; ok {
		_ = json.Unmarshal(v, &roots)
	}
	if len(roots) > 0 {
		in.Cwd = roots[0]
	}
	if c := str(m, "cwd"); c != "" {
		in.Cwd = c
	}
	in.Prompt = str(m, "prompt")
	tool := func(name string, input any) error {
		in.ToolName = name
		b, err := json.Marshal(input)
		if err != nil {
			return err
		}
		in.ToolInput = b
		return nil
	}
	// need is the field the gate's one argument comes from: a before* event whose field is
	// missing, empty or not a string names no call a rule can check (ErrToolInput).
	need := func(field string) string {
		v := str(m, field)
		if v == "" && toolGate(ev) && err == nil {
			err = fmt.Errorf("%w (%s is missing, empty or not a string)", ErrToolInput, field)
		}
		return v
	}
	switch native := lowerFirst(native); native {
	case "beforeShellExecution", "afterShellExecution":
		if cmd := need("command"); err == nil {
			err = tool("Bash", map[string]string{"command": cmd})
		}
		if v, ok := m["output"]; ok {
			in.ToolResponse = v
		}
	case "beforeReadFile":
		if path := need("file_path"); err == nil {
			err = tool("Read", map[string]string{"file_path": path})
		}
	case "afterFileEdit":
		err = tool("Edit", map[string]any{"file_path": str(m, "file_path"), "edits": m["edits"]})
	default:
		in.ToolName = str(m, "tool_name")
		// A gate without a tool name is Incomplete's to refuse (ErrNoTool).
		if in.ToolInput, err = toolInput(ev, "tool_input", m["tool_input"]); in.ToolName == "" {
			err = nil
		}
		for _, k := range []string{"result_json", "tool_output"} {
			if v, ok := m[k]; ok {
				in.ToolResponse = v
			}
		}
		if native == "stop" {
			var loops int
			_ = json.Unmarshal(m["loop_count"], &loops)
			in.StopHookActive = loops > 0
		}
	}
	if err != nil {
		return "", nil, err
	}
	for k, v := range m {
		switch k {
		case "conversation_id", "hook_event_name", "workspace_roots", "cwd", "prompt", "command",
			"output", "file_path", "tool_name", "tool_input", "result_json", "tool_output":
		default:
			in.Extra[k] = v
		}
	}
	in.Extra["cursor_event"] = marshalString(native)
	return ev, in, nil
}

// lowerFirst returns Cursor's own spelling of the event name s (matched ignoring case).
func lowerFirst(s string) string {
	for k := range cursorEvents() {
		if strings.EqualFold(k, s) {
			return k
		}
	}
	return s
}

func cursorNative(in *hook.Input) string {
	var s string
	if in != nil {
		_ = json.Unmarshal(in.Extra["cursor_event"], &s)
	}
	return s
}

// Encode implements Protocol.
func (Cursor) Encode(event hook.Event, in *hook.Input, res *hook.Result) Answer {
	native := cursorNative(in)
	var o obj
	blocked := res.Blocked || res.Permission == hook.Deny
	reason := reasonOr(res.Reason, event)
	switch event {
	case hook.PreToolUse:
		perm := res.Permission
		if perm == hook.Defer && !blocked {
			blocked, reason = true, deferredReason(res.Reason) // Cursor has no defer
		}
		if res.UpdatedInput != nil && !blocked {
			blocked = true
			reason = fmt.Sprintf("hookcore policy rewrites this call; Cursor cannot run a rewritten call, run this instead: %s", res.UpdatedInput)
			if res.Reason != "" {
				reason = res.Reason + " — " + reason
			}
		}
		switch {
		case blocked:
			o.set("permission", "deny")
		case perm == hook.Ask:
			o.set("permission", "ask")
		case perm == hook.Allow:
			o.set("permission", "allow")
		}
		if native != "beforeReadFile" && (blocked || perm == hook.Ask) {
			o.set("user_message", reason).set("agent_message", reason)
		}
	case hook.UserPromptSubmit:
		if blocked {
			o.set("continue", false).set("user_message", reason)
		}
	case hook.Stop, hook.SubagentStop:
		if blocked {
			o.set("followup_message", reason)
		}
	case hook.SessionStart:
		if res.AdditionalContext != "" {
			o.set("additional_context", res.AdditionalContext)
		}
	default:
		if blocked && event.Kind() == hook.Gate {
			// A gate Cursor's JSON cannot block (preCompact, or hookcore's name of an event
			// Cursor lacks): exit 2, which Cursor reads as a deny, never an answer that lets
			// the action go on (red team round 59).
			return Answer{Code: 2, Stderr: oneLine(reason)}
		}
	}
	if o.empty() {
		return Answer{}
	}
	return Answer{Stdout: marshal(&o)}
}

// Fail implements Protocol: on a gate event with block, exit 2 (Cursor: deny) with a JSON deny
// that carries the reason; otherwise exit 1 (Cursor fails open on it).
func (c Cursor) Fail(event hook.Event, why string, block bool) Answer {
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

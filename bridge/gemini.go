package bridge

import (
	"encoding/json"
	"sync"

	"github.com/hookcore/hookcore/hook"
)

// Gemini is Gemini CLI's hook protocol (the "hooks" of .gemini/settings.json), as observed
// with Gemini CLI 0.61.0 (../shared/peer-gemini) and read in its bundle's DefaultHookOutput.
//
// Input: Claude Code's field names (session_id, cwd, hook_event_name, tool_name,
// tool_input, tool_response, prompt, stop_hook_active, source, reason), with Gemini's event
// and tool names, which Decode maps to hookcore's so one policy serves every agent:
// BeforeTool → PreToolUse, AfterTool → PostToolUse, BeforeAgent → UserPromptSubmit,
// AfterAgent → Stop, PreCompress → PreCompact, BeforeModel → PreSend, AfterModel →
// PostReceive, SessionStart, SessionEnd, Notification (BeforeToolSelection has no
// hookcore event: nothing matches it); run_shell_command → Bash, write_file → Write,
// replace → Edit, read_file → Read, glob → Glob, grep_search → Grep (and its legacy name
// search_file_content, which Gemini CLI 0.61.0 still accepts), list_directory → LS, web_fetch → WebFetch, google_web_search → WebSearch,
// read_many_files → Read (its `include` list of paths and globs, `paths` before 0.61.0,
// is read by Read rules: match's matchReadMany; 0.61.0 no longer offers the tool to the
// model, and its @path reader runs it without BeforeTool, so older versions and forks
// send it). The agent's own tool name stays in Extra["gemini_tool_name"].
//
// Output (exit 0, JSON): a block is decision "deny" with reason (BeforeTool: the model gets
// "Tool execution blocked: REASON"; AfterTool: the tool result is replaced by the reason;
// BeforeAgent: the prompt is dropped; AfterAgent: the reason goes back as a new prompt);
// ask is decision "ask"; a defer (Claude Code's; Gemini has none) is a deny saying the call
// was deferred to a person; a rewrite is hookSpecificOutput.tool_input (Gemini merges it over
// the model's arguments, and tells the model the input was modified); additionalContext
// in hookSpecificOutput; continue:false + stopReason; systemMessage.
type Gemini struct{}

var geminiEvents = sync.OnceValue(func() map[string]hook.Event {
	return map[string]hook.Event{
		"BeforeTool": hook.PreToolUse, "AfterTool": hook.PostToolUse,
		"BeforeAgent": hook.UserPromptSubmit, "AfterAgent": hook.Stop,
		"PreCompress": hook.PreCompact, "BeforeModel": hook.PreSend, "AfterModel": hook.PostReceive,
		"SessionStart": hook.SessionStart, "SessionEnd": hook.SessionEnd, "Notification": hook.Notification,
	}
})

var geminiTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"run_shell_command": "Bash", "write_file": "Write", "replace": "Edit", "read_file": "Read",
		"glob": "Glob", "grep_search": "Grep", "search_file_content": "Grep", "list_directory": "LS",
		"web_fetch": "WebFetch", "google_web_search": "WebSearch", "read_many_files": "Read",
	}
})

// Name returns "gemini".
func (Gemini) Name() string { return "gemini" }

// Decode implements Protocol.
func (Gemini) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	if err := validObject(data); err != nil {
		return "", nil, err
	}
	in := &hook.Input{}
	if len(trim(data)) > 0 {
		if err := json.Unmarshal(data, in); err != nil {
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
	ev, ok := parseEvent(name, geminiEvents())
	if !ok {
		ev = hook.Event(name)
	}
	if t, ok := geminiTools()[in.ToolName]; ok {
		if in.Extra == nil {
			in.Extra = map[string]json.RawMessage{}
		}
		in.Extra["gemini_tool_name"] = marshalString(in.ToolName)
		in.ToolName = t
	}
	if in.ToolName == "Bash" {
		// run_shell_command's directory, relative to the project root (its cwd): dir_path,
		// `directory` before Gemini CLI renamed it.
		for _, k := range []string{"dir_path", "directory"} {
			if d, ok := toolInputString(in.ToolInput, k); ok && d != "" {
				in.CommandDir = d
				break
			}
		}
	}
	if ev == hook.Stop {
		if v, ok := in.Extra["prompt_response"]; ok {
			in.Extra["last_assistant_message"] = v
		}
	}
	return ev, in, nil
}

func marshalString(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

// Encode implements Protocol.
func (Gemini) Encode(event hook.Event, _ *hook.Input, res *hook.Result) Answer {
	var top, hso obj
	blocked := res.Blocked || res.Permission == hook.Deny
	reason := reasonOr(res.Reason, event)
	if !blocked && res.Permission == hook.Defer && event == hook.PreToolUse {
		blocked, reason = true, deferredReason(res.Reason) // Gemini CLI has no defer
	}
	switch {
	case blocked:
		top.set("decision", "deny").set("reason", reason)
	case res.Permission == hook.Ask:
		top.set("decision", "ask")
		if res.Reason != "" {
			top.set("reason", res.Reason)
		}
	}
	if !blocked && res.UpdatedInput != nil && event == hook.PreToolUse {
		hso.set("tool_input", json.RawMessage(res.UpdatedInput))
	}
	if res.AdditionalContext != "" {
		hso.set("additionalContext", res.AdditionalContext)
	}
	if !hso.empty() {
		top.set("hookSpecificOutput", &hso)
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
	if top.empty() {
		return Answer{}
	}
	return Answer{Stdout: marshal(&top)}
}

// Fail implements Protocol: on a gate event with block, exit 2 with the reason on stderr
// (observed: "Tool execution blocked: REASON"); otherwise exit 1, a warning.
func (g Gemini) Fail(event hook.Event, why string, block bool) Answer {
	if a, ok := failFeedback(event, why, g.Encode); ok && block {
		return a
	}
	if block && event.Kind() == hook.Gate {
		return Answer{Code: 2, Stderr: oneLine(failReason(why))}
	}
	return Answer{Code: 1, Stderr: oneLine(failReason(why))}
}

package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// geminiTools is Gemini CLI's names of Claude Code's tools (bridge.ToolNames("gemini") in
// reverse, with Gemini CLI 0.61.0's current name where the bridge also reads a legacy one:
// Grep is grep_search, which 0.61.0 still accepts as search_file_content).
var geminiTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Bash": "run_shell_command", "Write": "write_file", "Edit": "replace", "Read": "read_file",
		"Glob": "glob", "Grep": "grep_search", "LS": "list_directory", "WebFetch": "web_fetch",
		"WebSearch": "google_web_search",
	}
})

// geminiStdin writes the input a Gemini CLI hook of AgentEvent reads (Gemini CLI 0.61.0,
// HookEventHandler in its bundle, observed in ../shared/peer-gemini and recorded in
// TestGeminiStdin): hook_event_name is Gemini's name of the event (AgentEvent: BeforeTool,
// AfterTool, ...), tool_name Gemini's name of the tool (the name the agent sent, which the
// bridge keeps as gemini_tool_name, else geminiTools; other names as they are), tool_input
// as it is (Gemini's tools and Claude Code's share the field names hooks read: command,
// file_path, content, old_string, new_string, pattern), tool_response on AfterTool as
// Gemini's {"llmContent", "returnDisplay"} object (another agent's response becomes that
// object with its text in both), prompt_response on AfterAgent (the last assistant
// message), stop_hook_active on AfterAgent always, and timestamp (ISO 8601, UTC, from Now)
// when the input has none. hookcore's other fields stay; gemini_tool_name is dropped.
func (c *Command) geminiStdin(in *hook.Input) ([]byte, error) {
	cp := in.Clone()
	if cp.Extra == nil {
		cp.Extra = map[string]json.RawMessage{}
	}
	if c.AgentEvent != "" {
		cp.HookEventName = c.AgentEvent
	}
	var native string
	if json.Unmarshal(in.Extra["gemini_tool_name"], &native) == nil && native != "" {
		cp.ToolName = native
	} else if n, ok := geminiTools()[in.ToolName]; ok {
		cp.ToolName = n
	}
	delete(cp.Extra, "gemini_tool_name")
	if _, ok := cp.Extra["timestamp"]; !ok {
		now := time.Now
		if c.Now != nil {
			now = c.Now
		}
		cp.Extra["timestamp"] = mustJSON(now().UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	if len(in.ToolResponse) > 0 && !hasKey(in.ToolResponse, "llmContent") {
		text := toolText(in.ToolResponse)
		cp.ToolResponse = mustJSON(map[string]string{"llmContent": text, "returnDisplay": text})
	}
	if c.AgentEvent == "AfterAgent" {
		if _, ok := cp.Extra["prompt_response"]; !ok {
			if v, ok := cp.Extra["last_assistant_message"]; ok {
				cp.Extra["prompt_response"] = v
			}
		}
		if !cp.StopHookActive {
			cp.Extra["stop_hook_active"] = json.RawMessage("false")
		}
	}
	return cp.MarshalJSON()
}

// hasKey reports whether raw is a JSON object with the key k.
func hasKey(raw json.RawMessage, k string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[k]
	return ok
}

// toolText is a tool response as text: a JSON string itself; Gemini CLI's
// {"llmContent": TEXT, ...} its TEXT; Claude Code's Bash response {"stdout", "stderr", ...}
// its stdout, then its stderr on a new line; any other value its JSON.
func toolText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var gem struct {
		LLMContent *string `json:"llmContent"`
	}
	if json.Unmarshal(raw, &gem) == nil && gem.LLMContent != nil {
		return *gem.LLMContent
	}
	var sh struct {
		Stdout *string `json:"stdout"`
		Stderr string  `json:"stderr"`
	}
	if json.Unmarshal(raw, &sh) == nil && sh.Stdout != nil {
		if sh.Stderr == "" {
			return *sh.Stdout
		}
		return strings.TrimSuffix(*sh.Stdout, "\n") + "\n" + sh.Stderr
	}
	return string(bytes.TrimSpace(raw))
}

func mustJSON(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings and maps of strings always encode
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// geminiResult reads a finished Gemini CLI hook as Gemini CLI 0.61.0 does (HookRunner and
// DefaultHookOutput in its bundle; observed in ../shared/peer-gemini, TestGeminiReply):
//
//   - The text read is stdout trimmed, or stderr trimmed when stdout is blank.
//   - Text that is JSON (an object, or a JSON string holding one) is the reply, whatever
//     the exit code; see geminiReply. A non-zero exit code is also an error (the hook
//     failed), and the reply still counts: Gemini CLI counts the hook as failed and uses
//     its output.
//   - Other text: exit 0 is a system message (shown to the user); exit 1 is a system
//     message "Warning: TEXT" and an error; any other code blocks with TEXT as the reason
//     (as exit 2 of a Claude Code hook blocks). So exit 2 with a reason on stderr blocks, and so
//     does exit 3.
//   - No text: exit 0 decides nothing; any other code is an error and does not block (Gemini
//     CLI 0.61.0 blocks nothing on an exit 2 that says nothing).
func (c *Command) geminiResult(in *hook.Input, res proc.Result, d hook.Decision) (hook.Decision, error) {
	code := res.ExitCode
	failed := func() error {
		return fmt.Errorf("hook %s exited with code %d%s", c.name(), code, hookio.Excerpt(strings.TrimSpace(string(res.Stderr))))
	}
	text := strings.TrimSpace(string(res.Stdout))
	if text == "" {
		text = strings.TrimSpace(string(res.Stderr))
	}
	if text == "" {
		if code != 0 {
			return d, failed()
		}
		return d, nil
	}
	if reply, ok := geminiJSON(text); ok {
		d = c.geminiReply(in, reply, d)
		if code != 0 {
			return d, failed()
		}
		return d, nil
	}
	switch code {
	case 0:
		d.SystemMessage = text
	case 1:
		d.SystemMessage = "Warning: " + text
		return d, failed()
	default:
		d.Block, d.Reason = true, text
	}
	return d, nil
}

// geminiJSON parses text as Gemini CLI does: JSON.parse, once more when that gives a
// string. ok is false when text is not JSON (it is then plain text); a JSON value that is
// not an object gives an empty reply (Gemini reads no field of it).
func geminiJSON(text string) (reply map[string]json.RawMessage, ok bool) {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil, false
	}
	raw := json.RawMessage(text)
	if s, isString := v.(string); isString {
		if json.Unmarshal([]byte(s), &v) != nil {
			return nil, false
		}
		raw = json.RawMessage(s)
	}
	if _, isObject := v.(map[string]any); !isObject {
		return map[string]json.RawMessage{}, true
	}
	_ = json.Unmarshal(raw, &reply)
	return reply, true
}

// geminiReply applies a Gemini CLI JSON reply (DefaultHookOutput, BeforeToolHookOutput) to
// d. Fields of the wrong JSON type are ignored, as Gemini CLI ignores them:
//
//   - decision "deny" or "block" blocks ("deny" is also Permission Deny, as in Claude Code's
//     envelope) with stopReason, else reason, as the reason; "ask" on BeforeTool is
//     Permission Ask; "allow" and any other value decide nothing (Gemini's merge writes
//     "allow" for every reply that does not block or ask).
//   - continue: false stops the agent (StopAgent) with stopReason, else reason.
//   - systemMessage and suppressOutput are copied.
//   - hookSpecificOutput.additionalContext (a string) is additional context.
//   - hookSpecificOutput.tool_input (an object) on BeforeTool, when nothing blocked, is the
//     rewritten tool input, whole: Gemini CLI 0.61.0 builds the call from tool_input
//     alone (observed: a tool_input of {"description"} only failed the shell tool's
//     validation, "params must have required property 'command'"), as Claude Code's
//     updatedInput replaces the input.
//
// hookSpecificOutput's llm_request, llm_response, toolConfig, clearContext and
// tailToolCallRequest (model, tool-selection and tail-call hooks) have no hookcore decision
// and are ignored.
func (c *Command) geminiReply(in *hook.Input, r map[string]json.RawMessage, d hook.Decision) hook.Decision {
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	reason := firstNonBlank(str(r, "stopReason"), str(r, "reason"))
	ev := hookio.Event(in)
	switch str(r, "decision") {
	case "deny":
		d.Block, d.Permission = true, hook.Deny
	case "block":
		d.Block = true
	case "ask":
		if ev == hook.PreToolUse {
			d.Permission, d.Reason = hook.Ask, str(r, "reason")
		}
	}
	if d.Block {
		d.Reason = reason
		if d.Reason == "" {
			d.Reason = fmt.Sprintf("hook %s denied without a reason", c.name())
		}
	}
	var cont bool
	if json.Unmarshal(r["continue"], &cont) == nil && r["continue"] != nil && !cont {
		d.StopAgent, d.StopReason = true, reason
	}
	d.SystemMessage = str(r, "systemMessage")
	_ = json.Unmarshal(r["suppressOutput"], &d.SuppressOutput)
	var hso map[string]json.RawMessage
	if json.Unmarshal(r["hookSpecificOutput"], &hso) != nil {
		return d
	}
	d.AdditionalContext = str(hso, "additionalContext")
	if ev == hook.PreToolUse && !d.Block {
		if u, ok := jsonObject(hso["tool_input"]); ok {
			d.UpdatedInput = u
		}
	}
	return d
}

// jsonObject returns raw compacted when it is a JSON object.
func jsonObject(raw json.RawMessage) (json.RawMessage, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return nil, false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, t) != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

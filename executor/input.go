package executor

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// maxEnvValue caps HOOK_TOOL_INPUT and HOOK_TOOL_OUTPUT (DESIGN.md section 6), and every
// other environment variable whose value comes from the input (HOOK_EVENT, HOOK_TOOL_NAME,
// HOOK_SESSION_ID, FILE_PATH), in bytes: an input value must not grow the environment past
// what exec accepts (argsize.go), which would stop the hook from starting. The $FILE_PATH
// context variable is not cut (shellvars.go).
const maxEnvValue = 10000

// environ builds the hook's environment: the base environment, then the HOOK_* variables,
// FILE_PATH and the project directory (later entries win). Values from the input are cut at
// maxEnvValue; the project directory is the config's or an existing directory (bounded by
// PATH_MAX).
func (c *Command) environ(in *hook.Input, dir string) []string {
	base := c.Env
	if base == nil {
		base = os.Environ()
	}
	project := c.ProjectDir
	if project == "" {
		project = dir
	}
	env := make([]string, 0, len(base)+12)
	env = append(env, base...)
	ev := event(in)
	put := func(k, v string) { env = append(env, k+"="+strings.ReplaceAll(v, "\x00", "")) }
	putCut := func(k, v string) { put(k, cutUTF8(v, maxEnvValue)) }
	putCut("HOOK_EVENT", in.HookEventName)
	putCut("HOOK_TOOL_NAME", in.ToolName)
	if c.S08 {
		put("HOOK_TOOL_INPUT", text.Truncate(string(in.ToolInput), maxEnvValue, "")) // characters, as Python's s[:n], not bytes
	} else {
		putCut("HOOK_TOOL_INPUT", string(in.ToolInput))
	}
	putCut("HOOK_SESSION_ID", in.SessionID)
	if ev == hook.PostToolUse || ev == hook.PostToolUseFailure {
		putCut("HOOK_TOOL_OUTPUT", toolOutput(in))
	}
	putCut("FILE_PATH", in.FilePath())
	put("CLAUDE_PROJECT_DIR", project)
	put("HOOKCORE_PROJECT_DIR", project)
	env = append(env, c.placeholders(dir).env()...)
	if f := c.envFile(in.SessionID); f != "" {
		put("CLAUDE_ENV_FILE", f)
	}
	return env
}

// toolOutput is the tool's output as text: tool_response itself when it is a JSON string,
// its JSON otherwise, and the error of a failed call when there is no response.
func toolOutput(in *hook.Input) string {
	if len(in.ToolResponse) == 0 {
		return in.Error
	}
	var s string
	if json.Unmarshal(in.ToolResponse, &s) == nil {
		return s
	}
	return string(in.ToolResponse)
}

// cutUTF8 cuts s to at most n bytes without splitting a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// stdin is the input JSON the hook reads: the Claude Code payload, plus codebot's own keys
// (event, tool, args, output, is_error) when c.Codebot is set; keys the input already
// carries are not overwritten.
func (c *Command) stdin(in *hook.Input) ([]byte, error) {
	switch c.Agent {
	case "cursor":
		return c.cursorStdin(in)
	case "copilot":
		return c.copilotStdin(in)
	}
	if !c.Codebot {
		return in.MarshalJSON()
	}
	cb := in.Clone()
	if cb.Extra == nil {
		cb.Extra = make(map[string]json.RawMessage)
	}
	add := func(k string, v any) {
		if _, ok := cb.Extra[k]; ok {
			return
		}
		if raw, isRaw := v.(json.RawMessage); isRaw {
			cb.Extra[k] = raw
			return
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(v) //nolint:errcheck // strings and bools always encode
		cb.Extra[k] = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	add("event", in.HookEventName)
	if in.ToolName != "" {
		add("tool", in.ToolName)
	}
	if len(in.ToolInput) > 0 {
		add("args", in.ToolInput)
	}
	if len(in.ToolResponse) > 0 {
		add("output", in.ToolResponse)
	}
	add("is_error", event(in) == hook.PostToolUseFailure)
	return cb.MarshalJSON()
}

package command

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	"github.com/hookcore/hookcore/executor/internal/hookio"
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
	ev := hookio.Event(in)
	// The entries are written into one buffer and sliced out of it: one allocation for all.
	var b strings.Builder
	b.Grow(160 + 2*len(project) + min(len(in.ToolInput), maxEnvValue))
	var endsArr [17]int
	ends := endsArr[:0] // end offsets of the entries in b
	put := func(k, v string) {
		b.WriteString(k)
		b.WriteByte('=')
		if strings.IndexByte(v, 0) >= 0 {
			v = strings.ReplaceAll(v, "\x00", "")
		}
		b.WriteString(v)
		ends = append(ends, b.Len())
	}
	putCut := func(k, v string) { put(k, hookio.CutUTF8(v, maxEnvValue)) }
	putRaw := func(k string, v []byte) { // putCut without a copy of v
		v = hookio.CutUTF8(v, maxEnvValue)
		if bytes.IndexByte(v, 0) >= 0 {
			put(k, string(v))
			return
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.Write(v)
		ends = append(ends, b.Len())
	}
	putCut("HOOK_EVENT", in.HookEventName)
	putCut("HOOK_TOOL_NAME", in.ToolName)
	if c.S08 {
		put("HOOK_TOOL_INPUT", text.Truncate(string(in.ToolInput), maxEnvValue, "")) // characters, as Python's s[:n], not bytes
	} else {
		putRaw("HOOK_TOOL_INPUT", in.ToolInput)
	}
	if len(in.ToolInput) > maxEnvValue {
		// A guard that reads HOOK_TOOL_INPUT sees the start of a longer input only: 10 KB
		// of padding before rm -rf passed a grep of it (red team round 31). It can check
		// this, or read the whole input on stdin.
		put("HOOK_TOOL_INPUT_TRUNCATED", "1")
	}
	putCut("HOOK_SESSION_ID", in.SessionID)
	if ev == hook.PostToolUse || ev == hook.PostToolUseFailure {
		putCut("HOOK_TOOL_OUTPUT", toolOutput(in))
		put("HOOKCORE_CONFIG_CHANGED", configChanged(in))
	}
	putCut("FILE_PATH", in.FilePath())
	put("CLAUDE_PROJECT_DIR", project)
	put("HOOKCORE_PROJECT_DIR", project)
	if p := c.placeholders(dir); p.PluginRoot != "" {
		put("CLAUDE_PLUGIN_ROOT", p.PluginRoot)
		put("CLAUDE_PLUGIN_DATA", p.PluginData)
	}
	if c.Agent == "gemini" { // Gemini CLI 0.61.0 sets these for its hooks (observed)
		cwd := in.Cwd
		if cwd == "" {
			cwd = project
		}
		put("GEMINI_PROJECT_DIR", project)
		put("GEMINI_CWD", cwd)
		putCut("GEMINI_SESSION_ID", in.SessionID)
	}
	if c.Agent == "cursor" { // Cursor sets it for its hooks (CLAUDE_PROJECT_DIR is its alias)
		put("CURSOR_PROJECT_DIR", project)
	}
	if f := c.envFile(in.SessionID); f != "" {
		put("CLAUDE_ENV_FILE", f)
	}
	all, start := b.String(), 0
	for _, end := range ends {
		env = append(env, all[start:end])
		start = end
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

// stdin is the input JSON the hook reads (hookio.Stdin): the Claude Code payload, plus
// codebot's own keys when c.Codebot is set; Cursor's, Copilot's, Gemini CLI's or Codex's
// own input when c.Agent names that agent.
func (c *Command) stdin(in *hook.Input) ([]byte, error) {
	switch c.Agent {
	case "cursor":
		return c.cursorStdin(in)
	case "copilot":
		return c.copilotStdin(in)
	case "gemini":
		return c.geminiStdin(in)
	case "codex":
		return codexStdin(in)
	}
	return hookio.Stdin(in, c.Codebot)
}

// codexStdin writes the input a Codex hook reads: Claude Code's, which Codex sends (Codex
// 0.171.0, observed in ../shared/peer-codex: session_id, turn_id, transcript_path, cwd,
// hook_event_name, model, permission_mode, tool_name "Bash", tool_input {"command"},
// tool_use_id), except that Codex's tool_response is a string (its output; "" for none),
// so another agent's response object becomes its text (toolText).
func codexStdin(in *hook.Input) ([]byte, error) {
	var s string
	if len(in.ToolResponse) == 0 || json.Unmarshal(in.ToolResponse, &s) == nil {
		return in.MarshalJSON()
	}
	cp := in.Clone()
	cp.ToolResponse = mustJSON(toolText(in.ToolResponse))
	return cp.MarshalJSON()
}

// configChanged is HOOKCORE_CONFIG_CHANGED: what of hookcore's config changed since the
// armed session's previous event (`tool changed hook_config`; the runner puts it in the
// input's "hookcore_config_changed", a JSON array of "PATH: what"), joined by "; " and JSON-escaped (the text of a JSON
// string, without its quotes: no ", \ nor control byte), so that a command can put it in
// the JSON of its reply (`printf '{"reason": "... %s"}' "$HOOKCORE_CONFIG_CHANGED"`). Whole
// entries up to maxEnvValue bytes, then "; ..."; "" when nothing changed.
func configChanged(in *hook.Input) string {
	raw, ok := in.Extra["hookcore_config_changed"]
	if !ok {
		return ""
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var b strings.Builder
	for i, e := range list {
		q, _ := json.Marshal(e)
		q = q[1 : len(q)-1]
		if b.Len()+len(q)+7 > maxEnvValue {
			b.WriteString("; ...")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.Write(q)
	}
	return b.String()
}

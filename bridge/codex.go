package bridge

import (
	"encoding/json"

	"github.com/hookcore/hookcore/hook"
)

// Codex is the OpenAI Codex CLI's hook protocol: Claude Code's input and output shape
// (hooks.json with PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop,
// SessionStart, ...), with Codex's differences as observed with codex-cli 0.171.0
// (../shared/peer-codex) and read in its output schemas (additionalProperties: false):
//
//   - No field Codex's schema lacks is ever written: additionalContext only on PreToolUse,
//     PostToolUse, UserPromptSubmit and SessionStart; no updatedInput on PermissionRequest
//     (Codex fails closed on it).
//   - "ask" is not a Codex decision (a hook answering it is marked failed and the call goes
//     through), so hookcore denies the call instead, saying that it needs a person.
//   - Nor is "defer" (Claude Code's: the call waits for a person): Codex ran the call
//     (observed), so hookcore denies it, saying that it was deferred to a person.
//   - A rewrite is updatedInput with permissionDecision "allow": Codex ignores updatedInput
//     without it (observed), and the original, unrewritten call would run. That allow, and a
//     hook's plain allow, leave Codex's sandbox and approval in place: a call the model asked
//     to run outside the sandbox (which the input does not show) is still put to the user,
//     with the rewritten command (observed, docs/decisions.md stop 29). A PermissionRequest
//     allow is that approval: the call then runs as the model asked, outside the sandbox.
//   - A block exits 2 with the reason on stderr; Codex requires the reason (exit 2 with an
//     empty stderr is a hook failure, not a block), so it is never empty.
type Codex struct{}

// codexContextEvent reports whether event's Codex hookSpecificOutput has additionalContext.
func codexContextEvent(event hook.Event) bool {
	switch event {
	case hook.PreToolUse, hook.PostToolUse, hook.UserPromptSubmit, hook.SessionStart:
		return true
	}
	return false
}

// Name returns "codex".
func (Codex) Name() string { return "codex" }

// Decode implements Protocol: Codex sends Claude Code's input (tool_name "Bash" for its shell
// tool, tool_input {"command": ...}; turn_id and model kept in Extra).
//
// Codex's shell tools (shell_command, exec_command) take a `workdir` the command runs in,
// and their hook input is {"command": ...} only (codex-rs shell_command.rs and
// exec_command.rs, pre_tool_use_payload). codex-cli 0.171.0 was seen to send the workdir as
// the input's cwd (docs/decisions.md, red team round 60), which no field of the input
// confirms: a Bash call's command runs in a directory hookcore does not know
// (Input.CommandDirUnknown), unless tool_input names its `workdir`, taken from cwd.
func (Codex) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	ev, in, err := decodeClaudeShape(data, override)
	if err == nil && in.ToolName == "Bash" {
		if d, ok := toolInputString(in.ToolInput, "workdir"); ok && d != "" {
			in.CommandDir = d
		} else {
			in.CommandDirUnknown = true
		}
	}
	return ev, in, err
}

// Encode implements Protocol.
func (Codex) Encode(event hook.Event, _ *hook.Input, res *hook.Result) Answer {
	return encodeClaudeShape(event, res, true)
}

// Fail implements Protocol, as Claude's.
func (Codex) Fail(event hook.Event, why string, block bool) Answer {
	return failClaudeShape(event, why, block, true)
}

// toolInputString returns the value of key in the tool input (a JSON object) when it is a
// string; ok is false otherwise (no such key, another value).
func toolInputString(ti json.RawMessage, key string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(ti, &m) != nil {
		return "", false
	}
	var s string
	if v, ok := m[key]; !ok || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

package bridge

import "github.com/hookcore/hookcore/hook"

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
func (Codex) Decode(data []byte, override string) (hook.Event, *hook.Input, error) {
	return decodeClaudeShape(data, override)
}

// Encode implements Protocol.
func (Codex) Encode(event hook.Event, _ *hook.Input, res *hook.Result) Answer {
	return encodeClaudeShape(event, res, true)
}

// Fail implements Protocol, as Claude's.
func (Codex) Fail(event hook.Event, why string, block bool) Answer {
	return failClaudeShape(event, why, block, true)
}

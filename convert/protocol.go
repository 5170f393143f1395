package convert

import (
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// protocol is what a command hook of one agent reads on stdin and must answer to decide
// (bridge/*.go: each agent's Decode and Encode; executor/command: how hookcore reads the
// reply of a hook of that agent's file).
type protocol struct {
	name  string // whose protocol: "Claude Code", "Gemini CLI", ...
	input string // the input on stdin, as its fields a script reads
	block string // how the hook blocks, as the agent reads it
	reply string // the JSON reply a script of this agent prints, short
}

// protocols are the reply protocols by family (protocolOf). Codex reads Claude Code's
// (bridge/codex.go: decodeClaudeShape and encodeClaudeShape; its differences are in what
// it accepts, not in what a hook prints to block), and so does hookcore for hooks of its
// own YAML, of codebot files and of Claude Code settings (executor/command: Agent "").
var protocols = map[string]protocol{
	"claude": {
		name:  "Claude Code",
		input: `Claude Code's input (tool_name "Bash", tool_input)`,
		block: `exit 2 with the reason on stderr or print {"hookSpecificOutput": {"permissionDecision": "deny", ...}} ({"decision": "block", ...} off PreToolUse)`,
		reply: `{"hookSpecificOutput": ...}`,
	},
	"gemini": {
		name:  "Gemini CLI",
		input: `Gemini CLI's input (its event and tool names: "BeforeTool", "run_shell_command")`,
		block: `exit 2 with the reason on stderr or print {"decision": "deny", "reason": "..."}`,
		reply: `{"decision": "deny", ...}`,
	},
	"cursor": {
		name:  "Cursor",
		input: `Cursor's input (beforeShellExecution: command, cwd)`,
		block: `exit 2 or print {"permission": "deny", "agent_message": "..."} ({"followup_message": ...} on stop)`,
		reply: `{"permission": "deny", ...}`,
	},
	"copilot": {
		name:  "Copilot CLI",
		input: `Copilot CLI's camelCase input (toolName "bash", toolArgs a JSON string)`,
		block: `exit non-zero on preToolUse or print {"permissionDecision": "deny", ...} ({"decision": "block", ...} on agentStop)`,
		reply: `{"permissionDecision": "deny", ...}`,
	},
}

// protocolOf returns the family of the reply protocol a command hook of dialect d speaks:
// "gemini", "cursor" or "copilot" for those agents' files, "claude" for every other
// dialect (Claude Code, Codex, hookcore's YAML, codebot), as compile.go's commandAgent
// chooses how hookcore reads the hook.
func protocolOf(d config.Dialect) string {
	switch d {
	case config.Gemini:
		return "gemini"
	case config.Cursor:
		return "cursor"
	case config.Copilot:
		return "copilot"
	}
	return "claude"
}

// targetProtocol returns the family of the protocol the target reads its command hooks
// with: Codex's is Claude Code's, and so is hookcore's for a hook of its YAML, which has no
// key that names a command's protocol (config.NativeHookKeys).
func targetProtocol(target string) string {
	switch target {
	case "gemini", "cursor", "copilot":
		return target
	}
	return "claude"
}

// protocolLoss reports a command hook whose protocol differs from the target's, in one
// line: the input it now gets on stdin and how it must answer to block; the source's reply
// is not read. It is a Warning on gate events: a guard that answers in its own agent's JSON
// no longer blocks. Hooks of other types, and pairs of the same family (Claude Code, Codex
// and hookcore), are not reported.
func (c *conv) protocolLoss(h *config.Hook) {
	if h.Action.Type != config.TypeCommand {
		return
	}
	from, to := protocolOf(h.Dialect), targetProtocol(c.target)
	if from == to {
		return
	}
	src, dst := protocols[from], protocols[to]
	lead := "speaks " + src.name + "'s hook protocol, not " + dst.name + "'s"
	if c.target == "hookcore" {
		lead = "speaks " + src.name + "'s hook protocol, which hookcore's YAML cannot name (hookcore uses Claude Code's)"
	}
	what := lead + ": it now reads " + dst.input + " on stdin and, to block, must " + dst.block + "; its " + src.reply + " is not read"
	if h.Event.Kind() == hook.Gate {
		c.warn(h, "%s", what)
	} else {
		c.lose(h, "%s", what)
	}
}

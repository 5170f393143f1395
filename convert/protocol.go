package convert

import (
	"slices"
	"strings"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// reply is one JSON answer a command hook prints, as a line names it.
type reply string

// The replies of the agents' command hooks (bridge/*.go: each agent's Encode writes them for
// the agent; executor/command reads them from a hook of that agent's file).
const (
	claudePermission reply = `{"hookSpecificOutput": {"permissionDecision": ...}}`
	claudeBehavior   reply = `{"hookSpecificOutput": {"decision": {"behavior": ...}}}`
	claudeContext    reply = `{"hookSpecificOutput": {"additionalContext": ...}}`
	decisionBlock    reply = `{"decision": "block", ...}`
	geminiDeny       reply = `{"decision": "deny", ...}`
	cursorPermission reply = `{"permission": "deny", ...}`
	cursorContinue   reply = `{"continue": false, ...}`
	cursorFollowup   reply = `{"followup_message": ...}`
	cursorContext    reply = `{"additional_context": ...}`
	copilotDecision  reply = `{"permissionDecision": "deny", ...}`
	copilotBehavior  reply = `{"behavior": "deny", ...}`
)

// answer is how a command hook of one agent speaks on one event: the input it reads on
// stdin, what it must do to have its say there (block, deny, keep the agent working, add
// context, or that it cannot block; the text follows "it now reads INPUT on stdin and"), the
// JSON replies a hook of the agent prints there (none where the agent reads none), and the
// replies the agent reads there (nil: prints).
type answer struct {
	input, how string
	prints     []reply
	reads      []reply
}

// protocol is the reply protocol of one family of agents (protocolOf): its name and its
// answer on an event, whose name in the agent's own files is native.
type protocol struct {
	name string
	on   func(ev hook.Event, native string) answer
}

// protocols are the reply protocols by family (protocolOf). Codex reads Claude Code's
// (bridge/codex.go: decodeClaudeShape and encodeClaudeShape; its differences are in what
// it accepts, not in what a hook prints to block), and so does hookcore for hooks of its
// own YAML, of codebot files and of Claude Code settings (executor/command: Agent "").
var protocols = map[string]protocol{
	"claude":  {"Claude Code", claudeOn},
	"gemini":  {"Gemini CLI", geminiOn},
	"cursor":  {"Cursor", cursorOn},
	"copilot": {"Copilot CLI", copilotOn},
}

// The ways of having a say that several protocols share.
const (
	exit2      = "exit 2 with the reason on stderr or print "
	toBlock    = ", to block, must "
	toStop     = ", to keep the agent working, must "
	toTell     = ", to tell the model (the call has run), must "
	noBlock    = " cannot block"
	noReply    = " cannot block, and its output is not read there"
	addContext = " cannot block; to add context, it prints "
)

// inputOf is "AGENT's NATIVE input (FIELDS)", the fields the event's hooks read beyond the
// common ones; without fields when fields has none for the event.
func inputOf(agent, native string, fields map[string]string) string {
	s := agent + "'s " + native + " input"
	if f := fields[native]; f != "" {
		s += " (" + f + ")"
	}
	return s
}

// claudeFields are the fields of Claude Code's input that a hook of an event reads
// (../shared/research/claude-code-hooks.md, section 1).
var claudeFields = map[string]string{
	"PreToolUse": `tool_name "Bash", tool_input`, "PermissionRequest": `tool_name "Bash", tool_input`,
	"PostToolUse": "tool_name, tool_input, tool_response", "PostToolUseFailure": "tool_name, tool_input, error",
	"UserPromptSubmit": "prompt", "Stop": "stop_hook_active, last_assistant_message",
	"SubagentStop": "agent_type, stop_hook_active, last_assistant_message", "SubagentStart": "agent_id, agent_type",
	"SessionStart": "source", "SessionEnd": "reason", "PreCompact": "trigger", "PostCompact": "trigger",
	"Notification": "message, notification_type",
}

// claudeOn is Claude Code's protocol (research note, sections 1 and 4): exit 2 blocks with
// stderr as the reason wherever an event blocks, except PermissionRequest; PreToolUse
// answers hookSpecificOutput.permissionDecision (the legacy top-level decision "block"
// still denies), PermissionRequest hookSpecificOutput.decision.behavior, the others the
// top-level decision "block" with reason, and hookSpecificOutput.additionalContext adds
// context.
func claudeOn(ev hook.Event, native string) answer {
	a := answer{input: inputOf("Claude Code", native, claudeFields)}
	switch ev {
	case hook.PreToolUse:
		a.how = toBlock + exit2 + `{"hookSpecificOutput": {"permissionDecision": "deny", ...}}`
		a.prints = []reply{claudePermission}
		a.reads = []reply{claudePermission, decisionBlock, claudeContext}
	case hook.PermissionRequest:
		a.how = `, to deny, must print {"hookSpecificOutput": {"decision": {"behavior": "deny", "message": "..."}}} (Claude Code ignores exit 2 there)`
		a.prints = []reply{claudeBehavior}
	case hook.PostToolUse, hook.PostToolUseFailure:
		a.how = toTell + exit2 + `{"decision": "block", "reason": "..."}, or add context with {"hookSpecificOutput": {"additionalContext": "..."}}`
		a.prints = []reply{decisionBlock, claudeContext}
	case hook.UserPromptSubmit:
		a.how = ", to block the prompt, must " + exit2 + `{"decision": "block", "reason": "..."}`
		a.prints = []reply{decisionBlock, claudeContext}
	case hook.Stop, hook.SubagentStop:
		a.how = toStop + exit2 + `{"decision": "block", "reason": "..."} (the reason is its next instruction)`
		a.prints = []reply{decisionBlock}
		a.reads = []reply{decisionBlock, claudeContext}
	case hook.SessionStart, hook.SubagentStart:
		a.how = addContext + `{"hookSpecificOutput": {"additionalContext": "..."}}`
		a.prints = []reply{claudeContext}
	default:
		if k := ev.Kind(); k == hook.Gate || k == hook.Feedback {
			a.how = toBlock + exit2 + `{"decision": "block", "reason": "..."}`
			a.prints = []reply{decisionBlock}
		} else {
			a.how = noBlock
		}
	}
	return a
}

// geminiFields are the fields of Gemini CLI's input that a hook of an event reads
// (executor/command: geminiStdin).
var geminiFields = map[string]string{
	"BeforeTool": `tool_name "run_shell_command", tool_input`, "AfterTool": "tool_name, tool_input, tool_response",
	"BeforeAgent": "prompt", "AfterAgent": "prompt, prompt_response, stop_hook_active",
	"SessionStart": "source", "SessionEnd": "reason", "PreCompress": "trigger",
	"Notification": "notification_type, message", "BeforeModel": "llm_request", "AfterModel": "llm_request, llm_response",
}

// geminiOn is Gemini CLI's protocol (bridge/gemini.go; research note, section 1.1): exit 2
// with a reason blocks, and so does decision "deny" (or "block") with reason, on every
// event that blocks: BeforeTool denies the call, AfterTool replaces its result with the
// reason, BeforeAgent drops the prompt, AfterAgent sends the reason back as a new prompt;
// hookSpecificOutput.additionalContext adds context. SessionStart, SessionEnd, PreCompress
// and Notification are advisory.
func geminiOn(ev hook.Event, native string) answer {
	a := answer{input: inputOf("Gemini CLI", native, geminiFields)}
	deny := exit2 + `{"decision": "deny", "reason": "..."}`
	switch ev {
	case hook.PreToolUse:
		a.how = toBlock + deny
		a.prints = []reply{geminiDeny}
	case hook.PostToolUse:
		a.how = toTell + deny + ` (the reason replaces the call's result), or add context with {"hookSpecificOutput": {"additionalContext": "..."}}`
		a.prints = []reply{geminiDeny, claudeContext}
	case hook.UserPromptSubmit:
		a.how = ", to block the prompt, must " + deny
		a.prints = []reply{geminiDeny, claudeContext}
	case hook.Stop:
		a.how = toStop + deny + " (the reason goes back as a new prompt)"
		a.prints = []reply{geminiDeny}
	case hook.SessionStart:
		a.how = addContext + `{"hookSpecificOutput": {"additionalContext": "..."}}`
		a.prints = []reply{claudeContext}
		return a
	default:
		a.how = noBlock
		return a
	}
	// Gemini CLI takes "block" for "deny", and context from any reply.
	a.reads = append(slices.Clone(a.prints), decisionBlock, claudeContext)
	return a
}

// cursorFields are the fields of Cursor's input that a hook of an event reads (bridge/cursor.go).
var cursorFields = map[string]string{
	"beforeShellExecution": "command, cwd", "afterShellExecution": "command, output",
	"beforeMCPExecution": "tool_name, tool_input", "afterMCPExecution": "tool_name, tool_input, result_json",
	"beforeReadFile": "file_path", "afterFileEdit": "file_path, edits",
	"preToolUse": "tool_name, tool_input", "postToolUse": "tool_name, tool_input, tool_output",
	"postToolUseFailure": "tool_name, tool_input", "beforeSubmitPrompt": "prompt", "stop": "status, loop_count",
}

// cursorOn is Cursor's protocol (bridge/cursor.go; research note, section 1.3): the before
// events and preToolUse answer permission deny with agent_message (exit 2 denies too),
// beforeSubmitPrompt continue: false with user_message, stop and subagentStop a
// followup_message (sent as the next user message), sessionStart additional_context; Cursor
// reads nothing from the other events' hooks.
func cursorOn(ev hook.Event, native string) answer {
	a := answer{input: inputOf("Cursor", native, cursorFields)}
	switch {
	case ev == hook.PreToolUse:
		a.how = toBlock + `exit 2 or print {"permission": "deny", "agent_message": "..."}`
		a.prints = []reply{cursorPermission}
	case ev == hook.UserPromptSubmit:
		a.how = `, to block the prompt, must exit 2 or print {"continue": false, "user_message": "..."}`
		a.prints = []reply{cursorContinue}
	case ev == hook.Stop || ev == hook.SubagentStop:
		a.how = toStop + `print {"followup_message": "..."} (sent as the next user message)`
		a.prints = []reply{cursorFollowup}
	case ev == hook.SessionStart:
		a.how = addContext + `{"additional_context": "..."}`
		a.prints = []reply{cursorContext}
	default:
		a.how = noReply
	}
	return a
}

// copilotFields are the fields of Copilot CLI's camelCase input that a hook of an event
// reads (bridge/copilot.go); most of its payloads do not name their event.
var copilotFields = map[string]string{
	"preToolUse": `toolName "bash", toolArgs a JSON string`, "permissionRequest": `toolName "bash", toolArgs a JSON string`,
	"postToolUse": "toolName, toolArgs, toolResult", "userPromptSubmitted": "prompt",
	"sessionStart": "source", "sessionEnd": "reason", "errorOccurred": "error",
}

// copilotOn is Copilot CLI's protocol (bridge/copilot.go; research note, section 1.4):
// preToolUse answers permissionDecision deny (any non-zero exit denies too),
// permissionRequest behavior deny, agentStop and subagentStop decision "block" with reason
// (the agent goes on); Copilot CLI ignores the output of the other events' hooks.
func copilotOn(ev hook.Event, native string) answer {
	a := answer{input: inputOf("Copilot CLI", native, copilotFields)}
	a.input = strings.Replace(a.input, "'s ", "'s camelCase ", 1)
	switch ev {
	case hook.PreToolUse:
		a.how = toBlock + `exit non-zero or print {"permissionDecision": "deny", "permissionDecisionReason": "..."}`
		a.prints = []reply{copilotDecision}
	case hook.PermissionRequest:
		a.how = `, to deny, must print {"behavior": "deny", "message": "..."}`
		a.prints = []reply{copilotBehavior}
	case hook.Stop, hook.SubagentStop:
		a.how = toStop + `print {"decision": "block", "reason": "..."}`
		a.prints = []reply{decisionBlock}
	default:
		a.how = noReply
	}
	return a
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
// line about the event it is on, native being the event's name in the target's file: the
// input it now gets on stdin, how it must answer there (to block, to keep the agent working,
// to add context, or that it cannot block), and which of the replies it printed in its own
// agent's protocol on that event the target does not read (or that it still reads them).
// It is a Warning on a gate event when a reply is lost (a guard that answers in its own
// agent's JSON no longer blocks), and on a gate of tool calls in any case: every agent names
// the tools and their arguments its own way ("Bash" and tool_input, "run_shell_command",
// Cursor's command, Copilot CLI's toolArgs string), which a guard's script checks. Hooks of
// other types, and pairs of the same family (Claude Code, Codex and hookcore), are not
// reported.
func (c *conv) protocolLoss(h *config.Hook, native string) {
	if h.Action.Type != config.TypeCommand {
		return
	}
	from, to := protocolOf(h.Dialect), targetProtocol(c.target)
	if from == to {
		return
	}
	src, dst := protocols[from], protocols[to]
	mine, theirs := src.on(h.Event, ""), dst.on(h.Event, native)
	if theirs.reads == nil {
		theirs.reads = theirs.prints
	}
	if c.target == "hookcore" {
		// hookcore reads a decision "deny" as Claude Code's "block", and codebot's
		// additional_context (hook.ParseEnvelope).
		theirs.reads = append(slices.Clone(theirs.reads), geminiDeny, cursorContext)
	}
	var lost, kept []string
	for _, r := range mine.prints {
		if slices.Contains(theirs.reads, r) {
			kept = append(kept, string(r))
		} else {
			lost = append(lost, string(r))
		}
	}
	lead := "speaks " + src.name + "'s hook protocol, not " + dst.name + "'s"
	if c.target == "hookcore" {
		lead = "speaks " + src.name + "'s hook protocol, which hookcore's YAML cannot name (hookcore uses Claude Code's)"
	}
	what := lead + ": it now reads " + theirs.input + " on stdin and" + theirs.how
	switch {
	case theirs.how == noReply: // says it: nothing it prints is read
	case len(lost) > 0:
		what += "; its " + strings.Join(lost, " and ") + are(lost) + " not read"
	case len(kept) > 0:
		what += "; its " + strings.Join(kept, " and ") + are(kept) + " still read"
	}
	if h.Event.Kind() == hook.Gate && (len(lost) > 0 || h.Event.MatchField() == "tool_name") {
		c.warn(h, "%s", what)
	} else {
		c.lose(h, "%s", what)
	}
}

// are is the verb for the replies s: " is" for one, " are" for more.
func are(s []string) string {
	if len(s) > 1 {
		return " are"
	}
	return " is"
}

package config

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// Cursor's hooks.json (Cursor dialect), read by ParseDialect (cursor.com/docs/agent/hooks;
// ../shared/research/other-agents-hooks.md section 1.3):
//
//	{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh",
//	  "matcher": "curl|wget", "timeout": 10, "failClosed": true}]}}
//
//   - Events map as the bridge maps Cursor's input (bridge.EventNames("cursor")):
//     beforeShellExecution, beforeMCPExecution, beforeReadFile and preToolUse →
//     PreToolUse; afterShellExecution, afterMCPExecution, afterFileEdit and postToolUse →
//     PostToolUse; postToolUseFailure, beforeSubmitPrompt → UserPromptSubmit, stop → Stop,
//     subagentStart, subagentStop, sessionStart, sessionEnd, preCompact.
//   - The tool a native event is about becomes the matcher: the shell events match Bash,
//     beforeReadFile Read, afterFileEdit Edit|Write|MultiEdit, the MCP events MCP tools
//     (mcp__… or Cursor's MCP:…). On the shell events Cursor's own matcher searches the
//     command text, so it becomes the `if` `args.command =~ /matcher/`; on the other
//     events it matches the tool name, as written.
//   - timeout is seconds; failClosed: true is on_error: block (Cursor fails open
//     otherwise); loop_limit is Cursor's own and ignored (AgentOnly); type defaults to command.
//   - The hook's stdout is read with Cursor's protocol (command.Command.Agent "cursor"):
//     permission allow / deny / ask with user_message and agent_message, continue: false,
//     followup_message (stop: a block, sent back as the next message), additional_context.
//     Exit 2 denies.

// isCursorHooks reports whether path is Cursor's hooks.json: hooks.json in a directory
// named .cursor.
func isCursorHooks(path string) bool {
	return filepath.Base(path) == "hooks.json" && filepath.Base(filepath.Dir(path)) == ".cursor"
}

func cursorEventNames() []string {
	var names []string
	for k := range bridge.EventNames("cursor") {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// cursorField decodes the keys of a Cursor entry that hookcore spells another way.
func (d *decoder) cursorField(r *rawHook, p kv) bool {
	switch p.key {
	case "failClosed":
		if b, _ := d.boolean(p); b {
			r.h.OnError = "block"
		}
		r.at["on_error"] = p
	case "loop_limit", "loopLimit":
		r.h.AgentOnly = append(r.h.AgentOnly, p.key) // Cursor's cap on a stop hook's follow-ups
	case "matcher":
		r.h.Matcher, _ = d.str(p)
		r.at["matcher"] = p
	default:
		return false
	}
	return true
}

// cursorEntry decodes one Cursor hook of the native event eventRaw.
func (d *decoder) cursorEntry(entry ast.Node, eventRaw string, e hook.Event) *rawHook {
	r := d.jsonEntry(entry, eventRaw, e, Cursor, nil)
	r.h.NativeEvent = eventRaw
	m := strings.TrimSpace(r.h.Matcher)
	switch eventRaw {
	case "beforeShellExecution", "afterShellExecution":
		r.h.Matcher = "Bash"
		if m != "" && m != "*" && r.h.If == "" {
			r.h.If = "args.command =~ /" + slashEscape(m) + "/"
		}
	case "beforeReadFile":
		r.h.Matcher = "Read"
	case "afterFileEdit":
		r.h.Matcher = "Edit|Write|MultiEdit"
	case "beforeMCPExecution", "afterMCPExecution":
		r.h.Matcher = "/^(mcp__|MCP:)/"
	}
	return r
}

package config

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// GitHub Copilot CLI's .github/hooks/*.json (Copilot dialect), read by ParseDialect
// (docs.github.com, "GitHub Copilot CLI hooks reference"; ../shared/research/
// other-agents-hooks.md section 1.4):
//
//	{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh",
//	  "powershell": "./guard.ps1", "timeoutSec": 10}]}}
//
//   - Events map as the bridge maps Copilot's input (bridge.EventNames("copilot")):
//     sessionStart, sessionEnd, userPromptSubmitted → UserPromptSubmit, preToolUse,
//     postToolUse, permissionRequest, agentStop → Stop, subagentStop, errorOccurred →
//     Error, notification.
//   - bash is the command (run by bash); powershell is used only when there is no bash
//     (run by pwsh); timeoutSec is seconds (Copilot's default 30 s is kept when absent);
//     cwd and env are warned about and ignored (hookcore runs a hook in the session's
//     working directory with its own environment).
//   - preToolUse hooks fail closed (on_error: block): Copilot denies the call on any
//     non-zero exit.
//   - The hook's stdout is read with Copilot's protocol (command.Command.Agent "copilot").

// isCopilotHooks reports whether path is a Copilot CLI hook file: a .json file in
// .github/hooks (the repository's) or .copilot/hooks (the user's).
func isCopilotHooks(path string) bool {
	dir := filepath.Dir(path)
	up := filepath.Base(filepath.Dir(dir))
	return strings.EqualFold(filepath.Ext(path), ".json") && filepath.Base(dir) == "hooks" && (up == ".github" || up == ".copilot")
}

func copilotEventNames() []string {
	var names []string
	for k := range bridge.EventNames("copilot") {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// copilotField decodes the keys of a Copilot entry that hookcore spells another way.
func (d *decoder) copilotField(r *rawHook, p kv) bool {
	switch p.key {
	case "bash":
		if r.h.Action.Shell == "powershell" {
			r.h.AgentOnly = append(r.h.AgentOnly, "powershell") // read before bash: Copilot runs it on Windows
		}
		r.h.Action.Command, _ = d.str(p)
		r.h.Action.Shell = "bash"
		r.at["action.command"] = p
	case "powershell":
		ps, _ := d.str(p)
		if _, hasBash := r.at["action.command"]; !hasBash && strings.TrimSpace(ps) != "" {
			r.h.Action.Command, r.h.Action.Shell = ps, "powershell"
		} else {
			r.h.AgentOnly = append(r.h.AgentOnly, p.key) // Copilot runs it on Windows
		}
	case "timeoutSec":
		r.h.Action.Timeout = d.timeout(p)
		r.at["action.timeout"] = p
	case "cwd", "env":
		r.h.AgentOnly = append(r.h.AgentOnly, p.key)
		d.warnf(p.keyNode, "Copilot's %s is not supported; ignored (the hook runs in the session's working directory with hookcore's environment)", p.key)
	case "matcher":
		r.h.Matcher, _ = d.str(p)
		r.at["matcher"] = p
	default:
		return false
	}
	return true
}

// copilotEntry decodes one Copilot hook of the native event eventRaw.
func (d *decoder) copilotEntry(entry ast.Node, eventRaw string, e hook.Event) *rawHook {
	r := d.jsonEntry(entry, eventRaw, e, Copilot, nil)
	r.h.NativeEvent = eventRaw
	if _, set := r.at["action.timeout"]; !set && r.h.Action.Timeout == 0 {
		r.h.Action.Timeout = 30e9 // Copilot CLI's default, 30 s
	}
	if eventRaw == "preToolUse" {
		r.h.OnError = "block"
	}
	r.h.Matcher = copilotMatcher(e, r.h.Matcher)
	return r
}

// copilotMatcher translates a Copilot CLI matcher on a tool event into hookcore's matcher
// syntax over the Claude Code names the bridge gives Copilot's tools (bash is Bash, create
// Write: bridge.ToolNames("copilot")), as geminiMatcher does Gemini CLI's:
//
//   - "", "*" and a /regex/ of hookcore's own stay as they are;
//   - plain names joined by "|", as they are or anchored ("^bash$", "^(?:bash|view)$",
//     "^(bash|view)$", as hookcore convert writes them), become the list of their Claude
//     names ("^bash$" → "Bash"; red team round 65: that guard matched no Bash call, in
//     hookcore and converted back to Claude Code). A plain name that is no Copilot tool's
//     stays as it is (an MCP tool's, a Claude name), compared ignoring case as hookcore
//     compares names; so does a plain name that is one in another case ("Bash", "BASH").
//   - any other regex R, which hookcore reads as matching a whole name, becomes
//     /^(?:C1|C2)$|^(?:R)$/: the Claude names of the Copilot tools whose names R matches,
//     plus R itself over any other name.
//
// The other events have no tool name: their matcher is kept (and warned about) as it is.
func copilotMatcher(e hook.Event, m string) string {
	t := strings.TrimSpace(m)
	if e.MatchField() != "tool_name" || t == "" || t == "*" || strings.HasPrefix(t, "/") {
		return m
	}
	tools := bridge.ToolNames("copilot")
	if list, ok := anchoredNames(t); ok {
		var names []string
		for _, n := range strings.Split(list, "|") {
			c, known := tools[n]
			if !known {
				c = n
			}
			if !slices.Contains(names, c) {
				names = append(names, c)
			}
		}
		return strings.Join(names, "|")
	}
	re, err := regexp.Compile("^(?:" + t + ")$")
	if err != nil {
		return m // not a regex: loading reports it
	}
	var names []string
	for g, c := range tools {
		if re.MatchString(g) && !slices.Contains(names, c) {
			names = append(names, c)
		}
	}
	if len(names) == 0 {
		return m
	}
	slices.Sort(names)
	return "/^(?:" + strings.Join(names, "|") + ")$|^(?:" + slashEscape(t) + ")$/"
}

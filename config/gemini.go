package config

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// Gemini CLI's settings.json `hooks` (Gemini dialect), read by ParseDialect. The file has
// Claude Code's nested shape with Gemini's names and units (google-gemini/gemini-cli
// docs/hooks/reference.md; ../shared/research/other-agents-hooks.md section 1.1):
//
//	{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "sequential": false,
//	  "hooks": [{"type": "command", "command": "...", "name": "guard", "timeout": 5000}]}]}}
//
//   - Events map as the bridge maps Gemini's input (bridge.EventNames("gemini")):
//     BeforeTool → PreToolUse, AfterTool → PostToolUse, BeforeAgent → UserPromptSubmit,
//     AfterAgent → Stop, PreCompress → PreCompact, BeforeModel → PreSend, AfterModel →
//     PostReceive, SessionStart, SessionEnd, Notification. BeforeToolSelection has no
//     hookcore event: its definitions draw a warning and are not loaded (File.Unloaded).
//   - timeout is in milliseconds (default 60000, hookcore's 60 s).
//   - name is the hook's id; description is documentation.
//   - hooks of a definition run in parallel unless sequential: true (hookcore Parallel, which
//     applies on feedback and observe events; gate events always run in order); the hooks
//     of a sequential definition of several are Hook.Sequential, for package convert.
//   - the matcher is translated by geminiMatcher.
//
// The hooks run with Gemini CLI's input and their replies are read as Gemini CLI reads them
// (command.Command.Agent "gemini", executor/command/gemini.go): JSON decides whatever the
// exit code ("decision": "deny"/"block" with "reason", "ask", continue:false, systemMessage,
// additionalContext, hookSpecificOutput.tool_input), plain text blocks on an exit code other
// than 0 and 1, and exit 2 with no output blocks nothing.

// geminiConfigFields are the keys of Gemini CLI's hooksConfig, which it skips when they are
// written inside hooks (HOOKS_CONFIG_FIELDS in Gemini CLI 0.61.0; its settings of older
// releases had them there).
var geminiConfigFields = []string{"enabled", "disabled", "notifications"}

// geminiHooksConfig decodes the top-level hooksConfig of a Gemini settings file into
// f.HooksEnabled and f.HooksDisabled (observed with Gemini CLI 0.61.0, peer-gemini:
// `enabled: false` runs no hook; a hook whose name, or command when it has no name, is in
// `disabled` does not run). A value of another type is a warning and is left out, so the
// hooks run: Gemini CLI reads a string `disabled` as a substring test, and any non-empty
// string `enabled` as true.
func (d *decoder) geminiHooksConfig(f *File, p kv) {
	pairs, ok := d.mapping(p.val)
	if !ok {
		if p.val != nil {
			d.warnf(p.rawValue, "hooksConfig must be a mapping, not a %s: it is ignored", kind(p.val))
		}
		return
	}
	for _, q := range pairs {
		switch q.key {
		case "enabled":
			if b, ok := q.val.(*ast.BoolNode); ok {
				f.HooksEnabled = &b.Value
			} else if q.val != nil {
				d.warnf(q.rawValue, "hooksConfig.enabled must be true or false, not a %s: it is ignored", kind(q.val))
			}
		case "disabled":
			seq, ok := q.val.(*ast.SequenceNode)
			if !ok {
				if q.val != nil {
					d.warnf(q.rawValue, "hooksConfig.disabled must be a list of hook names, not a %s: it is ignored, and those hooks run", kind(q.val))
				}
				continue
			}
			for _, e := range seq.Values {
				if n, ok := d.resolve(e).(*ast.StringNode); ok {
					f.HooksDisabled = append(f.HooksDisabled, n.Value)
				} else {
					d.warnf(e, "hooksConfig.disabled entries are hook names (strings), not a %s: it is ignored", kind(d.resolve(e)))
				}
			}
		}
	}
}

// geminiDefinitionKeys are the keys of a Gemini hook definition.
var geminiDefinitionKeys = []string{"matcher", "sequential", "hooks"}

// isGeminiSettings reports whether path is a Gemini CLI settings file: settings.json in a
// directory named .gemini (~/.gemini/settings.json, <project>/.gemini/settings.json), or
// gemini-cli or GeminiCli (the system settings: DefaultGeminiSystemSettings).
func isGeminiSettings(path string) bool {
	if filepath.Base(path) != "settings.json" {
		return false
	}
	switch filepath.Base(filepath.Dir(path)) {
	case ".gemini", "gemini-cli", "GeminiCli": // the user's or the project's; the system's (DefaultGeminiSystemSettings)
		return true
	}
	return false
}

// geminiEvent resolves a Gemini event name (exact, as Gemini CLI reads it). skip reports a
// Gemini event that hookcore has no counterpart for.
func geminiEvent(name string) (e hook.Event, skip, ok bool) {
	if name == "BeforeToolSelection" {
		return "", true, false
	}
	e, ok = bridge.EventNames("gemini")[name]
	return e, false, ok
}

// geminiEventNames lists Gemini's event names, for suggestions.
func geminiEventNames() []string {
	names := []string{"BeforeToolSelection"}
	for k := range bridge.EventNames("gemini") {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// geminiMatcher translates a Gemini matcher into hookcore's matcher syntax for event e.
//
// On tool events (PreToolUse, PostToolUse) Gemini searches its regex, unanchored, in its own
// tool name (run_shell_command, write_file, ...), while hookcore matches the Claude Code name
// the bridge gives the tool (Bash, Write, ...; bridge.ToolNames("gemini")). The translation:
//
//   - "" and "*" match every tool, as they are;
//   - plain names joined by "|" that are all Gemini built-in tools, as they are or anchored
//     ("^(?:run_shell_command|write_file)$", as hookcore convert writes them), become the
//     list of their Claude names ("run_shell_command|write_file" → "Bash|Write");
//   - any other regex R becomes /^(?:C1|C2)$|R/: the Claude names of the built-in tools
//     whose Gemini name R matches, plus R itself, searched in any other name (MCP tools
//     keep their names, mcp__server__tool). R is also searched in the Claude names, and
//     when it matches one whose Gemini name it does not match ("(?i)edit" matches Edit but
//     not replace), warn is set: that hook would also run for that tool.
//
// On the other events Gemini compares the matcher exactly (SessionStart's source,
// SessionEnd's reason, PreCompress's trigger, Notification's type): a plain name stays a
// name (hookcore compares names case-insensitively), anything else becomes /^QUOTED$/.
func geminiMatcher(e hook.Event, m string) (out, warn string, err error) {
	t := strings.TrimSpace(m)
	if t == "" || t == "*" {
		return t, "", nil
	}
	tools := bridge.ToolNames("gemini")
	if e != hook.PreToolUse && e != hook.PostToolUse {
		if plainNames(t) {
			return t, "", nil
		}
		return "/^" + slashEscape(regexp.QuoteMeta(t)) + "$/", "", nil
	}
	if list, ok := anchoredNames(t); ok {
		var names []string
		all := true
		for _, n := range strings.Split(list, "|") {
			c, ok := tools[n]
			if !ok {
				all = false
				break
			}
			if !slices.Contains(names, c) {
				names = append(names, c)
			}
		}
		if all {
			return strings.Join(names, "|"), "", nil
		}
	}
	re, err := regexp.Compile(t)
	if err != nil {
		return "", "", fmt.Errorf("bad matcher regex %q: %v", t, err)
	}
	var names, leaks []string
	for g, c := range tools {
		if re.MatchString(g) && !slices.Contains(names, c) {
			names = append(names, c)
		}
	}
	for g, c := range tools {
		if re.MatchString(c) && !re.MatchString(g) {
			leaks = append(leaks, c)
		}
	}
	slices.Sort(names)
	slices.Sort(leaks)
	if len(leaks) > 0 {
		warn = fmt.Sprintf("Gemini matcher %q also matches the Claude tool name(s) %s, whose Gemini names it does not match; the hook runs for them too", t, strings.Join(leaks, ", "))
	}
	if len(names) == 0 {
		return "/" + slashEscape(t) + "/", warn, nil
	}
	return "/^(?:" + strings.Join(names, "|") + ")$|" + slashEscape(t) + "/", warn, nil
}

// anchoredNames returns the names of a matcher that is a list of plain names, as it is
// ("a|b") or anchored as hookcore convert writes it ("^a$", "^(?:a|b)$", "^(a|b)$"), which
// Gemini CLI and Copilot CLI match as exactly those names.
func anchoredNames(t string) (string, bool) {
	for _, open := range []string{"^(?:", "^("} {
		if inner, ok := strings.CutPrefix(t, open); ok {
			if inner, ok = strings.CutSuffix(inner, ")$"); ok && plainNames(inner) {
				return inner, true
			}
		}
	}
	if inner, ok := strings.CutPrefix(t, "^"); ok {
		if inner, ok = strings.CutSuffix(inner, "$"); ok && plainNames(inner) && !strings.Contains(inner, "|") {
			return inner, true
		}
	}
	return t, plainNames(t)
}

// plainNames reports whether s is names of letters, digits, '_' and '-' joined by '|'.
func plainNames(s string) bool {
	for _, n := range strings.Split(s, "|") {
		if n == "" {
			return false
		}
		for _, c := range n {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return false
			}
		}
	}
	return true
}

// slashEscape escapes '/' for hookcore's /re/ matcher form.
func slashEscape(s string) string { return strings.ReplaceAll(s, "/", `\/`) }

// geminiField decodes the keys a Gemini hook entry spells its own way: name (the id) and
// timeout (milliseconds). It reports whether p was one of them.
func (d *decoder) geminiField(r *rawHook, p kv) bool {
	switch p.key {
	case "name":
		id, _ := d.str(p)
		r.h.AgentKey = id
		r.h.ID = strings.TrimSpace(id)
		r.explicitID = r.h.ID != ""
		r.at["id"] = p
	case "timeout":
		r.h.Action.Timeout = d.millis(p)
		r.at["action.timeout"] = p
	default:
		return false
	}
	return true
}

// millis decodes a timeout in milliseconds (Gemini CLI): a non-negative number.
func (d *decoder) millis(p kv) time.Duration {
	if p.val == nil {
		return 0
	}
	s := scalarText(p.val)
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil || ms < 0 || ms > float64(24*time.Hour/time.Millisecond) {
		d.errorf(p.rawValue, "timeout must be a number of milliseconds (Gemini CLI), not %q", s)
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}

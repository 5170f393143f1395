package convert

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/config"
)

// projectVar is the variable each agent sets to the project directory for its command hooks:
// Claude Code's CLAUDE_PROJECT_DIR (claude-code-hooks.md), Gemini CLI's GEMINI_PROJECT_DIR
// (observed with 0.61.0, ../shared/peer-gemini, which also sets CLAUDE_PROJECT_DIR as an
// alias), Cursor's CURSOR_PROJECT_DIR (its docs; CLAUDE_PROJECT_DIR is an alias there too),
// and hookcore's HOOKCORE_PROJECT_DIR for a hook of its YAML (executor/command, which also
// sets CLAUDE_PROJECT_DIR). Codex sets none (observed with 0.171.0, ../shared/peer-codex:
// only CODEX_HOME), nor does Copilot CLI's documentation name one.
var projectVar = map[string]string{"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR", "cursor": "CURSOR_PROJECT_DIR", "hookcore": "HOOKCORE_PROJECT_DIR"}

// dirVars are the directory variables a command may use and the targets that set them (as
// projectVar says; HOOKCORE_CONFIG_DIR is the hookcore config file's directory, which only
// hookcore sets). Where the target does not set one, convert rewrites it (dirOf).
var dirVars = map[string]map[string]bool{
	"CLAUDE_PROJECT_DIR":   {"claude": true, "gemini": true, "cursor": true, "hookcore": true},
	"GEMINI_PROJECT_DIR":   {"gemini": true},
	"CURSOR_PROJECT_DIR":   {"cursor": true},
	"HOOKCORE_PROJECT_DIR": {"hookcore": true},
	"HOOKCORE_CONFIG_DIR":  {"hookcore": true},
}

// agentOnly are the other variables an agent sets for its command hooks, by agent, which no
// other target sets and which have no replacement: Gemini CLI 0.61.0's session id, working
// directory and plans directory (observed, ../shared/peer-gemini) and Cursor's plugin root
// (research note 1.3). A hook of hookcore's YAML gets none of them (executor/command sets
// the Gemini ones for hooks of a Gemini settings file only).
var agentOnly = map[string]string{
	"GEMINI_SESSION_ID": "gemini", "GEMINI_CWD": "gemini", "GEMINI_PLANS_DIR": "gemini",
	"CURSOR_PLUGIN_ROOT": "cursor",
}

// hookcoreOnly are the variables hookcore gives a command hook that no agent sets, apart from
// the directories, which are rewritten: the context variables it replaces in the command text
// ($FILE_PATH, ${TOOL_ARGS.x}; executor/internal/hookio) and its HOOK_* environment
// (executor/command).
var hookcoreOnly = map[string]bool{
	"EVENT": true, "TOOL_NAME": true, "FILE_PATH": true, "MESSAGE": true, "ERROR": true,
	"SESSION_ID": true, "CWD": true, "TOOL_ARGS": true,
	"HOOK_EVENT": true, "HOOK_TOOL_NAME": true, "HOOK_TOOL_INPUT": true, "HOOK_TOOL_OUTPUT": true,
	"HOOK_SESSION_ID": true,
}

// portable returns h's shell command line for the target: each reference to a directory
// variable the target does not set (dirVars: $HOOKCORE_CONFIG_DIR, $HOOKCORE_PROJECT_DIR,
// and another agent's project variable, $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR or
// $CURSOR_PROJECT_DIR) is replaced by the target's project-directory variable and the path
// below it, when the directory lies in the project, else by the absolute path; each
// replacement is reported. A hookcore-only or agent-only variable that has no replacement is
// reported too. References in single quotes are left alone, as the shell
// leaves them.
func (c *conv) portable(h *config.Hook) string {
	a := &h.Action
	if len(a.Args) > 0 {
		for _, w := range a.Args {
			c.scan(h, w, false)
		}
		return commandLine(a)
	}
	return c.scan(h, a.Command, true)
}

// scan walks cmd as shell text, tracking quotes; with rewrite, it returns cmd with the
// directory variables replaced (see portable).
func (c *conv) scan(h *config.Hook, cmd string, rewrite bool) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			}
		case ch == '\\' && i+1 < len(cmd):
			b.WriteByte(ch)
			i++
			ch = cmd[i]
		case ch == '\'' && quote == 0:
			quote = '\''
		case ch == '"':
			quote ^= '"'
		case ch == '$':
			name, n := varRef(cmd[i:])
			if name == "" {
				break
			}
			switch {
			case c.dirOf(name) != "" && rewrite:
				b.WriteString(c.dirVar(h, name, quote == '"'))
				i += n - 1
				continue
			case c.dirOf(name) != "":
				c.note(h, fmt.Sprintf("$%s not rewritten in an exec-form argument: %s does not set it", name, c.target))
			case hookcoreOnly[name] && c.target != "hookcore":
				c.note(h, fmt.Sprintf("$%s is hookcore's: %s does not set it, so the command sees it empty (read the hook input on stdin instead)", name, c.target))
			case agentOnly[name] != "" && agentOnly[name] != c.target:
				c.note(h, fmt.Sprintf("$%s is %s's: %s does not set it, so the command sees it empty (read the hook input on stdin instead)", name, agentOnly[name], c.target))
			}
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// varRef returns the name of the variable referenced at the start of s ("$NAME" or
// "${NAME}", NAME a shell name; TOOL_ARGS also with hookcore's ".x" suffix) and the length of
// the reference; "" when s does not start with one.
func varRef(s string) (string, int) {
	braced := strings.HasPrefix(s, "${")
	start := 1
	if braced {
		start = 2
	}
	end := start
	for end < len(s) && (s[end] == '_' || s[end] >= 'A' && s[end] <= 'Z' || s[end] >= 'a' && s[end] <= 'z' || end > start && s[end] >= '0' && s[end] <= '9') {
		end++
	}
	if end == start {
		return "", 0
	}
	name := s[start:end]
	if !braced {
		return name, end
	}
	close := strings.IndexByte(s[end:], '}')
	if close != 0 && !(name == "TOOL_ARGS" && close > 0 && s[end] == '.') {
		return "", 0 // ${X:-default} and the like: not a plain reference
	}
	return name, end + close + 1
}

// dirOf returns the directory the directory variable name (dirVars) holds where the hook
// ran, when the target does not set name: the config file's directory for
// HOOKCORE_CONFIG_DIR, the project for the others; "" for any other name, or one the target
// sets.
func (c *conv) dirOf(name string) string {
	sets, ok := dirVars[name]
	switch {
	case !ok || sets[c.target]:
		return ""
	case name == "HOOKCORE_CONFIG_DIR":
		return c.configDir
	}
	return c.projectDir
}

// dirVar returns what replaces a reference to the directory variable name (dirOf) in the
// target's command, written for its quoting context (inDouble: inside "..."), and reports it.
func (c *conv) dirVar(h *config.Hook, name string, inDouble bool) string {
	dir := c.dirOf(name)
	v := projectVar[c.target]
	rel, err := filepath.Rel(c.projectDir, dir)
	inProject := err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	var rep string
	switch {
	case v != "" && inProject && rel == ".":
		rep = "${" + v + "}"
	case v != "" && inProject:
		rep = "$" + v + shellText("/"+filepath.ToSlash(rel), inDouble)
	default:
		rep = shellText(filepath.ToSlash(dir), inDouble)
	}
	why := fmt.Sprintf("%s does not set %s", c.target, name)
	if v == "" {
		why = fmt.Sprintf("%s sets no project-directory variable, so the command works only where that path exists", c.target)
	} else if !inProject {
		why += fmt.Sprintf(" and the directory is outside the project %s", c.projectDir)
	}
	c.note(h, fmt.Sprintf("$%s rewritten to %s: %s", name, rep, why))
	return rep
}

// shellText returns s as shell text that reads as s where it is put: inside double quotes
// (inDouble) or unquoted.
func shellText(s string, inDouble bool) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r))
	}) < 0 {
		return s
	}
	if inDouble {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
		return r.Replace(s)
	}
	return shellQuote(s)
}

// note reports what once per hook.
func (c *conv) note(h *config.Hook, what string) {
	l := Loss{Hook: h.ID, Source: h.Source(), What: what}
	if !slices.Contains(c.lost, l) {
		c.lost = append(c.lost, l)
	}
}

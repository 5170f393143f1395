package install

import (
	"path/filepath"
	"strings"
)

// Scope is where a settings file lives: the user's, the project's (shared, committed) or
// the project's local one (untracked; Claude Code only).
type Scope string

const (
	User    Scope = "user"
	Project Scope = "project"
	Local   Scope = "local"
)

// event is one native event hookcore registers for, with the matcher its group needs.
type event struct {
	name    string
	matcher string // "" for events without one
}

// agent describes one agent's hook settings file.
type agent struct {
	name  string
	files map[Scope]string // relative to the home (User) or project directory
	def   Scope
	// grouped files are Claude Code's shape, {"hooks": {EVENT: [{matcher, hooks: [...]}]}};
	// the others are flat, {"version": 1, "hooks": {EVENT: [entry]}}.
	grouped bool
	events  []event
	// eventArg adds the native event name to the command (Copilot: its payloads do not say).
	eventArg bool
	// exec writes a command entry in exec form: "command" is the program, "args" its
	// arguments, run with no shell (Claude Code's `args`). A shell-form entry is a command
	// line the agent gives `sh -c`, and a project's settings env reaches that shell: Claude
	// Code wraps every shell-form hook command in the program CLAUDE_CODE_SHELL_PREFIX names,
	// and the dynamically linked shell loads LD_PRELOAD, both before hookcore starts (red team
	// round 45; observed with Claude Code 2.1.332, docs/decisions.md, "install claude writes
	// exec form (stop 29)").
	exec bool
}

var agents = map[string]*agent{
	"claude": {
		name:    "claude",
		files:   map[Scope]string{User: ".claude/settings.json", Project: ".claude/settings.json", Local: ".claude/settings.local.json"},
		def:     Project,
		grouped: true,
		exec:    true,
		events: []event{
			{"PreToolUse", "*"}, {"PermissionRequest", "*"}, {"PostToolUse", "*"}, {"PostToolUseFailure", "*"},
			{"UserPromptSubmit", ""}, {"Stop", ""}, {"SubagentStart", ""}, {"SubagentStop", ""},
			{"SessionStart", ""}, {"SessionEnd", ""}, {"PreCompact", ""}, {"PostCompact", ""},
			{"Notification", ""}, {"TaskCreated", ""}, {"TaskCompleted", ""},
			// A skill's or slash command's "!`cmd`" lines run no Bash tool call: Claude Code
			// asks PreSkillShellCommand hooks only (red team round 39).
			{"PreSkillShellCommand", ""},
		},
	},
	"codex": {
		name:    "codex",
		files:   map[Scope]string{User: ".codex/hooks.json", Project: ".codex/hooks.json"},
		def:     User,
		grouped: true,
		events: []event{
			{"PreToolUse", "*"}, {"PermissionRequest", "*"}, {"PostToolUse", "*"},
			{"UserPromptSubmit", ""}, {"Stop", ""}, {"SubagentStart", ""}, {"SubagentStop", ""},
			{"SessionStart", ""}, {"PreCompact", ""}, {"PostCompact", ""},
		},
	},
	"gemini": {
		name:    "gemini",
		files:   map[Scope]string{User: ".gemini/settings.json", Project: ".gemini/settings.json"},
		def:     Project,
		grouped: true,
		events: []event{
			{"BeforeTool", ".*"}, {"AfterTool", ".*"}, {"BeforeAgent", ""}, {"AfterAgent", ""},
			{"SessionStart", ""}, {"SessionEnd", ""}, {"PreCompress", ""}, {"Notification", ""},
		},
	},
	"cursor": {
		name:  "cursor",
		files: map[Scope]string{User: ".cursor/hooks.json", Project: ".cursor/hooks.json"},
		def:   Project,
		events: []event{
			{"beforeShellExecution", ""}, {"afterShellExecution", ""}, {"beforeMCPExecution", ""},
			{"afterMCPExecution", ""}, {"beforeReadFile", ""}, {"afterFileEdit", ""},
			{"beforeSubmitPrompt", ""}, {"stop", ""}, {"subagentStop", ""},
			{"sessionStart", ""}, {"sessionEnd", ""}, {"preCompact", ""},
		},
	},
	"copilot": {
		name:     "copilot",
		files:    map[Scope]string{User: ".copilot/hooks/hookcore.json", Project: ".github/hooks/hookcore.json"},
		def:      Project,
		eventArg: true,
		events: []event{
			{"sessionStart", ""}, {"sessionEnd", ""}, {"userPromptSubmitted", ""}, {"preToolUse", ""},
			{"postToolUse", ""}, {"permissionRequest", ""}, {"agentStop", ""}, {"subagentStop", ""},
			{"errorOccurred", ""},
		},
	},
}

// hookcoreArgv reports whether w, a hook entry's command (argv: an exec-form entry's program
// and arguments as written, a command line's words), runs hookcore's hook command for agent,
// in any form: a binary named hookcore or hookcore-hook (any path, .exe or not) or self, then
// "hook AGENT", then anything. Such an entry that is not exactly one install writes is the
// user's own (red team 11: `hookcore hook claude --settings /etc/team/policy.json` was
// rewritten to install's command, its flag and timeout lost).
//
// "Any form" is what runs the hook command (red team 13: a policy wired by a spelling install
// did not know ran twice once install added its own entry): `env` and VAR=value before the
// binary, `hookcore-hook AGENT` without the word hook, the hook command's flags before
// AGENT, and AGENT in any case; shell form or exec form (stop 29).
func hookcoreArgv(w []string, agent, self string) bool {
	for len(w) > 0 && (w[0] == "env" || filepath.Base(w[0]) == "env" && filepath.IsAbs(w[0]) || strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-")) {
		w = w[1:]
	}
	if len(w) < 2 || !hookcoreBinary(w[0], self) {
		return false
	}
	lean := strings.TrimSuffix(filepath.Base(w[0]), ".exe") == "hookcore-hook"
	w = w[1:]
	for len(w) > 0 && (w[0] == "-v" || strings.HasPrefix(w[0], "--verbose")) {
		w = w[1:] // the root's flag, before the command
	}
	switch {
	case len(w) > 0 && w[0] == "hook":
		w = w[1:]
	case !lean:
		return false // the full CLI runs the hook command only after the word hook
	}
	for i := 0; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "--":
			return i+1 < len(w) && strings.EqualFold(w[i+1], agent)
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && hookValueFlags[strings.TrimLeft(a, "-")] {
				i++ // its value
			}
		default:
			return strings.EqualFold(a, agent)
		}
	}
	return false
}

// hookValueFlags are the hook command's flags that take the next word as their value
// (internal/cli's hookFlagSpecs), by name without dashes.
var hookValueFlags = map[string]bool{"config": true, "c": true, "config-dir": true, "settings": true,
	"managed-settings-dir": true, "approve": true, "allow-host": true, "audit": true, "otel": true,
	"on-error": true, "server": true, "token": true, "state-dir": true}

// hookcoreBinary reports whether bin, a hook entry's program, is hookcore: named hookcore or
// hookcore-hook (any path, .exe or not), or self (the program install writes), or self's
// name bare, as install wrote it before it wrote absolute paths (red team round 45).
func hookcoreBinary(bin, self string) bool {
	base := strings.TrimSuffix(filepath.Base(bin), ".exe")
	return bin == self || base == "hookcore" || base == "hookcore-hook" || !strings.Contains(bin, "/") && bin == filepath.Base(self)
}

// ShellQuote returns s as one word of a POSIX shell command line: as it is when it holds only
// letters, digits and "-_./=:@%+,", else in single quotes (a quote inside as '\”). The
// agents run a hook command with sh -c (Copilot: bash), where a space splits a path and
// "[]" glob (red team 11: "/tmp/my bin/hookcore" ran /tmp/my, exit 127, and Claude Code lets
// a call through when its hook command fails).
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-_./=:@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// words splits a command line the way a POSIX shell splits plain words: at blanks, with
// single quotes, double quotes and backslashes taken away. ok is false for a line with
// anything a shell would expand or treat as an operator outside quotes ($, `, ;, |, &, <, >,
// (, ), *, ?, [, ], ~, #, {, }) or an unterminated quote: not a command install writes.
func words(s string) (w []string, ok bool) {
	var cur strings.Builder
	in := false // a word is open
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if in {
				w, in = append(w, cur.String()), false
				cur.Reset()
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 || strings.ContainsAny(s[i+1:i+1+j], "$`\\") {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == '\\' && i+1 < len(s) && s[i+1] != '\n':
			cur.WriteByte(s[i+1])
			i, in = i+1, true
		case strings.IndexByte("$`;|&<>()*?[]~#{}\\\n", c) >= 0:
			return nil, false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		w = append(w, cur.String())
	}
	return w, true
}

package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// commandName is a custom command's name: words joined by colons (sub:deep), none of
// which can be "." or "..". It is compiled on first use: package initialisation runs in
// every hook process.
var commandName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]*)*$`)
})

// builtinCommand reports whether text (a prompt starting with "/") is /compact or /clear,
// which run without UserPromptSubmit (Claude Code 2.1.332 fired none for /compact).
func builtinCommand(text string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	name = strings.TrimSpace(name)
	return name == "compact" || name == "clear"
}

// command runs a slash command given as the prompt, after the CommandExecute moment (name
// without the slash, arguments as one string):
//
//   - /compact compacts the conversation (PreCompact trigger manual);
//   - /clear ends the session's conversation: SessionEnd reason clear, then SessionStart
//     source clear, with an empty conversation;
//   - /NAME ARGS reads NAME.md from the first command place that has it (commandFile) and
//     returns it, with $ARGUMENTS replaced by ARGS, as the prompt to submit (handled is
//     false), after the UserPromptExpansion moment (Claude Code's, for a typed custom
//     command), whose block rejects the prompt with a *PromptRejectedError. The caller has
//     fired UserPromptSubmit with the typed text before.
//
// An unknown command is an error naming it.
func (s *Session) command(ctx context.Context, text string) (prompt string, handled bool, err error) {
	line := strings.TrimPrefix(text, "/")
	name, args, _ := strings.Cut(line, " ")
	name = strings.TrimSpace(name)
	args = strings.TrimSpace(args)
	switch name {
	case "compact", "clear":
	default:
		if !commandName().MatchString(name) {
			return "", false, fmt.Errorf("unknown command /%s", name)
		}
		data, source, err := s.commandFile(name)
		if err != nil {
			return "", false, err
		}
		prompt = strings.ReplaceAll(stripFrontMatter(string(data)), "$ARGUMENTS", args)
		v := s.observe(ctx, &Event{Moment: hook.UserPromptExpansion, ExpansionType: "slash_command",
			Command: name, Arguments: args, CommandSource: source, Prompt: text})
		if v.Block || v.StopAgent {
			reason := v.Reason
			if !v.Block {
				reason = v.StopReason
			}
			s.trace(Step{Kind: StepNotice, Text: "command /" + name + " rejected: " + reason, IsError: true})
			return "", false, &PromptRejectedError{Reason: reason}
		}
	}
	s.observe(ctx, &Event{Moment: hook.CommandExecute, Command: name, Arguments: args})
	s.trace(Step{Kind: StepNotice, Text: "command /" + name})
	switch name {
	case "compact":
		s.compact(ctx, "manual")
		return "", true, nil
	case "clear":
		s.observe(ctx, &Event{Moment: hook.SessionEnd, Reason: "clear"})
		s.messages = nil
		s.changed = false
		s.observe(ctx, &Event{Moment: hook.SessionStart, Source: "clear"})
		return "", true, nil
	}
	return strings.TrimSpace(prompt), false, nil
}

// commandDirs returns the places of slash commands, in lookup order: HomeDir/.claude/commands,
// Workspace/.claude/commands (Claude Code's), then CommandsDir (hookcore's), absolute.
func (s *Session) commandDirs() []string {
	var dirs []string
	if s.opts.HomeDir != "" {
		dirs = append(dirs, filepath.Join(s.opts.HomeDir, ".claude", "commands"))
	}
	dirs = append(dirs, filepath.Join(s.info.Cwd, ".claude", "commands"))
	dir := s.opts.CommandsDir
	if dir == "" {
		dir = DefaultCommandsDir
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(s.info.Cwd, dir)
	}
	return append(dirs, dir)
}

// commandFile reads the file of the custom command name from the first place that has it
// (commandDirs) and returns it with its command_source: "projectSettings" for a place inside
// the workspace, else "userSettings". A name with colons names a file in subdirectories,
// as Claude Code 2.1.332 ran .claude/commands/sub/deep.md as /sub:deep.
func (s *Session) commandFile(name string) (data []byte, source string, err error) {
	file := filepath.Join(strings.Split(name, ":")...) + ".md"
	var tried []string
	for _, dir := range s.commandDirs() {
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, p)
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("command /%s: %w", name, err)
		}
		source := "userSettings"
		if rel, err := filepath.Rel(s.info.Cwd, dir); err == nil && filepath.IsLocal(rel) {
			source = "projectSettings"
		}
		return data, source, nil
	}
	return nil, "", fmt.Errorf("unknown command /%s (no %s)", name, strings.Join(tried, ", "))
}

// stripFrontMatter removes a leading "---" YAML block (Claude Code command files have one).
func stripFrontMatter(s string) string {
	if !strings.HasPrefix(s, "---\n") {
		return s
	}
	if i := strings.Index(s[4:], "\n---"); i >= 0 {
		rest := s[4+i+4:]
		return strings.TrimPrefix(rest, "\n")
	}
	return s
}

// compact replaces the conversation before the last user prompt with a short summary:
// PreCompact, the compaction, PostCompact, then SessionStart with source compact (Claude
// Code). The summary is mechanical (the earlier prompts and tool names); no model call. A
// PreCompact block skips the compaction (Claude Code: "a blocked proactive auto-compact is
// skipped", research note section 1.4).
func (s *Session) compact(ctx context.Context, trigger string) {
	if v := s.observe(ctx, &Event{Moment: hook.PreCompact, Trigger: trigger}); v.Block {
		s.trace(Step{Kind: StepNotice, Text: "compaction skipped: a PreCompact hook blocked it: " + v.Reason})
		return
	}
	cut := 0
	for i := len(s.messages) - 1; i >= 0; i-- {
		if s.messages[i].Role == RoleUser {
			cut = i
			break
		}
	}
	if trigger == "manual" {
		cut = len(s.messages)
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nThe conversation before this point was compacted. Summary of it:\n")
	for _, m := range s.messages[:cut] {
		switch {
		case m.Role == RoleUser:
			fmt.Fprintf(&b, "- the user said: %s\n", clip(m.Text, 200))
		case m.Role == RoleAssistant && len(m.ToolCalls) > 0:
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "- you called %s %s\n", c.Name, clip(string(c.Input), 200))
			}
		case m.Role == RoleAssistant && m.Text != "":
			fmt.Fprintf(&b, "- you said: %s\n", clip(m.Text, 200))
		}
	}
	b.WriteString("</system-reminder>")
	removed := cut
	s.messages = append([]Message{{Role: RoleUser, Text: b.String()}}, s.messages[cut:]...)
	s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("compacted %d messages (%s)", removed, trigger)})
	s.observe(ctx, &Event{Moment: hook.PostCompact, Trigger: trigger})
	s.observe(ctx, &Event{Moment: hook.SessionStart, Source: "compact"})
}

// clip collapses the white space of s (line breaks included) and cuts it at n runes.
func clip(s string, n int) string {
	return text.Truncate(strings.Join(strings.Fields(s), " "), n, "…")
}

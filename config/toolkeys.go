package config

import (
	"slices"
	"strings"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// claudeToolKeys returns the keys of the tool input of Claude Code's own tool name, as its
// tools' input schemas give them (Claude Code 2.1.332, and the recordings under sessions/),
// or nil for a tool whose keys are not known here: an MCP tool, another agent's tool, a
// Claude Code tool left out because its input changes between versions (Agent, Task).
// A switch, not a map, so that the lean hook binary's init builds nothing.
func claudeToolKeys(tool string) []string {
	switch tool {
	case "Bash":
		return []string{"command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"}
	case "Read":
		return []string{"file_path", "offset", "limit", "pages"}
	case "Write":
		return []string{"file_path", "content"}
	case "Edit":
		return []string{"file_path", "old_string", "new_string", "replace_all"}
	case "MultiEdit":
		return []string{"file_path", "edits"}
	case "NotebookEdit":
		return []string{"notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"}
	case "Glob":
		return []string{"pattern", "path"}
	case "Grep":
		return []string{"pattern", "path", "glob", "output_mode", "-B", "-A", "-C", "context", "-n", "-i", "type", "head_limit", "offset", "multiline"}
	case "LS":
		return []string{"path", "ignore"}
	case "WebFetch":
		return []string{"url", "prompt"}
	case "WebSearch":
		return []string{"query", "allowed_domains", "blocked_domains"}
	case "TodoWrite":
		return []string{"todos"}
	}
	return nil
}

// argKeyTypos warns about an args.KEY of the condition f that the input of none of the
// tools h's matcher names has (new-user trial, stop 33: `args.comand` under matcher Bash
// never matched, and check said nothing). Only an exact-name matcher whose every tool's
// keys claudeToolKeys knows is checked; a warning, not an error, since a tool may gain
// keys. Keys are compared as the condition reads them, as written.
func argKeyTypos(h *Hook, f *match.If, warn func(format string, args ...any)) {
	keys := f.ArgKeys()
	if len(keys) == 0 {
		return
	}
	m, err := h.CompileMatcher()
	if err != nil {
		return
	}
	names, _, ok := m.List()
	if !ok || len(names) == 0 {
		return
	}
	var tools, known []string
	claude := hook.PreToolUse.ClaudeValues()
	for _, n := range names {
		t := n
		if i := slices.IndexFunc(claude, func(c string) bool { return strings.EqualFold(c, n) }); i >= 0 {
			t = claude[i]
		}
		k := claudeToolKeys(t)
		if k == nil {
			return // a tool whose keys are not known: nothing to say
		}
		tools = append(tools, t)
		known = append(known, k...)
	}
	seen := map[string]bool{}
	for _, key := range keys {
		if seen[key] || slices.Contains(known, key) {
			continue
		}
		seen[key] = true
		whose := tools[0] + "'s input has"
		if len(tools) > 1 {
			whose = "the input of " + strings.Join(tools, ", ") + " has"
		}
		warn("args.%s: %s no key %q%s, so the clause reads it as empty", key, whose, key, didYouMean(key, known))
	}
}

//go:build !hookcore_lean

package cli

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// cursorTools are the tool names Cursor sends on preToolUse and postToolUse (its hooks
// documentation and published hooks.json files: "Shell", "StrReplace", "TabWrite"), which
// hookcore passes on as they are.
var cursorTools = []string{"Shell", "Read", "Write", "Edit", "StrReplace", "Delete", "Grep", "Task", "TabWrite"}

// knownTools returns the tool names some supported agent sends in tool_name: Claude Code's
// (which Codex also sends), those the bridges map from Gemini CLI and Copilot CLI (theirs and
// the Claude Code names they become), Cursor's, and the reference agent's (agent/tools).
// Claude Code's come first, so that a "did you mean" prefers them.
func knownTools() []string {
	out := hook.PreToolUse.ClaudeValues()
	for _, agent := range []string{"gemini", "copilot"} {
		m := bridge.ToolNames(agent)
		out = append(out, slices.Sorted(maps.Keys(m))...)
		out = append(out, slices.Sorted(maps.Values(m))...)
	}
	out = append(out, cursorTools...)
	out = append(out, "ReadFile", "WriteFile", "EditFile")
	slices.Sort(out[len(hook.PreToolUse.ClaudeValues()):])
	return slices.Compact(out)
}

// unknownToolMatchers warns about each name of an exact-name matcher on a tool event (not
// a regex, not *, not an mcp__ name) that names no tool of knownTools, ignoring case, with
// the closest known name: a typo (`matcher: Bsh`) matches nothing, and the hook never runs
// (new-user trial: check said 0 warnings unless --tools was given). check runs it only
// without --tools: with it, the declared tools are the list (config.Lint), which is also
// how to silence this for a custom tool.
func unknownToolMatchers(f *config.File) config.ErrorList {
	var out config.ErrorList
	known := knownTools()
	warned := map[string]bool{} // a matcher shared by a Claude Code group: warn once
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if h.Event.MatchField() != "tool_name" {
			continue
		}
		m, err := h.CompileMatcher()
		if err != nil || m.Any() {
			continue
		}
		names, _, ok := m.List()
		if !ok {
			continue
		}
		for _, n := range names {
			if n == "*" || strings.HasPrefix(strings.ToLower(n), "mcp__") ||
				slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, n) }) {
				continue
			}
			key := string(h.Event) + "\x00" + h.Matcher + "\x00" + n
			if warned[key] {
				continue
			}
			warned[key] = true
			msg := "matcher " + strconv.Quote(h.Matcher) + " names no known tool"
			if len(names) > 1 {
				msg = "matcher " + strconv.Quote(h.Matcher) + ": " + strconv.Quote(n) + " names no known tool"
			}
			if s := config.Suggest(n, known); s != "" {
				msg += "; did you mean " + strconv.Quote(s) + "?"
			}
			msg += " (a tool of your own? name the harness's tools with --tools to check against those instead)"
			out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Msg: msg, Warning: true})
		}
	}
	return out
}

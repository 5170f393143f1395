package convert

import (
	"fmt"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// unloaded reports, as dropped, the hooks of f that config does not load (f.Unloaded:
// Gemini CLI's BeforeToolSelection definitions, which have no hookcore event), one line per
// event: they are in no converted file, the Gemini one included.
func (c *conv) unloaded(f *config.File) {
	for _, u := range f.Unloaded {
		c.lost = append(c.lost, Loss{Hook: u.Event, Source: fmt.Sprintf("%s:%d", u.Pos.File, u.Pos.Line), Dropped: true,
			What: fmt.Sprintf("%d hook(s) of Gemini CLI's %s: hookcore has no such event (it narrows the tool set the model may call) and does not read them, so the %s file has none", u.Hooks, u.Event, c.target)})
	}
}

// agentOnly reports the keys of h's entry that its agent reads and hookcore does not keep
// (config.Hook.AgentOnly), which no target gets: Copilot CLI's cwd and env (config keeps
// their names, not their values, and Copilot does not document what a relative cwd is
// relative to, so `cd DIR && VAR=x CMD` cannot be written exactly), a powershell command
// beside bash, Cursor's loop_limit. Losing cwd or env is a Warning on gate events: a guard
// whose script is not found, or that reads a setting it no longer gets, lets calls through.
func (c *conv) agentOnly(h *config.Hook) {
	agent := h.Dialect.Agent()
	gate := h.Event.Kind() == hook.Gate
	for _, k := range h.AgentOnly {
		switch k {
		case "cwd":
			what := fmt.Sprintf("%s's cwd not carried over: the command runs in %s's working directory, so a script path relative to cwd is not found; prefix the command with cd DIR &&", agent, c.target)
			if gate {
				c.warn(h, "%s (a guard that fails so lets the call through)", what)
			} else {
				c.lose(h, "%s", what)
			}
		case "env":
			what := fmt.Sprintf("%s's env not carried over: the command runs without those variables; set them in the command (VAR=value CMD)", agent)
			if gate {
				c.warn(h, "%s (a guard that reads them decides otherwise)", what)
			} else {
				c.lose(h, "%s", what)
			}
		case "powershell":
			c.lose(h, "%s's powershell command not carried over: only the bash one is written (Copilot runs powershell on Windows)", agent)
		case "loop_limit", "loopLimit":
			c.lose(h, "%s's %s not carried over: the target caps a stop hook's follow-up messages its own way, or not at all", agent, k)
		default:
			c.lose(h, "%s's %s not carried over", agent, k)
		}
	}
}

// runsParallel are the targets that run an event's matching hooks in parallel (Claude Code:
// claude-code-hooks.md, "All matching handlers run in parallel"; Codex: research note 1.2,
// "start concurrently"); orderUnknown those whose documentation does not say (research note
// section 2, row 31).
var (
	runsParallel = map[string]bool{"claude": true, "codex": true}
	orderUnknown = map[string]bool{"cursor": true, "copilot": true}
)

// sequential reports a hook of a Gemini CLI definition of several hooks with `sequential:
// true` (config.Hook.Sequential) on a target that does not run an event's hooks in order.
// Gemini's own target keeps it (a matcher group of several hooks is written sequential), and
// hookcore runs them in order.
func (c *conv) sequential(h *config.Hook) {
	switch {
	case !h.Sequential:
	case runsParallel[c.target]:
		c.lose(h, "Gemini CLI's sequential: true not carried over: %s runs an event's hooks in parallel, so this one no longer waits for the one before it, nor sees the tool input it rewrote", c.target)
	case orderUnknown[c.target]:
		c.lose(h, "Gemini CLI's sequential: true not carried over: %s does not document the order in which it runs an event's hooks", c.target)
	}
}

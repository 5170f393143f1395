package hookcore

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// Frontmatter hooks (issue 8 item 6; config.ParseFrontmatter). A hook from a skill's
// SKILL.md runs only after that skill was invoked in the session (InvokeSkill), and then
// for the rest of the session, for the events of the agent that invoked it: Claude Code
// 2.1.332 ran a skill's PreToolUse hook for every later Bash call of the main agent, and for
// none of a sub-agent's (peer-claude, testdata/frontmatter). A hook from a sub-agent's
// definition (.claude/agents/NAME.md) runs only for the events of a sub-agent of that type
// (Input.AgentID set and Input.AgentType = NAME), so it is active exactly while such a
// sub-agent runs: the same run showed the checker's hooks on the checker's calls only, and
// its Stop hook on the checker's SubagentStop. Neither fires on SubagentStart, which is the
// parent's moment before the sub-agent's hooks exist.

// InvokeSkill records that agentID ("" for the main agent) invoked the skill named skill in
// session: from now on the hooks of that skill's frontmatter run for that agent's events in
// that session (they are never removed: Claude Code keeps them for the rest of the
// session). It is called by the harness when its Skill tool runs. The record is kept in the
// Runner's state store (Options.State), so with a state.Dir it is shared by the processes
// of `hookcore hook`. An error means the store could not be written; the skill's hooks then
// do not run.
func (r *Runner) InvokeSkill(ctx context.Context, session, agentID, skill string) error {
	return r.state.Update(ctx, session, func(s *state.Session) {
		if s.Skills == nil {
			s.Skills = map[string]bool{}
		}
		s.Skills[state.SkillKey(agentID, skill)] = true
	})
}

// inScope reports whether a frontmatter hook c applies to the event in, and whether a hook
// of a Cursor hooks.json applies to the Cursor event in came as (cursorEventIs); other hooks
// always do. skills caches the session's invoked skills across the hooks of one event (nil: not
// read yet). A store that cannot be read leaves the skill hooks out, and is logged.
func (r *Runner) inScope(ctx context.Context, c *compiled, in *hook.Input, skills *map[string]bool) bool {
	if c.cursor != "" && !cursorEventIs(in, c.cursor) {
		return false
	}
	switch {
	case c.agent != "":
		return in.AgentID != "" && in.AgentType == c.agent && c.event != hook.SubagentStart
	case c.skill != "":
		if *skills == nil {
			got := map[string]bool{}
			err := r.state.Update(ctx, in.SessionID, func(s *state.Session) { maps.Copy(got, s.Skills) })
			if err != nil {
				r.log.Warn("session state: skill hooks do not run", "session", in.SessionID, "err", err)
			}
			*skills = got
		}
		return (*skills)[state.SkillKey(in.AgentID, c.skill)]
	}
	return true
}

// scopedID is the hook's id in the session state (once): a frontmatter hook's carries its
// skill or agent, so that the generated "PreToolUse#1" of a skill and of a settings file are
// two hooks; a config file's hook carries the file, since an id is unique within one file
// only (stop 25 red team: a trusted project hook with the id of the user's `once` guard took
// its claim, and the guard never ran).
func (c *compiled) scopedID() string {
	switch {
	case c.skill != "":
		return "skill:" + c.skill + "/" + c.id
	case c.agent != "":
		return "agent:" + c.agent + "/" + c.id
	case c.file != "":
		return c.id + "@" + c.file
	}
	return c.id
}

// cursorEvent is compiled.cursor for h: its native event when it comes from a Cursor
// hooks.json, else "".
func cursorEvent(h *config.Hook) string {
	if h.Dialect == config.Cursor {
		return h.NativeEvent
	}
	return ""
}

// cursorEventIs reports whether a hook registered for the Cursor event native runs for in:
// when in came from Cursor (bridge.Cursor keeps Cursor's event name in
// Extra["cursor_event"]), only if that is native. Cursor sends one call as two events
// (preToolUse and beforeShellExecution for a shell command; postToolUse and
// afterShellExecution after it), which hookcore both reads as PreToolUse (PostToolUse) of
// Bash; Cursor runs a hook of one of them once, so hookcore does too. An input from
// another agent has no Cursor event, and the hook runs on its hookcore event.
func cursorEventIs(in *hook.Input, native string) bool {
	raw, ok := in.Extra["cursor_event"]
	if !ok {
		return true
	}
	var got string
	if json.Unmarshal(raw, &got) != nil || got == "" {
		return true
	}
	return got == native
}

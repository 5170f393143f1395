package hookcore

import (
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// allowHolds reports whether a hook's "allow" (PreToolUse permissionDecision, or a
// PermissionRequest behavior) may count: a hook with no `if`, or whose `if` permits the
// input it saw with permit semantics (match.If.Allows). The `if` chose the hook with deny
// semantics, so that a guard runs whenever it might be needed: `if: Bash(ls *)` picks the
// hook for "ls && rm -rf x" too. Its allow must not then grant the rm (issue 10 item 1): the
// allow is dropped, and the call goes on to the normal permission check. A deny, a block,
// context and rewrites are kept.
func (c *compiled) allowHolds(in *hook.Input) bool {
	if c.cond == nil {
		return true
	}
	return c.cond.Allows(match.NewSubjectIn(string(c.event), in.ToolName, in.ToolInput, in.Cwd))
}

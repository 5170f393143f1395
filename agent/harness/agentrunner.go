package harness

import (
	"context"
	"errors"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/executor"
)

// HookAgentType is the agent_type of the sub-agents that agent hooks run.
const HookAgentType = "hook"

type inAgentHook struct{}

// ErrNestedAgentHook is returned when an agent hook's sub-agent would start another agent
// hook's sub-agent (its tool calls fire the same hooks): the nested hook fails, which does
// not block (DESIGN.md section 6, hook errors are not fatal).
var ErrNestedAgentHook = errors.New("an agent hook cannot run inside an agent hook's sub-agent")

// AgentRunner returns the executor.AgentRunner of agent hooks: each Run is a sub-agent of s
// (agent type "hook"; SubagentStart and SubagentStop fire, its tool calls go through the
// same hooks, tagged with its agent id). A Run inside such a sub-agent fails with
// ErrNestedAgentHook instead of recursing.
func AgentRunner(s *agent.Session) executor.AgentRunner {
	return executor.AgentRunnerFunc(func(ctx context.Context, prompt string) (string, error) {
		if ctx.Value(inAgentHook{}) != nil {
			return "", ErrNestedAgentHook
		}
		return s.Subagent(context.WithValue(ctx, inAgentHook{}, true), HookAgentType, prompt)
	})
}

package executor

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// DefaultAgentTimeout is an agent hook's timeout when Agent.Timeout is zero (60 s, Claude
// Code's default for agent hooks).
const DefaultAgentTimeout = 60 * time.Second

// AgentRunner runs a sub-agent (its own loop, tools and model) on a prompt and returns its
// final answer. The embedding harness supplies it (MiniCode seed 004: the Go version injects
// an AgentRunner from the upper layer, so the hook engine depends on no agent). Run is
// called concurrently by parallel hooks and must return soon after ctx is done; an error
// means the sub-agent failed, never a verdict.
type AgentRunner interface {
	Run(ctx context.Context, prompt string) (string, error)
}

// AgentRunnerFunc adapts a function to AgentRunner.
type AgentRunnerFunc func(ctx context.Context, prompt string) (string, error)

// Run calls f(ctx, prompt).
func (f AgentRunnerFunc) Run(ctx context.Context, prompt string) (string, error) {
	return f(ctx, prompt)
}

// AgentInstructions is appended to every agent hook's prompt: it asks the sub-agent to end
// with the verdict the executor reads.
const AgentInstructions = `You are running as a hook of another AI coding agent: investigate what is asked above with your tools, then end your final answer with exactly one JSON object: {"ok": true} when everything is in order, or {"ok": false, "reason": "..."} when it is not, where reason tells the agent what is wrong and what to do instead.`

// Agent hands a hook's prompt to a sub-agent (DESIGN.md section 6, "agent"; MiniCode's agent
// executor, Claude Code's agent hooks). It is plain data; it is safe for concurrent use when
// its Runner is.
type Agent struct {
	// HookID names the hook in errors and logs.
	HookID string
	// Prompt is the template, expanded as Prompt.Prompt is; AgentInstructions follows it.
	Prompt string
	// Runner runs the sub-agent; nil is an error wrapping hook.ErrNotStarted, "no agent
	// runner configured".
	Runner AgentRunner
	// Timeout bounds the sub-agent's run; 0 means DefaultAgentTimeout.
	Timeout time.Duration
	// Logger receives a warning for a final answer that holds no verdict; nil discards.
	Logger *slog.Logger
}

// Execute runs the sub-agent once and reads its final answer with the same verdict rule as
// the prompt executor: {"ok": false, "reason": R} blocks with R, {"ok": true} or an answer
// without a verdict lets the action through (the latter logged). A runner error is an
// error; running past the timeout wraps hook.ErrTimeout. ExitCode is -1; Output is the
// answer (capped at 16 KiB).
func (x *Agent) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	if x.Runner == nil {
		return hook.Decision{ExitCode: -1}, fmt.Errorf("agent hook %q: %w: no agent runner configured", x.HookID, hook.ErrNotStarted)
	}
	return askJudge(ctx, "agent", x.HookID, x.Prompt, "\n\n"+AgentInstructions, x.Timeout, DefaultAgentTimeout, x.Logger, in, x.Runner.Run)
}

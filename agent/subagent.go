package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/hookcore/hookcore/hook"
)

// DefaultAgentType is a sub-agent's type when the caller names none (Claude Code's
// general-purpose agent).
const DefaultAgentType = "general-purpose"

// Subagent runs a sub-agent on prompt and returns its final text: SubagentStart, then a loop
// of its own (a fresh conversation, the same model, tools, middleware, Observer and
// permissions; its tool calls and moments carry its agent id and type in Info), ended by
// SubagentStop (a block makes it continue, like Stop). An agentType of Options.AgentTypes
// gives the sub-agent that definition's system prompt and, when it lists tools, only
// those; it never gets the Agent tool. The sub-agent's moments carry agentType, which is
// what scopes a definition's frontmatter hooks to it (hookcore.Runner). It fires no
// UserPromptSubmit, PostStopValidation or Notification. It also serves as the agent hook
// executor's AgentRunner (package agent/harness).

func (s *Session) Subagent(ctx context.Context, agentType, prompt string) (string, error) {
	text, _, err := s.subagent(ctx, agentType, prompt)
	return text, err
}

// subagent is Subagent, also reporting whether the sub-agent changed a file.
func (s *Session) subagent(ctx context.Context, agentType, prompt string) (string, bool, error) {
	if agentType == "" {
		agentType = DefaultAgentType
	}
	n := s.agents.Add(1)
	child := &Session{
		opts: s.opts, info: s.info, tools: map[string]Tool{}, chain: s.chain, obs: s.obs,
		allow: s.allow, deny: s.deny, calls: s.calls, agents: s.agents, tasks: s.tasks,
	}
	child.opts.System = "You are a sub-agent. Do the task you are given with your tools and end with a short report."
	child.info.AgentID = fmt.Sprintf("agent-%d", n)
	child.info.AgentType = agentType
	var only []string
	for _, def := range s.opts.AgentTypes {
		if def.Name == agentType {
			child.opts.System, only = def.System, def.Tools
		}
	}
	for name, t := range s.tools {
		if _, isAgent := t.(subagentTool); !isAgent && (len(only) == 0 || slices.Contains(only, name)) {
			child.tools[name] = t
		}
	}
	for _, sp := range s.specs {
		if _, ok := child.tools[sp.Name]; ok {
			child.specs = append(child.specs, sp)
		}
	}
	child.observe(ctx, &Event{Moment: hook.SubagentStart})
	child.messages = []Message{{Role: RoleUser, Text: prompt}}
	text, err := child.turn(ctx, true)
	return text, child.changed, err
}

type subagentTool struct{}

func (subagentTool) Name() string { return "Agent" }
func (subagentTool) Description() string {
	return "Hand a self-contained task to a sub-agent with the same tools; returns its final report."
}
func (subagentTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"description":{"type":"string","description":"a short title"},"prompt":{"type":"string","description":"the task"},"subagent_type":{"type":"string"}},"required":["prompt"]}`)
}
func (subagentTool) NeedsApproval(json.RawMessage) bool { return false }

func (subagentTool) Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Prompt       string `json:"prompt"`
		SubagentType string `json:"subagent_type"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil || in.Prompt == "" {
		//lint:ignore ST1005 "Agent" is the tool's name, as the model calls it.
		return nil, errors.New("Agent needs a prompt")
	}
	s := sessionFrom(ctx)
	if s == nil {
		//lint:ignore ST1005 "Agent" is the tool's name, as the model calls it.
		return nil, errors.New("Agent: no session")
	}
	text, changed, err := s.subagent(ctx, in.SubagentType, in.Prompt)
	if changed {
		s.changed = true
	}
	if err != nil {
		return nil, fmt.Errorf("sub-agent: %w", err)
	}
	return json.Marshal(text)
}

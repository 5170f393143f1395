package llm

import (
	"context"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/model"
)

// Scripted is an agent.Model that replays a model.Scripted script: each request takes the
// next turn; once the script is used up every request gets model.DoneText. It records the
// requests it got, for tests. It is safe for concurrent use.
type Scripted struct {
	Script *model.Scripted
	// Requests, when set, receives a copy of each request (tests).
	Requests func(*agent.Request)
}

// NewScripted returns a Scripted model over turns.
func NewScripted(turns ...model.Turn) *Scripted {
	return &Scripted{Script: model.NewScripted(turns...)}
}

// Chat returns the next turn.
func (s *Scripted) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	if err := ctx.Err(); err != nil {
		return agent.Reply{}, err
	}
	if s.Requests != nil {
		s.Requests(req)
	}
	t := s.Script.Next()
	r := agent.Reply{Text: t.Text}
	for _, c := range t.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, agent.ToolCall{ID: c.ID, Name: c.Name, Input: c.Input})
	}
	return r, nil
}

package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/tool"
)

// DoneText is what a Scripted model says once its script is used up (DESIGN.md section 8).
const DoneText = "Done."

// Turn is one scripted reply: text, tool calls, or both.
type Turn struct {
	Text      string      `json:"text,omitempty"`
	ToolCalls []tool.Call `json:"tool_calls,omitempty"`
}

// Scripted replays a fixed list of turns, one per request (Complete or Chat), for tests and
// the offline demo. Once the list is used up every further request gets DoneText. It is safe
// for concurrent use: concurrent requests take consecutive turns.
type Scripted struct {
	// Requests, when set, is called with each Chat request before it is answered (tests
	// record what the agent sent). Set it before the first request; it must not keep or
	// modify the request.
	Requests func(*agent.Request)

	mu    sync.Mutex
	turns []Turn
	next  int
}

// NewScripted returns a model that replays turns.
func NewScripted(turns ...Turn) *Scripted { return &Scripted{turns: turns} }

// LoadScripted reads a script file (see ParseScript).
func LoadScripted(path string) (*Scripted, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted model: %w", err)
	}
	turns, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("scripted model %s: %w", path, err)
	}
	return NewScripted(turns...), nil
}

// ParseScript reads a script: a JSON array whose elements are each a string (a text reply),
// {"text": "..."}, {"tool_calls": [{"name": "Bash", "input": {...}}, ...]} (with "text"
// too if wanted), or the single-call shorthand {"tool": "Bash", "input": {...}} (DESIGN.md
// section 8). Anything else is an error naming the element.
func ParseScript(data []byte) ([]Turn, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("a script is a JSON array of turns: %v", err)
	}
	turns := make([]Turn, 0, len(raw))
	for i, r := range raw {
		t, err := parseTurn(r)
		if err != nil {
			return nil, fmt.Errorf("turn %d: %v", i, err)
		}
		turns = append(turns, t)
	}
	return turns, nil
}

func parseTurn(r json.RawMessage) (Turn, error) {
	r = bytes.TrimSpace(r)
	if len(r) > 0 && r[0] == '"' {
		var s string
		err := json.Unmarshal(r, &s)
		return Turn{Text: s}, err
	}
	var t struct {
		Text      string          `json:"text"`
		ToolCalls []tool.Call     `json:"tool_calls"`
		Tool      string          `json:"tool"`
		Input     json.RawMessage `json:"input"`
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Turn{}, fmt.Errorf("want a string or an object with text, tool_calls or tool: %v", err)
	}
	turn := Turn{Text: t.Text, ToolCalls: t.ToolCalls}
	if t.Tool != "" {
		turn.ToolCalls = append(turn.ToolCalls, tool.Call{Name: t.Tool, Input: t.Input})
	} else if t.Input != nil {
		return Turn{}, fmt.Errorf("input without tool")
	}
	for i, c := range turn.ToolCalls {
		if c.Name == "" {
			return Turn{}, fmt.Errorf("tool call %d has no name", i)
		}
		if in := bytes.TrimSpace(c.Input); len(in) > 0 && in[0] != '{' {
			return Turn{}, fmt.Errorf("tool call %d: input must be a JSON object", i)
		}
	}
	return turn, nil
}

// Next returns the next turn, or a DoneText turn once the script is used up.
func (s *Scripted) Next() Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.turns) {
		return Turn{Text: DoneText}
	}
	t := s.turns[s.next]
	s.next++
	return t
}

// Remaining returns how many turns are left.
func (s *Scripted) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// Complete returns the next turn's text; system and prompt are ignored. A turn that asks
// for tool calls is an error: a one-shot completion (the LLM judge) cannot run tools.
func (s *Scripted) Complete(ctx context.Context, _, _ string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	t := s.Next()
	if len(t.ToolCalls) > 0 {
		return "", fmt.Errorf("scripted model: the turn asks for tool calls (%s), which a completion cannot make", t.ToolCalls[0].Name)
	}
	return t.Text, nil
}

// Chat returns the next turn as the reply: its text and a copy of its tool calls. It fails
// only when ctx is done.
func (s *Scripted) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	if err := ctx.Err(); err != nil {
		return agent.Reply{}, err
	}
	if s.Requests != nil {
		s.Requests(req)
	}
	t := s.Next()
	return agent.Reply{Text: t.Text, ToolCalls: slices.Clone(t.ToolCalls)}, nil
}

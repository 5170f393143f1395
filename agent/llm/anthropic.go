package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/model"
)

// Anthropic is an agent.Model on the Messages API with tools. It is safe for concurrent use.
type Anthropic struct {
	ep     model.Endpoint
	client anthropic.Client
}

// NewAnthropic returns a client for ep; it makes no request and reads no environment.
func NewAnthropic(ep model.Endpoint) *Anthropic {
	return &Anthropic{ep: ep, client: model.AnthropicClient(ep)}
}

// Chat sends the conversation; consecutive tool results go in one user message, as the API
// requires. max_tokens is Endpoint.MaxTokens, 4096 when unset.
func (m *Anthropic) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	var msgs []anthropic.MessageParam
	var results []anthropic.ContentBlockParamUnion
	flush := func() {
		if len(results) > 0 {
			msgs = append(msgs, anthropic.NewUserMessage(results...))
			results = nil
		}
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case agent.RoleTool:
			results = append(results, anthropic.NewToolResultBlock(msg.ToolCallID, msg.Text, msg.IsError))
		case agent.RoleUser:
			flush()
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(msg.Text)))
		case agent.RoleAssistant:
			flush()
			var blocks []anthropic.ContentBlockParamUnion
			if msg.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
			}
			for _, c := range msg.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, json.RawMessage(c.Input), c.Name))
			}
			msgs = append(msgs, anthropic.NewAssistantMessage(blocks...))
		}
	}
	flush()
	maxTokens := int64(m.ep.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = 4096
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(m.ep.Model), MaxTokens: maxTokens, Messages: msgs}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		var schema struct {
			Properties any      `json:"properties"`
			Required   []string `json:"required"`
		}
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return agent.Reply{}, fmt.Errorf("tool %s: schema: %v", t.Name, err)
		}
		tool := anthropic.ToolUnionParamOfTool(anthropic.ToolInputSchemaParam{Properties: schema.Properties, Required: schema.Required}, t.Name)
		tool.OfTool.Description = anthropic.String(t.Description)
		params.Tools = append(params.Tools, tool)
	}
	resp, err := m.client.Messages.New(ctx, params)
	if err != nil {
		var apiErr *anthropic.Error
		if errors.As(err, &apiErr) {
			return agent.Reply{}, fmt.Errorf("anthropic %s: http %d: %s", m.ep.Model, apiErr.StatusCode, strings.TrimSpace(apiErr.RawJSON()))
		}
		return agent.Reply{}, fmt.Errorf("anthropic %s: %w", m.ep.Model, err)
	}
	var r agent.Reply
	var text []string
	for _, b := range resp.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			r.ToolCalls = append(r.ToolCalls, agent.ToolCall{ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
	r.Text = strings.Join(text, "")
	return r, nil
}

package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/model"
)

// OpenAI is an agent.Model on the Chat Completions API with function tools: OpenAI itself,
// or llama.cpp, Ollama, vLLM through Endpoint.BaseURL. It is safe for concurrent use.
type OpenAI struct {
	ep     model.Endpoint
	client openai.Client
}

// NewOpenAI returns a client for ep; it makes no request.
func NewOpenAI(ep model.Endpoint) *OpenAI {
	return &OpenAI{ep: ep, client: model.OpenAIClient(ep)}
}

// Chat sends the conversation: the system prompt as a system message, tool calls as
// assistant tool_calls, tool results as tool messages. It returns the first choice.
func (m *OpenAI) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	var msgs []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case agent.RoleUser:
			msgs = append(msgs, openai.UserMessage(msg.Text))
		case agent.RoleTool:
			msgs = append(msgs, openai.ToolMessage(msg.Text, msg.ToolCallID))
		case agent.RoleAssistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			if msg.Text != "" {
				a.Content.OfString = openai.String(msg.Text)
			}
			for _, c := range msg.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(c.Input)},
					},
				})
			}
			msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	params := openai.ChatCompletionNewParams{Model: m.ep.Model, Messages: msgs}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return agent.Reply{}, fmt.Errorf("tool %s: schema: %v", t.Name, err)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(schema),
		}))
	}
	if m.ep.MaxTokens > 0 {
		params.MaxCompletionTokens = openai.Int(int64(m.ep.MaxTokens))
	}
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			return agent.Reply{}, fmt.Errorf("openai %s: http %d: %s", m.ep.Model, apiErr.StatusCode, strings.TrimSpace(apiErr.Message))
		}
		return agent.Reply{}, fmt.Errorf("openai %s: %w", m.ep.Model, err)
	}
	if len(resp.Choices) == 0 {
		return agent.Reply{}, fmt.Errorf("openai %s: the reply has no choices", m.ep.Model)
	}
	msg := resp.Choices[0].Message
	r := agent.Reply{Text: msg.Content}
	for _, c := range msg.ToolCalls {
		if c.Type != "function" {
			continue
		}
		input := json.RawMessage(c.Function.Arguments)
		if !json.Valid(input) {
			input = json.RawMessage(`{}`)
		}
		r.ToolCalls = append(r.ToolCalls, agent.ToolCall{ID: c.ID, Name: c.Function.Name, Input: input})
	}
	return r, nil
}

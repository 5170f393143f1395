package model

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/tool"
)

// DefaultOpenAIBaseURL is the OpenAI API root used when Endpoint.BaseURL is "".
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// OpenAI is a client of the OpenAI Chat Completions API (POST {base}/chat/completions), and of
// every server that speaks it: llama.cpp's llama-server, Ollama, vLLM, LM Studio, through
// Endpoint.BaseURL. It speaks the wire format through net/http (docs/decisions.md, "one
// model package"). It is safe for concurrent use.
type OpenAI struct {
	ep Endpoint
}

// NewOpenAI returns a client for ep. It makes no request and reads no environment: ep is
// the whole configuration (Config.New fills it from OPENAI_API_KEY, OPENAI_BASE_URL,
// OPENAI_ORG_ID and OPENAI_PROJECT_ID).
func NewOpenAI(ep Endpoint) *OpenAI { return &OpenAI{ep: ep} }

// Complete sends one chat completion request: a system message (when system is not empty)
// and a user message, with max_completion_tokens only when Endpoint.MaxTokens is set. It
// returns the first choice's content. An API error (bad key, unknown model, rate limit
// after the retries) is an *APIError; a transport error (unreachable server) is returned
// wrapped, naming the model and the server; a reply without choices or with a refusal is an
// error too.
func (m *OpenAI) Complete(ctx context.Context, system, prompt string) (string, error) {
	var msgs []openaiMessage
	if system != "" {
		msgs = append(msgs, openaiMessage{Role: "system", Content: &system})
	}
	msgs = append(msgs, openaiMessage{Role: "user", Content: &prompt})
	msg, err := m.send(ctx, openaiRequest{Model: m.ep.Model, Messages: msgs})
	if err != nil {
		return "", err
	}
	if deref(msg.Content) == "" && msg.Refusal != "" {
		return "", fmt.Errorf("openai %s: the model refused: %s", m.ep.Model, msg.Refusal)
	}
	return deref(msg.Content), nil
}

// Chat sends the conversation with function tools: the system prompt as a system message,
// the assistant's tool calls as tool_calls, tool results as tool messages. It returns the
// first choice: its text and its function calls (arguments that are not valid JSON become
// {}). Errors are as for Complete.
func (m *OpenAI) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	var msgs []openaiMessage
	if req.System != "" {
		msgs = append(msgs, openaiMessage{Role: "system", Content: &req.System})
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case agent.RoleUser:
			msgs = append(msgs, openaiMessage{Role: "user", Content: &msg.Text})
		case agent.RoleTool:
			msgs = append(msgs, openaiMessage{Role: "tool", Content: &msg.Text, ToolCallID: msg.ToolCallID})
		case agent.RoleAssistant:
			a := openaiMessage{Role: "assistant"}
			if msg.Text != "" {
				a.Content = &msg.Text
			}
			for _, c := range msg.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openaiToolCall{ID: c.ID, Type: "function",
					Function: openaiFunctionCall{Name: c.Name, Arguments: string(objectOrEmpty(c.Input))}})
			}
			msgs = append(msgs, a)
		}
	}
	body := openaiRequest{Model: m.ep.Model, Messages: msgs}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return agent.Reply{}, fmt.Errorf("tool %s: schema: %v", t.Name, err)
		}
		body.Tools = append(body.Tools, openaiTool{Type: "function",
			Function: openaiFunction{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	msg, err := m.send(ctx, body)
	if err != nil {
		return agent.Reply{}, err
	}
	r := agent.Reply{Text: deref(msg.Content)}
	for _, c := range msg.ToolCalls {
		if c.Type != "function" {
			continue
		}
		input := json.RawMessage(c.Function.Arguments)
		if !json.Valid(input) {
			input = json.RawMessage(`{}`)
		}
		r.ToolCalls = append(r.ToolCalls, tool.Call{ID: c.ID, Name: c.Function.Name, Input: input})
	}
	return r, nil
}

// send posts a chat completion request and returns the first choice's message.
func (m *OpenAI) send(ctx context.Context, body openaiRequest) (openaiMessage, error) {
	if m.ep.MaxTokens > 0 {
		body.MaxCompletionTokens = m.ep.MaxTokens
	}
	base, where := m.ep.BaseURL, m.ep.BaseURL
	if base == "" {
		base, where = DefaultOpenAIBaseURL, "the OpenAI API"
	}
	h := http.Header{}
	if m.ep.APIKey != "" {
		h.Set("Authorization", "Bearer "+m.ep.APIKey)
	}
	if m.ep.Organization != "" {
		h.Set("OpenAI-Organization", m.ep.Organization)
	}
	if m.ep.Project != "" {
		h.Set("OpenAI-Project", m.ep.Project)
	}
	var resp openaiResponse
	if err := m.ep.post(ctx, ProviderOpenAI, where, joinURL(base, "/chat/completions"), h, body, &resp); err != nil {
		return openaiMessage{}, err
	}
	if len(resp.Choices) == 0 {
		return openaiMessage{}, fmt.Errorf("openai %s: the reply has no choices", m.ep.Model)
	}
	return resp.Choices[0].Message, nil
}

// The Chat Completions wire format, the parts hookcore sends and reads.
type (
	openaiRequest struct {
		Model               string          `json:"model"`
		Messages            []openaiMessage `json:"messages"`
		Tools               []openaiTool    `json:"tools,omitempty"`
		MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	}
	openaiMessage struct {
		Role       string           `json:"role"`
		Content    *string          `json:"content,omitempty"` // null in replies that only call tools
		Refusal    string           `json:"refusal,omitempty"`
		ToolCalls  []openaiToolCall `json:"tool_calls,omitempty"`
		ToolCallID string           `json:"tool_call_id,omitempty"`
	}
	openaiToolCall struct {
		ID       string             `json:"id"`
		Type     string             `json:"type"`
		Function openaiFunctionCall `json:"function"`
	}
	openaiFunctionCall struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"` // a JSON object, encoded as a string
	}
	openaiTool struct {
		Type     string         `json:"type"`
		Function openaiFunction `json:"function"`
	}
	openaiFunction struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters,omitempty"`
	}
	openaiResponse struct {
		Choices []struct {
			Message      openaiMessage `json:"message"`
			FinishReason string        `json:"finish_reason"`
		} `json:"choices"`
	}
)

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// objectOrEmpty returns in, or {} when in is empty or null: both APIs want an object.
func objectOrEmpty(in json.RawMessage) json.RawMessage {
	if len(in) == 0 || string(in) == "null" {
		return json.RawMessage(`{}`)
	}
	return in
}

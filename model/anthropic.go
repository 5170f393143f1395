package model

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/tool"
)

// DefaultAnthropicBaseURL is the Anthropic API root used when Endpoint.BaseURL is "".
const DefaultAnthropicBaseURL = "https://api.anthropic.com"

// AnthropicVersion is the anthropic-version header sent with every request.
const AnthropicVersion = "2023-06-01"

// Anthropic is a client of the Anthropic Messages API (POST {base}/v1/messages), spoken
// through net/http (docs/decisions.md, "one model package"). It is safe for concurrent use.
type Anthropic struct {
	ep Endpoint
}

// NewAnthropic returns a client for ep. It makes no request and reads no environment: ep is
// the whole configuration. The key goes in x-api-key; without a key, Endpoint.AuthToken goes
// in Authorization: Bearer; with neither, no credential is sent (a local proxy).
func NewAnthropic(ep Endpoint) *Anthropic { return &Anthropic{ep: ep} }

// Complete sends one Messages request: system as the system prompt (when not empty) and one
// user turn, with max_tokens Endpoint.MaxTokens (1024 when unset). It returns the reply's
// text blocks joined. An API error is an *APIError; a transport error is returned wrapped,
// naming the model and the server; a reply without text is an error too.
func (m *Anthropic) Complete(ctx context.Context, system, prompt string) (string, error) {
	body := anthropicRequest{
		Model:     m.ep.Model,
		MaxTokens: m.ep.maxTokens(1024),
		System:    anthropicSystem(system),
		Messages:  []anthropicMessage{{Role: "user", Content: []anthropicBlock{{Type: "text", Text: prompt}}}},
	}
	resp, err := m.send(ctx, body)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	found := false
	for _, block := range resp.Content {
		if block.Type == "text" {
			b.WriteString(block.Text)
			found = true
		}
	}
	if !found {
		return "", fmt.Errorf("anthropic %s: the reply has no text (stop reason %q)", m.ep.Model, resp.StopReason)
	}
	return b.String(), nil
}

// Chat sends the conversation with tools, max_tokens Endpoint.MaxTokens (4096 when unset).
// Consecutive tool results go in one user message of tool_result blocks, as the API
// requires; an assistant message becomes its text block (when not empty) and its tool_use
// blocks. It returns the reply's text blocks joined and its tool_use blocks. Errors are as
// for Complete.
func (m *Anthropic) Chat(ctx context.Context, req *agent.Request) (agent.Reply, error) {
	var msgs []anthropicMessage
	var results []anthropicBlock
	flush := func() {
		if len(results) > 0 {
			msgs = append(msgs, anthropicMessage{Role: "user", Content: results})
			results = nil
		}
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case agent.RoleTool:
			content, _ := json.Marshal(msg.Text)
			results = append(results, anthropicBlock{Type: "tool_result", ToolUseID: msg.ToolCallID, Content: content, IsError: msg.IsError})
		case agent.RoleUser:
			flush()
			msgs = append(msgs, anthropicMessage{Role: "user", Content: []anthropicBlock{{Type: "text", Text: msg.Text}}})
		case agent.RoleAssistant:
			flush()
			var blocks []anthropicBlock
			if msg.Text != "" {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: msg.Text})
			}
			for _, c := range msg.ToolCalls {
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: objectOrEmpty(c.Input)})
			}
			msgs = append(msgs, anthropicMessage{Role: "assistant", Content: blocks})
		}
	}
	flush()
	body := anthropicRequest{Model: m.ep.Model, MaxTokens: m.ep.maxTokens(4096), System: anthropicSystem(req.System), Messages: msgs}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return agent.Reply{}, fmt.Errorf("tool %s: schema: %v", t.Name, err)
		}
		if schema == nil {
			schema = map[string]any{}
		}
		if _, ok := schema["type"]; !ok {
			schema["type"] = "object" // the API requires it; a JSON Schema may leave it out
		}
		body.Tools = append(body.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	resp, err := m.send(ctx, body)
	if err != nil {
		return agent.Reply{}, err
	}
	var r agent.Reply
	var text strings.Builder
	for _, b := range resp.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			r.ToolCalls = append(r.ToolCalls, tool.Call{ID: b.ID, Name: b.Name, Input: objectOrEmpty(b.Input)})
		}
	}
	r.Text = text.String()
	return r, nil
}

func (m *Anthropic) send(ctx context.Context, body anthropicRequest) (anthropicResponse, error) {
	base, where := m.ep.BaseURL, m.ep.BaseURL
	if base == "" {
		base, where = DefaultAnthropicBaseURL, "the Anthropic API"
	}
	h := http.Header{}
	h.Set("Anthropic-Version", AnthropicVersion)
	if m.ep.APIKey != "" {
		h.Set("X-Api-Key", m.ep.APIKey)
	} else if m.ep.AuthToken != "" {
		h.Set("Authorization", "Bearer "+m.ep.AuthToken)
	}
	var resp anthropicResponse
	err := m.ep.post(ctx, ProviderAnthropic, where, joinURL(base, "/v1/messages"), h, body, &resp)
	return resp, err
}

func anthropicSystem(s string) []anthropicBlock {
	if s == "" {
		return nil
	}
	return []anthropicBlock{{Type: "text", Text: s}}
}

// The Messages wire format, the parts hookcore sends and reads.
type (
	anthropicRequest struct {
		Model     string             `json:"model"`
		MaxTokens int                `json:"max_tokens"`
		System    []anthropicBlock   `json:"system,omitempty"`
		Messages  []anthropicMessage `json:"messages"`
		Tools     []anthropicTool    `json:"tools,omitempty"`
	}
	anthropicMessage struct {
		Role    string           `json:"role"`
		Content []anthropicBlock `json:"content"`
	}
	// anthropicBlock is a content block: text, tool_use or tool_result.
	anthropicBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text,omitempty"`
		ID        string          `json:"id,omitempty"`          // tool_use
		Name      string          `json:"name,omitempty"`        // tool_use
		Input     json.RawMessage `json:"input,omitempty"`       // tool_use: an object
		ToolUseID string          `json:"tool_use_id,omitempty"` // tool_result
		Content   json.RawMessage `json:"content,omitempty"`     // tool_result: a JSON string
		IsError   bool            `json:"is_error,omitempty"`    // tool_result
	}
	anthropicTool struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		InputSchema map[string]any `json:"input_schema"`
	}
	anthropicResponse struct {
		Content    []anthropicBlock `json:"content"`
		StopReason string           `json:"stop_reason"`
	}
)

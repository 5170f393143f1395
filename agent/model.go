package agent

import (
	"context"
	"encoding/json"

	"github.com/hookcore/hookcore/tool"
)

// Role says who wrote a Message.
type Role string

// The roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // a tool result, answering one tool.Call of the previous assistant message
)

// Message is one entry of the conversation.
type Message struct {
	Role Role `json:"role"`
	// Text is the message's text: the prompt, the model's reply, or the tool's result.
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []tool.Call `json:"tool_calls,omitempty"`
	// ToolCallID names the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a tool result that is an error (the tool failed or was rejected).
	IsError bool `json:"is_error,omitempty"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Schema      json.RawMessage // a JSON Schema object for the input
}

// Request is one model request: the system prompt (with the pending hook notifications
// appended), the conversation and the tools on offer.
type Request struct {
	System   string
	Messages []Message
	Tools    []ToolSpec
}

// Reply is the model's answer: text, tool calls, or both. A reply without tool calls ends
// the model's part of the turn (a natural stop).
type Reply struct {
	Text      string
	ToolCalls []tool.Call
}

// Model is a chat model that can call tools. Chat is called by one goroutine at a time per
// Session (sub-agents run on the caller's goroutine), must return soon after ctx is done, and
// must not keep or modify req. An error ends the turn and is reported as an Error moment.
type Model interface {
	Chat(ctx context.Context, req *Request) (Reply, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, req *Request) (Reply, error)

// Chat calls f(ctx, req).
func (f ModelFunc) Chat(ctx context.Context, req *Request) (Reply, error) { return f(ctx, req) }

package model

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// OpenAI is a client of the OpenAI Chat Completions API (POST {base}/chat/completions), and of
// every server that speaks it: llama.cpp's llama-server, Ollama, vLLM, LM Studio, through
// Endpoint.BaseURL. It is safe for concurrent use.
type OpenAI struct {
	ep     Endpoint
	client openai.Client
}

// NewOpenAI returns a client for ep. It makes no request. The SDK's own environment
// defaults (OPENAI_BASE_URL, OPENAI_API_KEY, ...) are overridden by ep wherever ep sets a
// value.
func NewOpenAI(ep Endpoint) *OpenAI {
	return &OpenAI{ep: ep, client: OpenAIClient(ep)}
}

// OpenAIClient returns the official SDK client for ep (key, base URL, HTTP client, retries);
// the agent's chat models build on it too.
func OpenAIClient(ep Endpoint) openai.Client {
	opts := []option.RequestOption{
		option.WithAPIKey(ep.APIKey),
		option.WithHTTPClient(ep.httpClient()),
		option.WithMaxRetries(ep.MaxRetries),
	}
	if ep.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(ep.BaseURL))
	}
	return openai.NewClient(opts...)
}

// Complete sends one chat completion request: a system message (when system is not empty)
// and a user message. It returns the first choice's content. An API error (bad key, unknown
// model, rate limit after the retries) or a transport error (unreachable server) is returned
// wrapped, naming the model; a reply without choices or with a refusal is an error too.
func (m *OpenAI) Complete(ctx context.Context, system, prompt string) (string, error) {
	var msgs []openai.ChatCompletionMessageParamUnion
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	msgs = append(msgs, openai.UserMessage(prompt))
	params := openai.ChatCompletionNewParams{Model: m.ep.Model, Messages: msgs}
	if m.ep.MaxTokens > 0 {
		params.MaxCompletionTokens = openai.Int(int64(m.ep.MaxTokens))
	}
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return "", m.wrap(err)
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("openai %s: the reply has no choices", m.ep.Model)
	}
	msg := resp.Choices[0].Message
	if msg.Content == "" && msg.Refusal != "" {
		return "", fmt.Errorf("openai %s: the model refused: %s", m.ep.Model, msg.Refusal)
	}
	return msg.Content, nil
}

func (m *OpenAI) wrap(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		msg := strings.TrimSpace(apiErr.Message)
		if msg == "" {
			msg = strings.TrimSpace(apiErr.RawJSON())
		}
		return fmt.Errorf("openai %s: http %d: %s", m.ep.Model, apiErr.StatusCode, msg)
	}
	where := "the OpenAI API"
	if m.ep.BaseURL != "" {
		where = m.ep.BaseURL
	}
	return fmt.Errorf("openai %s at %s: %w", m.ep.Model, where, err)
}

package model

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// Anthropic is a client of the Anthropic Messages API (POST {base}/v1/messages). It is safe
// for concurrent use.
type Anthropic struct {
	ep     Endpoint
	client anthropic.Client
}

// NewAnthropic returns a client for ep. It makes no request and reads no environment: the
// SDK's environment defaults and credential chain are turned off, so ep is the whole
// configuration.
func NewAnthropic(ep Endpoint) *Anthropic {
	return &Anthropic{ep: ep, client: AnthropicClient(ep)}
}

// AnthropicClient returns the official SDK client for ep, with the SDK's environment defaults
// off (ep is the whole configuration); the agent's chat models build on it too.
func AnthropicClient(ep Endpoint) anthropic.Client {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(ep.httpClient()),
		option.WithMaxRetries(ep.MaxRetries),
	}
	if ep.APIKey != "" {
		opts = append(opts, option.WithAPIKey(ep.APIKey))
	} else if ep.AuthToken != "" {
		opts = append(opts, option.WithAuthToken(ep.AuthToken))
	}
	if ep.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(ep.BaseURL))
	}
	return anthropic.NewClient(opts...)
}

// Complete sends one Messages request: system as the system prompt (when not empty) and one
// user turn, with max_tokens Endpoint.MaxTokens (1024 when unset). It returns the reply's
// text blocks joined. An API error or a transport error is returned wrapped, naming the
// model; a reply without text is an error too.
func (m *Anthropic) Complete(ctx context.Context, system, prompt string) (string, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(m.ep.Model),
		MaxTokens: m.ep.maxTokens(),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))},
	}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	resp, err := m.client.Messages.New(ctx, params)
	if err != nil {
		return "", m.wrap(err)
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

func (m *Anthropic) wrap(err error) error {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		return fmt.Errorf("anthropic %s: http %d: %s", m.ep.Model, apiErr.StatusCode, strings.TrimSpace(apiErr.RawJSON()))
	}
	where := "the Anthropic API"
	if m.ep.BaseURL != "" {
		where = m.ep.BaseURL
	}
	return fmt.Errorf("anthropic %s at %s: %w", m.ep.Model, where, err)
}

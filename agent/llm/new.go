package llm

import (
	"fmt"
	"path/filepath"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/model"
)

// Config builds chat models from model strings ("openai:gpt-4o-mini",
// "anthropic:claude-sonnet-4-5", "scripted:FILE", a bare name; see model.ParseSpec). Keys
// and endpoints come from the environment as in model.Config; BaseURL, when set, replaces
// the provider's endpoint.
type Config struct {
	model.Config
	BaseURL string
}

// New returns the chat model that s names. It makes no request. A missing key is an error
// wrapping model.ErrNoKey.
func (c Config) New(s string) (agent.Model, error) {
	spec := model.ParseSpec(s)
	getenv := c.Getenv
	if getenv == nil {
		getenv = envLookup
	}
	if spec.Provider == "" && spec.Name == "" {
		def := c.Default
		if def == "" {
			def = getenv("HOOKCORE_MODEL")
		}
		spec = model.ParseSpec(def)
	}
	if spec.Provider == "" {
		spec.Provider = model.ProviderOpenAI
		if getenv("OPENAI_API_KEY") == "" && getenv("OPENAI_BASE_URL") == "" && c.BaseURL == "" &&
			(getenv("ANTHROPIC_API_KEY") != "" || getenv("ANTHROPIC_AUTH_TOKEN") != "") {
			spec.Provider = model.ProviderAnthropic
		}
	}
	ep := model.Endpoint{Model: spec.Name, HTTPClient: c.HTTPClient, MaxRetries: c.MaxRetries, MaxTokens: c.MaxTokens}
	switch spec.Provider {
	case model.ProviderScripted:
		path := spec.Name
		if path == "" {
			return nil, fmt.Errorf("model %q: scripted needs a file: scripted:PATH", s)
		}
		if !filepath.IsAbs(path) && c.Dir != "" {
			path = filepath.Join(c.Dir, path)
		}
		sc, err := model.LoadScripted(path)
		if err != nil {
			return nil, err
		}
		return &Scripted{Script: sc}, nil
	case model.ProviderAnthropic:
		if ep.Model == "" {
			ep.Model = model.DefaultAnthropicModel
		}
		ep.APIKey, ep.AuthToken, ep.BaseURL = getenv("ANTHROPIC_API_KEY"), getenv("ANTHROPIC_AUTH_TOKEN"), getenv("ANTHROPIC_BASE_URL")
		if c.BaseURL != "" {
			ep.BaseURL = c.BaseURL
		}
		if ep.APIKey == "" && ep.AuthToken == "" {
			if ep.BaseURL == "" {
				return nil, fmt.Errorf("model %s: %w: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)", spec, model.ErrNoKey)
			}
			ep.APIKey = "none"
		}
		return NewAnthropic(ep), nil
	default:
		if ep.Model == "" {
			ep.Model = model.DefaultOpenAIModel
		}
		ep.APIKey, ep.BaseURL = getenv("OPENAI_API_KEY"), getenv("OPENAI_BASE_URL")
		if c.BaseURL != "" {
			ep.BaseURL = c.BaseURL
		}
		if ep.APIKey == "" {
			if ep.BaseURL == "" {
				return nil, fmt.Errorf("model %s: %w: set OPENAI_API_KEY, or --base-url for a local OpenAI-compatible server", spec, model.ErrNoKey)
			}
			ep.APIKey = "none"
		}
		return NewOpenAI(ep), nil
	}
}

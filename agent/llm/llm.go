package llm

import (
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/model"
)

// OpenAI is model.OpenAI.
//
// Deprecated: use model.OpenAI.
type OpenAI = model.OpenAI

// Anthropic is model.Anthropic.
//
// Deprecated: use model.Anthropic.
type Anthropic = model.Anthropic

// Scripted is model.Scripted.
//
// Deprecated: use model.Scripted.
type Scripted = model.Scripted

// NewOpenAI is model.NewOpenAI.
//
// Deprecated: use model.NewOpenAI.
func NewOpenAI(ep model.Endpoint) *OpenAI { return model.NewOpenAI(ep) }

// NewAnthropic is model.NewAnthropic.
//
// Deprecated: use model.NewAnthropic.
func NewAnthropic(ep model.Endpoint) *Anthropic { return model.NewAnthropic(ep) }

// NewScripted is model.NewScripted.
//
// Deprecated: use model.NewScripted.
func NewScripted(turns ...model.Turn) *Scripted { return model.NewScripted(turns...) }

// Config is model.Config with the base URL beside it, as it was.
//
// Deprecated: use model.Config, whose BaseURL field replaces this one.
type Config struct {
	model.Config
	BaseURL string
}

// New returns model.Config.New(s) with BaseURL, when set, replacing Config.BaseURL.
//
// Deprecated: use model.Config.New.
func (c Config) New(s string) (agent.Model, error) {
	cfg := c.Config
	if c.BaseURL != "" {
		cfg.BaseURL = c.BaseURL
	}
	m, err := cfg.New(s)
	if err != nil {
		return nil, err // never a typed nil inside the interface
	}
	return m, nil
}

package model

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/agent"
)

// Providers a model string can name.
const (
	ProviderOpenAI    = "openai"    // Chat Completions: OpenAI, llama.cpp, Ollama, vLLM, ...
	ProviderAnthropic = "anthropic" // Messages
	ProviderScripted  = "scripted"  // replies from a JSON file
)

// Default model names when a model string names only a provider, or nothing.
const (
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-haiku-4-5"
)

// Spec is a parsed model string.
type Spec struct {
	// Provider is ProviderOpenAI, ProviderAnthropic, ProviderScripted, or "" when the string
	// did not say and the name does not tell (Config.New then decides from the environment).
	Provider string
	// Name is the model name ("gpt-4o-mini"), or the script's path for ProviderScripted;
	// "" for the provider's default.
	Name string
}

// String returns "provider:name" (or the bare name when Provider is "").
func (s Spec) String() string {
	if s.Provider == "" {
		return s.Name
	}
	return s.Provider + ":" + s.Name
}

// ParseSpec reads a model string: "provider:name" for the providers above (also "claude" for
// anthropic and "openai-compatible", "ollama", "llamacpp", "vllm" for openai, whose server
// then comes from OPENAI_BASE_URL), else a bare name whose provider is guessed: names
// starting with "claude" are Anthropic's; "gpt-", "chatgpt", "o1", "o3", "o4" are OpenAI's;
// any other name leaves Provider empty. Surrounding spaces are ignored.
func ParseSpec(s string) Spec {
	s = strings.TrimSpace(s)
	if p, name, ok := strings.Cut(s, ":"); ok {
		switch strings.ToLower(p) {
		case ProviderOpenAI, "openai-compatible", "ollama", "llamacpp", "llama.cpp", "vllm":
			return Spec{Provider: ProviderOpenAI, Name: name}
		case ProviderAnthropic, "claude":
			return Spec{Provider: ProviderAnthropic, Name: name}
		case ProviderScripted:
			return Spec{Provider: ProviderScripted, Name: name}
		}
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "claude"):
		return Spec{Provider: ProviderAnthropic, Name: s}
	case strings.HasPrefix(lower, "gpt-"), strings.HasPrefix(lower, "chatgpt"),
		strings.HasPrefix(lower, "o1"), strings.HasPrefix(lower, "o3"), strings.HasPrefix(lower, "o4"):
		return Spec{Provider: ProviderOpenAI, Name: s}
	}
	return Spec{Name: s}
}

// Config builds clients from model strings: one provider resolution for the judge (prompt
// and agent hooks call Complete) and the reference agent (Chat). The zero value reads the
// process environment and uses a plain HTTP client without retries.
type Config struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Default is the model string used for an empty one; "" means $HOOKCORE_MODEL, and when
	// that is empty too: Anthropic's DefaultAnthropicModel if only ANTHROPIC_API_KEY (or
	// ANTHROPIC_AUTH_TOKEN) is set, else OpenAI's DefaultOpenAIModel.
	Default string
	// Dir resolves relative script paths of "scripted:PATH"; "" means the working directory.
	Dir string
	// BaseURL, when set, replaces the provider's API root from the environment
	// (OPENAI_BASE_URL, ANTHROPIC_BASE_URL): `hookcore run --base-url`.
	BaseURL string
	// HTTPClient carries the API requests; nil means a new http.Client without a timeout,
	// with a connection pool of its own (a clone of http.DefaultTransport)
	// (the caller's context bounds each call).
	HTTPClient *http.Client
	// MaxRetries is how often a failed API request (connection error, 408, 409, 429, 5xx)
	// is retried, with backoff; 0 means never.
	MaxRetries int
	// MaxTokens caps each reply; 0 means the provider's default (Endpoint.MaxTokens).
	MaxTokens int
}

// Client is what Config.New returns: a model that can judge (Complete, one-shot text) and
// drive the reference agent (Chat, with tool calls). OpenAI, Anthropic and Scripted are
// Clients.
type Client interface {
	Completer
	agent.Model
}

func (c Config) getenv(k string) string {
	if c.Getenv != nil {
		return c.Getenv(k)
	}
	return os.Getenv(k)
}

// New returns the client a model string names (see ParseSpec and Config.Default). It makes
// no request. The key comes from OPENAI_API_KEY, or ANTHROPIC_API_KEY (else
// ANTHROPIC_AUTH_TOKEN); the server from Config.BaseURL, else OPENAI_BASE_URL or
// ANTHROPIC_BASE_URL. For both providers a configured server without a key is accepted and
// no credential is sent (local servers and proxies need none); with neither, New returns an
// error wrapping ErrNoKey that names the variable. An unreadable or invalid script is an
// error naming the file.
func (c Config) New(model string) (Client, error) {
	spec := ParseSpec(model)
	if spec.Provider == "" && spec.Name == "" {
		def := c.Default
		if def == "" {
			def = c.getenv("HOOKCORE_MODEL")
		}
		spec = ParseSpec(def)
	}
	if spec.Provider == "" {
		spec.Provider = c.guessProvider()
	}
	switch spec.Provider {
	case ProviderScripted:
		if spec.Name == "" {
			return nil, fmt.Errorf("model %q: scripted needs a file: scripted:PATH", model)
		}
		path := spec.Name
		if !filepath.IsAbs(path) && c.Dir != "" {
			path = filepath.Join(c.Dir, path)
		}
		return LoadScripted(path)
	case ProviderAnthropic:
		if spec.Name == "" {
			spec.Name = DefaultAnthropicModel
		}
		ep := c.endpoint(spec.Name, c.getenv("ANTHROPIC_API_KEY"), c.getenv("ANTHROPIC_BASE_URL"))
		if ep.APIKey == "" {
			ep.AuthToken = c.getenv("ANTHROPIC_AUTH_TOKEN")
		}
		if ep.APIKey == "" && ep.AuthToken == "" && ep.BaseURL == "" {
			return nil, fmt.Errorf("model %s: %w: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or ANTHROPIC_BASE_URL for a proxy that needs none", spec, ErrNoKey)
		}
		return NewAnthropic(ep), nil
	default:
		if spec.Name == "" {
			spec.Name = DefaultOpenAIModel
		}
		spec.Provider = ProviderOpenAI
		ep := c.endpoint(spec.Name, c.getenv("OPENAI_API_KEY"), c.getenv("OPENAI_BASE_URL"))
		if ep.APIKey == "" && ep.BaseURL == "" {
			return nil, fmt.Errorf("model %s: %w: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server", spec, ErrNoKey)
		}
		ep.Organization, ep.Project = c.getenv("OPENAI_ORG_ID"), c.getenv("OPENAI_PROJECT_ID")
		return NewOpenAI(ep), nil
	}
}

// guessProvider picks the provider of a bare model name that does not tell: a configured
// OpenAI-compatible server wins (local models have all kinds of names), then Anthropic when
// only its key is set, else OpenAI. Config.BaseURL counts as an OpenAI-compatible server.
func (c Config) guessProvider() string {
	if c.BaseURL == "" && c.getenv("OPENAI_BASE_URL") == "" && c.getenv("OPENAI_API_KEY") == "" &&
		(c.getenv("ANTHROPIC_API_KEY") != "" || c.getenv("ANTHROPIC_AUTH_TOKEN") != "") {
		return ProviderAnthropic
	}
	return ProviderOpenAI
}

func (c Config) endpoint(name, key, baseURL string) Endpoint {
	if c.BaseURL != "" {
		baseURL = c.BaseURL
	}
	client := c.HTTPClient
	if client == nil {
		client = ownClient()
	}
	return Endpoint{
		Model:      name,
		APIKey:     key,
		BaseURL:    baseURL,
		HTTPClient: client,
		MaxRetries: c.MaxRetries,
		MaxTokens:  c.MaxTokens,
	}
}

// Endpoint configures one API client; it is the whole configuration (clients read no
// environment).
type Endpoint struct {
	Model  string // model name sent with each request
	APIKey string // OpenAI: Authorization: Bearer; Anthropic: x-api-key; "" sends none
	// AuthToken is Anthropic's alternative to APIKey, sent as Authorization: Bearer when
	// APIKey is "" (ANTHROPIC_AUTH_TOKEN).
	AuthToken string
	// BaseURL replaces the provider's API root ("http://127.0.0.1:8080/v1" for llama.cpp;
	// the OpenAI path /chat/completions and the Anthropic path /v1/messages are appended);
	// "" means DefaultOpenAIBaseURL or DefaultAnthropicBaseURL.
	BaseURL string
	// Organization and Project are OpenAI's OpenAI-Organization and OpenAI-Project headers
	// (OPENAI_ORG_ID, OPENAI_PROJECT_ID), sent when set.
	Organization, Project string
	HTTPClient            *http.Client // nil: a new http.Client without timeout
	// MaxRetries is how often a request that failed with a connection error or status 408,
	// 409, 429 or 5xx is retried; the wait doubles from 0.5 s to at most 8 s, or is the
	// server's Retry-After when that is at most 60 s. 0: no retry.
	MaxRetries int
	// MaxTokens caps the reply. Anthropic requires a cap: 0 sends 1024 for Complete and 4096
	// for Chat; OpenAI gets max_completion_tokens only when it is set.
	MaxTokens int
}

// ownClient returns an http.Client with a connection pool of its own, a clone of
// http.DefaultTransport's settings: a request in flight on the shared default transport is
// broken when any other code calls its CloseIdleConnections (httptest.Server.Close does, and
// a POST is not retried by net/http), which made TestAPIKeyNotSentToAnotherOrigin fail
// under load.
func ownClient() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return &http.Client{Transport: t.Clone()}
	}
	return &http.Client{}
}

// httpClient is the endpoint's client, made to refuse a redirect to another origin: Go
// drops Authorization on such a redirect but copies every other header, so Anthropic's
// x-api-key (and any configured credential) would go to whatever host the redirect names.
func (e Endpoint) httpClient() *http.Client {
	base := e.HTTPClient
	if base == nil {
		base = http.DefaultClient
	}
	c := *base
	prev := base.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if o := via[0].URL; req.URL.Scheme != o.Scheme || req.URL.Host != o.Host {
			return fmt.Errorf("refusing a redirect to another origin (%s): it would carry the API key", req.URL.Redacted())
		}
		if prev != nil {
			return prev(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// maxTokens returns Endpoint.MaxTokens, or def when it is unset.
func (e Endpoint) maxTokens(def int) int {
	if e.MaxTokens <= 0 {
		return def
	}
	return e.MaxTokens
}

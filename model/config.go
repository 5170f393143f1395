package model

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
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

// Config builds clients from model strings. The zero value reads the process environment and
// uses a plain HTTP client without retries.
type Config struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Default is the model string used for an empty one; "" means $HOOKCORE_MODEL, and when
	// that is empty too: Anthropic's DefaultAnthropicModel if only ANTHROPIC_API_KEY is set,
	// else OpenAI's DefaultOpenAIModel.
	Default string
	// Dir resolves relative script paths of "scripted:PATH"; "" means the working directory.
	Dir string
	// HTTPClient carries the API requests; nil means a new http.Client without a timeout
	// (the caller's context bounds each call).
	HTTPClient *http.Client
	// MaxRetries is how often a failed API request (connection error, 408, 409, 429, 5xx)
	// is retried by the SDK, with backoff; 0 means never.
	MaxRetries int
	// MaxTokens caps each reply; 0 means 1024 for Anthropic (which requires a cap) and no
	// cap for OpenAI.
	MaxTokens int
}

func (c Config) getenv(k string) string {
	if c.Getenv != nil {
		return c.Getenv(k)
	}
	return os.Getenv(k)
}

// New returns the client a model string names (see ParseSpec and Config.Default). It makes
// no request. An unset API key is an error wrapping ErrNoKey that names the variable; an
// unreadable or invalid script is an error naming the file.
func (c Config) New(model string) (Completer, error) {
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
		ep.AuthToken = c.getenv("ANTHROPIC_AUTH_TOKEN")
		if ep.APIKey == "" && ep.AuthToken == "" {
			return nil, fmt.Errorf("model %s: %w: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)", spec, ErrNoKey)
		}
		return NewAnthropic(ep), nil
	default:
		if spec.Name == "" {
			spec.Name = DefaultOpenAIModel
		}
		spec.Provider = ProviderOpenAI
		ep := c.endpoint(spec.Name, c.getenv("OPENAI_API_KEY"), c.getenv("OPENAI_BASE_URL"))
		if ep.APIKey == "" {
			if ep.BaseURL == "" {
				return nil, fmt.Errorf("model %s: %w: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server", spec, ErrNoKey)
			}
			ep.APIKey = "none" // local servers (llama.cpp, Ollama, vLLM) ignore the key
		}
		return NewOpenAI(ep), nil
	}
}

// guessProvider picks the provider of a bare model name that does not tell: a configured
// OpenAI-compatible server wins (local models have all kinds of names), then Anthropic when
// only its key is set, else OpenAI.
func (c Config) guessProvider() string {
	if c.getenv("OPENAI_BASE_URL") == "" && c.getenv("OPENAI_API_KEY") == "" &&
		(c.getenv("ANTHROPIC_API_KEY") != "" || c.getenv("ANTHROPIC_AUTH_TOKEN") != "") {
		return ProviderAnthropic
	}
	return ProviderOpenAI
}

func (c Config) endpoint(name, key, baseURL string) Endpoint {
	return Endpoint{
		Model:      name,
		APIKey:     key,
		BaseURL:    baseURL,
		HTTPClient: c.HTTPClient,
		MaxRetries: c.MaxRetries,
		MaxTokens:  c.MaxTokens,
	}
}

// Endpoint configures one API client.
type Endpoint struct {
	Model     string // model name sent with each request
	APIKey    string
	AuthToken string // Anthropic only: a bearer token instead of the API key
	// BaseURL replaces the provider's API root ("http://127.0.0.1:8080/v1" for llama.cpp);
	// "" means the provider's own.
	BaseURL    string
	HTTPClient *http.Client // nil: a new http.Client without timeout
	MaxRetries int          // retries of failed requests by the SDK; 0: none
	// MaxTokens caps the reply. Anthropic requires a cap: 0 sends 1024 there; OpenAI gets
	// max_completion_tokens only when it is set.
	MaxTokens int
}

func (e Endpoint) httpClient() *http.Client {
	if e.HTTPClient != nil {
		return e.HTTPClient
	}
	return &http.Client{}
}

func (e Endpoint) maxTokens() int64 {
	if e.MaxTokens <= 0 {
		return 1024
	}
	return int64(e.MaxTokens)
}

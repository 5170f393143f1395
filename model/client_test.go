package model

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/hookcore/hookcore/hooktest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// request is what a fake API server saw.
type request struct {
	Path, Auth, APIKey, Version string
	Body                        map[string]any
}

// fakeAPI is a loopback server (hooktest.ModelServer) that records requests and answers
// each with status and body.
func fakeAPI(t *testing.T, status int, body string) (*hooktest.ModelServer, func() []request) {
	t.Helper()
	srv := hooktest.NewModelServer("")
	srv.Respond(status, body)
	t.Cleanup(srv.Close)
	return srv, func() []request {
		var seen []request
		for _, r := range srv.Requests() {
			req := request{Path: r.Path, Auth: r.Header.Get("Authorization"),
				APIKey: r.Header.Get("X-Api-Key"), Version: r.Header.Get("Anthropic-Version")}
			json.Unmarshal(r.Body, &req.Body)
			seen = append(seen, req)
		}
		return seen
	}
}

const openaiReply = `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini",
"choices":[{"index":0,"message":{"role":"assistant","content":"{\"ok\": false, \"reason\": \"rm -rf\"}","refusal":null},
"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":9,"total_tokens":21}}`

const anthropicReply = `{"id":"msg_01","type":"message","role":"assistant","model":"claude-haiku-4-5",
"content":[{"type":"text","text":"{\"ok\": true"},{"type":"text","text":"}"}],"stop_reason":"end_turn",
"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":5}}`

func TestOpenAI(t *testing.T) {
	t.Parallel()
	srv, seen := fakeAPI(t, 200, openaiReply)
	m := NewOpenAI(Endpoint{Model: "gpt-4o-mini", APIKey: "sk-test", BaseURL: srv.URL + "/v1", MaxTokens: 50})
	got, err := m.Complete(context.Background(), "judge", "is it safe?")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ok": false, "reason": "rm -rf"}`; got != want {
		t.Errorf("reply = %q, want %q", got, want)
	}
	reqs := seen()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	want := request{Path: "/v1/chat/completions", Auth: "Bearer sk-test", Body: map[string]any{
		"model": "gpt-4o-mini", "max_completion_tokens": float64(50),
		"messages": []any{
			map[string]any{"role": "system", "content": "judge"},
			map[string]any{"role": "user", "content": "is it safe?"},
		},
	}}
	if d := cmp.Diff(want, reqs[0]); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
}

func TestAnthropic(t *testing.T) {
	t.Parallel()
	srv, seen := fakeAPI(t, 200, anthropicReply)
	m := NewAnthropic(Endpoint{Model: "claude-haiku-4-5", APIKey: "sk-ant-test", BaseURL: srv.URL})
	got, err := m.Complete(context.Background(), "judge", "is it safe?")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ok": true}`; got != want {
		t.Errorf("reply = %q, want %q", got, want)
	}
	reqs := seen()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	// The key goes in x-api-key (a bearer token only for ANTHROPIC_AUTH_TOKEN).
	if r.Path != "/v1/messages" || r.APIKey != "sk-ant-test" || r.Auth != "" || r.Version != AnthropicVersion {
		t.Errorf("request path %q, x-api-key %q, authorization %q, anthropic-version %q", r.Path, r.APIKey, r.Auth, r.Version)
	}
	wantBody := map[string]any{
		"model": "claude-haiku-4-5", "max_tokens": float64(1024),
		"system": []any{map[string]any{"type": "text", "text": "judge"}},
		"messages": []any{map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "is it safe?"},
		}}},
	}
	if d := cmp.Diff(wantBody, r.Body); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
}

func TestAnthropicAuthToken(t *testing.T) {
	t.Parallel()
	srv, seen := fakeAPI(t, 200, anthropicReply)
	m := NewAnthropic(Endpoint{Model: "claude-haiku-4-5", AuthToken: "tok", BaseURL: srv.URL})
	if _, err := m.Complete(context.Background(), "", "x"); err != nil {
		t.Fatal(err)
	}
	if r := seen()[0]; r.Auth != "Bearer tok" || r.Body["system"] != nil {
		t.Errorf("authorization %q, system %v", r.Auth, r.Body["system"])
	}
}

// closedURL returns the URL of a loopback port nobody listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestClientErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		provider string
		status   int
		body     string
		down     bool
		want     []string // substrings of the error
	}{
		{"openai bad key", "openai", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, false,
			[]string{"openai gpt-4o-mini", "http 401", "Incorrect API key provided"}},
		{"openai server error", "openai", 500, `{"error":{"message":"boom","type":"server_error"}}`, false,
			[]string{"http 500", "boom"}},
		{"openai no choices", "openai", 200, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`, false,
			[]string{"no choices"}},
		{"openai unreachable", "openai", 0, "", true, []string{"openai gpt-4o-mini at http://127.0.0.1:"}},
		{"anthropic bad key", "anthropic", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, false,
			[]string{"anthropic claude-haiku-4-5", "http 401", "invalid x-api-key"}},
		{"anthropic overloaded", "anthropic", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, false,
			[]string{"http 529", "Overloaded"}},
		{"anthropic no text", "anthropic", 200, `{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":0}}`, false,
			[]string{"no text", "max_tokens"}},
		{"anthropic unreachable", "anthropic", 0, "", true, []string{"anthropic claude-haiku-4-5 at http://127.0.0.1:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := closedURL(t)
			if !tt.down {
				srv, _ := fakeAPI(t, tt.status, tt.body)
				base = srv.URL
			}
			var m Completer
			if tt.provider == "openai" {
				m = NewOpenAI(Endpoint{Model: "gpt-4o-mini", APIKey: "k", BaseURL: base + "/v1"})
			} else {
				m = NewAnthropic(Endpoint{Model: "claude-haiku-4-5", APIKey: "k", BaseURL: base})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := m.Complete(ctx, "s", "p")
			if err == nil {
				t.Fatal("Complete succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestConfigNew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir+"/judge.json", `["{\"ok\": true}"]`)
	tests := []struct {
		name    string
		model   string
		def     string
		env     map[string]string
		want    string // "openai gpt-4o-mini http://x", "anthropic ...", "scripted"
		wantErr string
	}{
		{"explicit openai", "openai:gpt-4o", "", map[string]string{"OPENAI_API_KEY": "k"}, "openai gpt-4o ", ""},
		{"explicit anthropic", "anthropic:claude-sonnet-4-5", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic claude-sonnet-4-5 ", ""},
		{"bare gpt", "gpt-4.1-mini", "", map[string]string{"OPENAI_API_KEY": "k"}, "openai gpt-4.1-mini ", ""},
		{"bare claude", "claude-haiku-4-5", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic claude-haiku-4-5 ", ""},
		{"bare local name with base url", "qwen2.5-coder", "", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1", "ANTHROPIC_API_KEY": "k"},
			"openai qwen2.5-coder http://127.0.0.1:11434/v1", ""},
		{"bare unknown name, only anthropic key", "mystery", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic mystery ", ""},
		{"ollama prefix", "ollama:llama3.2", "", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, "openai llama3.2 http://127.0.0.1:11434/v1", ""},
		{"provider only", "anthropic:", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic claude-haiku-4-5 ", ""},
		{"empty uses default", "", "openai:gpt-4o", map[string]string{"OPENAI_API_KEY": "k"}, "openai gpt-4o ", ""},
		{"empty uses HOOKCORE_MODEL", "", "", map[string]string{"HOOKCORE_MODEL": "claude-opus-4-1", "ANTHROPIC_API_KEY": "k"}, "anthropic claude-opus-4-1 ", ""},
		{"empty guesses by key", "", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic claude-haiku-4-5 ", ""},
		{"empty defaults to openai", "", "", map[string]string{"OPENAI_API_KEY": "k"}, "openai gpt-4o-mini ", ""},
		{"anthropic base url", "anthropic:c", "", map[string]string{"ANTHROPIC_AUTH_TOKEN": "t", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/"}, "anthropic c http://127.0.0.1:9/", ""},
		// One resolution for judge and agent: a base URL without a key is a keyless server for
		// both providers (model refused it for Anthropic while agent/llm accepted it).
		{"anthropic base url without key", "anthropic:c", "", map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, "anthropic c http://127.0.0.1:9", ""},
		{"openai base url without key", "openai:m", "", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "openai m http://127.0.0.1:9/v1", ""},
		{"config base url wins", "anthropic:c", "", map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, "anthropic c http://127.0.0.1:8", ""},
		{"config base url picks openai for a bare name", "local-model", "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "openai local-model http://127.0.0.1:8", ""},
		{"scripted relative", "scripted:judge.json", "", nil, "scripted", ""},
		{"openai no key", "openai:gpt-4o", "", nil, "", "model openai:gpt-4o: api key not set: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server"},
		{"anthropic no key", "claude-haiku-4-5", "", map[string]string{"OPENAI_API_KEY": "k"}, "", "model anthropic:claude-haiku-4-5: api key not set: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or ANTHROPIC_BASE_URL for a proxy that needs none"},
		{"scripted missing file", "scripted:nope.json", "", nil, "", "scripted model: open " + dir + "/nope.json: no such file or directory"},
		{"scripted no path", "scripted:", "", nil, "", `model "scripted:": scripted needs a file: scripted:PATH`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Config{Getenv: func(k string) string { return tt.env[k] }, Default: tt.def, Dir: dir}
			if strings.HasPrefix(tt.name, "config base url") {
				c.BaseURL = "http://127.0.0.1:8"
			}
			m, err := c.New(tt.model)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("New(%q) error = %v, want %q", tt.model, err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "api key") && !errors.Is(err, ErrNoKey) {
					t.Errorf("error does not wrap ErrNoKey")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got string
			switch m := m.(type) {
			case *OpenAI:
				got = "openai " + m.ep.Model + " " + m.ep.BaseURL
			case *Anthropic:
				got = "anthropic " + m.ep.Model + " " + m.ep.BaseURL
			case *Scripted:
				got = "scripted"
			}
			if got != tt.want {
				t.Errorf("New(%q) = %q, want %q", tt.model, got, tt.want)
			}
		})
	}
}

// TestConfigEndToEnd builds both clients from the environment and talks to fake servers,
// so the path from a hook's model string to the wire is exercised whole.
func TestConfigEndToEnd(t *testing.T) {
	t.Parallel()
	oa, _ := fakeAPI(t, 200, openaiReply)
	an, _ := fakeAPI(t, 200, anthropicReply)
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": oa.URL + "/v1",
		"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": an.URL}
	c := Config{Getenv: func(k string) string { return env[k] }}
	for model, want := range map[string]string{
		"openai:gpt-4o-mini":         `{"ok": false, "reason": "rm -rf"}`,
		"anthropic:claude-haiku-4-5": `{"ok": true}`,
	} {
		m, err := c.New(model)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Complete(context.Background(), "s", "p")
		if err != nil || got != want {
			t.Errorf("%s: Complete = %q, %v; want %q", model, got, err, want)
		}
	}
}

// BenchmarkConfigNew is the cost a prompt hook's model adds to building a Runner (the
// bridge's `hookcore hook` builds one per process): resolving the string and making the
// client, with no request and no package-level setup.
func BenchmarkConfigNew(b *testing.B) {
	env := map[string]string{"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
	c := Config{Getenv: func(k string) string { return env[k] }}
	for _, name := range []string{"openai:gpt-4o-mini", "anthropic:claude-haiku-4-5"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.New(name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

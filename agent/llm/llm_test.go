package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/llm"
	"github.com/hookcore/hookcore/model"
)

// TestConfigBaseURL checks that the deprecated Config still sends a chat to its BaseURL
// through model's client.
func TestConfigBaseURL(t *testing.T) {
	t.Parallel()
	paths := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths <- r.URL.Path
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hello"}}]}`)
	}))
	defer srv.Close()
	m, err := llm.Config{Config: model.Config{Getenv: func(string) string { return "" }}, BaseURL: srv.URL + "/v1"}.New("openai:m")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*llm.OpenAI); !ok {
		t.Errorf("New returned %T, want *llm.OpenAI (= *model.OpenAI)", m)
	}
	r, err := m.Chat(context.Background(), &agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Text: "hi"}}})
	if err != nil || r.Text != "hello" {
		t.Fatalf("Chat = %+v, %v", r, err)
	}
	if p := <-paths; p != "/v1/chat/completions" {
		t.Errorf("path %q", p)
	}
	if _, err := (llm.Config{Config: model.Config{Getenv: func(string) string { return "" }}}).New("openai:m"); err == nil {
		t.Error("New without a key or a server succeeded")
	}
}

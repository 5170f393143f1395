package llm_test

import (
	"context"
	"testing"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/llm"
	"github.com/hookcore/hookcore/hooktest"
	"github.com/hookcore/hookcore/model"
)

// TestConfigBaseURL checks that the deprecated Config still sends a chat to its BaseURL
// through model's client.
func TestConfigBaseURL(t *testing.T) {
	t.Parallel()
	srv := hooktest.NewModelServer("hello")
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
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Errorf("requests %+v, want one to /v1/chat/completions", reqs)
	}
	if _, err := (llm.Config{Config: model.Config{Getenv: func(string) string { return "" }}}).New("openai:m"); err == nil {
		t.Error("New without a key or a server succeeded")
	}
}

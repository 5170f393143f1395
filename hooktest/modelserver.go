package hooktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// ModelServer is a loopback fake of the two LLM APIs hookcore's model clients speak:
// POST /v1/chat/completions (OpenAI Chat Completions) answers a chat.completion whose
// assistant message is the reply text, and POST /v1/messages (Anthropic Messages) a message
// whose one text block is it (Respond replaces both with a fixed answer). Every request is
// recorded (Requests). Other paths answer 404.
type ModelServer struct {
	*httptest.Server

	mu      sync.Mutex
	reply   func(body []byte) string
	raw     *rawAnswer // non-nil: every request gets it as is (Respond)
	seen    []Request
	blocked chan struct{} // non-nil: requests wait for it or for their own end (Hang)
}

// Request is one request a ModelServer received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte // the raw body
}

type rawAnswer struct {
	status int
	body   string
}

// NewModelServer starts a ModelServer on 127.0.0.1 whose every answer carries reply.
// Close it when done (t.Cleanup(s.Close)).
func NewModelServer(reply string) *ModelServer {
	s := &ModelServer{reply: func([]byte) string { return reply }}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// SetReply makes the server answer reply(body) from now on, body being the request's raw
// JSON body.
func (s *ModelServer) SetReply(reply func(body []byte) string) {
	s.mu.Lock()
	s.reply = reply
	s.mu.Unlock()
}

// Respond makes every request from now on, on any path, get status and body (as
// application/json) as they are: a recorded API answer, an error status, a malformed body.
func (s *ModelServer) Respond(status int, body string) {
	s.mu.Lock()
	s.raw = &rawAnswer{status, body}
	s.mu.Unlock()
}

// Hang makes every request from now on wait, without answering, until the client gives
// up or the server is closed: a model that never replies.
func (s *ModelServer) Hang() {
	s.mu.Lock()
	if s.blocked == nil {
		s.blocked = make(chan struct{})
	}
	s.mu.Unlock()
}

// Close releases hanging requests and shuts the server down.
func (s *ModelServer) Close() {
	s.mu.Lock()
	if s.blocked != nil {
		close(s.blocked)
		s.blocked = nil
	}
	s.mu.Unlock()
	s.Server.Close()
}

// Requests returns the requests so far, in arrival order.
func (s *ModelServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.seen...)
}

func (s *ModelServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	reply, raw, blocked := s.reply, s.raw, s.blocked
	s.mu.Unlock()
	if blocked != nil {
		select {
		case <-blocked:
		case <-r.Context().Done():
		}
		return
	}
	if raw != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(raw.status)
		_, _ = io.WriteString(w, raw.body)
		return
	}
	var v any
	switch r.URL.Path {
	case "/v1/chat/completions", "/chat/completions":
		v = map[string]any{
			"id": "chatcmpl-hooktest", "object": "chat.completion", "model": "hooktest",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": reply(body)}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
		}
	case "/v1/messages", "/messages":
		v = map[string]any{
			"id": "msg_hooktest", "type": "message", "role": "assistant", "model": "hooktest",
			"content":     []any{map[string]any{"type": "text", "text": reply(body)}},
			"stop_reason": "end_turn",
			"usage":       map[string]any{"input_tokens": 1, "output_tokens": 1},
		}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

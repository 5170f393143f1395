//go:build !hookcore_lean

package cli_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// fakeServerUsage documents the fakeserver program of the scripts.
const fakeServerUsage = `usage: fakeserver -addr FILE [flags]

A loopback HTTP server for the scripts of testdata/script (issue 4: http, prompt and agent
executors end to end). It listens on 127.0.0.1:0, writes "127.0.0.1:PORT" to the -addr file
once it accepts connections, and exits by itself after -life. Start it in the background
(exec fakeserver ... &) and wait for the file (waitfile).

Modes (-mode):
  receiver   a webhook receiver: every request answers -status with the -body (or
             -body-file) text, as application/json; with -redirect URL it answers 302 to URL
             instead; with -delay it waits that long first (a slow server).
  openai     an OpenAI Chat Completions endpoint: POST /v1/chat/completions answers a
             chat.completion whose assistant message is the -body text.
  anthropic  an Anthropic Messages endpoint: POST /v1/messages answers a message whose one
             text block is the -body text.

Every request is recorded, before it is answered, as one JSON line appended to the -record
file: {"method", "path", "headers": {Canonical-Name: "v1, v2"}, "body", "valid_json"}. The
raw body of the last request is also written to -last-body. In the API modes -key, when
set, must come as "Authorization: Bearer KEY" or "X-Api-Key: KEY", else the answer is 401.

Flags:
`

// fakeServer is the flag set of one fakeserver run.
type fakeServer struct {
	mode     string
	addrFile string
	record   string
	lastBody string
	status   int
	body     string
	redirect string
	delay    time.Duration
	key      string

	mu sync.Mutex // orders the writes of record and lastBody
}

// fakeServerMain is the fakeserver command (testscript.Main re-executes the test binary).
func fakeServerMain() {
	fs := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), fakeServerUsage)
		fs.PrintDefaults()
	}
	s := &fakeServer{}
	var bodyFile string
	var life time.Duration
	fs.StringVar(&s.mode, "mode", "receiver", "receiver, openai or anthropic")
	fs.StringVar(&s.addrFile, "addr", "", "write the listening address (127.0.0.1:PORT) to this file (required)")
	fs.StringVar(&s.record, "record", "", "append one JSON line per request to this file")
	fs.StringVar(&s.lastBody, "last-body", "", "write the raw body of the last request to this file")
	fs.IntVar(&s.status, "status", http.StatusOK, "status of every answer (receiver mode)")
	fs.StringVar(&s.body, "body", "", "answer body (receiver) or assistant text (openai, anthropic)")
	fs.StringVar(&bodyFile, "body-file", "", "read -body from this file")
	fs.StringVar(&s.redirect, "redirect", "", "answer 302 to this URL (receiver mode)")
	fs.DurationVar(&s.delay, "delay", 0, "wait this long before answering")
	fs.StringVar(&s.key, "key", "", "API key the openai and anthropic modes require")
	fs.DurationVar(&life, "life", 60*time.Second, "exit after this long")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "fakeserver: "+format+"\n", args...)
		os.Exit(2)
	}
	switch {
	case s.addrFile == "":
		fail("-addr is required")
	case fs.NArg() > 0:
		fail("unexpected arguments %q", fs.Args())
	case s.mode != "receiver" && s.mode != "openai" && s.mode != "anthropic":
		fail("unknown -mode %q", s.mode)
	}
	if bodyFile != "" {
		data, err := os.ReadFile(bodyFile)
		if err != nil {
			fail("%v", err)
		}
		s.body = string(data)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("%v", err)
	}
	// Written under a temporary name and renamed, so that waitfile never sees half of it.
	tmp := s.addrFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()), 0o666); err != nil {
		fail("%v", err)
	}
	if err := os.Rename(tmp, s.addrFile); err != nil {
		fail("%v", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	time.AfterFunc(life, func() { os.Exit(0) })
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fail("%v", err)
	}
}

// ServeHTTP records the request, then answers it as the mode says.
func (s *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.save(r, body); err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-r.Context().Done():
			return
		}
	}
	switch s.mode {
	case "receiver":
		if s.redirect != "" {
			http.Redirect(w, r, s.redirect, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.status)
		io.WriteString(w, s.body)
	case "openai":
		s.openai(w, r, body)
	case "anthropic":
		s.anthropic(w, r, body)
	}
}

// save appends the record line and writes the last body.
func (s *fakeServer) save(r *http.Request, body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastBody != "" {
		if err := os.WriteFile(s.lastBody, body, 0o666); err != nil {
			return err
		}
	}
	if s.record == "" {
		return nil
	}
	headers := map[string]string{}
	for k, v := range r.Header {
		headers[k] = strings.Join(v, ", ")
	}
	line, err := marshalNoEscape(map[string]any{
		"method":     r.Method,
		"path":       r.URL.RequestURI(),
		"headers":    headers,
		"body":       string(body),
		"valid_json": json.Valid(body),
	})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.record, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// apiCheck answers 404 to anything but POST path and 401 to a missing or wrong key; it
// reports whether the request may be answered, and the model it names.
func (s *fakeServer) apiCheck(w http.ResponseWriter, r *http.Request, body []byte, path string) (string, bool) {
	if r.Method != http.MethodPost || r.URL.Path != path {
		apiError(w, http.StatusNotFound, "not_found_error", fmt.Sprintf("no route %s %s", r.Method, r.URL.Path))
		return "", false
	}
	if s.key != "" && r.Header.Get("Authorization") != "Bearer "+s.key && r.Header.Get("X-Api-Key") != s.key {
		apiError(w, http.StatusUnauthorized, "authentication_error", "invalid api key")
		return "", false
	}
	var req struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Model == "" {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "the body is not a JSON request with a model")
		return "", false
	}
	return req.Model, true
}

// openai answers a Chat Completions request in the API's wire format.
func (s *fakeServer) openai(w http.ResponseWriter, r *http.Request, body []byte) {
	model, ok := s.apiCheck(w, r, body, "/v1/chat/completions")
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": s.body, "refusal": nil},
			"logprobs":      nil,
			"finish_reason": "stop",
		}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}

// anthropic answers a Messages request in the API's wire format.
func (s *fakeServer) anthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	model, ok := s.apiCheck(w, r, body, "/v1/messages")
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content":     []any{map[string]any{"type": "text", "text": s.body}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5},
	})
}

// apiError answers an error in the shape both APIs use: {"type": "error", "error": {...}}.
func apiError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := marshalNoEscape(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// marshalNoEscape is json.Marshal without HTML escaping and without the trailing newline,
// map keys sorted.
func marshalNoEscape(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// cmdTemplate replaces a marker (default @ADDR@) in files in place with the trimmed content
// of an address file written by fakeserver: template [-mark MARK] ADDRFILE FILE...
func cmdTemplate(ts *testscript.TestScript, neg bool, args []string) {
	mark := "@ADDR@"
	if len(args) >= 2 && args[0] == "-mark" {
		mark, args = args[1], args[2:]
	}
	if neg || len(args) < 2 || mark == "" {
		ts.Fatalf("usage: template [-mark MARK] ADDRFILE FILE...")
	}
	addr := strings.TrimSpace(ts.ReadFile(args[0]))
	if addr == "" {
		ts.Fatalf("template: %s is empty", args[0])
	}
	for _, f := range args[1:] {
		p := ts.MkAbs(f)
		data, err := os.ReadFile(p)
		ts.Check(err)
		if !strings.Contains(string(data), mark) {
			ts.Fatalf("template: %s does not contain %s", f, mark)
		}
		ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(string(data), mark, addr)), 0o666))
	}
}

// cmdEnvaddr sets environment variables of the script to values holding the address that a
// background fakeserver wrote to ADDRFILE: envaddr ADDRFILE NAME=VALUE..., where @ADDR@ in
// VALUE is replaced (OPENAI_BASE_URL=http://@ADDR@/v1).
func cmdEnvaddr(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: envaddr ADDRFILE NAME=VALUE...")
	}
	addr := strings.TrimSpace(ts.ReadFile(args[0]))
	if addr == "" {
		ts.Fatalf("envaddr: %s is empty", args[0])
	}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			ts.Fatalf("envaddr: %q is not NAME=VALUE", kv)
		}
		ts.Setenv(k, strings.ReplaceAll(v, "@ADDR@", addr))
	}
}

// Package mcptool is the mcp_tool hook executor: it calls a tool on an MCP server named in
// the project's .mcp.json or the settings' mcpServers (Claude Code's mcp_tool handler,
// research note claude-code-hooks.md, "MCP tool handler"), over stdio or streamable HTTP,
// with the official SDK github.com/modelcontextprotocol/go-sdk. Factory registers it with a
// Runner (Options.Executors). It lives in its own package, as rego does, so that a program
// links and initialises the SDK only when it imports it: the hookcore CLI does with -tags mcp.
package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/netguard"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultTimeout is a call's timeout when Tool.Timeout is zero: 30 s, as http hooks here.
const DefaultTimeout = 30 * time.Second

// Server describes one MCP server, as an entry of .mcp.json's mcpServers: a stdio server
// has Command (and Args, Env); an HTTP server has URL and Headers, and speaks streamable
// HTTP (type "http", "streamable-http" or none) or the older HTTP+SSE transport (type "sse").
type Server struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	// Project marks a server read from the project's .mcp.json (untrusted input).
	Project bool `json:"-"`
}

// ParseMCPJSON reads a .mcp.json document ({"mcpServers": {name: Server}}), expanding
// ${VAR} and ${VAR:-default} in command, args, env, url and headers from env ("KEY=value";
// nil means os.Environ()), as Claude Code does. project sets Server.Project on each entry.
// Errors: the JSON does not decode, or a server has neither command nor url.
func ParseMCPJSON(data []byte, env []string, project bool) (map[string]Server, error) {
	var doc struct {
		MCPServers map[string]Server `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("mcp servers: %w", err)
	}
	if env == nil {
		env = os.Environ()
	}
	look := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if n, v, ok := strings.Cut(env[i], "="); ok && n == k {
				return v
			}
		}
		return ""
	}
	exp := func(s string) string {
		return os.Expand(s, func(k string) string {
			name, def, hasDef := strings.Cut(k, ":-")
			if v := look(name); v != "" || !hasDef {
				return v
			}
			return def
		})
	}
	for name, s := range doc.MCPServers {
		s.Command, s.URL = exp(s.Command), exp(s.URL)
		for i := range s.Args {
			s.Args[i] = exp(s.Args[i])
		}
		for k, v := range s.Env {
			s.Env[k] = exp(v)
		}
		for k, v := range s.Headers {
			s.Headers[k] = exp(v)
		}
		if s.Command == "" && s.URL == "" {
			return nil, fmt.Errorf("mcp server %q: neither command nor url", name)
		}
		s.Project = project
		doc.MCPServers[name] = s
	}
	return doc.MCPServers, nil
}

// Pool holds one client session per server, started lazily on first use and closed by
// Close: a Runner owns one Pool, so a replay does not spawn a server per event. A session
// whose call fails at the transport is dropped and restarted by the next call. Safe for
// concurrent use.
type Pool struct {
	servers map[string]Server
	opts    PoolOptions

	mu       sync.Mutex
	sessions map[string]*entry
	closed   bool
}

// PoolOptions configure a Pool.
type PoolOptions struct {
	// ProjectTrusted lets servers from the project's .mcp.json start; when false they are
	// refused (the same trust gate as project settings), with Untrusted as the reason.
	ProjectTrusted bool
	Untrusted      string
	// AllowedHosts opens destinations the SSRF guard refuses for HTTP servers (allowed_hosts).
	AllowedHosts []string
	// Dir is a stdio server's working directory; "" is the current one.
	Dir string
}

type entry struct {
	ready  chan struct{}
	cs     *mcp.ClientSession
	cancel context.CancelFunc // ends the session's context, after cs.Close
	err    error
}

// close closes the session and ends its context.
func (e *entry) close() error {
	var err error
	if e.cs != nil {
		err = e.cs.Close()
	}
	if e.cancel != nil {
		e.cancel()
	}
	return err
}

// NewPool returns a Pool over servers (name to Server).
func NewPool(servers map[string]Server, opts PoolOptions) *Pool {
	return &Pool{servers: servers, opts: opts, sessions: map[string]*entry{}}
}

// ErrUntrusted is wrapped by a call to a project server while the project is not trusted.
var ErrUntrusted = errors.New("mcp server from an untrusted project .mcp.json")

func (p *Pool) session(ctx context.Context, name string) (*mcp.ClientSession, error) {
	s, ok := p.servers[name]
	if !ok {
		return nil, fmt.Errorf("no MCP server %q in .mcp.json or mcpServers", name)
	}
	if s.Project && !p.opts.ProjectTrusted {
		if p.opts.Untrusted != "" {
			return nil, fmt.Errorf("%w: %q not started: %s", ErrUntrusted, name, p.opts.Untrusted)
		}
		return nil, fmt.Errorf("%w: %q not started", ErrUntrusted, name)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("mcp pool closed")
	}
	e, ok := p.sessions[name]
	if !ok {
		e = &entry{ready: make(chan struct{})}
		p.sessions[name] = e
		p.mu.Unlock()
		// The session outlives this call: it is not bound to ctx.
		e.cs, e.cancel, e.err = p.connect(context.WithoutCancel(ctx), s)
		close(e.ready)
		if e.err != nil {
			p.drop(name, e)
		}
		return e.cs, e.err
	}
	p.mu.Unlock()
	select {
	case <-e.ready:
		return e.cs, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Pool) connect(ctx context.Context, s Server) (*mcp.ClientSession, context.CancelFunc, error) {
	var t mcp.Transport
	if s.URL != "" {
		g, err := netguard.New(netguard.Options{Allow: p.opts.AllowedHosts})
		if err != nil {
			return nil, nil, err
		}
		c := g.Client()
		if len(s.Headers) > 0 {
			c.Transport = headerRT{h: s.Headers, next: c.Transport}
		}
		if strings.EqualFold(s.Type, "sse") { // Claude Code's legacy HTTP+SSE servers
			t = &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: c}
		} else {
			t = &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: c, DisableStandaloneSSE: true, MaxRetries: -1}
		}
	} else {
		cmd := exec.Command(s.Command, s.Args...)
		cmd.Dir = p.opts.Dir
		cmd.Env = os.Environ()
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "hookcore", Version: "1"}, nil)
	// The context outlives Connect: the SSE transport's event stream is bound to it. A
	// timer bounds the handshake; cancel ends the stream once the session is closed.
	ctx, cancel := context.WithCancel(ctx)
	timer := time.AfterFunc(DefaultTimeout, cancel)
	cs, err := cl.Connect(ctx, t, nil)
	if !timer.Stop() && err == nil {
		_ = cs.Close()
		err = fmt.Errorf("mcp server handshake took longer than %s", DefaultTimeout)
	}
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return cs, cancel, nil
}

type headerRT struct {
	h    map[string]string
	next http.RoundTripper
}

func (r headerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range r.h {
		req.Header.Set(k, v)
	}
	return r.next.RoundTrip(req)
}

// drop forgets e (if it is still name's session) and closes its session.
func (p *Pool) drop(name string, e *entry) {
	p.mu.Lock()
	if p.sessions[name] == e {
		delete(p.sessions, name)
	}
	p.mu.Unlock()
	_ = e.close()
}

// Close closes every session (stopping stdio servers); later calls fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	es := p.sessions
	p.sessions = map[string]*entry{}
	p.mu.Unlock()
	var errs []error
	for _, e := range es {
		<-e.ready
		if err := e.close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Tool is one mcp_tool hook: it calls Tool on Server through Pool.
type Tool struct {
	// HookID names the hook in errors.
	HookID string
	// Server and Tool name the MCP server (a key of Pool's servers) and its tool.
	Server, Tool string
	// Input is the tool's arguments; each ${path} in its strings (dotted, into the event
	// input JSON, e.g. "${tool_input.file_path}") is replaced by that value's text, as
	// Claude Code does (see expand); other values are sent as written.
	Input map[string]any
	// Timeout bounds the call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Pool holds the sessions; required.
	Pool *Pool
}

// Execute calls the tool once. Its text content (joined by newlines) is read like a
// command's stdout: a body starting with '{' is the output envelope (hook.ParseEnvelope),
// plain text is additional context on UserPromptSubmit and SessionStart. A result with
// isError, a missing or untrusted server (wrapping hook.ErrNotStarted), a server that dies
// and a timeout (wrapping hook.ErrTimeout) are errors, non-blocking unless the hook is
// on_error: block; the Decision's ExitCode is -1.
func (x *Tool) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	d := hook.Decision{ExitCode: -1}
	name := fmt.Sprintf("mcp_tool hook %q (%s/%s)", x.HookID, x.Server, x.Tool)
	timeout := x.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, err := in.MarshalJSON()
	if err != nil {
		return d, fmt.Errorf("%s: %w: %w", name, hook.ErrNotStarted, err)
	}
	args := fill(x.Input, raw)
	cs, err := x.Pool.session(ctx, x.Server)
	if err != nil {
		if ctx.Err() != nil {
			return d, fmt.Errorf("%s: %w after %s", name, hook.ErrTimeout, timeout)
		}
		return d, fmt.Errorf("%s: %w: %w", name, hook.ErrNotStarted, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: x.Tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return d, fmt.Errorf("%s: %w after %s", name, hook.ErrTimeout, timeout)
		}
		// The session may be dead (the server exited): drop it, the next call reconnects.
		x.Pool.mu.Lock()
		e := x.Pool.sessions[x.Server]
		x.Pool.mu.Unlock()
		if e != nil && e.cs == cs {
			x.Pool.drop(x.Server, e)
		}
		return d, fmt.Errorf("%s: %w", name, err)
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	body := strings.Join(parts, "\n")
	d.Output = body
	if res.IsError {
		return d, fmt.Errorf("%s: tool error: %s", name, body)
	}
	ev, ok := hook.ParseEvent(in.HookEventName)
	if !ok {
		ev = hook.Event(in.HookEventName)
	}
	env, isEnvelope, err := hook.ParseEnvelope([]byte(strings.TrimSpace(body)), ev)
	switch {
	case err != nil:
		return d, fmt.Errorf("%s: %w", name, err)
	case isEnvelope:
		env.ExitCode, env.Output = d.ExitCode, d.Output
		return env, nil
	case ev == hook.UserPromptSubmit || ev == hook.SessionStart:
		d.AdditionalContext = strings.TrimSpace(body)
	}
	return d, nil
}

// fill returns v with the ${path} placeholders of its strings replaced from raw, the event
// input JSON (see expand). Values that are not strings are kept as written.
func fill(v any, raw []byte) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = fill(e, raw)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = fill(e, raw)
		}
		return s
	case string:
		return expand(t, raw)
	}
	return v
}

// expand replaces each ${path} in s (path dotted, into raw: "tool_input.file_path") by the
// text of that value: a string as it is, any other value but null as its JSON, compact and
// in the input's own key order; a missing one and null by "". The result is always a
// string, also when s is just one placeholder: Claude Code 2.1.332 sent
// "${tool_input.timeout}" as "5000" and "${tool_input}" as the JSON text of the object
// (scenario testdata/claude/mcp-tool). Only the braced form is a placeholder: "$HOME", "$$"
// and an unclosed "${" stay as written.
func expand(s string, raw []byte) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(lookup(raw, s[i+2:i+2+j]))
		s = s[i+2+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// lookup returns the text of the value at the dotted path in raw, "" when there is none.
func lookup(raw []byte, path string) string {
	cur := json.RawMessage(raw)
	for _, k := range strings.Split(path, ".") {
		var m map[string]json.RawMessage
		if json.Unmarshal(cur, &m) != nil {
			return ""
		}
		v, ok := m[k]
		if !ok {
			return ""
		}
		cur = v
	}
	var str string
	if json.Unmarshal(cur, &str) == nil {
		return str
	}
	var out bytes.Buffer
	if json.Compact(&out, cur) != nil {
		return ""
	}
	return out.String()
}

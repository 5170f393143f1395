//go:build !hookcore_lean

package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/netguard"
)

// DefaultHTTPTimeout is an http hook's timeout when HTTP.Timeout is zero: 30 s, as Claude
// Code's http hooks and the prompt hooks here (a webhook that needs longer should be async).
const DefaultHTTPTimeout = 30 * time.Second

// MaxHTTPBody caps the response body an http hook reads, in bytes (1 MiB, DESIGN.md
// section 6).
const MaxHTTPBody = 1 << 20

// HTTP sends the event to a URL (DESIGN.md section 6, "http"; codebot's httpExec, Claude
// Code's http hooks, MiniCode's http executor). It is plain data: set the fields and call
// Execute; only URL is required. An HTTP is safe for concurrent use as long as its fields
// are not changed.
type HTTP struct {
	// HookID names the hook in errors; "" uses the URL.
	HookID string
	// URL is the destination, http or https only. It is used as written (no placeholders).
	URL string
	// Method is the request method; "" means POST. GET and HEAD requests carry no body.
	Method string
	// Headers are added to the request. In a value, $NAME and ${NAME} expand to the
	// environment variable NAME when NAME is listed in AllowedEnvVars, and to the empty
	// string when it is not (Claude Code's allowedEnvVars: a config file cannot exfiltrate
	// the user's secrets by naming them). Content-Type defaults to application/json and
	// User-Agent to hookcore.
	Headers map[string]string
	// AllowedEnvVars names the environment variables headers may use.
	AllowedEnvVars []string
	// Body is the request body template; "" sends the event input JSON (in.MarshalJSON,
	// plus codebot's keys when Codebot is set). In a template, $ARGUMENTS is the input JSON
	// itself and the context variables ($FILE_PATH, $TOOL_NAME, $TOOL_ARGS.x, ...; see
	// vars.go) are JSON-escaped without quotes, so `{"text": "changed $FILE_PATH"}` stays
	// valid JSON whatever the path holds (MiniCode seed: the Slack example).
	Body string
	// Codebot adds codebot's keys (event, tool, args, output, is_error) to the input JSON.
	Codebot bool
	// Timeout bounds the whole exchange, connection to last body byte; 0 means
	// DefaultHTTPTimeout.
	Timeout time.Duration
	// Client sends the request. nil means a client guarded by the SSRF guard
	// (internal/netguard) with AllowedHosts as its allowlist, made for each run without
	// keep-alive; the Runner builds one guarded client per hook instead, at load. A caller
	// that sets Client is responsible for its SSRF protection.
	Client *http.Client
	// AllowedHosts opens destinations the SSRF guard would refuse (host names, IP addresses
	// or CIDR prefixes: `allowed_hosts`); used only when Client is nil.
	AllowedHosts []string
	// Env is the environment headers read ("KEY=value"); nil means os.Environ().
	Env []string
}

func (x *HTTP) name() string {
	if x.HookID != "" {
		return fmt.Sprintf("%q", x.HookID)
	}
	return x.URL
}

// httpClient returns Client, or a one-run guarded client and a func that releases it.
func (x *HTTP) httpClient() (*http.Client, func(), error) {
	if x.Client != nil {
		return x.Client, func() {}, nil
	}
	g, err := netguard.New(netguard.Options{Allow: x.AllowedHosts})
	if err != nil {
		return nil, nil, err
	}
	c := g.Client()
	c.Transport.(*http.Transport).DisableKeepAlives = true
	return c, c.CloseIdleConnections, nil
}

// Execute sends one request and reads the reply.
//
//   - A 2xx reply's body (at most MaxHTTPBody bytes; a longer one is an error wrapping
//     hook.ErrBadOutput, nothing of it used) is read like a command's stdout: empty is "ok";
//     a body starting with '{' is the output envelope (hook.ParseEnvelope; one that does not
//     parse is an error wrapping hook.ErrBadOutput); plain text is additional context on
//     UserPromptSubmit and SessionStart and ignored elsewhere.
//   - Any other status is a non-blocking error naming the status and the start of the body;
//     the body is never read as an envelope (codebot: status >= 400 is an error).
//   - A refused destination (bad scheme, the SSRF guard), a bad URL, a header that names a
//     bad value and an unusable allowlist are errors wrapping hook.ErrNotStarted; so is an
//     input that cannot be encoded as the body's JSON, which also wraps hook.ErrBadInput
//     (no request is sent; GET and HEAD send no body and are not affected); other
//     transport errors are plain errors; running past the timeout wraps hook.ErrTimeout.
//
// The Decision's ExitCode is -1 (no process) and Output is the response body.
func (x *HTTP) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	d := hook.Decision{ExitCode: -1}
	timeout := x.Timeout
	if timeout <= 0 {
		timeout = DefaultHTTPTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	req, err := x.request(ctx, in)
	if err != nil {
		return d, fmt.Errorf("http hook %s: %w: %w", x.name(), hook.ErrNotStarted, err)
	}
	client, release, err := x.httpClient()
	if err != nil {
		return d, fmt.Errorf("http hook %s: %w: %v", x.name(), hook.ErrNotStarted, err)
	}
	defer release()
	resp, err := originHeaders(client, req.URL, x.Headers).Do(req)
	if err != nil {
		return d, x.transportError(ctx, err, timeout)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxHTTPBody+1))
	if len(body) > MaxHTTPBody {
		body, d.Truncated = body[:MaxHTTPBody], true
	}
	d.Output = string(body)
	if err != nil {
		return d, x.transportError(ctx, fmt.Errorf("read response: %w", err), timeout)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return d, fmt.Errorf("http hook %s: %s%s", x.name(), resp.Status, hookio.Excerpt(strings.TrimSpace(string(body))))
	}
	if d.Truncated {
		return d, fmt.Errorf("http hook %s: %w: response body larger than %d bytes", x.name(), hook.ErrBadOutput, MaxHTTPBody)
	}
	ev := hookio.Event(in)
	env, isEnvelope, err := hook.ParseEnvelope(body, ev)
	switch {
	case err != nil:
		return d, fmt.Errorf("http hook %s: %w", x.name(), err)
	case isEnvelope:
		env.ExitCode, env.Output = d.ExitCode, d.Output
		return env, nil
	case ev == hook.UserPromptSubmit || ev == hook.SessionStart:
		d.AdditionalContext = strings.TrimSpace(string(body))
	}
	return d, nil
}

// originHeaders returns c, or when headers is not empty a shallow copy of c whose redirects
// drop every configured header (values from AllowedEnvVars may be secrets) from a hop to
// another origin than origin's — scheme, host and port, RFC 6454 — before c's own
// CheckRedirect (or Go's default limit of 10 hops) runs. net/http copies all headers of the
// first request to every hop and itself strips only Authorization, Cookie and
// WWW-Authenticate, and only when the host name changes; a webhook that redirects must not
// carry the user's token to wherever it points (issue 10.9).
func originHeaders(c *http.Client, origin *url.URL, headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return c
	}
	cc := *c
	next := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !sameOrigin(req.URL, origin) {
			for k := range headers {
				req.Header.Del(k)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cc
}

// sameOrigin reports whether a and b have the same scheme, host and port; the host is
// compared without case and without a trailing dot, an absent port is the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	host := func(u *url.URL) string { return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".") }
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && host(a) == host(b) && port(a) == port(b)
}

// transportError classifies a failed exchange: the guard's refusal is "could not start",
// the deadline is a timeout.
func (x *HTTP) transportError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, netguard.ErrBlocked):
		return fmt.Errorf("http hook %s: %w: %v", x.name(), hook.ErrNotStarted, err)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("http hook %s: %w (timeout %v)", x.name(), hook.ErrTimeout, timeout)
	}
	return fmt.Errorf("http hook %s: %w", x.name(), err)
}

// request builds the request: URL check, body, headers.
func (x *HTTP) request(ctx context.Context, in *hook.Input) (*http.Request, error) {
	u, err := url.Parse(strings.TrimSpace(x.URL))
	if err != nil {
		return nil, fmt.Errorf("bad url: %v", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return nil, fmt.Errorf("url %q: only http and https are allowed", x.URL)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("url %q has no host", x.URL)
	}
	method := strings.ToUpper(strings.TrimSpace(x.Method))
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader
	if method != http.MethodGet && method != http.MethodHead {
		input, err := hookio.Stdin(in, x.Codebot)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", hook.ErrBadInput, err)
		}
		if x.Body != "" {
			input = []byte(expandJSON(x.Body, in, input))
		}
		body = bytes.NewReader(input)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "hookcore")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	env := x.Env
	if env == nil {
		env = os.Environ()
	}
	for k, v := range x.Headers {
		v = expandHeader(v, x.AllowedEnvVars, env)
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, fmt.Errorf("header %s: value holds a line break or NUL", k)
		}
		req.Header.Set(k, v)
	}
	return req, nil
}

// expandHeader replaces $NAME and ${NAME} in a header value by the environment variable NAME
// when allowed lists it, by "" otherwise. A $ not followed by a name is kept.
func expandHeader(v string, allowed []string, env []string) string {
	if !strings.Contains(v, "$") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		if v[i] != '$' {
			b.WriteByte(v[i])
			i++
			continue
		}
		j := i + 1
		braced := j < len(v) && v[j] == '{'
		if braced {
			j++
		}
		k := j
		for k < len(v) && hookio.IsNameChar(v[k]) && (k > j || hookio.IsNameStart(v[k])) {
			k++
		}
		if k == j || braced && (k >= len(v) || v[k] != '}') {
			b.WriteByte('$')
			i++
			continue
		}
		name := v[j:k]
		if braced {
			k++
		}
		if slices.Contains(allowed, name) {
			b.WriteString(lookupEnv(env, name))
		}
		i = k
	}
	return b.String()
}

// lookupEnv returns the last value of name in env ("KEY=value" entries), as os/exec does.
func lookupEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// expandJSON expands a body template: $ARGUMENTS (or ${ARGUMENTS}) becomes args, the input
// JSON, as is; context variables become their values JSON-escaped without the quotes.
func expandJSON(s string, in *hook.Input, args []byte) string {
	return expandTemplate(s, in, func(b *strings.Builder, name string) {
		if name == "ARGUMENTS" {
			b.Write(args)
			return
		}
		b.WriteString(jsonEscape(hookio.Value(in, name)))
	})
}

// jsonEscape returns s as the inside of a JSON string (no HTML escaping).
func jsonEscape(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) //nolint:errcheck // a string always encodes
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

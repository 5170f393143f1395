//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// defaultServerTimeout bounds one `hook --server` exchange with serve, from dialling to the
// answer's last byte. A serve that does not answer (stopped with SIGSTOP, its accept queue
// flooded) held the hook command until the agent's own hook timeout, after which the agent
// ran the tool (red team round 33, with the real Claude Code): the hook command must answer
// first. The shortest default hook timeout among the agents is Copilot CLI's 30 s (Gemini
// CLI's is 60 s; Claude Code's and Codex's 600 s, 30 s on Claude's UserPromptSubmit); 25 s
// leaves the hook command 5 s to start, read its input and answer.
const defaultServerTimeout = 25 * time.Second

// peerCheckTries bounds how often the client looks for serve's socket in /proc/net/tcp
// before giving up: a connection accepted with a SYN cookie is listed only once serve's
// side has seen the last ACK, which on a busy machine can come after connect returned.
const peerCheckTries = 3

// forward sends one event to a `hookcore serve` (POST URL/v1/answer/AGENT) and returns the
// answer it decided. A server that cannot be reached, does not answer within the deadline
// (transportOptions.serverTimeout), answers anything but an answer, or is a process this
// user cannot tell is their own (dialServe), is a failure to decide: closed on gate events
// unless --on-error allow (unlike Claude Code's own http hooks, which let the action through
// when the server is down).
func (e *env) forward(ctx context.Context, p bridge.Protocol, override string, data []byte, hf *hookFlags, block bool, event hook.Event) bridge.Answer {
	q := url.Values{}
	if override != "" {
		q.Set("event", override)
	}
	if !block {
		q.Set("on_error", "allow")
	}
	u := strings.TrimRight(hf.server, "/") + "/v1/answer/" + p.Name()
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	timeout := e.transport.serverTimeout
	if timeout <= 0 {
		timeout = defaultServerTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return p.Fail(event, "--server: "+err.Error(), block)
	}
	req.Header.Set("Content-Type", "application/json")
	loopback := loopbackHost(req.URL.Host)
	tok := e.serveToken(hf, loopback)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	// failed words an error of the exchange: an untrusted peer and a deadline say so.
	failed := func(what string, err error) bridge.Answer {
		var pe *peerError
		switch {
		case errors.As(err, &pe):
			return p.Fail(event, "hookcore serve not trusted: "+pe.Error(), block)
		case ctx.Err() == context.DeadlineExceeded:
			return p.Fail(event, fmt.Sprintf("hookcore serve did not answer in time (%s; is it stopped or overloaded?)", timeout), block)
		}
		return p.Fail(event, what+err.Error(), block)
	}
	resp, err := e.serveClient(loopback, tok).Do(req)
	if err != nil {
		return failed("hookcore serve unreachable: ", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxInput))
	if err != nil {
		return failed("hookcore serve: ", err)
	}
	if resp.StatusCode != http.StatusOK {
		return p.Fail(event, fmt.Sprintf("hookcore serve answered %s: %s", resp.Status, strings.TrimSpace(string(body))), block)
	}
	a, err := readWireAnswer(body, p, event, block)
	if err != nil {
		return p.Fail(event, "hookcore serve: not an answer serve gives: "+err.Error(), block)
	}
	return a
}

// readWireAnswer reads the body of serve's /v1/answer reply as the answer of p on event
// (block: whether the request asked a failure to block). Only serve's own shape is an
// answer: exactly one JSON object with the three members wireAnswer writes, each once and
// nothing else; a code serve gives (0, 2, and 1 only where p.Fail itself answers 1, a
// non-blocking error); a stdout that is empty or one JSON object, and empty where the
// agent reads stdout as something else (Claude Code's WorktreeCreate). Red team round 65:
// a same-user process on serve's port answering {}, null or {"code":1} let `rm -rf /`
// through, and {"code":7,"stdout":"hello"} was passed to the agent as it was.
func readWireAnswer(body []byte, p bridge.Protocol, event hook.Event, block bool) (bridge.Answer, error) {
	if err := hook.CheckToolInput(body); err != nil {
		return bridge.Answer{}, err
	}
	var w struct {
		Stdout *string `json:"stdout"`
		Stderr *string `json:"stderr"`
		Code   *int    `json:"code"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return bridge.Answer{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return bridge.Answer{}, errors.New("more than one JSON value")
	}
	if w.Stdout == nil || w.Stderr == nil || w.Code == nil {
		return bridge.Answer{}, errors.New(`want an object with "stdout", "stderr" and "code"`)
	}
	code := *w.Code
	switch {
	case code == 0 || code == 2:
	case code == 1 && p.Fail(event, "", block).Code == 1:
	default:
		return bridge.Answer{}, fmt.Errorf("exit code %d is not one serve gives on %s", code, event)
	}
	a := bridge.Answer{Stderr: *w.Stderr, Code: code}
	if out := *w.Stdout; out != "" {
		if p.Name() == "claude" && event == hook.WorktreeCreate {
			return bridge.Answer{}, fmt.Errorf("a stdout on %s, where Claude Code reads it as a path", event)
		}
		if code == 1 {
			return bridge.Answer{}, errors.New("a stdout with exit code 1")
		}
		if t := bytes.TrimSpace([]byte(out)); len(t) == 0 || t[0] != '{' || hook.CheckToolInput(t) != nil {
			return bridge.Answer{}, errors.New("a stdout that is not one JSON object")
		}
		a.Stdout = []byte(out)
	}
	return a, nil
}

// serveClient is the HTTP client of `hook --server`: its connections are checked by
// dialServe before the request is written, it follows no redirect (a serve sends none;
// a redirect would carry the input elsewhere), and it goes through no proxy: the proxy
// variables of its environment may be a repository's (Claude Code gives a project's
// settings env to the hook command), and HTTP_PROXY took the input and the --token of a
// serve on another host, and answered for it (red team round 40). strict is that the
// --server URL names a loopback host; token is the one the request carries.
func (e *env) serveClient(strict bool, token string) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:             nil,
			DialContext:       e.dialServe(strict, token),
			DisableKeepAlives: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// dialServe is the client's DialContext. Before anything (the token, the hook input) is
// written to a connection it checks whose process answered, and closes the connection with
// a *peerError unless it is the user's own: another local user can listen on serve's port
// while serve is down, and would read the input and the token and answer an allow with an
// updated input of its choosing (red team round 33). A connection to a loopback address,
// and any when strict, must reach a socket this user owns (peerUID) or, where whose socket
// it is cannot be told (outside Linux, or not listed), a process that proves it holds
// token (proveServe); a connection to another host is refused only when it turns out to
// reach another user's socket of this host.
func (e *env) dialServe(strict bool, token string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		remote, _ := c.RemoteAddr().(*net.TCPAddr)
		mustVerify := strict || remote == nil || remote.IP.IsLoopback()
		uid, err := e.peerUID(c)
		for i := 1; i < peerCheckTries && errors.Is(err, errPeerUnknown) && mustVerify; i++ {
			select {
			case <-ctx.Done():
				c.Close()
				return nil, ctx.Err()
			case <-time.After(time.Duration(i) * time.Millisecond):
			}
			uid, err = e.peerUID(c)
		}
		switch {
		case err == nil && uid == os.Getuid():
			return c, nil
		case err == nil:
			c.Close()
			return nil, &peerError{addr: c.RemoteAddr().String(), uid: uid}
		case mustVerify:
			perr := proveServe(ctx, c, token)
			if perr == nil {
				return c, nil
			}
			c.Close()
			return nil, &peerError{addr: c.RemoteAddr().String(), err: err, proof: perr}
		}
		return c, nil // another host's socket: it gets the token only when --token names it
	}
}

// peerError is why `hook --server` sent nothing over a connection: the process that
// answered runs as another user (uid), or whose it is could not be told (err) and it did
// not prove it holds serve's token (proof).
type peerError struct {
	addr  string
	uid   int
	err   error
	proof error
}

func (e *peerError) Error() string {
	if e.err != nil {
		return fmt.Sprintf("cannot tell which user's process answers at %s (%v), and %v, so nothing was sent to it", e.addr, e.err, e.proof)
	}
	return fmt.Sprintf("the process answering at %s runs as uid %d, not as this user (uid %d), so nothing was sent to it; is hookcore serve running?", e.addr, e.uid, os.Getuid())
}

func (e *peerError) Unwrap() error { return e.err }

// serveToken is --token, else, when the --server URL names a loopback host, the token a
// local `hookcore serve` wrote (sent only over a connection dialServe found to be this
// user's). The state directory's token never goes to another host, which this process
// cannot check: a serve elsewhere gets a token only when --token names it.
func (e *env) serveToken(hf *hookFlags, loopback bool) string {
	if hf.token != "" {
		return hf.token
	}
	if !loopback {
		return ""
	}
	dir, err := e.stateDirPath(hf.stateDir)
	if err != nil {
		return ""
	}
	b, _ := os.ReadFile(filepath.Join(dir, "serve.token"))
	return strings.TrimSpace(string(b))
}

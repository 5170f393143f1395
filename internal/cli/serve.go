//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/net/netutil"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

type serveFlags struct {
	listen      string
	allowRemote bool
	stateDir    string
	poll        time.Duration
}

func serveCmd(e *env) *cobra.Command {
	var cf configFlags
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer hook events over loopback HTTP: no process start per event",
		Long: `serve is a long-running hook endpoint. Claude Code calls it with type: http hooks
(POST /hook/claude; hookcore install claude --server URL writes them), and
"hookcore hook AGENT --server URL" forwards any agent's events to it (POST /v1/answer/AGENT).
Its decisions are those of "hookcore hook AGENT": one configuration per agent, loaded as the
hook command loads it, the same protocols, the same fail-closed answers while the config does
not load. Per-session state is kept in memory. The config files are polled (--poll) and
reloaded when they change, and before each event a configuration is rebuilt when its files,
the trust store or a script a trusted project hook runs changed. It listens on loopback only unless
--allow-remote; a request from another user than the one running serve (or from another
host) must carry "Authorization: Bearer TOKEN", the token serve writes to
STATE_DIR/serve.token (mode 0600) at start. On SIGTERM or SIGINT it stops accepting, finishes
the requests in flight and waits for async hooks.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.serve(cmd.Context(), &cf, &sf)
		},
	}
	cf.registerRun(cmd)
	cmd.Flags().StringVar(&sf.listen, "listen", "127.0.0.1:7878", "address to listen on (loopback unless --allow-remote)")
	cmd.Flags().BoolVar(&sf.allowRemote, "allow-remote", false, "allow a non-loopback --listen address (every request then needs the token)")
	cmd.Flags().StringVar(&sf.stateDir, "state-dir", "", "where serve.token and the workspaces' tripwire records are written (default $HOOKCORE_STATE_DIR, else ~/.hookcore/state)")
	cmd.Flags().DurationVar(&sf.poll, "poll", 2*time.Second, "how often the config files are checked for changes")
	return cmd
}

// server is the state of `hookcore serve`: one Runner per agent (or why there is none), the
// in-memory session state, the token.
type server struct {
	e     *env
	cf    *configFlags // the flags; each agent's Runner loads with a copy (setAgents)
	st    serveStore
	token string
	// remote is --allow-remote: the Host header may then name any host.
	remote bool
	// budget bounds the bytes of hook inputs decided at once (decideBody).
	budget *bodyBudget

	mu     sync.Mutex
	agents map[string]*agentRunner // by protocol name, built on the agent's first event
}

// agentRunner is the Runner serve answers one agent's events with, loaded as `hookcore hook
// AGENT` loads it: that agent's own hook files left out (it runs them itself), every other
// agent's loaded, Claude Code's settings included. It is rebuilt when what it was built
// from changed (see inputs).
type agentRunner struct {
	e     *env
	cf    configFlags
	st    serveStore
	agent string // the bridge's name (stopBlockCap)

	reloading sync.Mutex // one load at a time
	mu        sync.RWMutex
	r         *hookcore.Runner
	why       string  // non-empty: the config does not load, every gate event fails closed
	broken    string  // non-empty: broken entries that may be guards; gate events fail closed
	failed    string  // non-empty: files that did not load (loadRunner); see orFailed
	in        *inputs // what r (or why) was built from; nil before the first load
	stamps    *stampCache
	retired   []*hookcore.Runner
}

func newServer(e *env, cf *configFlags, token string) *server {
	return newServerAt(e, cf, token, "")
}

// serveStore is serve's state: the sessions' in memory, the workspaces' tripwire records
// in the state directory (state.Split).
type serveStore interface {
	state.Store
	state.Holder
	Forget(session string)
}

// newServerAt is newServer whose workspace records (the tripwire's, between sessions) are
// kept in the state directory stateDir, a state.Dir that outlives the server and that the
// hook command's processes share (red team round 66: with every record in memory, a
// change made after a session's end was compared by no one once serve restarted); the
// sessions' state stays in memory ("" : the records too).
func newServerAt(e *env, cf *configFlags, token, stateDir string) *server {
	st := &state.Split{Sessions: &state.Memory{}}
	if stateDir != "" {
		st.Records = &state.Dir{Path: stateDir}
	}
	return &server{e: e, cf: cf, st: st, token: token, budget: &bodyBudget{max: serveBodyBudget}, agents: map[string]*agentRunner{}}
}

// agent returns the Runner of p's events, loading it on p's first event.
func (s *server) agent(p bridge.Protocol) *agentRunner {
	s.mu.Lock()
	a := s.agents[p.Name()]
	if a == nil {
		a = &agentRunner{e: s.e, cf: *s.cf, st: s.st, agent: p.Name(), stamps: &stampCache{}}
		setAgents(&a.cf, p)
		s.agents[p.Name()] = a
	}
	s.mu.Unlock()
	return a
}

// runners returns the agents' Runners built so far.
func (s *server) runners() []*agentRunner {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*agentRunner, 0, len(s.agents))
	for _, a := range s.agents {
		out = append(out, a)
	}
	return out
}

// reload rebuilds every agent's Runner whose inputs changed (the poll).
func (s *server) reload() {
	for _, a := range s.runners() {
		a.current()
	}
}

// current returns the Runner to decide an event with, checked against its inputs now, after
// the event arrived: when they changed since it was built (a config file, the trust store,
// a script a trusted project hook runs), it is built again first, as the hook command
// builds one for each event. So serve never runs what `hookcore hook` would refuse at the
// same moment (docs/decisions.md).
func (a *agentRunner) current() (r *hookcore.Runner, why, broken, failed string) {
	a.mu.RLock()
	r, why, broken, failed, in := a.r, a.why, a.broken, a.failed, a.in
	a.mu.RUnlock()
	if in != nil && !a.e.changed(&a.cf, in) {
		return r, why, broken, failed
	}
	a.reloading.Lock()
	defer a.reloading.Unlock()
	a.mu.RLock()
	r, why, broken, failed, in = a.r, a.why, a.broken, a.failed, a.in
	a.mu.RUnlock()
	if in != nil && !a.e.changed(&a.cf, in) {
		return r, why, broken, failed // another event rebuilt it meanwhile
	}
	in = a.e.stampInputs(&a.cf, a.stamps)
	pin := func(l *loaded) {
		in.pin(l)
		in.pinEnv(a.e, &a.cf, l.projectDir)
	}
	r, why, broken, _, failed = a.e.loadRunnerThen(&a.cf, "", hookcore.Options{State: a.st, StopBlockLimit: stopBlockCap(a.agent), SessionRoots: true}, pin) // this build runs every config
	a.mu.Lock()
	if a.r != nil && r != nil {
		a.retired = append(a.retired, a.r) // its async hooks are drained on shutdown
	}
	if why != "" && why != a.why {
		fmt.Fprintln(a.e.stderr, "hookcore serve:", why)
	}
	a.r, a.why, a.broken, a.failed, a.in = r, why, broken, failed, in
	a.mu.Unlock()
	return r, why, broken, failed
}

// answer decides one event exactly as `hookcore hook` does.
func (s *server) answer(ctx context.Context, p bridge.Protocol, override string, data []byte, block bool) (bridge.Answer, hook.Event) {
	event := hook.PreToolUse
	if override != "" {
		if ev, ok := hook.ParseEvent(override); ok {
			event = ev
		}
	}
	ev, in, err := p.Decode(data, override)
	if err == nil {
		err = bridge.Incomplete(ev, in)
	}
	if err != nil {
		if override == "" && p.Name() == "claude" {
			// Claude Code's http hook takes a block only in the event's own form, which
			// PreToolUse's deny is not for UserPromptSubmit, Stop or PermissionRequest (red
			// team round 65): the event is the input's hook_event_name when that alone can
			// be read.
			if own, ok := scanEventName(data); ok {
				event = own
			}
		}
		return p.Fail(event, err.Error(), block), event
	}
	if why, own := overrideProblem(p, data, override, ev); why != "" {
		if own != "" {
			event = own
		}
		return p.Fail(event, why, block), event
	}
	r, why, broken, failed := s.agent(p).current()
	if why == "" && broken != "" && ev.Kind() == hook.Gate {
		why = broken
	}
	if why != "" {
		return p.Fail(ev, why, block), ev
	}
	fix := s.e.cwds()
	if d := s.e.budget(p.Name(), ev); d > 0 && ev.Kind() == hook.Gate {
		// As the hook command does (agentBudget): Claude Code's type: http hook to serve
		// times out too, and lets the call through (red team round 36).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errHookBudget)
		defer cancel()
	}
	note := ""
	if ev == hook.SessionStart {
		note = brokenStartNote(broken)
	}
	ans := s.e.withinBudget(ctx, p, ev, block, fireAnswer(ctx, r, p, ev, fix.Fix(in), s.st, block, note))
	return orFailed(p, ev, failed, ans), ev
}

// scanEventName returns the event an input names in its top-level hook_event_name when the
// input is one JSON object in which exactly one top-level key is hook_event_name, or equal
// to it under encoding/json's case folding, and it is spelled so and has a string value
// naming an event hookcore knows. The rest of the input may be what the agent's Decode
// refuses (a value of the wrong type, a duplicate key elsewhere): it is skipped, not read.
func scanEventName(data []byte) (hook.Event, bool) {
	const key = "hook_event_name"
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	fold := hook.FoldKey(key)
	var name string
	seen := 0
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return "", false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if hook.FoldKey(k) != fold {
			continue
		}
		seen++
		if k != key || json.Unmarshal(v, &name) != nil {
			return "", false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || seen != 1 {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false
	}
	return hook.ParseEvent(name)
}

// wireAnswer is the body of /v1/answer: the answer a hook command gives, whole.
type wireAnswer struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// writeJSON writes body as the reply, with its length: decideBody's done may flush it
// before the handler returns.
func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body) //nolint:errcheck // the client went away
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	// Claude Code's own http hooks: the body is its hook input, the reply its hook output.
	native := func(w http.ResponseWriter, req *http.Request) {
		p, ok := bridge.Lookup(req.PathValue("agent"))
		if !ok || p.Name() != "claude" {
			http.Error(w, "only Claude Code has http hooks; other agents use hookcore hook AGENT --server", http.StatusNotFound)
			return
		}
		// An input serve cannot read is answered with Claude's fail-closed JSON: Claude Code
		// reads a non-2xx reply as a non-blocking error and lets the call through (red team:
		// a body over the cap got a 413).
		ans, ev, done := s.decideBody(w, req, p, req.PathValue("event"), req.URL.Query().Get("on_error") != "allow")
		defer done(w)
		body, ok := bridge.ClaudeHTTP(ev, ans)
		if !ok {
			http.Error(w, string(body), http.StatusInternalServerError)
			return
		}
		writeJSON(w, body)
	}
	mux.HandleFunc("POST /hook/{agent}", native)
	mux.HandleFunc("POST /hook/{agent}/{event}", native)
	mux.HandleFunc("POST /v1/answer/{agent}", func(w http.ResponseWriter, req *http.Request) {
		p, ok := bridge.Lookup(req.PathValue("agent"))
		if !ok {
			http.Error(w, "unknown agent", http.StatusNotFound)
			return
		}
		ans, _, done := s.decideBody(w, req, p, req.URL.Query().Get("event"), req.URL.Query().Get("on_error") != "allow")
		defer done(w)
		body, _ := json.Marshal(wireAnswer{string(ans.Stdout), ans.Stderr, ans.Code})
		writeJSON(w, body)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") }) //nolint:errcheck
	mux.HandleFunc("GET /v1/proof", s.handleProof)
	return s.auth(mux)
}

// peerKey is the context key of a connection's *peer.
type peerKey struct{}

// peer is the client end of one connection, as auth sees it. Whether it runs as this user
// is looked up once, at the first request on the connection that lacks the token: a
// lookup reads all of /proc/net/tcp (50 ms with 16k sockets), and done for every accepted
// connection it let a local user's flood of idle connections fill the accept queue (red
// team round 33).
type peer struct {
	conn net.Conn
	once sync.Once
	same bool
}

// connContext is the http.Server's ConnContext: each connection's requests carry its peer,
// not yet looked up.
func (s *server) connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, &peer{conn: c})
}

// sameUser reports whether req came over a connection from this user (env.sameUser), looked
// up at most once per connection.
func (s *server) sameUser(req *http.Request) bool {
	p, _ := req.Context().Value(peerKey{}).(*peer)
	if p == nil {
		return false
	}
	p.once.Do(func() { p.same = p.conn != nil && s.e.sameUser(p.conn) })
	return p.same
}

// auth lets through requests with the token and, without it, those from connections of this
// same user (see sameUser, looked up only then), and a proof request (proof.go) from
// anyone. Before that it refuses, with 403, whoever sends it:
//   - a browser's request (an Origin or Sec-Fetch-Site header): a web page the user visits
//     runs as this same user and could otherwise fire their hooks with inputs of its choosing
//     by a text/plain POST, which needs no CORS preflight (red team). Agents' HTTP clients,
//     Claude Code's http hooks and `hookcore hook --server` send neither header;
//   - unless --allow-remote, a Host that is not a loopback address or localhost: a DNS
//     rebinding page reaches 127.0.0.1 under its own name.
func (s *server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Origin") != "" || req.Header.Get("Sec-Fetch-Site") != "" {
			http.Error(w, "requests from a web browser are refused (Origin or Sec-Fetch-Site header)", http.StatusForbidden)
			return
		}
		if !s.remote && !loopbackHost(req.Host) {
			http.Error(w, "Host "+strconv.Quote(req.Host)+" is not a loopback address; serve answers only to 127.0.0.1, [::1] or localhost unless --allow-remote", http.StatusForbidden)
			return
		}
		got, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
		if req.URL.Path != "/v1/proof" && !(ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1) && !s.sameUser(req) {
			http.Error(w, "a token is required (Authorization: Bearer TOKEN; see serve.token in the state directory)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, req)
	})
}

// maxServeConns caps serve's open connections: past it, new ones wait in the kernel's
// accept queue (and a `hook --server` that waits too long blocks its call, see
// defaultServerTimeout). One agent holds one per hook in flight, Claude Code's http hooks a
// few kept alive.
const maxServeConns = 256

// httpServer is serve's http.Server: its handler, the lazy peer of each connection
// (connContext) and the timeouts that close a connection holding a slot for nothing. A
// handler may run longer than all of them: hooks have their own timeouts, and the read
// deadline is lifted once the body is read.
func (s *server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s.handler(),
		ConnContext:       s.connContext,
		ReadHeaderTimeout: 10 * time.Second, // the request line and headers
		ReadTimeout:       30 * time.Second, // the whole request, body included (at most maxInput)
		IdleTimeout:       30 * time.Second, // a kept-alive connection between requests
	}
}

// loopbackHost reports whether a Host header (host or host:port) names a loopback IP
// address or localhost.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

func (e *env) serve(ctx context.Context, cf *configFlags, sf *serveFlags) error {
	host, _, err := net.SplitHostPort(sf.listen)
	if err != nil {
		return &exitError{code: ExitFailure, msg: fmt.Sprintf("--listen %q: %v", sf.listen, err)}
	}
	if ip := net.ParseIP(host); !sf.allowRemote && (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return &exitError{code: ExitFailure, msg: fmt.Sprintf("--listen %s is not a loopback address; pass --allow-remote to serve other hosts", sf.listen)}
	}
	token, err := e.writeToken(sf.stateDir)
	if err != nil {
		return &exitError{code: ExitFailure, msg: "serve token: " + err.Error()}
	}
	stateDir, err := e.stateDirPath(sf.stateDir) // writeToken checked it
	if err != nil {
		return &exitError{code: ExitFailure, msg: "serve state: " + err.Error()}
	}
	e.bundleCache = stateDir // rego bundles: a restart starts from the last one
	s := newServerAt(e, cf, token, stateDir)
	s.remote = sf.allowRemote
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	ln = netutil.LimitListener(ln, maxServeConns)
	srv := s.httpServer()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		t := time.NewTicker(sf.poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.reload()
			}
		}
	}()
	fmt.Fprintf(e.stderr, "hookcore serve: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		fmt.Fprintln(e.stderr, "hookcore serve: shutdown:", err)
	}
	var runners []*hookcore.Runner
	for _, a := range s.runners() {
		a.mu.Lock()
		runners = append(runners, a.retired...)
		runners = append(runners, a.r)
		a.mu.Unlock()
	}
	for _, r := range runners {
		if r != nil {
			if err := r.Close(shutCtx); err != nil {
				fmt.Fprintln(e.stderr, "hookcore serve: async hooks still running:", err)
			}
		}
	}
	return nil
}

// writeToken creates a fresh random token in DIR/serve.token (0600) and returns it.
func (e *env) writeToken(dir string) (string, error) {
	dir, err := e.stateDirPath(dir)
	if err != nil {
		return "", err
	}
	// The state store's own check (red team round 34: in a shared --state-dir another user
	// read the token, or had serve write it through a planted link over a file of the
	// user's), and a new file renamed into place: a link there is replaced, not followed.
	if err := state.PrepareDir(dir); err != nil {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(b)
	tmp, err := os.CreateTemp(dir, ".serve.token-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(tok + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return tok, os.Rename(tmp.Name(), filepath.Join(dir, "serve.token"))
}

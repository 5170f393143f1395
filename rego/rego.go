// Package rego is hookcore's `type: rego` executor (issue 12): a hook decided by an Open
// Policy Agent policy, with OPA embedded as a Go library (github.com/open-policy-agent/opa,
// its v1 API). The policy comes from files or a directory of .rego files, from a local
// bundle (.tar.gz or a bundle directory), or from a bundle service polled as OPA polls it
// (ETag, optional signature verification, the last good bundle kept while the service is
// down). Decisions can be sent to an OPA decision-log service.
//
// The input document is the hook input as Claude Code sends it (input.hook_event_name,
// input.tool_name, input.tool_input.command, input.cwd, ...). The query (default
// "data.hookcore") must give an object; its keys map onto hookcore's decision:
//
//	deny                true, a non-empty set or array of strings, or a string: block; the
//	                    strings (joined by "; ") are the reason unless `reason` is set
//	ask                 the same shapes: ask the user (Permission ask)
//	allow               true: Permission allow
//	reason              string: the reason of a deny, ask or allow
//	updated_input       object: the rewritten tool input (whole)
//	additional_context  string, or a set or array of strings (joined by a newline)
//	system_message      string: shown to the user
//
// An undefined query result or an empty object decides nothing. A policy that does not
// compile, a query that fails (a conflict, a builtin error) or a result of another shape is
// an error of that hook: with `on_error: block` it blocks (fail-closed), as the examples do.
// The query is compiled once when the hook is built (and again only when a new bundle
// arrives), never per event. When it names a package (the default), each decision key and
// each other rule of the package is compiled as a query of its own and evaluated with
// OPA's topdown directly (keyed.go): the same decision and the same errors as the whole
// document, without evaluating a key whose rules cannot hold for the event.
//
// At the same time a prefilter is derived from the compiled policy: the conditions on
// input (input.tool_name == "Bash", contains(input.tool_input.command, "rm"), ...) that
// every input-dependent rule's body needs before anything else. An event that meets none
// is not evaluated: its decision is the one computed at load for the empty input {}, which
// the policy provably gives it too (no allocation, no OPA call). A policy the analysis cannot
// bound (a rule whose body does not start with such a condition, `with`, a non-deterministic
// builtin, a query that reads input) gets no prefilter, nor does a hook whose decisions are
// logged; every event is then evaluated. See prefilter.go and TestPrefilterSound.
package rego

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/hookcore/hookcore/hook"
)

// DefaultQuery is the query of a hook that names none: the document of package hookcore.
const DefaultQuery = "data.hookcore"

// DefaultPoll is the bundle service's polling interval when none is given (OPA's default
// min_delay_seconds is 60).
const DefaultPoll = 60 * time.Second

// DefaultMaxStale is how old a cached bundle may be and still be used while the bundle
// service fails (Options.MaxStale).
const DefaultMaxStale = 24 * time.Hour

// MaxBundleBytes caps a downloaded bundle (64 MiB).
const MaxBundleBytes = 64 << 20

// Options configure one rego executor.
type Options struct {
	HookID string
	// Policy is a .rego file, a directory of them (searched recursively; *_test.rego files
	// are left out), or a bundle: a .tar.gz file, or a directory holding a .manifest.
	Policy string
	// BundleURL is a bundle service's URL of one bundle (GET, ETag). With Policy empty it is
	// the only source; the first download happens in New.
	BundleURL string
	// Poll is the interval between bundle downloads; 0 means DefaultPoll.
	Poll time.Duration
	// Query is the Rego query; "" means DefaultQuery.
	Query string
	// VerificationKey, when set, is the PEM public key (or the HMAC secret) that a downloaded
	// bundle's signature must verify with; KeyID names it (default "hookcore") and Algorithm
	// is its algorithm (default RS256). Without it, bundles are not verified.
	VerificationKey, KeyID, Algorithm string
	// DecisionLogURL, when set, receives every decision as OPA's decision-log service API
	// does: gzip'ed JSON arrays POSTed in the background (see DecisionLogger).
	DecisionLogURL string
	// HTTPClient downloads bundles and sends decision logs; nil: http.DefaultClient. The CLI
	// passes the SSRF-guarded client of http hooks.
	HTTPClient *http.Client
	Logger     *slog.Logger
	// CacheDir, when set, keeps the last good bundle of BundleURL on disk (see cache.go): a
	// new process (the hook command runs one per event) starts from it instead of
	// downloading at every event, and falls back to it, up to MaxStale old, while the
	// bundle service is unreachable. "" keeps bundles in memory only.
	CacheDir string
	// MaxStale is how old a cached bundle may be and still be used while the bundle
	// service fails; 0 means DefaultMaxStale.
	MaxStale time.Duration
}

// Executor is a compiled rego hook. It is safe for concurrent use; Close stops its bundle
// poller and flushes its decision log.
type Executor struct {
	opts     Options
	query    string
	log      *slog.Logger
	prepared atomic.Pointer[policy]
	logs     *DecisionLogger

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
	etag     string // poller goroutine only
}

// policy is one compiled version of the policy.
type policy struct {
	pq       rego.PreparedEvalQuery
	keyed    *keyed // the query names a package: its decision keys are queried one by one
	revision string // the bundle's manifest revision, "" for files
	// pre, when set, tells the events the policy cannot decide differently from the
	// empty input {}; base is the decision for {} (see prefilter).
	pre  *prefilter
	base hook.Decision
}

// New compiles the policy. Errors: no policy source, a policy that does not compile, a
// first bundle download that fails (the service must be reachable when the hook is built;
// after that, a failing service keeps the last good bundle).
func New(ctx context.Context, o Options) (*Executor, error) {
	x := &Executor{opts: o, query: o.Query, log: o.Logger, stop: make(chan struct{})}
	if x.query == "" {
		x.query = DefaultQuery
	}
	if x.log == nil {
		x.log = slog.New(slog.DiscardHandler)
	}
	if x.opts.HTTPClient == nil {
		x.opts.HTTPClient = http.DefaultClient
	}
	if x.opts.Poll <= 0 {
		x.opts.Poll = DefaultPoll
	}
	if x.opts.MaxStale <= 0 {
		x.opts.MaxStale = DefaultMaxStale
	}
	if _, err := ast.ParseBody(x.query); err != nil {
		return nil, fmt.Errorf("rego query %q: %w", x.query, err)
	}
	switch {
	case o.Policy != "":
		p, err := x.compileLocal(ctx)
		if err != nil {
			return nil, err
		}
		x.prepared.Store(p)
	case o.BundleURL != "":
		if err := x.start(ctx); err != nil {
			return nil, fmt.Errorf("rego bundle %s: %w", o.BundleURL, err)
		}
	default:
		return nil, errors.New("rego hook needs a policy (file, directory or bundle) or a bundle_url")
	}
	if o.DecisionLogURL != "" {
		x.logs = NewDecisionLogger(o.DecisionLogURL, x.opts.HTTPClient, x.log)
	}
	if o.BundleURL != "" {
		x.wg.Add(1)
		go x.poll()
	}
	return x, nil
}

func (x *Executor) compileLocal(ctx context.Context) (*policy, error) {
	p := x.opts.Policy
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("rego policy: %w", err)
	}
	opts := []func(*rego.Rego){rego.Query(x.query)}
	isBundle := strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz")
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, ".manifest")); err == nil {
			isBundle = true
		}
	}
	if isBundle {
		opts = append(opts, rego.LoadBundle(p))
	} else {
		opts = append(opts, rego.Load([]string{p}, func(abspath string, info fs.FileInfo, depth int) bool {
			return !info.IsDir() && (strings.HasSuffix(info.Name(), "_test.rego") || !strings.HasSuffix(info.Name(), ".rego") && !strings.HasSuffix(info.Name(), ".json") && !strings.HasSuffix(info.Name(), ".yaml"))
		}))
	}
	pol, err := x.prepare(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("rego policy %s: %w", p, err)
	}
	return pol, nil
}

// prepare compiles the query with opts (the policy's source) into a store of its own,
// then derives the keyed queries and the prefilter.
func (x *Executor) prepare(ctx context.Context, opts ...func(*rego.Rego)) (*policy, error) {
	store := inmem.New()
	txn, err := store.NewTransaction(ctx, storage.WriteParams)
	if err != nil {
		return nil, err
	}
	var c *ast.Compiler
	opts = append(opts, rego.Store(store), rego.Transaction(txn), rego.CompilerHook(func(cc *ast.Compiler) { c = cc }))
	pq, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		store.Abort(ctx, txn)
		return nil, err
	}
	if err := store.Commit(ctx, txn); err != nil {
		return nil, err
	}
	pol := &policy{pq: pq}
	if c != nil {
		pol.keyed = newKeyed(ctx, c, store, x.query)
	}
	x.withPrefilter(ctx, pol, c)
	return pol, nil
}

// withPrefilter derives pol's prefilter from its compiler c, unless decisions are logged
// (every decision is then evaluated and logged as OPA would) or the decision for the empty
// input {} is an error (a skipped event would hide it).
func (x *Executor) withPrefilter(ctx context.Context, pol *policy, c *ast.Compiler) {
	if c == nil || x.opts.DecisionLogURL != "" {
		return
	}
	q, err := ast.ParseBody(x.query)
	if err != nil {
		return
	}
	pre := newPrefilter(c, q)
	empty := &hook.Input{}
	if pre == nil || pre.mayDecide(empty) {
		return
	}
	result, err := x.result(ctx, pol, empty, false)
	if err != nil {
		return
	}
	base := hook.Decision{ExitCode: -1}
	if err := apply(&base, result); err != nil {
		return
	}
	if pol.keyed != nil {
		m, _ := result.(map[string]any)
		pol.keyed.withGuards(pre, m)
	}
	pol.pre, pol.base = pre, base
	x.log.Debug("rego prefilter: only these events are evaluated", "hook", x.opts.HookID, "when", pre.String())
}

// Execute evaluates the query with the hook input as input. An event the policy's
// prefilter rules out is not evaluated: its decision is the one for the empty input.
func (x *Executor) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	p := x.prepared.Load()
	if p == nil {
		return hook.Decision{ExitCode: -1}, fmt.Errorf("rego hook %q: %w: no policy loaded", x.opts.HookID, hook.ErrNotStarted)
	}
	if p.pre != nil && ctx.Err() == nil && !p.pre.mayDecide(in) && inputValid(in) {
		dec := p.base
		dec.UpdatedInput = bytes.Clone(dec.UpdatedInput)
		return dec, nil
	}
	return x.decide(ctx, p, in, p.pre != nil)
}

// evaluate is Execute without the prefilter.
func (x *Executor) evaluate(ctx context.Context, p *policy, in *hook.Input) (hook.Decision, error) {
	return x.decide(ctx, p, in, false)
}

// decide evaluates the policy for in (with guarded, the keys whose guards are false keep
// their values for {}) and maps the result onto a decision.
func (x *Executor) decide(ctx context.Context, p *policy, in *hook.Input, guarded bool) (hook.Decision, error) {
	dec := hook.Decision{ExitCode: -1}
	result, err := x.result(ctx, p, in, guarded)
	if err != nil {
		return dec, fmt.Errorf("rego hook %q: %w", x.opts.HookID, err)
	}
	if err := apply(&dec, result); err != nil {
		return hook.Decision{ExitCode: -1}, fmt.Errorf("rego hook %q: query %s: %w", x.opts.HookID, x.query, err)
	}
	return dec, nil
}

// result is the query's value for in (nil: undefined), logged when decisions are logged.
func (x *Executor) result(ctx context.Context, p *policy, in *hook.Input, guarded bool) (any, error) {
	start := time.Now()
	var result any
	var err error
	if p.keyed != nil {
		var m map[string]any
		m, err = p.keyed.eval(ctx, in, guarded)
		if m != nil {
			result = m
		}
	} else {
		var input ast.Value
		if input, err = inputValue(in); err == nil {
			var rs rego.ResultSet
			rs, err = p.pq.Eval(ctx, rego.EvalParsedInput(input))
			if err == nil && len(rs) > 0 && len(rs[0].Expressions) > 0 {
				result = rs[0].Expressions[0].Value
			}
		}
	}
	if x.logs != nil {
		raw, merr := json.Marshal(in)
		if merr == nil {
			x.logDecision(p, raw, result, err, start)
		}
	}
	return result, err
}

// apply maps a query result onto dec (the contract in the package doc).
func apply(dec *hook.Decision, result any) error {
	if result == nil {
		return nil
	}
	m, ok := result.(map[string]any)
	if !ok {
		return fmt.Errorf("the result is a %T, want an object (deny, ask, allow, reason, updated_input, additional_context)", result)
	}
	reason, _ := m["reason"].(string)
	if v, ok := m["reason"]; ok {
		if _, isStr := v.(string); !isStr {
			return fmt.Errorf("reason is a %T, want a string", v)
		}
	}
	deny, denyMsgs, err := flag(m, "deny")
	if err != nil {
		return err
	}
	ask, askMsgs, err := flag(m, "ask")
	if err != nil {
		return err
	}
	switch {
	case deny:
		dec.Block, dec.Permission = true, hook.Deny
		dec.Reason = firstNonEmpty(reason, strings.Join(denyMsgs, "; "), "denied by policy")
	case ask:
		dec.Permission = hook.Ask
		dec.Reason = firstNonEmpty(reason, strings.Join(askMsgs, "; "))
	default:
		if v, ok := m["allow"]; ok {
			b, isBool := v.(bool)
			if !isBool {
				return fmt.Errorf("allow is a %T, want a boolean", v)
			}
			if b {
				dec.Permission = hook.Allow
				dec.Reason = reason
			}
		}
	}
	if v, ok := m["updated_input"]; ok && v != nil {
		obj, isObj := v.(map[string]any)
		if !isObj {
			return fmt.Errorf("updated_input is a %T, want an object", v)
		}
		b, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		dec.UpdatedInput = b
	}
	if v, ok := m["additional_context"]; ok {
		strs, err := stringsOf(v)
		if err != nil {
			return fmt.Errorf("additional_context: %w", err)
		}
		dec.AdditionalContext = strings.Join(strs, "\n")
	}
	if v, ok := m["system_message"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return fmt.Errorf("system_message is a %T, want a string", v)
		}
		dec.SystemMessage = s
	}
	return nil
}

// flag reads deny or ask: true, a string, or a set/array of strings (non-empty = set).
func flag(m map[string]any, key string) (bool, []string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return false, nil, nil
	}
	if b, isBool := v.(bool); isBool {
		return b, nil, nil
	}
	strs, err := stringsOf(v)
	if err != nil {
		return false, nil, fmt.Errorf("%s: %w", key, err)
	}
	return len(strs) > 0, strs, nil
}

func stringsOf(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil, nil
		}
		return []string{x}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("an element is a %T, want strings", e)
			}
			out = append(out, s)
		}
		sort.Strings(out) // a Rego set has no order; make the reason stable
		return out, nil
	}
	return nil, fmt.Errorf("a %T, want a string or a set of strings", v)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// Revision is the revision of the bundle in use ("" for a policy from files).
func (x *Executor) Revision() string {
	if p := x.prepared.Load(); p != nil {
		return p.revision
	}
	return ""
}

// Close stops the bundle poller and flushes the decision log (waiting at most ctx).
func (x *Executor) Close() error {
	x.stopOnce.Do(func() { close(x.stop) })
	x.wg.Wait()
	if x.logs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return x.logs.Close(ctx)
	}
	return nil
}

// poll downloads the bundle every Poll until Close.
func (x *Executor) poll() {
	defer x.wg.Done()
	t := time.NewTicker(x.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-x.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*x.opts.Poll+30*time.Second)
		if err := x.download(ctx); err != nil {
			x.log.Warn("rego bundle download failed; the last good bundle stays in use", "hook", x.opts.HookID, "url", x.opts.BundleURL, "revision", x.Revision(), "err", err)
		}
		cancel()
	}
}

// download fetches the bundle once (If-None-Match with the last ETag) and, when a new one
// arrives and compiles, swaps it in and caches it (Options.CacheDir); a 304 refreshes the
// cache's time.
func (x *Executor) download(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, x.opts.BundleURL, nil)
	if err != nil {
		return err
	}
	if x.etag != "" {
		req.Header.Set("If-None-Match", x.etag)
	}
	req.Header.Set("Accept", "application/gzip, application/vnd.openpolicyagent.bundles")
	resp, err := x.opts.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotModified:
		if err := x.touchCache(); err != nil {
			x.log.Warn("rego bundle cache not refreshed", "hook", x.opts.HookID, "url", x.opts.BundleURL, "err", err)
		}
		return nil
	case http.StatusOK:
	default:
		return fmt.Errorf("bundle service answered %s", resp.Status)
	}
	etag := resp.Header.Get("ETag")
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxBundleBytes+1))
	if err != nil {
		return fmt.Errorf("read bundle: %w", err)
	}
	if len(raw) > MaxBundleBytes {
		return fmt.Errorf("read bundle: more than %d bytes", MaxBundleBytes)
	}
	if err := x.activate(ctx, raw, etag); err != nil {
		return err
	}
	x.etag = etag
	x.log.Info("rego bundle activated", "hook", x.opts.HookID, "revision", x.Revision())
	if err := x.writeCache(raw, etag); err != nil {
		x.log.Warn("rego bundle not cached", "hook", x.opts.HookID, "url", x.opts.BundleURL, "err", err)
	}
	return nil
}

// activate reads raw as a bundle (size limit; the signature when a verification key is
// set), compiles it and swaps it in: for a download and for a cached bundle alike.
func (x *Executor) activate(ctx context.Context, raw []byte, etag string) error {
	rd := bundle.NewReader(bytes.NewReader(raw)).WithSizeLimitBytes(MaxBundleBytes).WithBundleEtag(etag)
	if x.opts.VerificationKey != "" {
		id := firstNonEmpty(x.opts.KeyID, "hookcore")
		alg := firstNonEmpty(x.opts.Algorithm, "RS256")
		vc := bundle.NewVerificationConfig(map[string]*bundle.KeyConfig{id: {Key: x.opts.VerificationKey, Algorithm: alg}}, id, "", nil)
		rd = rd.WithBundleVerificationConfig(vc)
	}
	b, err := rd.Read()
	if err != nil {
		return fmt.Errorf("read bundle: %w", err)
	}
	pol, err := x.prepare(ctx, rego.Query(x.query), rego.ParsedBundle("hookcore", &b))
	if err != nil {
		return fmt.Errorf("compile bundle: %w", err)
	}
	pol.revision = b.Manifest.Revision
	x.prepared.Store(pol)
	return nil
}

func (x *Executor) logDecision(p *policy, input json.RawMessage, result any, evalErr error, start time.Time) {
	if x.logs == nil {
		return
	}
	ev := DecisionEvent{
		DecisionID: newID(),
		Path:       strings.TrimPrefix(strings.ReplaceAll(x.query, ".", "/"), "data/"),
		Timestamp:  start.UTC(),
		Labels:     map[string]string{"agent": "hookcore", "hook": x.opts.HookID},
	}
	ev.Input = input
	if result != nil {
		if b, err := json.Marshal(result); err == nil {
			ev.Result = b
		}
	}
	if evalErr != nil {
		ev.Error = evalErr.Error()
	}
	if p.revision != "" {
		ev.Bundles = map[string]BundleInfo{"hookcore": {Revision: p.revision}}
	}
	ev.Metrics = map[string]int64{"timer_rego_query_eval_ns": time.Since(start).Nanoseconds()}
	x.logs.Log(ev)
}

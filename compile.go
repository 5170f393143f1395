package hookcore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/trust"
)

// compiled is one hook ready to run: its matcher, filter and executor built once (STYLE.md:
// config is plain data; compile at construction).
type compiled struct {
	order    int // position in the Runner's hook list: config order, then callbacks
	id       string
	typ      string
	source   string
	target   string // for the approver: command line, URL, model, callback name
	event    hook.Event
	matcher  *match.Matcher
	cond     *match.If
	exec     hook.Executor
	blocking bool // may veto (codebot `blocking`, default true)
	reject   bool // MiniCode `reject: true`
	once     bool
	async    bool
	parallel bool
	failShut bool   // on_error: block
	skip     string // non-empty: never run, recorded as skipped with this reason
	inert    string // non-empty: passes the gates (approval, once), then is skipped with this reason

	onceMu    sync.Mutex
	onceFired map[string]bool // session id → fired
}

// keyer is implemented by executors whose identical runs are deduplicated within one event
// (Claude Code dedups identical command hooks): Key returns the command after placeholder
// expansion plus its working directory.
type keyer interface {
	Key(in *hook.Input) string
}

// eventHooks indexes the hooks of one event so that a call that no hook matches costs one map
// lookup and no allocation (DESIGN.md section 5).
type eventHooks struct {
	// field and kind are the event's MatchField and Kind, looked up once here because the
	// registry lookup costs a name normalisation per call.
	field  string
	kind   hook.Kind
	all    []*compiled
	any    []*compiled            // matcher is any or a regular expression: tested one by one
	byName map[string][]*compiled // exact-name matchers, by lower-cased name
}

// hookSet is the compiled, immutable hook set of a Runner; Reload swaps it whole.
type hookSet struct {
	events map[hook.Event]*eventHooks
	count  int
}

func (r *Runner) compile(set *config.Set) (*hookSet, error) {
	hs := &hookSet{events: make(map[hook.Event]*eventHooks)}
	untrusted := r.untrustedReason(set)
	var errs []error
	order := 0
	add := func(c *compiled) {
		c.order = order
		order++
		eh := hs.events[c.event]
		if eh == nil {
			eh = &eventHooks{field: c.event.MatchField(), kind: c.event.Kind(), byName: make(map[string][]*compiled)}
			hs.events[c.event] = eh
		}
		eh.all = append(eh.all, c)
		if names := c.matcher.Names(); names != nil {
			seen := map[string]bool{}
			for _, n := range names {
				k := strings.ToLower(n)
				if !seen[k] {
					seen[k] = true
					eh.byName[k] = append(eh.byName[k], c)
				}
			}
		} else {
			eh.any = append(eh.any, c)
		}
		hs.count++
	}
	if set != nil && !DisablesAll(set, untrusted == "") {
		for _, f := range set.Files {
			skip := ""
			if f.Layer == config.Project || f.Layer == config.Local {
				skip = untrusted
			}
			for i := range f.Hooks {
				h := &f.Hooks[i]
				if !h.Enabled {
					continue
				}
				c, err := r.compileHook(h, f)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %s: %w", h.Pos, h.ID, err))
					continue
				}
				c.skip = skip
				add(c)
			}
		}
	}
	for i, cb := range r.opts.Callbacks {
		c, err := compileCallback(i, cb)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		add(c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return hs, nil
}

// untrustedReason returns why project and local hooks must not run, or "" when they may.
func (r *Runner) untrustedReason(set *config.Set) string {
	if r.opts.Trust == nil || set == nil {
		return ""
	}
	if !hasProjectLayer(set) {
		return ""
	}
	ok, err := r.opts.Trust.Trusted(r.projectDir, TrustDigest(set))
	switch {
	case err != nil:
		return "workspace trust could not be checked: " + err.Error()
	case !ok:
		return "workspace not trusted: project hooks do not run until you run `hookcore trust grant` (or pass --trust)"
	}
	return ""
}

func (r *Runner) compileHook(h *config.Hook, f *config.File) (*compiled, error) {
	m, err := match.CompileMatcher(h.Matcher)
	if err != nil {
		return nil, err
	}
	cond, err := match.CompileIf(h.If)
	if err != nil {
		return nil, err
	}
	c := &compiled{
		id:       h.ID,
		typ:      h.Action.Type,
		source:   h.Source(),
		event:    h.Event,
		matcher:  m,
		cond:     cond,
		blocking: h.Blocking,
		reject:   h.Reject,
		once:     h.Once,
		async:    h.Async,
		parallel: h.Parallel || f.Parallel || r.opts.Parallel,
		failShut: h.OnError == "block",
	}
	timeout := h.EffectiveTimeout()
	switch h.Action.Type {
	case "command":
		codes, err := exitActions(h.ExitCodes)
		if err != nil {
			return nil, err
		}
		c.exec = &executor.Command{
			HookID:     h.ID,
			Command:    h.Action.Command,
			Args:       h.Action.Args,
			Timeout:    timeout,
			ExitCodes:  codes,
			Codebot:    h.Dialect == config.Flat,
			ProjectDir: r.projectDir,
			Env:        r.hookEnv(f),
		}
		c.target = h.Action.Command
		if c.target == "" {
			c.target = strings.Join(h.Action.Args, " ")
		}
	case "inject":
		c.exec = &executor.Inject{Message: h.Action.Message}
		c.target = "inject"
	case "func":
		fn, ok := r.opts.Funcs[h.Action.Name]
		if !ok {
			return nil, fmt.Errorf("func hook names %q, which the program did not register", h.Action.Name)
		}
		c.exec = &executor.Func{Fn: fn}
		c.target = h.Action.Name
	default:
		ex, target, err := r.externalExecutor(h, timeout)
		if err != nil {
			return nil, err
		}
		c.exec, c.target = ex, target
		if s, ok := ex.(skipping); ok {
			c.inert = string(s)
		}
	}
	if timeout > 0 && h.Action.Type != "command" {
		c.exec = withTimeout(c.exec, timeout)
	}
	return c, nil
}

func compileCallback(i int, cb Callback) (*compiled, error) {
	id := cb.ID
	if id == "" {
		id = fmt.Sprintf("func#%d", i+1)
	}
	ev, ok := hook.ParseEvent(string(cb.Event))
	if !ok {
		return nil, fmt.Errorf("callback %s: unknown event %q", id, cb.Event)
	}
	if cb.Func == nil {
		return nil, fmt.Errorf("callback %s: Func is nil", id)
	}
	m, err := match.CompileMatcher(cb.Matcher)
	if err != nil {
		return nil, fmt.Errorf("callback %s: %w", id, err)
	}
	cond, err := match.CompileIf(cb.If)
	if err != nil {
		return nil, fmt.Errorf("callback %s: %w", id, err)
	}
	return &compiled{
		id: id, typ: "func", source: "callback", target: id, event: ev,
		matcher: m, cond: cond, exec: &executor.Func{Fn: cb.Func},
		blocking: !cb.NonBlocking,
	}, nil
}

func exitActions(m map[int]string) (map[int]executor.ExitAction, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[int]executor.ExitAction, len(m))
	for code, name := range m {
		a, ok := executor.ParseExitAction(name)
		if !ok {
			return nil, fmt.Errorf("exit_codes: unknown action %q for exit code %d", name, code)
		}
		out[code] = a
	}
	return out, nil
}

// withTimeout bounds an executor that has no timeout of its own.
func withTimeout(ex hook.Executor, d time.Duration) hook.Executor {
	return hook.ExecutorFunc(func(ctx context.Context, in *hook.Input) (hook.Decision, error) {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		dec, err := ex.Execute(ctx, in)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, hook.ErrTimeout) {
			err = fmt.Errorf("%w after %s: %v", hook.ErrTimeout, d, err)
		}
		return dec, err
	})
}

// DisablesAll reports whether set turns every hook off (disable_all_hooks: true in a file
// that may speak for the user). The project and local files of an untrusted workspace may
// not: a repository must not switch off the user's own guards. projectTrusted says whether
// those layers are trusted (true when no trust gate applies).
func DisablesAll(set *config.Set, projectTrusted bool) bool {
	for _, f := range set.Files {
		if f.DisableAll && (projectTrusted || (f.Layer != config.Project && f.Layer != config.Local)) {
			return true
		}
	}
	return false
}

func hasProjectLayer(set *config.Set) bool {
	for _, f := range set.Files {
		if f.Layer == config.Project || f.Layer == config.Local {
			return true
		}
	}
	return false
}

// TrustDigest returns the digest that workspace trust is recorded against for set: the paths
// and content hashes of its project and local layer files (see package trust).
func TrustDigest(set *config.Set) string {
	var parts []string
	for _, f := range set.Files {
		if f.Layer == config.Project || f.Layer == config.Local {
			parts = append(parts, f.Path+"\x00"+f.Hash)
		}
	}
	return trust.Digest(parts...)
}

// hookEnv is the base environment of f's command hooks: Options.Env (or the process's),
// plus HOOKCORE_CONFIG_DIR, the directory of the config file that declares the hook, so a
// config can name the scripts beside it wherever it is loaded from.
func (r *Runner) hookEnv(f *config.File) []string {
	base := r.opts.Env
	if base == nil {
		base = os.Environ()
	}
	dir := filepath.Dir(f.Path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return append(slices.Clip(base), "HOOKCORE_CONFIG_DIR="+dir)
}

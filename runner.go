package hookcore

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/hookcore/hookcore/config"
)

// Runner runs the hooks of a config set at each lifecycle event. It is safe for concurrent
// use by several goroutines and sessions. Build it with New or Load; call Close when done.
type Runner struct {
	opts       Options
	log        *slog.Logger
	projectDir string
	root       string // projectDir made absolute and clean; "" when that failed
	hooks      atomic.Pointer[hookSet]

	async   sync.WaitGroup
	asyncMu sync.Mutex // orders async.Add against Close, so that Close never misses a hook
	closed  atomic.Bool
	stopsMu sync.Mutex
	stops   map[string]int // session id → consecutive Stop-type blocks this turn
	auditMu sync.Mutex
}

// New compiles the hooks of set (which may be nil: callbacks only) into a Runner. Every
// matcher, condition and command is compiled once here; an error names the hook
// (file:line:col: id: message) and no Runner is returned. A set should come from
// config.Load, whose validation catches the same errors with better positions.
func New(set *config.Set, opts Options) (*Runner, error) {
	r := &Runner{opts: opts, log: opts.Logger, stops: map[string]int{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.projectDir = opts.ProjectDir
	if r.projectDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("project dir: %w", err)
		}
		r.projectDir = wd
	}
	if abs, err := filepath.Abs(r.projectDir); err == nil {
		r.root = filepath.ToSlash(abs) // path rules of `if` are anchored here
	}
	hs, err := r.compile(set)
	if err != nil {
		return nil, err
	}
	r.hooks.Store(hs)
	return r, nil
}

// Load loads the config files (see config.Load: validated, all problems at once) and builds
// a Runner from them. A config error returns the config.ErrorList's error, whose message
// lists every problem as file:line:col: hook-id: message — except errors only in the
// project and local layers of a workspace that Options.Trust does not trust
// (UntrustedErrorsOnly): those are logged and ignored, and the user's own hooks run.
func Load(paths []config.LayerPath, opts Options) (*Runner, error) {
	set, errs := config.Load(paths)
	if err := errs.Err(); err != nil {
		workspace := opts.ProjectDir
		if workspace == "" {
			workspace, _ = os.Getwd()
		}
		if !UntrustedErrorsOnly(set, errs, opts.Trust, workspace) {
			return nil, err
		}
		if opts.Logger != nil {
			opts.Logger.Warn("workspace not trusted: the errors in its project config are ignored and its hooks do not run", "errors", err.Error())
		}
	}
	return New(set, opts)
}

// Reload swaps the Runner's hooks for those of set, atomically: events already running
// finish with the old hooks. A set that does not compile leaves the running hooks untouched
// and returns the error.
func (r *Runner) Reload(set *config.Set) error {
	hs, err := r.compile(set)
	if err != nil {
		return err
	}
	r.hooks.Store(hs)
	return nil
}

// Len returns the number of hooks the Runner holds (config hooks and callbacks).
func (r *Runner) Len() int { return r.hooks.Load().count }

// Close waits for the async hooks still running, or until ctx is done (then it returns
// ctx's error; the hooks keep running until their own timeouts). Fire after Close still
// works but starts no new async hooks.
func (r *Runner) Close(ctx context.Context) error {
	r.asyncMu.Lock()
	r.closed.Store(true)
	r.asyncMu.Unlock()
	done := make(chan struct{})
	go func() { r.async.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Runner) audit(res any) {
	if r.opts.AuditLog == nil {
		return
	}
	line, err := json.Marshal(res)
	if err != nil {
		r.log.Error("audit log", "err", err)
		return
	}
	r.auditMu.Lock()
	defer r.auditMu.Unlock()
	if _, err := r.opts.AuditLog.Write(append(line, '\n')); err != nil {
		r.log.Error("audit log", "err", err)
	}
}

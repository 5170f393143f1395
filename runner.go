package hookcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// Runner runs the hooks of a config set at each lifecycle event. It is safe for concurrent
// use by several goroutines and sessions. Build it with New or Load; call Close when done.
type Runner struct {
	opts Options
	// bounds are the tripwire's walk bounds; zero: tripwireMaxFiles and tripwireMaxStat.
	bounds     walkBounds
	log        *slog.Logger
	projectDir string
	// hookProgram and hookStartup are Options.HookProgram and HookStartup: what `changes
	// hook_program` protects.
	hookProgram []string
	hookStartup []string
	hookConfig  []string // Options.HookConfig: what `changes hook_config` protects
	armTripwire bool     // Options.ArmTripwire
	root        string   // projectDir made absolute and clean; "" when that failed
	agentDir    string   // Options.AgentProjectDir, clean, when absolute; else ""
	hooks       atomic.Pointer[hookSet]

	async   sync.WaitGroup
	asyncMu sync.Mutex // orders async.Add against Close, so that Close never misses a hook
	closed  atomic.Bool
	// asyncStarted counts the async hooks ever started (under asyncMu): with none, Close
	// has nothing to wait for and starts no goroutine (a hook process's exit path).
	asyncStarted int
	// asyncCtx is done once CancelAsync was called: every async hook's context ends with it.
	asyncCtx    context.Context
	cancelAsync context.CancelFunc
	state       state.Store // per-session state (once, Stop-block streaks): outlives Reload
	auditMu     sync.Mutex
	tel         *telemetry // nil: no tracing, no metrics
}

// New compiles the hooks of set (which may be nil: callbacks only) into a Runner. Every
// matcher, condition and command is compiled once here; an error names the hook
// (file:line:col: id: message) and no Runner is returned. A set should come from
// config.Load, whose validation catches the same errors with better positions.
func New(set *config.Set, opts Options) (*Runner, error) {
	r := &Runner{opts: opts, log: opts.Logger, state: opts.State, tel: newTelemetry(opts)}
	if r.state == nil {
		r.state = &state.Memory{}
	}
	r.asyncCtx, r.cancelAsync = context.WithCancel(context.Background())
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.projectDir = opts.ProjectDir
	r.hookProgram = slices.Clone(opts.HookProgram)
	r.hookStartup = slices.Clone(opts.HookStartup)
	r.hookConfig = slices.Clone(opts.HookConfig)
	r.armTripwire = opts.ArmTripwire
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
	if d := opts.AgentProjectDir; d != "" && filepath.IsAbs(d) {
		r.agentDir = filepath.ToSlash(filepath.Clean(d))
	}
	hs, err := r.compile(set)
	if err != nil {
		return nil, err
	}
	r.hooks.Store(hs)
	return r, nil
}

// Load loads the config files (see config.Load: validated, all problems at once) and builds
// a Runner from them. A file that cannot be loaded as a whole (FatalProblems) returns an
// error whose message lists its problems as file:line:col: hook-id: message — except in
// the project and local layers of a workspace that Options.Trust does not trust: those are
// logged and ignored, and the user's own hooks run. A hook entry with an error is logged
// and skipped, and the file's other hooks run (issue 8.2; a broken gate hook with
// on_error: block blocks its event, see New).
func Load(paths []config.LayerPath, opts Options) (*Runner, error) {
	set, errs := config.Load(paths)
	if err := errs.Err(); err != nil {
		workspace := opts.ProjectDir
		if workspace == "" {
			workspace, _ = os.Getwd()
		}
		if fatal := FatalProblems(set, errs, opts.Trust, workspace); len(fatal) > 0 {
			return nil, fatal
		}
		if opts.Logger != nil {
			opts.Logger.Warn("config errors: the hooks with errors are skipped, and the files of an untrusted workspace do not run", "errors", err.Error())
		}
	}
	r, err := New(set, opts)
	if err == nil && opts.Logger != nil {
		if n := r.hooks.Load().notice; n != "" {
			// The project's hooks do not run (never trusted, or changed since): said once at
			// load, where an embedding program's log sees it (new-user trial, stop 34: the
			// README's library example skipped a project's hooks without a word).
			opts.Logger.Warn(n)
		}
	}
	return r, err
}

// Reload swaps the Runner's hooks for those of set, atomically: events already running
// finish with the old hooks. The per-session state (once hooks spent, Stop-block streaks)
// is not part of the hooks and survives the swap. A set that does not compile leaves the running hooks untouched
// and returns the error.
func (r *Runner) Reload(set *config.Set) error {
	hs, err := r.compile(set)
	if err != nil {
		return err
	}
	if old := r.hooks.Swap(hs); old != nil {
		old.close() // events in flight still evaluate; only pollers and log senders stop
	}
	return nil
}

// Len returns the number of hooks the Runner holds (config hooks and callbacks).
func (r *Runner) Len() int { return r.hooks.Load().count }

// Close waits for the async hooks still running, or until ctx is done (then it returns
// ctx's error; the hooks keep running until their own timeouts, or until CancelAsync).
// When no async hook ever started it waits for none (with no telemetry to flush it returns
// nil at once, whatever ctx). Fire after Close still works but starts no new async hooks.
func (r *Runner) Close(ctx context.Context) error {
	r.asyncMu.Lock()
	r.closed.Store(true)
	started := r.asyncStarted
	r.asyncMu.Unlock()
	if started == 0 {
		r.hooks.Load().close()
		return r.tel.close(ctx)
	}
	done := make(chan struct{})
	go func() { r.async.Wait(); close(done) }()
	select {
	case <-done:
		r.hooks.Load().close()
		return r.tel.close(ctx)
	case <-ctx.Done():
		_ = r.tel.close(ctx)
		return ctx.Err()
	}
}

// CancelAsync cancels the context of every async hook still running and of any started
// later: a command hook's process group is interrupted, then killed after its grace period
// (command.Command.Grace), an http or prompt hook's request is abandoned. It does not wait;
// call Close after it to wait for the hooks to return. A process that must exit now (SIGTERM,
// SIGINT, or a bound on how long it waits for async hooks, as `hookcore fire` has) calls it
// so that no hook outlives it holding resources (issue 10.8).
func (r *Runner) CancelAsync() { r.cancelAsync() }

// auditRecord is one line of the audit log: who asked (session, agent, tool call) and the
// whole Result. The tool input itself is not logged; a digest of it is, so that a line can
// be tied to a recorded call without the log holding secrets the input may carry.
type auditRecord struct {
	SessionID   string       `json:"session_id,omitempty"`
	AgentID     string       `json:"agent_id,omitempty"`
	ToolName    string       `json:"tool_name,omitempty"`
	ToolUseID   string       `json:"tool_use_id,omitempty"`
	InputSHA256 string       `json:"tool_input_sha256,omitempty"`
	Result      *hook.Result `json:"result"`
}

func (r *Runner) audit(in *hook.Input, res *hook.Result) {
	if r.opts.AuditLog == nil {
		return
	}
	rec := auditRecord{Result: res}
	if in != nil {
		rec.SessionID, rec.AgentID, rec.ToolName, rec.ToolUseID = in.SessionID, in.AgentID, in.ToolName, in.ToolUseID
		if len(in.ToolInput) > 0 {
			sum := sha256.Sum256(in.ToolInput)
			rec.InputSHA256 = hex.EncodeToString(sum[:])
		}
	}
	line, err := json.Marshal(rec)
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

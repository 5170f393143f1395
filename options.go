package hookcore

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
	"github.com/hookcore/hookcore/trust"
)

// Options configures a Runner. The zero value works: no logger output, no trust check
// (embedded mode: the caller chose the files), no approval gate.
type Options struct {
	// Logger receives one record per hook run and per error. Nil discards.
	Logger *slog.Logger
	// GuardsFailClosed, when not empty, makes every blocking hook of a layer but the
	// project's and the local one that fails (an error, a crash, a timeout) on a gate or
	// feedback event block it, as on_error: block does, the reason naming the hook, its
	// error and GuardsFailClosed (a feedback event: red team round 42, PYTHONINSPECT=1 made
	// a Python Stop guard's exit 2 an exit 1, and the agent stopped). `hookcore hook claude` sets it when the project's Claude Code
	// settings set an env, which Claude Code gives every hook: an allowed variable can
	// still crash a guard (PYTHONIOENCODING=utf-16 a Python one, NODE_OPTIONS=
	// --max-old-space-size=1 a Node one), and a crashed guard let the call through (red
	// team round 29).
	GuardsFailClosed string
	// SessionRoots anchors the path rules of `if` conditions, for each input, at the project
	// root of its cwd (config.ProjectRoot) instead of at ProjectDir: `hookcore serve`,
	// which answers the sessions of every project with one config, set it (red team round
	// 44, with the real Claude Code: a user rule `Write(**/.env)` missed the .env of a
	// session in another project than serve's, and the write went through). An input
	// without a cwd keeps ProjectDir.
	SessionRoots bool
	// ArmTripwire arms the tripwire (`tool changed hook_config`, tripwire.go) at every event
	// even when no hook the Runner runs has the clause: `hookcore hook` and `serve` set it
	// when a file they would run has the clause and an agent's switch outside managed
	// settings (disableAllHooks in ~/.claude/settings.json, a Gemini or Codex switch) has
	// turned that file's hooks off — the switch is itself a change the tripwire must see
	// (red team round 61: written with the session's state deleted, it disarmed the session).
	ArmTripwire bool
	// ProjectDir is the project root given to hooks as CLAUDE_PROJECT_DIR and
	// HOOKCORE_PROJECT_DIR, and the workspace whose trust is checked. Empty: the process's
	// working directory.
	ProjectDir string
	// AgentProjectDir is the agent's own project directory when the hook's environment
	// names it (Claude Code's $CLAUDE_PROJECT_DIR, Gemini CLI's and Cursor's; the library
	// does not read the environment: the CLI passes it). The agent reads its project files
	// (.mcp.json, .claude/settings.json, .claude/hooks) from there, which is not the project
	// root when a git work tree encloses it (a monorepo): the paths of HookConfig and
	// HookScripts under ProjectDir are also taken under it (red team round 66). It is also
	// the key of the workspace's tripwire record (tripwire_record.go), which a `.git`
	// created above it cannot move. Empty: the input's cwd keys the record. Ignored unless
	// absolute.
	AgentProjectDir string
	// HookProgram holds the absolute paths of the hook program: the executable the agent
	// runs as its hook command and the full hookcore it hands over to, and the programs the
	// user's hooks run (a guard's python3, and the file a name would resolve to in each PATH
	// directory searched before it: red team round 50). A condition's `changes
	// hook_program` protects them and every directory on the path to them (red team round
	// 46). Empty: such a clause never holds. The CLI sets its own executable's and those of
	// the programs its config's command hooks run.
	HookProgram []string
	// HookStartup holds the absolute paths (glob components allowed: `python3.*`) of the
	// files and directories the programs of the user's hooks read when they start: a
	// Python's site directories, ~/.jq, git's global config (red team round 50: a .pth file
	// in Python's user site made every Python guard exit 0). A condition's `changes
	// hook_program` holds for a write of one or of anything under one, and for a copy,
	// move, link or extraction that may create the directories on the path to one. The CLI
	// fills it from its table (docs/decisions.md, red team round 50).
	HookStartup []string
	// HookConfig holds the absolute paths (glob components allowed, as in HookStartup) of
	// hookcore's own config: the files its discovery loads hooks from in every layer,
	// existing or not (creating one counts), the files loaded, the trust store and the
	// state directory. A condition's `changes hook_config` holds for a write, creation,
	// removal, move, link or mode change of one or of anything under one, and for a copy,
	// move, link or extraction that may create or replace a directory on the path to one;
	// a word naming only the home, the project root or a directory above them does not
	// count (red team round 53: `cp x ~/.mi*/config.yaml`, `cd ~/.claude && cp x
	// settings.json`). Empty: such a clause never holds. The CLI fills it from discovery
	// when a condition names hook_config. The paths under ProjectDir are also taken under
	// the project root of each event's cwd (the input's, when absolute), whatever
	// SessionRoots says: the process may run in another project than the event's (stop 32).
	HookConfig []string
	// HookConfigVolatile holds absolute paths among or under HookConfig that change on every
	// event (the state directory, an audit log): a condition's `tool changed hook_config`
	// does not compare them nor anything under them. The directory of a state.Dir State is
	// never compared either.
	HookConfigVolatile []string
	// HookScripts holds absolute paths (glob components allowed) that the tripwire (`tool
	// changed hook_config`) compares beside HookConfig and HookProgram but `changes
	// hook_config` does not protect: the directories of the scripts hooks run, which Claude
	// Code and git run themselves (~/.claude/hooks, <project>/.claude/hooks,
	// <project>/.git/hooks), and the files that decide the environment the next session
	// starts in (red team round 65: the shell's startup files, ~/.gitconfig, .mcp.json; a
	// rule of its own, `changes "PATH"`, guards their writes before a call). The paths
	// under ProjectDir are also taken under each event's project root, as HookConfig's.
	// The CLI sets them when a condition has the clause.
	HookScripts []string
	// Trust, when set, is the trust gate (DESIGN.md section 7): hooks from the project and
	// local layers run only when the store trusts ProjectDir at the digest of those files;
	// otherwise they are recorded as skipped. User-level and explicitly named files always
	// run. Nil: no check. The store is read when the hooks are compiled (New, Reload); a
	// pinned store (trust.Store.Pinned) answers a Reload from its first read, so a Runner
	// that reloads is given a store that is not pinned.
	Trust *trust.Store
	// Approver, when set, is asked before each hook runs (codebot: hooks themselves pass an
	// approval gate). See Approver.
	Approver Approver
	// Callbacks are Go hooks registered by the embedding program; they run after the config
	// hooks of their event, in slice order.
	Callbacks []Callback
	// Funcs are Go callbacks that config files reference by name with
	// `action: {type: func, name: NAME}`.
	Funcs map[string]hook.ExecutorFunc
	// Env is the base environment of command hooks; nil means os.Environ().
	Env []string
	// SessionEnvDir, when set, is where the command hooks of SessionStart, Setup,
	// CwdChanged and FileChanged get their CLAUDE_ENV_FILE (Claude Code: the hooks append
	// `export` lines that the agent sources before each later Bash command):
	// SessionEnvDir/<session id>/<event>-hook-<n>.sh, listed by
	// command.SessionEnvFiles(SessionEnvDir, session). "" leaves CLAUDE_ENV_FILE as Env has
	// it (under Claude Code, its own).
	SessionEnvDir string
	// OnRewake, when set, is called from an async hook's goroutine when the hook finishes
	// with text for the model: an asyncRewake hook (Claude Code) that blocks (exit 2), with
	// `<event>:<tool> hook blocking error from command: "<command>": [<command>]: <reason>`,
	// and any async hook that gives additional context, with that context. in is the
	// event's input. The agent gives text to the model on its next request, as Claude Code
	// 2.1.332 did (observed: both arrived as a system message in the first request after
	// the hook finished; testdata/claude/async-rewake, testdata/claude/async). Nil: the
	// output is only logged.
	OnRewake func(in *hook.Input, hookID, text string)
	// Parallel runs the matching hooks of feedback and observe events in parallel (as Claude
	// Code does); results are still merged in config order. Per hook: `parallel: true`.
	Parallel bool
	// MaxContext caps the joined additional context, in characters (runes); 0 means 10 000.
	MaxContext int
	// StopBlockLimit caps consecutive Stop/SubagentStop blocks per session and turn; the next
	// block is overridden with a notice. 0 means 8 (Claude Code's bound); a negative limit
	// means no cap (Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0, which `hookcore hook
	// claude` follows).
	StopBlockLimit int
	// State holds the per-session state (once hooks spent, Stop-block streaks). Nil: a
	// state.Memory of the Runner's own, kept across Reload. `hookcore hook AGENT`, one process
	// per event, passes a state.Dir so that the state outlives the process.
	State state.Store
	// BreakerThreshold is how many errors or timeouts in a row trip a hook's circuit
	// breaker in a session: it is then skipped (a guard with on_error: block blocks instead)
	// for BreakerCooldown, after which one more failure trips it again and a success closes
	// it. 0 means DefaultBreakerThreshold (5), negative turns breakers off. BreakerCooldown
	// 0 means DefaultBreakerCooldown (one minute).
	BreakerThreshold int
	BreakerCooldown  time.Duration
	// TurnBudget bounds the time all hooks of one turn of a session may take together (a
	// turn starts at UserPromptSubmit); once spent, the turn's further hooks are skipped
	// (guards with on_error: block block). 0: no budget.
	TurnBudget time.Duration
	// Now is the clock of the breakers; nil means time.Now (tests set it).
	Now func() time.Time
	// AuditLog, when set, receives one JSON line per fired event in which at least one hook
	// ran: {"session_id","agent_id","tool_name","tool_use_id","tool_input_sha256","result"}
	// (the tool input only as its SHA-256). Writes are serialised, one Write per line. An
	// *audit.Writer here makes the log tamper-evident (a hash chain; package audit).
	AuditLog io.Writer

	// Models resolves the `model:` string of a prompt hook (the LLM judge), "" when the
	// hook names none, to the model that judges it. It is called once per prompt hook when
	// the Runner is built (and on Reload). An error (say, a missing API key) does not fail
	// the load: that hook fails with the error each time it runs, and the others run. Nil:
	// prompt hooks fail with "no model configured". The CLI passes the model package's
	// resolver (model.Config.New); the root package never imports package model.
	Models func(name string) (executor.Model, error)
	// AgentRunner runs the sub-agent of agent hooks (MiniCode seed 004: injected by the
	// harness). Nil: agent hooks are recorded as skipped ("no agent runner configured"),
	// except under on_error: block, where the failure blocks.
	AgentRunner executor.AgentRunner
	// AllowedHosts is the global allowlist of the SSRF guard of http hooks, added to each
	// hook's `allowed_hosts`: host names, IP addresses or CIDR prefixes that http hooks may
	// reach although they are loopback, private or link-local ("127.0.0.1",
	// "hooks.internal.example", "10.20.0.0/16"). An entry that is none of these fails the
	// load. Public addresses need no entry.
	AllowedHosts []string
	// HTTPClient (a *net/http.Client), when set, sends the requests of every http hook
	// instead of the guarded client the Runner builds per hook: the SSRF guard and
	// `allowed_hosts` are then off, and the client is responsible for where requests may
	// go. For embedders that route hooks through their own egress proxy. Nil: the guarded
	// client. Built with -tags hookcore_lean (the lean hook binary, cmd/hookcore-hook) the
	// package links no net/http, this field's type is an empty struct and http hooks fail
	// with "not linked".
	HTTPClient *netClient
	// Executors builds the executors of action types that the root package does not link in
	// itself, by type: the hookcore CLI registers "rego" (rego.Factory, which embeds Open
	// Policy Agent), so that a program that embeds the Runner pays for OPA only if it asks
	// for it. A factory's error fails that hook each time it runs (fail-closed with
	// on_error: block), not the load. An executor that is an io.Closer is closed when
	// Reload replaces it and on Close.
	Executors map[string]ExecutorFactory

	// Tracer, when set, records one span "hookcore.fire" per fired event in which a hook
	// matched (attributes: event, session id, tool name, hook count, blocked, permission,
	// outcome, reason length) with one child span "hookcore.hook" per hook (id, type,
	// source, outcome, duration in ms, exit code, error yes/no). The tool input and the
	// reason text are not recorded unless TraceInputs is set. The hooks run in the span's
	// context. Nil: no spans, at no cost. The root package uses only the OpenTelemetry API;
	// the CLI passes an SDK tracer from package telemetry (issue 12 item 2). Its type is
	// go.opentelemetry.io/otel/trace.Tracer (an empty interface, unused, in the lean hook
	// binary's build, -tags hookcore_lean, which links no OpenTelemetry).
	Tracer otelTracer
	// Meter, when set, records the counter hookcore.decisions (by event and outcome: block,
	// stop, deny, ask, allow, error, ok), the histogram hookcore.hook.duration (ms, by hook
	// type) and the counters hookcore.hook.errors and hookcore.hook.timeouts (by hook type).
	// Nil: no metrics. Its type is go.opentelemetry.io/otel/metric.Meter (an empty
	// interface, unused, with -tags hookcore_lean).
	Meter otelMeter
	// TraceInputs adds the tool input and the reason texts to the spans. They may hold
	// secrets (a command line, a file's content): off by default.
	TraceInputs bool
}

// ExecutorFactory builds the executor of one configured hook (see Options.Executors). It
// runs once per hook when the Runner is built and on Reload.
type ExecutorFactory func(ctx context.Context, h *config.Hook, env ExecutorEnv) (hook.Executor, error)

// ExecutorEnv is what an ExecutorFactory may use.
type ExecutorEnv struct {
	// ConfigDir is the directory of the config file that declares the hook: relative paths
	// in the hook are taken from it.
	ConfigDir string
	// ProjectDir is Options.ProjectDir (or the working directory).
	ProjectDir string
	// HTTPClient (a *net/http.Client) is the SSRF-guarded client of http hooks (with
	// Options.AllowedHosts and the hook's allowed_hosts), or Options.HTTPClient; nil when
	// built with -tags hookcore_lean.
	HTTPClient *netClient
	Logger     *slog.Logger
	// AllowedHosts is Options.AllowedHosts plus the hook's allowed_hosts, for an executor
	// that builds its own guarded clients (netguard), as mcp_tool does per MCP server.
	AllowedHosts []string
	// Timeout is the hook's timeout: its own, else the dialect's default (Claude Code's for
	// a settings file: 600 s, 30 s on UserPromptSubmit); 0 means the executor's default.
	// The Runner bounds each run by it as well.
	Timeout time.Duration
	// Set is the config set being compiled: its MCP sources (Set.MCP) for mcp_tool.
	Set *config.Set
	// ProjectUntrusted says why the servers of the project's .mcp.json must not start:
	// the same trust gate as the project's hooks (DESIGN.md section 7; a grant binds the
	// file, MCPCover). "" when the grant bound the file as it is now, or the Runner has no
	// trust gate (Options.Trust nil: the embedder chose the set).
	ProjectUntrusted string
	// Shared returns the value of key shared by the executors of one Runner's hook set,
	// calling open the first time key is asked for; the Runner closes it when Reload
	// replaces the set and on Close (after the async hooks). mcp_tool keeps its pool of MCP
	// sessions there, so that one server process serves every hook and event.
	Shared func(key string, open func() (io.Closer, error)) (io.Closer, error)
}

// Callback is a Go function registered as a hook (the func executor of DESIGN.md section 6).
// A panic in Func is recovered and recorded as an error.
type Callback struct {
	ID      string     // shown in records; empty: "func#N"
	Event   hook.Event // any spelling ParseEvent accepts
	Matcher string     // as in config: "", "*", "Bash|Edit", "/re/i", "mcp__.*"
	If      string     // as in config: a condition, /regex/ or Tool(pattern)
	// NonBlocking makes the callback advisory: its blocks are logged, not applied.
	NonBlocking bool
	// OnError is "" (an error is logged and the action goes ahead) or "block" (an error,
	// a panic or an open circuit breaker blocks a gate event: fail-closed), as in config.
	OnError string
	Func    hook.ExecutorFunc
}

// HookInfo describes a hook to an Approver.
type HookInfo struct {
	ID     string
	Type   string     // command, http, prompt, agent, inject, func
	Event  hook.Event // the event it is about to run for
	Target string     // the command line, URL, model or callback name
	Source string     // file:line of its config entry
}

// Approver decides whether a hook may run (codebot: hooks pass an approval gate). Approve
// is called before every run of every hook, possibly concurrently. A false answer on a gate
// event where the hook may block counts as a block with the reason "hook not approved";
// elsewhere the hook is skipped. An error counts as a denial.
type Approver interface {
	Approve(ctx context.Context, h HookInfo) (bool, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, h HookInfo) (bool, error)

// Approve calls f(ctx, h).
func (f ApproverFunc) Approve(ctx context.Context, h HookInfo) (bool, error) { return f(ctx, h) }

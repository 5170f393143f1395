package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// Dialect is the shape a config file was written in (DESIGN.md section 4). Native, Flat
// and Nested are detected from the file's content, never from its name; Gemini, Codex,
// Cursor and Copilot are other agents' own hook files, named by where the file lives (or
// by the caller) because some of them cannot be told apart from Claude's by content.
type Dialect int

const (
	// Native is the MiniCode YAML dialect: a top-level `hooks:` sequence of entries, each
	// with `event` and an `action` mapping.
	Native Dialect = iota
	// Flat is the codebot JSON settings dialect: `hooks:` maps event names to sequences of
	// hook entries that carry `type`/`command` directly (also the s08 teaching harness,
	// whose entries have `matcher` and `command` but no `type`).
	Flat
	// Nested is the Claude Code settings dialect: `hooks:` maps event names to sequences of
	// matcher groups `{matcher, hooks: [...]}`.
	Nested
	// Gemini is Gemini CLI's settings.json `hooks` (BeforeTool, AfterTool, ...; timeouts in
	// milliseconds; matchers against Gemini's tool names).
	Gemini
	// Codex is OpenAI Codex's hooks.json (Claude-like nested shape) or config.toml `[hooks]`.
	Codex
	// Cursor is Cursor's hooks.json (`version: 1`, camelCase events such as
	// beforeShellExecution).
	Cursor
	// Copilot is GitHub Copilot CLI's .github/hooks/*.json (`version: 1`, `bash` /
	// `powershell` command fields, `timeoutSec`).
	Copilot
)

// String returns "native", "codebot", "claude", "gemini", "codex", "cursor" or "copilot".
func (d Dialect) String() string {
	switch d {
	case Native:
		return "native"
	case Flat:
		return "codebot"
	case Nested:
		return "claude"
	case Gemini:
		return "gemini"
	case Codex:
		return "codex"
	case Cursor:
		return "cursor"
	case Copilot:
		return "copilot"
	}
	return "dialect(" + strconv.Itoa(int(d)) + ")"
}

// Agent is the name of the agent whose files the dialect is, as its makers write it
// ("Gemini CLI", "Codex", ...; "hookcore" for Native), for messages.
func (d Dialect) Agent() string {
	switch d {
	case Native:
		return "hookcore"
	case Nested:
		return "Claude Code"
	case Gemini:
		return "Gemini CLI"
	case Codex:
		return "Codex"
	case Cursor:
		return "Cursor"
	case Copilot:
		return "Copilot CLI"
	}
	return d.String()
}

// Layer is where a config file came from (DESIGN.md section 4, "Layers"). The trust gate
// (DESIGN.md section 7) applies to Project and Local files only.
type Layer int

const (
	// Explicit is a file named by the caller (--config); it is trusted because it was named.
	Explicit Layer = iota
	// User is ~/<Dir>/hooks.yaml.
	User
	// Project is <project root>/<Dir>/hooks.yaml.
	Project
	// Local is <project root>/<Dir>/hooks.local.yaml, untracked, loaded last.
	Local
	// Managed is Claude Code's managed settings (/etc/claude-code/managed-settings.json and
	// managed-settings.d/), written by an administrator: no trust gate, and lower layers
	// cannot disable its hooks; its allowManagedHooksOnly turns the other layers off.
	Managed
)

// String returns "explicit", "user", "project" or "local".
func (l Layer) String() string {
	switch l {
	case Explicit:
		return "explicit"
	case User:
		return "user"
	case Project:
		return "project"
	case Local:
		return "local"
	case Managed:
		return "managed"
	}
	return "layer(" + strconv.Itoa(int(l)) + ")"
}

// Pos is a position in a config file. Line and Col are 1-based; Col counts bytes, as the
// YAML parser does. A zero Line means "the whole file".
type Pos struct {
	File      string
	Line, Col int
}

// String returns "file:line:col", "file:line" when Col is 0, or "file" when Line is 0.
func (p Pos) String() string {
	switch {
	case p.Line <= 0:
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// The canonical action types (Action.Type).
const (
	TypeCommand = "command"  // run a shell command (or Args as argv)
	TypeHTTP    = "http"     // POST the input to a URL
	TypePrompt  = "prompt"   // ask a model to judge (the LLM judge of codebot / Claude Code)
	TypeAgent   = "agent"    // run a sub-agent with Prompt
	TypeInject  = "inject"   // add Message as context (MiniCode `type: prompt` with `message:`)
	TypeFunc    = "func"     // call a Go callback registered under Name
	TypeRego    = "rego"     // evaluate an Open Policy Agent policy (package rego)
	TypeMCPTool = "mcp_tool" // call a tool on an MCP server (Claude Code's mcp_tool handler)
)

// actionTypes lists the canonical action types in documentation order.
var actionTypes = []string{TypeCommand, TypeHTTP, TypePrompt, TypeAgent, TypeInject, TypeFunc, TypeRego, TypeMCPTool}

// Action is what a hook runs. Which fields matter depends on Type; validation checks the
// required one per type (command: Command or Args; http: URL; inject: Message; prompt and
// agent: Prompt; func: Name; mcp_tool: Server and Tool). Fields keep the text as written: placeholders such as
// $FILE_PATH are expanded by the executor, not here.
type Action struct {
	// Type is the canonical action type, one of the Type* constants.
	Type string

	// Command is the shell command line (command). Args, when set, is an argv run without a
	// shell, Args[0] the program. The two are exclusive (validation error).
	Command string
	Args    []string
	// Shell is the shell that runs Command (Claude Code `shell`): "" for sh, "bash", or
	// "powershell". It is ignored with Args.
	Shell string

	// Message is the text an inject action adds as context.
	Message string

	// URL, Method, Headers and Body describe an http action. AllowedHosts opens destinations
	// the SSRF guard blocks by default (host names, IP addresses or CIDR prefixes, e.g. a
	// webhook receiver on 127.0.0.1); AllowedEnvVars names the environment variables that
	// may be interpolated into headers (Claude Code allowedEnvVars).
	URL            string
	Method         string
	Headers        map[string]string
	Body           string
	AllowedHosts   []string
	AllowedEnvVars []string

	// Prompt and Model configure a prompt (LLM judge) or agent action.
	Prompt string
	Model  string

	// Name is the registered callback's name for a func action.
	Name string

	// Server, Tool and Input configure an mcp_tool action (Claude Code's MCP tool handler,
	// research note §2.5): the MCP server's name as .mcp.json, ~/.claude.json or a plugin
	// declares it ("plugin:<plugin>:<server>" for a plugin-bundled one), the tool's name,
	// and its arguments as written (JSON values: strings, float64 or int64 numbers, bools,
	// nil, []any, map[string]any), whose "${path}" strings the executor fills from the
	// event input.
	Server string
	Tool   string
	Input  map[string]any

	// Policy, Query, BundleURL, BundlePoll, VerificationKey and DecisionLogURL configure a
	// rego action (issue 12): the policy (a .rego file, a directory, or a bundle .tar.gz;
	// relative paths are taken from the config file's directory), the query (default
	// data.hookcore), a bundle service URL polled every BundlePoll (default 60 s), a PEM
	// public key file the bundle's signature must verify with, and a decision-log service.
	Policy          string
	Query           string
	BundleURL       string
	BundlePoll      time.Duration
	VerificationKey string
	DecisionLogURL  string

	// Timeout bounds one run of the action; 0 means the executor's default. In the JSON
	// dialects an entry's `timeout` lands here.
	Timeout time.Duration
}

// Hook is one configured hook: an event, two levels of matching and an action, plus the
// controls of DESIGN.md sections 3 and 7. It is plain data: nothing is compiled.
type Hook struct {
	// ID is the `id` key, or a generated id "<Event>#<n>" where n counts the hooks of that
	// event in the file from 1 ("PreToolUse#1", "PreToolUse#2"); generated ids never clash
	// with explicit ones. IDs are unique within a file.
	ID string
	// Index is the hook's 0-based position in file order.
	Index int
	// Event is the canonical event.
	Event hook.Event
	// Matcher and If are the two matching levels of DESIGN.md section 5, as written.
	Matcher, If string
	Action      Action
	// Reject marks a MiniCode gate hook that blocks when it matches and runs successfully;
	// its stdout is the reason. Only on gate events.
	Reject bool
	// Blocking is true unless the config says `blocking: false`: such a hook cannot veto;
	// its block is logged (codebot).
	Blocking bool
	// Once runs the hook at most once per session; Async runs it in the background (never on
	// gate events); Parallel lets it run alongside other parallel hooks of a feedback or
	// observe event.
	Once, Async, Parallel bool
	// AsyncRewake is Claude Code's `asyncRewake` (it implies Async): the hook runs in the
	// background, and when it exits 2 its stderr (or stdout) is given to the agent on its
	// next model call.
	AsyncRewake bool
	// StatusMessage is Claude Code's `statusMessage`, the text shown while the hook runs
	// (`hookcore run` prints it).
	StatusMessage string
	// Timeout is the hook-level `timeout` of the native dialect. Action.Timeout wins when
	// both are set; see EffectiveTimeout.
	Timeout time.Duration
	// OnError is "" (an error in the hook is logged and the action goes ahead) or "block" (an
	// error in the hook blocks, fail-closed).
	OnError string
	// ExitCodes maps a command's exit status to "block", "inject", "allow" or "error", overriding the
	// default protocol (the s08 three-state protocol is {1: block, 2: inject}).
	ExitCodes map[int]string
	// S08 marks a Flat-dialect entry without `type`, the s08 teaching harness's shape (seed
	// 002): unless the entry has its own exit_codes, ExitCodes is the s08 protocol {1:
	// block, 2: inject}, and its command sees HOOK_TOOL_INPUT cut at 10 000 characters (the
	// seed's Python `[:10000]`), not bytes. Codebot entries (with `type`) on PostToolUse,
	// Notification, SessionStart, SessionEnd and SubagentStop are Async unless they say
	// `async: false` (seed 000: codebot runs those fire-and-forget).
	S08 bool
	// Enabled is false for `enabled: false` hooks, which stay in the File but never run.
	Enabled bool
	// NativeEvent is the event as the agent's own file names it ("BeforeTool",
	// "beforeShellExecution") for hooks of the Gemini and Cursor dialects; "" otherwise.
	NativeEvent string
	// AgentKey is the key by which the hook's own agent switches it off alone (AgentSwitch):
	// for Gemini CLI, its `name` as written, or its command when it has none (getHookName;
	// ID is made unique from it, NAME#2); for Codex, its [hooks.state] key
	// "FILE:EVENT_LABEL:GROUP:HANDLER" (FILE absolute, EVENT_LABEL pre_tool_use, ..., GROUP
	// and HANDLER 0-based: codex-rs hooks hook_key). "" for the other dialects.
	AgentKey string
	// AgentOnly are the keys of the entry that its agent reads and hookcore does not, which
	// change what the agent runs (Copilot's env and cwd, a powershell command beside bash,
	// Cursor's loop_limit): the entry runs differently under its agent than under hookcore.
	AgentOnly []string
	// Sequential is Gemini CLI's `sequential: true` on the definition of several hooks that
	// holds this one: Gemini runs them one after the other, in file order, each seeing the
	// tool input the one before rewrote (research note 1.1), as hookcore runs an event's
	// hooks unless they are Parallel. False for the other dialects.
	Sequential bool
	// Pos is the position of the hook's entry: its id key where it has one on a line of its
	// own, else the entry's start (its first key, or the { of a flow mapping or JSON object).
	Pos     Pos
	Dialect Dialect
	Layer   Layer
}

// Broken is a hook entry that has errors: the Hook as far as it could be decoded (its Event
// is "" when the event is unknown; its Matcher or If may not compile) and its errors, each
// with a position and the hook id.
type Broken struct {
	Hook   Hook
	Errors ErrorList
}

// FailsShut reports whether the broken entry must block its event instead of being skipped:
// an enabled hook of a known gate event that says on_error: block. A guard its author meant
// to fail closed must not fail open because it is misconfigured (issue 8.2).
func (b *Broken) FailsShut() bool {
	h := &b.Hook
	return h.Event != "" && h.Event.Kind() == hook.Gate && h.OnError == "block" && h.Enabled
}

// Source returns "file:line" of the hook's entry, as shown in results and `hookcore list`.
func (h *Hook) Source() string { return fmt.Sprintf("%s:%d", h.Pos.File, h.Pos.Line) }

// EffectiveTimeout returns Action.Timeout when set, else Timeout; 0 means the executor's
// default.
func (h *Hook) EffectiveTimeout() time.Duration {
	if h.Action.Timeout != 0 {
		return h.Action.Timeout
	}
	return h.Timeout
}

// File is one parsed config file. A hook entry with an error (an unknown event or action
// type, a bad matcher or if, a missing field) is in Broken, not in Hooks: it is skipped and
// the file's valid hooks run, as Claude Code skips an invalid entry with a "Settings
// Warning" (issue 8.2; docs/decisions.md, "A broken entry never switches off the rest").
// When the file as a whole cannot be loaded (Failed), both are empty.
type File struct {
	Path    string
	Dialect Dialect
	Layer   Layer
	// Audit is the top-level `audit: FILE` key, made absolute against the file's directory:
	// the tamper-evident decision log (package audit) when no --audit is given. Only the
	// user's, managed and explicitly named files may set it (a repository must not choose
	// where hookcore writes).
	Audit string
	// DisableAll is `disable_all_hooks: true` (Claude Code: `disableAllHooks`); in any
	// file of a Set it turns every hook off.
	DisableAll bool
	// ManagedOnly is Claude Code's `allowManagedHooksOnly: true`; honoured in the Managed
	// layer only, where it turns off the hooks of every other file.
	ManagedOnly bool
	// Parallel is a top-level `parallel: true`: every hook of the file may run in parallel
	// on feedback and observe events.
	Parallel bool
	Hooks    []Hook
	// Broken holds the hook entries that have errors, in file order: they never run, except
	// that a broken gate hook with `on_error: block` blocks its event (see hookcore.New).
	Broken []Broken
	// Entries is the number of hook entries the file declares, broken ones included (for
	// `hookcore check`'s summary).
	Entries int
	// Hash is the hex SHA-256 of the file's content.
	Hash string
	// EnvOverrides are the variables a project or local Claude Code settings file's env sets
	// that change what hookcore's hook process reads or how its guards load their code
	// (GuardEnv), sorted; under Claude Code the hook command runs nothing and blocks gate
	// events while they are set.
	EnvOverrides []string
	// EnvNames are all the variables that env sets, sorted (hookcore.Options.GuardsFailClosed).
	EnvNames []string
	// EnvChecked is true when EnvOverrides was read from the file (a Claude Code settings
	// file of the project or local layer that is a JSON object).
	EnvChecked bool
	// enabledPlugins is the file's top-level enabledPlugins value (a .json file that is one
	// JSON object), hasEnabledPlugins whether it has one (EnabledPluginsOf).
	enabledPlugins    []byte
	hasEnabledPlugins bool
	// bound is what a trust grant binds of the file, when it is not the whole content (see
	// TrustHash); boundSet says that bound was computed.
	bound    string
	boundSet bool
	// PluginRoot is the directory of the Claude Code plugin whose hooks the file holds
	// (its hooks get CLAUDE_PLUGIN_ROOT), and PluginData that plugin's data directory
	// (CLAUDE_PLUGIN_DATA); both "" for a file that is not a plugin's.
	PluginRoot, PluginData string
	// Plugin is that plugin's name (the part of its key before "@"): its bundled MCP
	// servers are "plugin:<Plugin>:<server>".
	Plugin string
	// Extension is the name of the Gemini CLI extension whose hooks/hooks.json the file is
	// (LayerPath.Extension), also when the file could not be loaded (Failed); "" for any
	// other file.
	Extension string
	// Skill is the name of the skill whose SKILL.md frontmatter holds the hooks, Agent the
	// name of the sub-agent whose definition does (ParseFrontmatter); both "" for a settings
	// file. A skill's hooks run once the skill was invoked in the session, for the agent
	// that invoked it; a sub-agent's only for the events of a sub-agent of that type.
	Skill, Agent string
	// HooksEnabled is the agent's own switch for all its hooks, when the file sets it (nil
	// otherwise): Gemini CLI's hooksConfig.enabled, Codex's [features] hooks in a
	// config.toml; HooksEnabledAlias is Codex's older [features] codex_hooks, which counts
	// only where no file sets hooks. HooksDisabled are the hooks the file's agent does not
	// run, by Hook.AgentKey: Gemini CLI's hooksConfig.disabled, the [hooks.state] keys of
	// a Codex config.toml with enabled = false. See AgentSwitch.
	HooksEnabled, HooksEnabledAlias *bool
	HooksDisabled                   []string
	// Unloaded are the parts of the file that hold hooks hookcore does not load, with a
	// warning and no error: Gemini CLI's BeforeToolSelection definitions, which have no
	// hookcore event. package convert reports them, since no converted file has them.
	Unloaded []Unloaded
	// Failed is set when the file as a whole could not be loaded: it could not be read (not
	// a regular file, too large, a symlink loop, permission), is not YAML/JSON, passes a
	// cap, or is not a mapping with a hooks key. None of its hooks run.
	Failed bool
}

// Unloaded is an event of a file whose hooks hookcore does not load (File.Unloaded): the
// position of its key, its name as written, and the number of hooks its definitions hold.
type Unloaded struct {
	Pos   Pos
	Event string
	Hooks int
}

// TrustHash returns what a workspace trust grant binds of f (hookcore.TrustDigest): the hex
// SHA-256 of its content, except for Claude Code's and Gemini CLI's settings files of the
// project and local layers (the only ones a digest holds) that are JSON objects, whose grant
// binds only the top-level members that decide which hooks run and how (trustKey: hooks, the
// kill switches, enabledPlugins, env, ...), in canonical JSON: the agent writes the other
// keys, and re-indents the file, while a session runs (Claude Code's "don't ask again" adds
// a permission rule), and the same keys in the user's settings are not bound at all. ok is
// false for such a file with none of those members: it holds no hookcore config, and the
// digest leaves it out.
func (f *File) TrustHash() (hash string, ok bool) {
	if !f.boundSet {
		return f.Hash, true
	}
	return f.bound, f.bound != ""
}

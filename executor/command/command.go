package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
	"github.com/hookcore/hookcore/internal/text"
)

// DefaultTimeout is a command hook's timeout when Command.Timeout is zero (Claude Code's
// 60 s).
const DefaultTimeout = 60 * time.Second

// shellPath is the shell that runs the shell form of a command.
const shellPath = "/bin/sh"

// Command runs a hook as a child process (DESIGN.md section 6, "command"). It is plain
// data: set the fields and call Execute; the zero value of every field but Command/Args
// works. A Command is safe for concurrent use as long as its fields are not changed.
type Command struct {
	// HookID names the hook in messages ("hook \"silent-guard\" blocked (exit 2) without
	// a reason"); when empty the command itself is used.
	HookID string
	// Command is the shell form, run with `sh -c` after context-variable substitution
	// (injection-proof, see the package doc). A single simple command of literal words is
	// executed directly, without a shell (see the package doc).
	Command string
	// Args is the exec form: Args[0] is the program (looked up in PATH), no shell is
	// involved, and context variables are substituted as plain values. It is used when
	// Command is empty.
	Args []string
	// Timeout bounds the run; 0 means DefaultTimeout. The caller's context may end it
	// sooner. At the timeout the whole process group is stopped.
	Timeout time.Duration
	// ExitCodes maps exit codes to actions (the s08 protocol); nil means the default
	// protocol. See Execute.
	ExitCodes map[int]ExitAction
	// Codebot adds codebot's keys to the input JSON on stdin (event, tool, args, output,
	// is_error) next to the Claude Code keys, for hooks loaded from a codebot-dialect file.
	Codebot bool
	// Claude marks a hook of a Claude Code settings file (the nested dialect): a top-level
	// "decision": "ask" in its reply is ignored, as Claude Code 2.1.332 ignores it (the
	// top-level decision is "approve" or "block"; testdata/claude-public/lifemaestro-decisions
	// in the root package).
	Claude bool
	// Agent names the agent the hook was written for when its protocol is not Claude Code's:
	// "cursor" (a hook of a Cursor hooks.json) gets Cursor's top-level fields on stdin and
	// its stdout is read as Cursor's reply (cursor.go); "copilot" (.github/hooks/*.json) the
	// same with Copilot CLI's camelCase input and reply (copilot.go); "gemini" (a hook of a
	// Gemini CLI settings.json) gets Gemini CLI's event and tool names on stdin, GEMINI_*
	// variables in its environment, and its exit code and output are read as Gemini CLI
	// reads them (gemini.go); "codex" (a hook of a Codex hooks.json or config.toml) gets
	// Claude Code's input with a string tool_response, as Codex sends it (input.go), and
	// answers in Claude Code's protocol; "" is the default protocol.
	// AgentEvent is the agent's own name of the hook's event ("beforeShellExecution",
	// "BeforeTool").
	Agent, AgentEvent string
	// Now is the clock of the timestamp an agent's input carries (Gemini CLI's); nil means
	// time.Now.
	Now func() time.Time
	// S08 cuts HOOK_TOOL_INPUT at 10 000 characters (runes) instead of 10 000 bytes, as the
	// s08 teaching harness does (seed 002: `json.dumps(...)[:10000]` on a Python str), for
	// hooks loaded from s08 entries (config.Hook.S08); at most 40 000 bytes.
	S08 bool
	// ProjectDir is exported as CLAUDE_PROJECT_DIR and HOOKCORE_PROJECT_DIR; "" means the
	// working directory. It is also ${CLAUDE_PROJECT_DIR} in the exec form (executor/internal/hookio).
	ProjectDir string
	// PluginRoot and PluginData are the directories of the plugin the hook comes from
	// (Claude Code plugins), exported as CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA and
	// substituted for ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} in the exec form. A
	// hook with no PluginRoot whose command names either placeholder does not start (error
	// wrapping hook.ErrNotStarted), as in Claude Code.
	PluginRoot, PluginData string
	// EnvFileDir, when set, gives the hook CLAUDE_ENV_FILE (envfile.go): the file
	// EnvFileDir/<session id>/EnvFileName, whose directory is created for the run. The
	// Runner sets both for the command hooks of EnvFileEvents when Options.SessionEnvDir is
	// set; "" leaves CLAUDE_ENV_FILE as the base environment has it.
	EnvFileDir, EnvFileName string
	// Shell is the shell of the shell form (Claude Code `shell`): "" or "sh" for /bin/sh,
	// "bash" for bash from PATH, "powershell" for pwsh (or powershell) from PATH, run with
	// -NoProfile -Command and without context-variable substitution. It is ignored with
	// Args.
	Shell string
	// Env is the base environment ("KEY=value"); nil means os.Environ().
	Env []string
	// MaxOutput caps each of stdout and stderr, in bytes; 0 means 1 MiB.
	MaxOutput int
	// Grace is the time between SIGTERM and SIGKILL of the process group at the timeout,
	// and the longest wait for output pipes a runaway grandchild holds; 0 means 2 s.
	Grace time.Duration
}

// launch is what one Execute runs.
type launch struct {
	spec  proc.Spec
	shell bool // the shell form (sh -c, or direct execution of literal words)
}

// checks says how much of the launch checks prepare does before the start.
type checks int

const (
	// checkAll runs every launch check before the start: the working directory is a
	// directory, the program and a known interpreter's script exist.
	checkAll checks = iota
	// checkDeferred skips the checks whose failure the start itself reports (a missing or
	// non-directory working directory fails the child's chdir; a program given by an
	// absolute path that is neither a wrapper nor an interpreter fails its exec): they cost
	// a stat each on every run. Execute redoes prepare with checkAll when the start fails,
	// so the error is the same.
	checkDeferred
)

// Execute runs the hook for in and interprets its exit code and output.
//
// The process runs in in.Cwd (the calling process's working directory when empty) with the
// input JSON on stdin (in.MarshalJSON, plus codebot's keys when Codebot is set) and this
// environment on top of Env: HOOK_EVENT, HOOK_TOOL_NAME, HOOK_TOOL_INPUT and, on
// PostToolUse and PostToolUseFailure, HOOK_TOOL_OUTPUT, HOOK_SESSION_ID, FILE_PATH (all of
// these cut at 10 000 bytes on a UTF-8 boundary), CLAUDE_PROJECT_DIR, HOOKCORE_PROJECT_DIR.
//
// Every environment value taken from the input is cut at 10 000 bytes; context variables
// keep their exact value (a long one is split over several environment variables, see
// substituteShell). When the arguments and environment would still be more than exec
// accepts (Linux: 128 KiB per string, about 2 MiB in all; see argsize.go) — a huge value in
// an exec-form argument, or megabytes of context variables — the hook does not start and
// the error wraps both hook.ErrNotStarted and hook.ErrInputTooLarge (a
// *hook.InputTooLargeError): the input, not the config, is at fault, and the Runner blocks
// a guard's gate event rather than let the input switch the guard off.
//
// An input that cannot be encoded as the stdin JSON (a tool_input or tool_response that is
// not valid JSON, nesting deeper than encoding/json writes) does not start the hook either:
// the error wraps hook.ErrNotStarted and hook.ErrBadInput, on which the Runner blocks a
// guard's gate event too.
//
// A hook that cannot start returns an error wrapping hook.ErrNotStarted and is never a
// block: a missing working directory, a program not found, a known interpreter (sh, bash,
// zsh, python, python3, node, ruby, perl, deno, bun, php) whose script file is missing
// (Claude Code issue 80697: `python3 missing.py` exits 2), and, in the shell form, exit
// code 127 (the shell's "not found") unless ExitCodes maps it. In the shell form the
// program and script are checked as the shell will see them: after parameter and tilde
// expansion in the hook's environment and after leading `cd DIR` commands, so
// `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py` with guard.py missing is a launch
// failure too (issue 8); a word the shell would glob or that needs a command substitution
// is not checked.
//
// The default exit-code protocol (codebot, Claude Code):
//   - 0: success. Stdout is read with hook.ParseEnvelope; an envelope that does not parse
//     is an error wrapping hook.ErrBadOutput and nothing of it is used. Plain stdout
//     becomes AdditionalContext (trailing white space trimmed) on UserPromptSubmit and
//     SessionStart, and is ignored on other events.
//   - 2: block, Reason = stderr trimmed, or, when stderr is blank, the reason of a valid
//     envelope on stdout, else a reason naming the hook. That envelope's additional
//     context is kept too, and nothing else of it (Claude Code 2.1.332); codebot files
//     (Codebot) do not read stdout on exit 2.
//   - anything else: a non-blocking error naming the exit code and the start of stderr;
//     a valid envelope on stdout is still honoured (its Decision is returned with the
//     error).
//
// Gemini CLI's hooks (Agent "gemini") have Gemini CLI's protocol instead (geminiResult):
// JSON in the output decides whatever the exit code; plain text is a system message on exit
// 0, a warning on exit 1 and a block on any other code; exit 2 with no output does not
// block.
//
// With ExitCodes, a mapped code's action wins (see ExitAction). Unmapped codes follow the
// default protocol, 2 included: `exit_codes: {1: block}` adds a blocking code, it does not
// take 2's away (an unmapped 2 was an error, and a guard whose author added `1: block` let
// its exit-2 blocks through: red team round 20).
//
// A timeout returns an error wrapping hook.ErrTimeout (the caller's cancellation, an error
// wrapping context.Canceled); a hook killed by a signal is an error. The Decision's
// ExitCode (-1 when killed or not started), Output (stderr then stdout, each capped at
// MaxOutput) and Truncated are always filled when the process ran.
func (c *Command) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	none := hook.Decision{ExitCode: -1}
	l, err := c.prepare(in, checkDeferred)
	if err != nil {
		return none, c.notStarted(in, err)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := proc.Run(runCtx, l.spec)
	var se *proc.StartError
	if errors.As(err, &se) {
		if _, err := c.prepare(in, checkAll); err != nil { // what the deferred checks say
			return none, fmt.Errorf("hook %s: %w: %w", c.name(), hook.ErrNotStarted, err)
		}
		if tl := tooLargeAtStart(l.spec, se.Err); tl != nil {
			return none, fmt.Errorf("hook %s: %w: %w", c.name(), hook.ErrNotStarted, tl)
		}
		return none, fmt.Errorf("hook %s: %w: %v", c.name(), hook.ErrNotStarted, se.Err)
	}
	d := hook.Decision{
		ExitCode:  res.ExitCode,
		Output:    string(res.Stderr) + string(res.Stdout),
		Truncated: res.StdoutTruncated || res.StderrTruncated,
	}
	switch {
	case res.TimedOut && errors.Is(err, context.Canceled):
		return d, fmt.Errorf("hook %s: stopped: %w", c.name(), err)
	case res.TimedOut:
		return d, fmt.Errorf("hook %s: %w (timeout %v)", c.name(), hook.ErrTimeout, timeout)
	case err != nil:
		return d, fmt.Errorf("hook %s: %w", c.name(), err)
	case res.Signaled:
		return d, fmt.Errorf("hook %s: killed by signal %v", c.name(), res.Signal)
	}
	if l.shell && res.ExitCode == 2 {
		if msg, ok := syntaxFault(ctx, l.spec, res.Stderr); ok {
			return d, fmt.Errorf("hook %s: %w: the command does not parse: %s", c.name(), hook.ErrNotStarted, msg)
		}
	}
	return c.interpret(in, res, d, l.shell)
}

// notStarted is the error of a hook whose prepare failed with err under checkDeferred:
// the error prepare gives under checkAll, which reports a check that was skipped before
// whatever failed after it.
func (c *Command) notStarted(in *hook.Input, err error) error {
	if _, all := c.prepare(in, checkAll); all != nil {
		err = all
	}
	return fmt.Errorf("hook %s: %w: %w", c.name(), hook.ErrNotStarted, err)
}

// prepare resolves what to run: working directory, environment, stdin, program and
// arguments, and the launch checks (all of them, or under checkDeferred those the start
// does not report itself).
func (c *Command) prepare(in *hook.Input, ck checks) (launch, error) {
	dir, err := workDir(in, ck)
	if err != nil {
		return launch{}, err
	}
	env := c.environ(in, dir)
	stdin, err := c.stdin(in)
	if err != nil {
		return launch{}, fmt.Errorf("%w: %v", hook.ErrBadInput, err)
	}
	l := launch{spec: proc.Spec{Dir: dir, Env: env, Stdin: stdin, MaxOutput: c.MaxOutput, Grace: c.Grace}}
	if c.Command == "" {
		if len(c.Args) == 0 || c.Args[0] == "" {
			return launch{}, errors.New("empty command")
		}
		args := make([]string, len(c.Args))
		ph := c.placeholders(dir)
		for i, a := range c.Args {
			if args[i], err = hookio.ExpandExec(ph, a, in); err != nil {
				return launch{}, err
			}
		}
		if err := checkExecSize(proc.Spec{Path: args[0], Args: args[1:], Env: env}); err != nil {
			return launch{}, err
		}
		path, err := checkLaunchAs(ck, args, env, dir)
		if err != nil {
			return launch{}, err
		}
		if path == "" { // a shell word such as "exit": only a shell knows it
			return launch{}, fmt.Errorf("program %q is a shell builtin; use the shell form", args[0])
		}
		l.spec.Path, l.spec.Args = path, args[1:]
		return l, nil
	}
	l.shell = true
	if _, err := c.placeholders(dir).Expand(c.Command); err != nil { // the shell expands them from the environment
		return launch{}, err
	}
	switch c.Shell {
	case "", "sh":
		return c.prepareShell(l, in, dir, shellPath, ck)
	case "bash":
		bash, err := lookPath("bash", l.spec.Env, dir)
		if err != nil {
			return launch{}, err
		}
		return c.prepareShell(l, in, dir, bash, ck)
	case "powershell":
		return c.preparePowerShell(l, dir)
	}
	return launch{}, fmt.Errorf("unknown shell %q (sh, bash or powershell)", c.Shell)
}

// prepareShell completes l for the shell form run by the POSIX shell at shell: context
// variables become environment references, and a command of literal words is run
// directly.
func (c *Command) prepareShell(l launch, in *hook.Input, dir, shell string, ck checks) (launch, error) {
	env := l.spec.Env
	sv := substituteShell(c.Command, in)
	if sv.err != nil {
		return launch{}, sv.err
	}
	l.spec.Env = append(l.spec.Env, sv.env...)
	if err := checkExecSize(proc.Spec{Path: shell, Args: []string{"-c", sv.script}, Env: l.spec.Env}); err != nil {
		return launch{}, err
	}
	if words, ok := directWords(sv.script); ok {
		path, err := checkLaunchAs(ck, words, env, dir)
		if err != nil {
			return launch{}, err
		}
		l.spec.Path, l.spec.Args = path, words[1:]
		return l, nil
	}
	if words, cmdDir, ok := firstCommand(sv.script, l.spec.Env, dir); ok {
		if _, err := checkLaunch(words, l.spec.Env, cmdDir); err != nil {
			return launch{}, err
		}
	}
	l.spec.Path, l.spec.Args = shell, []string{"-c", sv.script}
	return l, nil
}

// preparePowerShell completes l for `shell: powershell`: pwsh (or Windows PowerShell) from
// PATH runs the command as written.
func (c *Command) preparePowerShell(l launch, dir string) (launch, error) {
	path, err := lookPath("pwsh", l.spec.Env, dir)
	if err != nil {
		if path, err = lookPath("powershell", l.spec.Env, dir); err != nil {
			return launch{}, errors.New(`shell "powershell": neither pwsh nor powershell is in PATH`)
		}
	}
	args := []string{"-NoProfile", "-NonInteractive", "-Command", c.Command}
	if err := checkExecSize(proc.Spec{Path: path, Args: args, Env: l.spec.Env}); err != nil {
		return launch{}, err
	}
	l.spec.Path, l.spec.Args = path, args
	return l, nil
}

// placeholders returns the values of Claude Code's placeholders for a run in dir.
func (c *Command) placeholders(dir string) hookio.Placeholders {
	project := c.ProjectDir
	if project == "" {
		project = dir
	}
	return hookio.Placeholders{ProjectDir: project, PluginRoot: c.PluginRoot, PluginData: c.PluginData}
}

// workDir returns in.Cwd, or the process's working directory when it is empty; under
// checkAll it must be an existing directory.
func workDir(in *hook.Input, ck checks) (string, error) {
	dir := in.Cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("working directory: %v", err)
		}
		dir = wd
	}
	if ck == checkDeferred {
		return dir, nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("working directory: %v", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("working directory %s is not a directory", dir)
	}
	return dir, nil
}

// Key is the hook's identity for deduplication (Claude Code runs identical command hooks
// once per event; DESIGN.md section 7): the command after context-variable expansion, with
// the values written in (not the environment references Execute uses), then "\x00" and the
// working directory. The exec form's arguments are quoted and joined by spaces.
func (c *Command) Key(in *hook.Input) string {
	dir := in.Cwd
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if c.Command != "" {
		return inlineShell(c.Command, in) + "\x00" + dir
	}
	q := make([]string, len(c.Args))
	ph := c.placeholders(dir)
	for i, a := range c.Args {
		v, err := hookio.ExpandExec(ph, a, in)
		if err != nil {
			v = a
		}
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " ") + "\x00" + dir
}

// name is the hook's name in messages: its quoted id, or its command shortened.
func (c *Command) name() string {
	if c.HookID != "" {
		return strconv.Quote(c.HookID)
	}
	s := c.Command
	if s == "" {
		s = strings.Join(c.Args, " ")
	}
	if utf8.RuneCountInString(s) > 60 {
		s = text.Truncate(s, 57, "...")
	}
	return strconv.Quote(s)
}

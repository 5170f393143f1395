package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/regularfile"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
)

// hookFlags are the flags of `hookcore hook` beyond the config flags.
type hookFlags struct {
	onError  string // "block" (default) or "allow"
	server   string // forward to a `hookcore serve` at this URL
	token    string // the serve token (default: read from the state dir)
	stateDir string
	// handedOver is --handed-over (hidden): a lean hook binary handed this command line on;
	// a lean binary that gets it does not hand it over again.
	handedOver bool
}

// failArgs answers a hook command line that cannot be run at all (unparsed, or no working
// directory) and returns the exit code: it fails closed as the hook command would, in the
// protocol of the first argument that names an agent, on the event its input on stdin names
// (PreToolUse when it names none), with why as the reason. Without a known agent it is a
// usage error, exit 2 with why on stderr, as hookUsage's.
func (e *env) failArgs(args []string, why string) int {
	for _, a := range args {
		p, ok := bridge.Lookup(a)
		if !ok || strings.HasPrefix(a, "-") {
			continue
		}
		event := hook.PreToolUse
		if data, err := io.ReadAll(io.LimitReader(e.stdin, maxInput+1)); err == nil && len(data) <= maxInput {
			if ev, _, err := p.Decode(data, ""); err == nil && ev.Valid() {
				event = ev
			}
		}
		ans := p.Fail(event, why, true)
		e.stdout.Write(ans.Stdout) //nolint:errcheck // the exit status carries the block too
		if ans.Stderr != "" {
			fmt.Fprintln(e.stderr, ans.Stderr)
		}
		return ans.Code
	}
	fmt.Fprintln(e.stderr, "hookcore:", why)
	return ExitBlocked
}

// hookUsage is the error of a hook command line that cannot be run (an unknown agent or
// flag, a wrong number of arguments): exit 2, which every agent's protocol reads as a
// block, since the command line is a guard's and exit 1 lets Claude Code's tool call
// through (new-user trial, stop 22).
func hookUsage(err error) error {
	return &exitError{code: ExitBlocked, msg: err.Error() + " (hookcore hook AGENT [EVENT] [flags]; exit 2 so that the agent does not run the action unguarded)"}
}

// runHook is the hook command (`hookcore hook AGENT [EVENT]`, and the lean hook binary) once
// its flags are parsed: args are AGENT and the optional EVENT.
func (e *env) runHook(ctx context.Context, args []string, cf *configFlags, hf *hookFlags) error {
	e.handedOver = hf.handedOver
	p, ok := bridge.Lookup(args[0])
	if !ok {
		return hookUsage(fmt.Errorf("unknown agent %q (known: %s)", args[0], strings.Join(bridge.Names(), ", ")))
	}
	if hf.onError != "block" && hf.onError != "allow" {
		return hookUsage(fmt.Errorf("--on-error must be block or allow, not %q", hf.onError))
	}
	setAgents(cf, p)
	override := ""
	if len(args) == 2 {
		override = args[1]
	}
	// The agent hands a non-zero exit's stderr to the model (Claude Code, Codex and
	// Gemini CLI give exit 2's stderr to the model as the block reason), so hookcore's
	// own diagnostics — warnings about the config, which may quote an untrusted
	// repository's text — are held back and written only with an exit-0 answer.
	var diag bytes.Buffer
	he := *e
	he.stderr = &diag
	ans, wait := he.hook(ctx, p, override, cf, hf)
	if len(ans.Stdout) > 0 {
		if _, err := e.stdout.Write(ans.Stdout); err != nil {
			wait()
			return exitWith(ExitFailure)
		}
	}
	wait() // async hooks finish after the answer is written
	if ans.Code == 0 {
		e.stderr.Write(diag.Bytes()) //nolint:errcheck // diagnostics; the answer is written
	}
	if ans.Stderr != "" {
		fmt.Fprintln(e.stderr, ans.Stderr)
	}
	if ans.Code != 0 {
		return exitWith(ans.Code)
	}
	return nil
}

// hook runs one hook event for the agent protocol p and returns its answer, and a function
// that waits for the async hooks it started (call it after writing the answer). It never
// returns an error: whatever goes wrong becomes p.Fail, closed on gate events unless
// --on-error allow.
func (e *env) hook(ctx context.Context, p bridge.Protocol, override string, cf *configFlags, hf *hookFlags) (ans bridge.Answer, wait func()) {
	start := time.Now()
	wait = func() {}
	block := hf.onError != "allow"
	// Until the input is decoded the event is unknown; an undecidable input is treated as
	// a gate event (the override's, if any), so that it blocks rather than lets through.
	event := hook.PreToolUse
	if override != "" {
		if ev, ok := hook.ParseEvent(override); ok {
			event = ev
		}
	}
	defer func() {
		if v := recover(); v != nil {
			ans, wait = p.Fail(event, fmt.Sprintf("internal error: %v", v), block), func() {}
		}
	}()
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxInput+1))
	if err != nil {
		return p.Fail(event, "read input: "+err.Error(), block), wait
	}
	if len(data) > maxInput {
		return p.Fail(event, fmt.Sprintf("input on stdin is larger than %d MiB", maxInput>>20), block), wait
	}
	ev, in, err := p.Decode(data, override)
	if err == nil {
		err = bridge.Incomplete(ev, in)
	}
	if err != nil {
		return p.Fail(event, err.Error(), block), wait
	}
	if why, own := overrideProblem(p, data, override, ev); why != "" {
		if own != "" {
			event = own
		}
		return p.Fail(event, why, block), wait
	}
	event = ev
	if !ev.Valid() {
		// Not an error (a newer agent's event gets no answer, as the agent runs on), but
		// said: the hooks of no event run for it (new-user trial, stop 27: it was silent).
		fmt.Fprintf(e.stderr, "hookcore: the input's event %q is not one hookcore knows; no hook runs for it\n", text.Printable(string(ev)))
	}
	if hf.server != "" {
		return e.forward(ctx, p, override, data, hf, block, event), wait
	}
	st, err := e.stateStore(hf)
	if err != nil {
		return p.Fail(event, "session state: "+err.Error(), block), wait
	}
	sig := newSignalGate(ctx)
	if d := e.budget(p.Name(), event); d > 0 && event.Kind() == hook.Gate {
		sig.deadline = start.Add(d)
	}
	r, why, broken, need, failed := e.loadRunner(cf, event, hookcore.Options{State: st, Approver: sig, StopBlockLimit: stopBlockCap(p.Name())})
	if need != "" {
		sig.Stop()
		return e.handOver(p, event, data, need, block), wait
	}
	if why == "" && broken != "" && event.Kind() == hook.Gate {
		why = broken
	}
	if why != "" {
		sig.Stop()
		return p.Fail(event, why, block), wait
	}
	fix := e.cwds()
	note := ""
	if event == hook.SessionStart {
		note = bareStartNote(p.Name(), startedAs())
		if e.argless {
			note = strings.TrimPrefix(note+"\n"+arglessNote, "\n")
		}
		note = strings.Trim(note+"\n"+brokenStartNote(broken), "\n")
	}
	ans = e.withinBudget(sig.ctx, p, event, block, fireAnswer(sig.ctx, r, p, event, fix.Fix(in), st, block, note))
	ans = orFailed(p, event, failed, ans)
	wait = func() {
		defer sig.Stop()
		closeCtx := &timeoutOnUse{d: 10 * time.Minute}
		defer closeCtx.cancel()
		if err := r.Close(closeCtx); err != nil {
			fmt.Fprintln(e.stderr, "hookcore: async hooks still running:", err)
		}
	}
	return ans, wait
}

// brokenStartNote is what SessionStart says to the user (its systemMessage) while broken
// entries that may be guards block the gate events (broken, see loadRunner): the prompts
// are blocked too, and stderr alone is seen by no one (new-user trial, stop 33). "" when
// broken is "".
func brokenStartNote(broken string) string {
	if broken == "" {
		return ""
	}
	return "hookcore: " + broken + ": until it is fixed, hookcore blocks every tool call and prompt (`hookcore check` lists the problems)"
}

// stopBlockCap is the Stop-block cap of the agent's hook command (hookcore.Options
// .StopBlockLimit): Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP (research note: it changes
// Claude Code's cap of 8, and 0 turns it off) under `hook claude`, else 0 (hookcore's 8).
// Red team round 41: with the cap off, Claude Code kept a Stop guard's blocks, and hookcore
// let the agent stop after 8 anyway. A project env may set it, and changes Claude Code's own
// cap the same way.
func stopBlockCap(agent string) int {
	if agent != "claude" {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")))
	switch {
	case err != nil || n < 0:
		return 0
	case n == 0:
		return -1
	}
	return n
}

// orFailed is ans, or, when a config file could not be loaded (failed, see loadRunner) and
// the other files' hooks had nothing to say on this event (not a gate: a gate event with
// failed is blocked before), the error failed as a non-blocking error, which the agent shows
// as a hook's error. Not a block: such a file is the user's own (an untrusted project's
// does not count, and a trusted project's that changed makes the grant stale), and a typo
// in it must not keep the agent from stopping.
func orFailed(p bridge.Protocol, event hook.Event, failed string, ans bridge.Answer) bridge.Answer {
	if failed == "" || ans.Code != 0 || len(ans.Stdout) > 0 || ans.Stderr != "" {
		return ans
	}
	return p.Fail(event, failed, false)
}

// agentBudget is how long the hooks of one event may take under the agent named agent
// before hookcore answers a gate event with a block: budgetMargin (10 s) less than the
// agent's default timeout for a hook command (agentTimeout). A hook command the agent times
// out is a failed hook that the agent lets the call through after (Claude Code, Gemini
// CLI); an answer a little earlier keeps the block. The 10 s leave room for the hooks'
// cancellation (a grace period of 2 s, then their output pipes, up to 2 s more) on a loaded
// machine (red team round 36: with 5 s the answer came 0.1 s before Copilot CLI's timeout
// under load). 0: none.
func agentBudget(agent string, event hook.Event) time.Duration {
	d := agentTimeout(agent, event)
	if d == 0 {
		return 0
	}
	return d - budgetMargin
}

// budgetMargin is how much sooner than the agent's timeout hookcore answers (agentBudget).
const budgetMargin = 10 * time.Second

// agentTimeout is the agent's default timeout for its hook command on event (Claude Code
// 600 s, 30 s on UserPromptSubmit; Codex 600 s; Gemini CLI 60 s; Copilot CLI 30 s, the
// timeoutSec install writes; Cursor's is not documented: 30 s is assumed); 0 for another
// agent.
func agentTimeout(agent string, event hook.Event) time.Duration {
	switch agent {
	case "claude", "codex":
		if event == hook.UserPromptSubmit && agent == "claude" {
			return 30 * time.Second
		}
		return 600 * time.Second
	case "gemini":
		return 60 * time.Second
	case "copilot", "cursor":
		return 30 * time.Second
	}
	return 0
}

// withinBudget is ans, or the block of an event whose hooks ctx ended for running out of the
// agent's budget (errHookBudget): the agent would have killed the hook command and, as for
// a timed-out hook, let the call through (new-user trial, stop 27: a 45 s guard under
// Copilot CLI's 30 s).
func (e *env) withinBudget(ctx context.Context, p bridge.Protocol, event hook.Event, block bool, ans bridge.Answer) bridge.Answer {
	if errors.Is(context.Cause(ctx), errHookBudget) {
		return p.Fail(event, fmt.Sprintf("%v (%s)", errHookBudget, e.budget(p.Name(), event)), block)
	}
	return ans
}

// budget is agentBudget, or env.hookBudget where a test set one.
func (e *env) budget(agent string, event hook.Event) time.Duration {
	if e.hookBudget > 0 {
		return e.hookBudget
	}
	return agentBudget(agent, event)
}

// setAgents leaves p's agent out of the agents whose hook files cf discovers, as the hook
// command of that agent and serve's answers to it do: the agent runs its own settings'
// hooks (Claude Code, Gemini CLI, Codex, ...), and hookcore would run them a second time.
func setAgents(cf *configFlags, p bridge.Protocol) {
	if a := config.Agent(p.Name()); slices.Contains(config.DefaultAgents, a) {
		cf.agents = withoutAgent(a)
	}
}

// overrideProblem says why a hook event whose EVENT (override: the command line's, or
// serve's path or query) is not "" cannot be answered, "" when it can; own is the event
// the input itself names ("" when none or unknown), the event of the fail-closed answer.
// ev is the event p.Decode(data, override) returned. An event the agent sends that
// hookcore does not know gets no answer (a newer agent's event); one written on the
// command line is a mistake (`--trust false` read as EVENT false), and answering nothing
// would switch the guard off. So is an EVENT other than the gate event the input names
// (`hook claude Stop` on PreToolUse); another event's input may be read as EVENT's.
func overrideProblem(p bridge.Protocol, data []byte, override string, ev hook.Event) (why string, own hook.Event) {
	if override == "" {
		return "", ""
	}
	own, _, err := p.Decode(data, "")
	if err != nil || !own.Valid() {
		own = ""
	}
	if n, ok := p.(interface{ NamesEvent([]byte) bool }); ok && !n.NamesEvent(data) {
		own = "" // guessed from the fields (Copilot CLI): the command line says which it is
	}
	switch {
	case !ev.Valid():
		why = fmt.Sprintf("unknown event %q on the command line (hookcore hook AGENT [EVENT]; known: the agent's event names and hookcore's)", override)
	case own != "" && own != ev && own.Kind() == hook.Gate:
		why = fmt.Sprintf("the command line names the event %s (%q) and the input %s", ev, override, own)
	}
	return why, own
}

// timeoutOnUse is a context.Context that ends d after its first use (Done, Err, Deadline),
// not after its creation: the hook command's bound on waiting for async hooks, which
// Runner.Close uses only when an async hook started. context.WithTimeout arms its timer at
// once, and the first timer sets up the runtime's network poller (an epoll instance, an
// eventfd, a thread waiting on them) in a hook process that then exits without waiting
// (issue 9, the cold start). Call cancel when done.
type timeoutOnUse struct {
	d    time.Duration
	once sync.Once
	ctx  context.Context
	stop context.CancelFunc
}

func (t *timeoutOnUse) armed() context.Context {
	t.once.Do(func() { t.ctx, t.stop = context.WithTimeout(context.Background(), t.d) })
	return t.ctx
}

func (t *timeoutOnUse) Deadline() (time.Time, bool) { return t.armed().Deadline() }
func (t *timeoutOnUse) Done() <-chan struct{}       { return t.armed().Done() }
func (t *timeoutOnUse) Err() error                  { return t.armed().Err() }
func (t *timeoutOnUse) Value(any) any               { return nil }

// cancel ends the context, releasing its timer if it was armed; a context cancelled before
// its first use is done, with no timer.
func (t *timeoutOnUse) cancel() {
	t.once.Do(func() { t.ctx, t.stop = context.WithCancel(context.Background()) })
	t.stop()
}

// loadRunner loads the config and builds its Runner with opts (the state store; the hook
// command's signalGate as Approver). When it cannot, why says so, as the reason of a
// fail-closed answer: the config problems themselves, not loose stderr lines (warnings
// still go to stderr). broken is non-empty when the config loaded but skips broken hook
// entries that could be guards (a gate event's, or an entry whose event is unknown) in
// layers that run: the hook command then fails closed on gate
// events (a guard with a typo must not silently stop guarding), and runs the hooks of the
// other events.
//
// need is non-empty when this build cannot run the config for event ("": any event) (the
// lean hook binary, -tags hookcore_lean: an http hook of the event, a prompt hook, say): it
// says what the config needs, and the caller hands the event to the full hookcore
// (handOver).
//
// A file that cannot be loaded as a whole (a syntax error in another agent's settings, say)
// is no reason to drop the other files' hooks: it makes broken too (gate events fail
// closed), and failed says which (new-user trial, stop 28: a typo in ~/.codex/config.toml
// switched off the user's Stop guard and context hooks under `hook claude`).
func (e *env) loadRunner(cf *configFlags, event hook.Event, opts hookcore.Options) (r *hookcore.Runner, why, broken, need, failed string) {
	return e.loadRunnerThen(cf, event, opts, nil)
}

// loadRunnerThen is loadRunner; then, when not nil, is called with the loaded config before
// the Runner is compiled from it (serve records what the Runner is built from).
func (e *env) loadRunnerThen(cf *configFlags, event hook.Event, opts hookcore.Options, then func(*loaded)) (r *hookcore.Runner, why, broken, need, failed string) {
	var problems bytes.Buffer
	le := *e
	le.stderr = &problems
	kcf := *cf
	kcf.keepFailed = true
	l, err := le.load(&kcf)
	if err != nil {
		why := strings.TrimSpace(problems.String())
		if why == "" {
			why = err.Error()
		}
		return nil, "config does not load: " + strings.ReplaceAll(why, "\n", "; "), "", "", ""
	}
	if l.failed != "" {
		failed = "config does not load: " + l.failed
	}
	if then != nil {
		then(l)
	}
	if cf.agents != nil && !slices.Contains(cf.agents, config.Claude) {
		// Under Claude Code: a project's settings env reaches this process and every guard
		// it starts. With HOME set there, hookcore reads another home's policy and trust
		// store; with PATH, PYTHONPATH, LD_PRELOAD, ... the user's guard scripts run the
		// repository's code (stop 25 red team). Nothing runs, and a gate event is blocked: a
		// guard fails closed on what the repository or the model can write.
		why, envNote := e.claudeEnvProblem(l)
		if why != "" {
			return nil, why, "", "", ""
		}
		// Any other variable the project's env sets can still make a guard fail (red team
		// round 29: PYTHONIOENCODING=utf-16 crashed a Python guard, and rm -rf went through):
		// the user's guards then fail closed.
		opts.GuardsFailClosed = envNote
	}
	if cf.agents != nil && !slices.Contains(cf.agents, config.GeminiCLI) {
		// Under Gemini CLI: the workspace's .env reaches this process and every guard it
		// starts (red team round 34: a repository's PYTHONPATH=.pyevil made the user's
		// Python guard import the repository's json.py, and rm -rf ran).
		why, envNote := e.geminiEnvProblem(l, usesNetwork(l.set))
		if why != "" {
			return nil, why, "", "", ""
		}
		if opts.GuardsFailClosed == "" {
			opts.GuardsFailClosed = envNote
		}
	}
	// Only now, the env checked: a hand-over with no full hookcore beside the lean binary
	// looks hookcore up on PATH, which the refused env may have set (red team round 45).
	if need := e.lacks(l, cf, event); need != "" {
		return nil, "", "", need, ""
	}
	if problems.Len() > 0 {
		e.stderr.Write(problems.Bytes()) //nolint:errcheck // warnings; the answer matters more
	}
	if !l.untrustedIgnored {
		var msgs []string
		for _, f := range l.set.Files {
			if !l.projectTrusted && (f.Layer == config.Project || f.Layer == config.Local) {
				continue // does not run, and its text (hook ids) must not reach the model
			}
			if hookcore.ExtensionFile(f) {
				continue // skipped with a warning, as Gemini CLI discards the entry (stop 32)
			}
			for _, b := range f.Broken {
				if b.Hook.Event == "" || !b.Hook.Event.Valid() || b.Hook.Event.Kind() == hook.Gate {
					for _, p := range b.Errors {
						msgs = append(msgs, relativize(p.Error(), e.cwd))
					}
				}
			}
		}
		if len(msgs) > 0 {
			broken = "config has broken hook entries that may be guards: " + strings.Join(msgs, "; ")
		}
	}
	tripwire := usesTripwire(l.set)
	// A clause in a file whose hooks an agent's switch turned off (disableAllHooks in the
	// user's Claude Code settings) still arms: the switch must not disarm the tripwire that
	// would see it written (red team round 61).
	opts.ArmTripwire = tripwire && tripwireRuns(l)
	if opts.HookProgram == nil && usesChanges(l.set, match.HookProgram) && !usesChangesAt(l.set, event, match.HookProgram) && !tripwire {
		// One event per hook process: with no hook of this event naming hook_program, what
		// the hooks run need not be looked up (hookGuards: PATH searches, a few stats).
		opts.HookProgram = []string{}
	}
	if opts.HookConfig == nil && usesChanges(l.set, match.HookConfig) && !usesChangesAt(l.set, event, match.HookConfig) && !tripwire {
		// Nor hookcore's config paths (discovery's stats), unless the tripwire compares
		// them (`tool changed hook_config`: at every event of an armed session).
		opts.HookConfig = []string{}
	}
	r, err = e.runner(l, cf, opts)
	if err != nil {
		return nil, "config does not compile: " + err.Error(), "", "", ""
	}
	if failed != "" {
		broken = strings.TrimPrefix(strings.Join([]string{broken, failed}, "; "), "; ")
	}
	return r, "", broken, "", failed
}

// claudeEnvProblem says why Claude Code's environment for this hook process cannot be
// trusted, "" when it can: HOME is not an absolute path (a relative one makes the project's
// own files the user's layer), or a Claude Code settings file of the project (root's, and
// $CLAUDE_PROJECT_DIR's when that is another directory) sets, in its env, a variable
// config.GuardEnv names (or config.NetworkEnv, when a hook of the config goes on the
// network) that no trust grant accepts (judgeEnv: a grant of the directory holding the
// file, which bound its env as it is now, accepts it unless config.GrantKeeps or
// config.EnvNamesPathIn keep it; stop 29). A settings file the config loader parsed in the
// project or local layer is not read again to find such variables
// (config.File.EnvOverrides); any other — loaded as the user's layer because HOME points
// into the project, over the parser's caps, skipped by its budget — is read here, up to
// 16 MiB; a larger one cannot be checked, which is a problem too. note, when the project's
// settings set any env at all, says which file and which variables
// (hookcore.Options.GuardsFailClosed): an accepted env makes a failing guard block too.
func (e *env) claudeEnvProblem(l *loaded) (problem, note string) {
	if e.home != "" && !filepath.IsAbs(e.home) {
		return fmt.Sprintf("HOME is not an absolute path (%q): hookcore would read files of the working directory as your own policy; a project's Claude Code settings env may have set it", e.home), ""
	}
	set, root := l.set, l.projectDir
	dirs := []string{root}
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) && d != root {
		dirs = append(dirs, d)
	}
	type settingsEnv struct {
		path         string
		names, over  []string
		net, refused []string
	}
	var files []settingsEnv
	network := usesNetwork(set)
	for _, dir := range dirs {
		for _, name := range []string{"settings.json", "settings.local.json"} {
			p := filepath.Join(dir, ".claude", name)
			names, over, err := parsedEnv(set, p)
			if err == errNotParsed {
				names, over, err = config.SettingsEnv(p, 16<<20)
			}
			switch {
			case noFile(err): // no settings there for Claude Code either (noFile)
				continue
			case err != nil:
				return fmt.Sprintf("%s cannot be checked for an env that changes how hooks run (%v), so nothing runs and tool calls are blocked", text.Printable(relativize(p, e.cwd)), err), ""
			}
			f := settingsEnv{path: p, names: names, over: over, net: networkNames(names)}
			f.refused = over
			if network {
				f.refused = append(slices.Clip(over), f.net...)
			}
			files = append(files, f)
		}
	}
	note = func() string {
		for _, f := range files {
			if len(f.names) > 0 {
				return fmt.Sprintf("the project's %s sets %s in the env Claude Code gives every hook", text.Printable(relativize(f.path, e.cwd)), someNames(f.names))
			}
		}
		return ""
	}()
	if !slices.ContainsFunc(files, func(f settingsEnv) bool { return len(f.refused) > 0 }) {
		return "", note
	}
	// Some variable is refused unless a trust grant accepts it: judged on the files as they
	// are read now (what the grant's digest binds), with the values every project settings
	// file gives (Claude Code gives this process the last layer's).
	envs := make([]config.ProjectEnv, len(files))
	pool := map[string][]string{}
	for i, f := range files {
		pe, err := config.ReadProjectEnv(f.path, 16<<20)
		if err != nil && !noFile(err) {
			return fmt.Sprintf("%s cannot be checked for an env that changes how hooks run (%v), so nothing runs and tool calls are blocked", text.Printable(relativize(f.path, e.cwd)), err), ""
		}
		envs[i] = pe
		for _, v := range pe.Vars {
			pool[v.Name] = append(pool[v.Name], v.Value)
		}
	}
	for i, f := range files {
		if len(f.refused) == 0 {
			continue
		}
		pe := envs[i]
		var over, net []string
		for _, v := range pe.Vars {
			switch {
			case config.GuardEnv(v.Name, v.Value):
				over = append(over, v.Name)
			case network && config.NetworkEnv(v.Name):
				net = append(net, v.Name)
			}
		}
		var verdict envVerdict
		if len(over)+len(net) == 0 {
			// Changed since the loader read it, which found some: Claude Code may have read
			// either, and no grant accepts what is no longer there.
			over, net = f.over, f.refused[len(f.over):]
		} else if verdict = e.judgeEnv(l, pe, append(slices.Clip(over), net...), os.LookupEnv, pool, e.workspaceDirs(root, f.path)); verdict.accepted {
			continue
		}
		rel := text.Printable(relativize(f.path, e.cwd))
		if len(over) > 0 {
			return fmt.Sprintf("%s sets %s in its env, which Claude Code gives every hook, hookcore's hook command and your guards included: they would read or run other files, so nothing runs and tool calls are blocked; remove it from that file (set it per command, or in your own ~/.claude/settings.json)%s", rel, envNames(over), e.grantAdvice(verdict, f.path)), ""
		}
		return fmt.Sprintf("%s sets %s in its env, which Claude Code gives hookcore's hook command: your hooks that hookcore runs over the network (http, LLM judge, agent, mcp_tool, rego) would send the call, and a key, where the repository says, so nothing runs and tool calls are blocked; remove it from that file (or set it in your own ~/.claude/settings.json)%s", rel, envNames(net), e.grantAdvice(verdict, f.path)), ""
	}
	return "", note
}

// noFile reports whether err, reading a file an agent would read, says there is no such
// regular file there: it does not exist, a directory on the way is a file (`.claude` a
// file: red team round 41, the model wrote one, and every event failed), or it is a
// directory, a FIFO or a device (regularfile.KindError). The agent reads nothing from it
// either.
func noFile(err error) bool {
	var kind *regularfile.KindError
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.As(err, &kind)
}

// usesNetwork reports whether a file of set has a hook hookcore runs over the network
// (config.File.UsesNetwork).
func usesNetwork(set *config.Set) bool {
	for _, f := range set.Files {
		if f.UsesNetwork() {
			return true
		}
	}
	return false
}

// networkNames is the names config.NetworkEnv takes, in order.
func networkNames(names []string) []string {
	var out []string
	for _, n := range names {
		if config.NetworkEnv(n) {
			out = append(out, n)
		}
	}
	return out
}

// geminiEnvProblem is claudeEnvProblem for Gemini CLI, whose environment (which its hooks
// get) takes the variables of the .env file it finds that it does not have already
// (loadEnvironment of Gemini CLI 0.61.0; observed with peer-gemini, red team round 34 and
// stop 29): when that file (geminiEnvFiles) is not the user's own (~/.env, ~/.gemini/.env)
// and names a variable that is set here, to a value the file may have given it
// (config.DotEnvMayGive), that would change how a guard runs (config.GuardEnv), or, when
// network (the config has a hook hookcore runs over the network), where hookcore sends it
// (config.NetworkEnv), nothing runs and a gate event is blocked — unless a trust grant of
// the directory holding the file, which bound the file as it is now, accepts them
// (judgeEnv, stop 29; l is the loaded config). It takes every word of the
// file that could be a key (config.DotEnvWords), not a parse of it. A variable whose value
// the file does not hold is the user's own, which Gemini CLI kept (a .env's PATH or HOME
// blocked every session before stop 29); one whose value it holds may be either, and
// counts. note names the other variables the file may have set.
func (e *env) geminiEnvProblem(l *loaded, network bool) (problem, note string) {
	for _, p := range geminiEnvFiles(e.cwd, e.home) {
		rel := text.Printable(relativize(p, e.cwd))
		data, _, err := regularfile.Read(p, 16<<20)
		switch {
		case noFile(err):
			continue // Gemini CLI reads no variables from it either
		case err != nil:
			return fmt.Sprintf("%s cannot be checked for a variable that changes how hooks run (%v), so nothing runs and tool calls are blocked", rel, err), ""
		}
		var over, overNet, names []string
		for _, w := range config.DotEnvWords(data) {
			v, ok := os.LookupEnv(w)
			switch {
			case !ok, !config.DotEnvMayGive(data, v):
				// Not set, or set to a value the file does not hold: the user's own, which
				// Gemini CLI keeps (a .env's PATH or HOME, stop 29).
			case v != "" && config.GuardEnv(w, v): // empty: a guard that fails for it fails closed (note)
				over = append(over, w)
			case v != "" && network && config.NetworkEnv(w):
				overNet = append(overNet, w)
			default:
				names = append(names, w)
			}
		}
		if len(over)+len(overNet) > 0 {
			// A trust grant of the directory holding the file, which bound it as it is, may
			// accept them (stop 29).
			verdict := e.judgeEnv(l, config.DotEnv(p, data), append(slices.Clip(over), overNet...), os.LookupEnv, nil, e.workspaceDirs(l.projectDir, p))
			switch {
			case verdict.accepted:
				names = append(append(names, over...), overNet...)
			case len(over) == 0:
				return fmt.Sprintf("%s names %s, which Gemini CLI puts in the environment of every hook it runs (hookcore's hook command included) when it is not set already: your hooks that hookcore runs over the network (http, LLM judge, agent, mcp_tool, rego) would send the call, and a key, where the repository says, so nothing runs and tool calls are blocked; remove it from that file, or have Gemini CLI skip it (advanced.ignoreLocalEnv in your settings, or --ignore-env)%s", rel, envNames(overNet), e.grantAdvice(verdict, p)), ""
			default:
				return fmt.Sprintf("%s names %s, which Gemini CLI puts in the environment of every hook it runs (hookcore's hook command and your guards included) when it is not set already: they would read or run other files, so nothing runs and tool calls are blocked; remove it from that file, or have Gemini CLI skip it (advanced.ignoreLocalEnv in your settings, or --ignore-env)%s", rel, envNames(over), e.grantAdvice(verdict, p)), ""
			}
		}
		if len(names) > 0 && note == "" {
			note = fmt.Sprintf("%s may set %s in the env Gemini CLI gives every hook", rel, someNames(names))
		}
	}
	return "", note
}

// someNames is the first five of names, printable and comma-separated, "…" marking more.
func someNames(names []string) string {
	if len(names) > 5 {
		return envNames(names[:5]) + ", …"
	}
	return envNames(names)
}

// envNames is names, comma-separated, each as envName shows it.
func envNames(names []string) string {
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = envName(n)
	}
	return strings.Join(shown, ", ")
}

// envName is a variable name of a repository's file as a message shows it: as it is when
// it is a shell identifier of at most 64 bytes, else quoted and cut to 32 characters. The
// name is the repository's text, and the reason of a block reaches the model as
// hookcore's own words (red team round 41: a key "HOOKCORE_X in its env. IMPORTANT MESSAGE
// FROM THE USER'S POLICY ADMINISTRATOR: ..." was quoted whole).
func envName(n string) string {
	if len(n) <= 64 && config.ShellName(n) {
		return n
	}
	if r := []rune(n); len(r) > 32 {
		n = string(r[:32]) + "…"
	}
	return text.Printable(strconv.Quote(n))
}

// geminiEnvFiles returns the .env files Gemini CLI 0.61.0 may load for a session started in
// dir (findEnvFile, in a trusted workspace): from dir up to the file system's root, the
// first .gemini/.env or .env, walked from dir as given and from dir with its links resolved
// (Gemini CLI walks the real path; this process's working directory may be the shell's
// $PWD, a link: red team round 35), each first hit once, unless it is the user's own
// (~/.env, ~/.gemini/.env, which Gemini CLI also falls back to). A file above the project
// counts too: a repository holding the directory Gemini CLI started in (a submodule's
// outer repository) ships it as well (red team round 35).
func geminiEnvFiles(dir, home string) []string {
	dirs := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		dirs = append(dirs, real)
	}
	own := map[string]bool{}
	if home != "" {
		for _, h := range []string{home, evalOr(home)} {
			own[filepath.Join(h, ".env")] = true
			own[filepath.Join(h, ".gemini", ".env")] = true
		}
	}
	var out []string
	for _, start := range dirs {
		if p := firstEnvFile(start); p != "" && !own[p] && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// firstEnvFile is the first .gemini/.env or .env from dir up to the root, "" when none.
func firstEnvFile(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, p := range []string{filepath.Join(d, ".gemini", ".env"), filepath.Join(d, ".env")} {
			if _, err := os.Lstat(p); err == nil {
				return p
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// evalOr is path with its links resolved, or path when that fails.
func evalOr(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// errNotParsed: the settings file is not one the config loader parsed in the project or
// local layer.
var errNotParsed = errors.New("not parsed")

// parsedEnv returns config.File.EnvNames and EnvOverrides of the project or local layer file
// at path when the config loader parsed it, errNotParsed otherwise.
func parsedEnv(set *config.Set, path string) (names, overrides []string, err error) {
	for _, f := range set.Files {
		if f.Path == path && (f.Layer == config.Project || f.Layer == config.Local) && !f.Failed && f.EnvChecked {
			return f.EnvNames, f.EnvOverrides, nil
		}
	}
	return nil, nil, errNotParsed
}

// fireAnswer fires event through r and encodes the result in p's protocol. A panic of the
// engine becomes p.Fail. On SessionEnd the session's state is dropped from st. note, when
// not "", is added to SessionStart's systemMessage, which Claude Code and Gemini CLI show to
// the user and not to the model.
func fireAnswer(ctx context.Context, r *hookcore.Runner, p bridge.Protocol, event hook.Event, in *hook.Input, st forgetter, block bool, note string) (ans bridge.Answer) {
	defer func() {
		if v := recover(); v != nil {
			ans = p.Fail(event, fmt.Sprintf("internal error: %v", v), block)
		}
	}()
	res := r.Fire(ctx, event, in)
	if note != "" && event == hook.SessionStart {
		if res.SystemMessage != "" {
			res.SystemMessage += "\n"
		}
		res.SystemMessage += note
	}
	if event == hook.SessionEnd {
		st.Forget(in.SessionID) // the session is over: its state goes with it
	}
	return p.Encode(event, in, &res)
}

// forgetter is a store that can drop one session (state.Dir, state.Memory).
type forgetter interface {
	state.Store
	Forget(session string)
}

// stateStore returns the per-session store of the hook command: a state.Dir under
// --state-dir, $HOOKCORE_STATE_DIR or ~/.hookcore/state.
func (e *env) stateStore(hf *hookFlags) (forgetter, error) {
	dir, err := e.stateDirPath(hf.stateDir)
	if err != nil {
		return nil, err
	}
	return &state.Dir{Path: dir}, nil
}

// bareStartNote is what SessionStart tells the user when the hook command was started by a
// bare name (argv0, the name the agent's shell ran, holds no slash: `hookcore-hook hook
// claude`, as install wrote it before red team round 45), "" otherwise: the shell looked the
// name up on the PATH of the hook's environment, which a project's settings can set, and a
// repository's own hookcore-hook then runs at every event in hookcore's place. This time it
// was hookcore; `hookcore check` names the file.
func bareStartNote(agent, argv0 string) string {
	if argv0 == "" || strings.ContainsAny(argv0, "/"+string(filepath.Separator)) {
		return ""
	}
	return fmt.Sprintf("hookcore: this hook command was started by its bare name (%s), which the agent's shell looks up on the PATH of the hook's environment: a project's settings can set that PATH (Claude Code gives their env to every hook) and run their own %s instead, with none of your guards. Run `hookcore install %s` again (with the --scope you installed with): it writes the absolute path (`hookcore check` names the file)", text.Printable(argv0), text.Printable(argv0), agent)
}

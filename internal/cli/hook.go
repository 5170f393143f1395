package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// hookFlags are the flags of `hookcore hook` beyond the config flags.
type hookFlags struct {
	onError  string // "block" (default) or "allow"
	server   string // forward to a `hookcore serve` at this URL
	token    string // the serve token (default: read from the state dir)
	stateDir string
}

func hookCmd(e *env) *cobra.Command {
	var cf configFlags
	var hf hookFlags
	cmd := &cobra.Command{
		Use:   "hook AGENT [EVENT]",
		Short: "Be an agent's hook command: read its hook input on stdin, answer in its own protocol",
		Long: `hook is the one command an agent's hook settings name (AGENT: ` + strings.Join(bridge.Names(), ", ") + `).
It reads the agent's hook input on stdin (the event comes from the input; EVENT, in the
agent's or hookcore's spelling, overrides it), runs the configured hooks as fire does (same
--config flags and discovery), and answers in that agent's own output protocol: for Claude
Code a block exits 2 with the reason on stderr, and allow / ask / deny, rewritten input,
additional context, continue:false and systemMessage are its hookSpecificOutput JSON.

It fails closed: when hookcore cannot decide a gate event (PreToolUse, PermissionRequest,
UserPromptSubmit, ...) because the config does not load, the input cannot be read or the
engine fails, it answers "block" with a reason saying why, unless --on-error allow.
Per-session state (once hooks, the Stop-block cap) is kept under ~/.hookcore/state
(HOOKCORE_STATE_DIR overrides) so that it outlives the process. stdout carries nothing
but the agent's answer.`,
		Example: `  # .claude/settings.json: {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookcore hook claude"}]}]}}
  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' | hookcore hook claude --config rules.yaml`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, ok := bridge.Lookup(args[0])
			if !ok {
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("unknown agent %q (known: %s)", args[0], strings.Join(bridge.Names(), ", "))}
			}
			if hf.onError != "block" && hf.onError != "allow" {
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("--on-error must be block or allow, not %q", hf.onError)}
			}
			if a := config.Agent(p.Name()); slices.Contains(config.DefaultAgents, a) {
				cf.agents = withoutAgent(a) // the agent runs its own settings' hooks (Claude Code, Gemini CLI)
			}
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
			ans, wait := he.hook(cmd.Context(), p, override, &cf, &hf)
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
		},
	}
	cf.registerRun(cmd)
	cmd.Flags().StringVar(&hf.onError, "on-error", "block", "when hookcore cannot decide a gate event: block (fail closed) or allow (fail open)")
	cmd.Flags().StringVar(&hf.server, "server", "", "forward the event to a `hookcore serve` at this URL instead of running the hooks here")
	cmd.Flags().StringVar(&hf.token, "token", "", "the token of the --server (default: the one hookcore serve wrote to the state directory)")
	cmd.Flags().StringVar(&hf.stateDir, "state-dir", "", "per-session state directory (default $HOOKCORE_STATE_DIR, else ~/.hookcore/state)")
	return cmd
}

// hook runs one hook event for the agent protocol p and returns its answer, and a function
// that waits for the async hooks it started (call it after writing the answer). It never
// returns an error: whatever goes wrong becomes p.Fail, closed on gate events unless
// --on-error allow.
func (e *env) hook(ctx context.Context, p bridge.Protocol, override string, cf *configFlags, hf *hookFlags) (ans bridge.Answer, wait func()) {
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
	event = ev
	if hf.server != "" {
		return e.forward(ctx, p, override, data, hf, block, event), wait
	}
	st, err := e.stateStore(hf)
	if err != nil {
		return p.Fail(event, "session state: "+err.Error(), block), wait
	}
	sig := newSignalGate(ctx)
	r, why, broken := e.loadRunner(cf, hookcore.Options{State: st, Approver: sig})
	if why == "" && broken != "" && event.Kind() == hook.Gate {
		why = broken
	}
	if why != "" {
		sig.Stop()
		return p.Fail(event, why, block), wait
	}
	fix := e.cwds()
	ans = fireAnswer(sig.ctx, r, p, event, fix.Fix(in), st, block)
	wait = func() {
		defer sig.Stop()
		closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		if err := r.Close(closeCtx); err != nil {
			fmt.Fprintln(e.stderr, "hookcore: async hooks still running:", err)
		}
	}
	return ans, wait
}

// loadRunner loads the config and builds its Runner with opts (the state store; the hook
// command's signalGate as Approver). When it cannot, why says so, as the reason of a
// fail-closed answer: the config problems themselves, not loose stderr lines (warnings
// still go to stderr). broken is non-empty when the config loaded but skips broken hook
// entries that could be guards (a gate event's, or an entry whose event is unknown) in
// layers that run: the hook command then fails closed on gate
// events (a guard with a typo must not silently stop guarding), and runs the hooks of the
// other events.
func (e *env) loadRunner(cf *configFlags, opts hookcore.Options) (r *hookcore.Runner, why, broken string) {
	var problems bytes.Buffer
	le := *e
	le.stderr = &problems
	l, err := le.load(cf)
	if err != nil {
		why := strings.TrimSpace(problems.String())
		if why == "" {
			why = err.Error()
		}
		return nil, "config does not load: " + strings.ReplaceAll(why, "\n", "; "), ""
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
	r, err = e.runner(l, cf, opts)
	if err != nil {
		return nil, "config does not compile: " + err.Error(), ""
	}
	return r, "", broken
}

// fireAnswer fires event through r and encodes the result in p's protocol. A panic of the
// engine becomes p.Fail. On SessionEnd the session's state is dropped from st.
func fireAnswer(ctx context.Context, r *hookcore.Runner, p bridge.Protocol, event hook.Event, in *hook.Input, st forgetter, block bool) (ans bridge.Answer) {
	defer func() {
		if v := recover(); v != nil {
			ans = p.Fail(event, fmt.Sprintf("internal error: %v", v), block)
		}
	}()
	res := r.Fire(ctx, event, in)
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

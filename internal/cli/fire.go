//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// DefaultAsyncWait is how long `hookcore fire` waits, after printing the result, for the
// async hooks the event started (--async-wait): 60 s. Then, or at SIGTERM, SIGINT or SIGHUP, the
// hooks still running are cancelled — their process groups interrupted, then killed after
// their grace period — and fire exits with the result's status (issue 10.8: an async hook
// with a 600 s timeout held fire, and its caller, for 600 s, deaf to SIGTERM).
const DefaultAsyncWait = 60 * time.Second

// asyncKillWait bounds the wait for cancelled async hooks to return: a command hook's grace
// period (2 s, internal/proc.DefaultGrace) and then its kill, with room to spare.
const asyncKillWait = 10 * time.Second

// fireArgs wants one EVENT, and says which exist when there is none (new-user trial, stop
// 30: cobra's "accepts 1 arg(s), received 0").
func fireArgs(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		var names []string
		for _, ev := range hook.Events() {
			names = append(names, string(ev))
		}
		return fmt.Errorf("fire needs the EVENT to fire (usage: hookcore fire EVENT < input.json); the events: %s (any spelling: pre_tool_use)", strings.Join(names, ", "))
	case len(args) > 1:
		return fmt.Errorf("fire takes one EVENT, not %d arguments (%s): the input comes on stdin", len(args), strings.Join(args, " "))
	}
	return nil
}

func fireCmd(e *env) *cobra.Command {
	var cf configFlags
	asyncWait := DefaultAsyncWait
	cmd := &cobra.Command{
		Use:   "fire EVENT",
		Short: "Run the hooks of one event on an input read from stdin and print the result as JSON",
		Long: `fire reads one event input (the Claude Code hook input JSON) on stdin, runs the matching
hooks and prints the merged result as JSON. Exit status: 0 allowed, 2 blocked, 1 usage or
config error. An input that cannot be read as a hook input (not a JSON object, invalid JSON,
nested too deeply, a field of the wrong type) exits 1, except on a gate event
(PreToolUse, PermissionRequest, UserPromptSubmit, ...), where it exits 2 with the error on
stderr: Claude Code lets the action through on exit 1 and gives stderr as the block reason
on exit 2. So does a PreToolUse or PermissionRequest input that names no tool (an empty
stdin, {}): no rule could check it. Nothing on stdin is an empty input on other events. A config that cannot be loaded (a user or --config file that cannot be read or
parsed) also exits 2 on a gate event, for the same reason; a hook entry with an error is
skipped with a warning and the other hooks run, except in a file of hookcore's own YAML named
with --config: a file being written, whose errors stop fire, none of its hooks run, with
exit 1 on every event (wire an agent to hookcore hook, which blocks instead). A discovered Gemini CLI
extension's hooks/hooks.json that does not load is skipped with a warning, as Gemini CLI
skips it. Without --config the user, project, local,
managed and --settings layers are discovered (hookcore's own files and Claude Code's,
MiniCode's and codebot's: see hookcore list); project and local layers run only in a
trusted workspace (see hookcore trust, or pass --trust). When nothing is found, fire says
so on stderr.

The result is printed as soon as the synchronous hooks are done; fire then waits at most
--async-wait for the async hooks it started, and cancels those still running then or at
SIGTERM, SIGINT or SIGHUP (their process groups are killed).`,
		Example:           `  echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' | hookcore fire PreToolUse --config examples/minicode/hooks.yaml`,
		Args:              fireArgs,
		ValidArgsFunction: completeEvents,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asyncWait < 0 {
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("--async-wait %s is negative", asyncWait)}
			}
			event, ok := hook.ParseEvent(args[0])
			if !ok {
				msg := fmt.Sprintf("unknown event %q", args[0])
				if s := config.Suggest(args[0], hook.EventNames()); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return &exitError{code: ExitFailure, msg: msg}
			}
			if isTerminal(e.stdin) { // a person typing, not an agent piping
				fmt.Fprintf(e.stderr, "hookcore: reading the %s input (JSON) from the terminal; end it with Ctrl-D\n", event)
			}
			in, err := readInput(e.stdin)
			if err == nil {
				// A tool gate whose input names no tool (nothing on stdin, say) cannot be
				// decided: every matcher would miss and the call would be allowed. hookcore
				// hook answers it as an unreadable input; so does fire.
				err = bridge.Incomplete(event, in)
			}
			if err != nil {
				// A config that does not load is said as well (its errors, then the
				// input's): fixing the input alone would only lead to the next error.
				if _, lerr := e.load(&cf); lerr != nil {
					fmt.Fprintf(e.stderr, "hookcore: %v\n", err)
					return gateBlock(event, lerr)
				}
				// Claude Code lets a call through on exit 1; on a gate event an input the
				// guards cannot read blocks instead, with the error as the reason (stderr).
				code := ExitFailure
				if event.Kind() == hook.Gate {
					code = ExitBlocked
				}
				return &exitError{code: code, msg: err.Error()}
			}
			l, err := e.load(&cf)
			if err != nil {
				return gateBlock(event, err)
			}
			if l.looked != nil && len(l.set.Files) == 0 {
				e.noConfig(l.looked)
			}
			r, err := e.runner(l, &cf, hookcore.Options{})
			if err != nil {
				return gateBlock(event, err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			fix := e.cwds()
			res := r.Fire(ctx, event, fix.Fix(in))
			relSources(res.Hooks, e.cwd)
			werr := writeResult(e.stdout, res)
			waitAsync(ctx, r, asyncWait, e.stderr)
			if werr != nil {
				return werr
			}
			if res.Blocked {
				return exitWith(ExitBlocked)
			}
			return nil
		},
	}
	cf.registerRun(cmd)
	cmd.Flags().DurationVar(&asyncWait, "async-wait", DefaultAsyncWait, "after printing the result, wait at most this long for async hooks, then kill them")
	return cmd
}

// waitAsync waits up to wait for the async hooks of r, or until ctx (cancelled by SIGTERM
// and SIGINT) is done; then it cancels the hooks still running and waits for them to return,
// at most asyncKillWait, saying on stderr what it did.
func waitAsync(ctx context.Context, r *hookcore.Runner, wait time.Duration, stderr io.Writer) {
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if r.Close(wctx) == nil {
		return
	}
	why := fmt.Sprintf("still running after %v", wait)
	if ctx.Err() != nil {
		why = "interrupted by a signal"
	}
	r.CancelAsync()
	kctx, kcancel := context.WithTimeout(context.Background(), asyncKillWait)
	defer kcancel()
	if err := r.Close(kctx); err != nil {
		fmt.Fprintf(stderr, "hookcore: async hooks %s; cancelled, but some had not returned after %v\n", why, asyncKillWait)
		return
	}
	fmt.Fprintf(stderr, "hookcore: async hooks %s; cancelled\n", why)
}

// noConfig says on stderr that discovery found no config file, and where it looked: a
// project whose hooks hookcore does not find would otherwise allow everything silently.
func (e *env) noConfig(looked []config.Candidate) {
	paths := make([]string, len(looked))
	for i, c := range looked {
		paths[i] = e.shortPath(c.Path)
	}
	fmt.Fprintf(e.stderr, "hookcore: no config found; no hook runs (looked for %s)\n", text.Printable(strings.Join(paths, ", ")))
}

// gateBlock turns a failure to load or compile the config into a block on a gate event:
// the guards that should decide could not run, and Claude Code lets an action through on
// exit 1, so a broken user config (or a missing home) must not open the gate (issue 10.2).
// Its reason, on stderr, says why. Other events keep err (exit 1).
func gateBlock(event hook.Event, err error) error {
	var ee *exitError
	// A file being written (fire --config with broken entries, ee.broken) exits 1 on every
	// event: the user is authoring, fire is no hook command, and the conformance cases 15,
	// 17 and 18 say so (docs/decisions.md, "Broken files: what each command does").
	if event.Kind() != hook.Gate || errors.As(err, &ee) && ee.broken != "" {
		return err
	}
	why := "the hook config could not be loaded (see the errors above)"
	if !errors.As(err, &ee) || ee.msg != "" {
		why = "the hook config could not be loaded: " + err.Error()
	}
	return &exitError{code: ExitBlocked, msg: why + "; blocking " + string(event) + " rather than letting it through unguarded"}
}

// readInput reads one JSON object from r; empty input is an empty object. A top-level key
// given twice is an error (hook.CheckInputKeys).
func readInput(r io.Reader) (*hook.Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	if len(data) > maxInput {
		return nil, fmt.Errorf("input on stdin is larger than %d MiB; the limit is %d MiB", maxInput>>20, maxInput>>20)
	}
	in := &hook.Input{}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return in, nil
	}
	if data[0] != '{' {
		// Quoted as the hook command quotes it: a byte that is not UTF-8 as an escape, not
		// as itself (new-user trial: binary garbage on stdin reached the terminal raw).
		return nil, fmt.Errorf("input on stdin is not a JSON object: it begins %q", bridge.Head(data, 20))
	}
	if err := json.Unmarshal(data, in); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("input on stdin is not valid JSON: %v", err)
		}
		return nil, fmt.Errorf("input on stdin is not a valid hook input: %v", err)
	}
	if err := hook.CheckInputKeys(data); err != nil {
		// As the hook command's decoders refuse it (red team round 59): the last of two
		// tool_input or hook_event_name keys is not what every reader sees.
		return nil, fmt.Errorf("input on stdin names a field twice: %w", err)
	}
	return in, nil
}

// writeResult prints a result as indented JSON; "hooks" is [] rather than null.
func writeResult(w io.Writer, res hook.Result) error {
	if res.Hooks == nil {
		res.Hooks = []hook.Record{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return err
	}
	_, err := io.WriteString(w, strings.TrimRight(buf.String(), "\n")+"\n")
	return err
}

// relSources shortens each record's source (an absolute config path and line) to a path
// relative to cwd when the file is under it, as `list` and `check` print them.
func relSources(recs []hook.Record, cwd string) {
	for i := range recs {
		recs[i].Source = relativize(recs[i].Source, cwd)
	}
}

// completeEvents completes an EVENT argument with the canonical event names (shell
// completion: hookcore completion bash|zsh|fish).
func completeEvents(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, n := range hook.EventNames() {
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(toComplete)) {
			out = append(out, n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

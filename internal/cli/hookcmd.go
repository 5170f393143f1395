//go:build !hookcore_lean

package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
)

// This file registers the hook command and the config flags with cobra. The lean hook
// binary (-tags hookcore_lean) parses the same flags without cobra (hookflags.go);
// TestLeanFlagsMatchCobra holds the two to one set of names, kinds and defaults.

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
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.RangeArgs(1, 2)(cmd, args); err != nil {
				return hookUsage(err)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runHook(cmd.Context(), args, &cf, &hf)
		},
	}
	registerHookFlags(cmd, &cf, &hf)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return hookUsage(err) })
	cmd.SetHelpFunc(e.hookHelp)
	return cmd
}

// hookHelp is the hook command's help. Asked for on the hook command line (`hookcore hook
// claude --help`, `hookcore-hook --help`) with stdin not a terminal, it is an agent's hook
// command that cannot run: the help on stdout with exit 0 let the call through (red team
// round 65), so the answer fails closed instead, in the agent's protocol on its input's
// event when an agent is named (failArgs), else exit 2, saying where the help is. In a
// terminal, and for `hookcore help hook`, it is the help.
func (e *env) hookHelp(c *cobra.Command, args []string) {
	if w := positional(e.args); len(w) == 0 || w[0] != "hook" || isTerminal(e.stdin) {
		help := c.Parent().HelpFunc
		if !c.HasParent() {
			help = (&cobra.Command{}).HelpFunc
		}
		help()(c, args)
		return
	}
	code := e.failArgs(e.args, "the hook command line asks for help (-h or --help), which is no hook's answer; run `hookcore hook --help` in a terminal for the usage")
	e.helpAnswer = &code
}

// registerHookFlags registers the hook command's flags with cmd: the config flags
// (registerRun) and the hook flags. The lean binary's parser has the same (hookflags.go).
func registerHookFlags(cmd *cobra.Command, cf *configFlags, hf *hookFlags) {
	cf.registerRun(cmd)
	cmd.Flags().StringVar(&hf.onError, "on-error", defaultOnError, "when hookcore cannot decide a gate event: block (fail closed) or allow (fail open)")
	cmd.Flags().StringVar(&hf.server, "server", "", "forward the event to a hookcore serve at this `URL` instead of running the hooks here")
	cmd.Flags().StringVar(&hf.token, "token", "", "the token of the --server (default for a loopback --server: the one hookcore serve wrote to the state directory)")
	cmd.Flags().StringVar(&hf.stateDir, "state-dir", "", "per-session state directory (default $HOOKCORE_STATE_DIR, else ~/.hookcore/state)")
	cmd.Flags().BoolVar(&hf.handedOver, handedOverFlag[2:], false, "set by the lean hook binary (hookcore-hook) on the command line it hands over")
	_ = cmd.Flags().MarkHidden(handedOverFlag[2:])
}

func (f *configFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVarP(&f.files, "config", "c", nil, "load this config file (repeatable); only named files are loaded, trusted because you named them")
	cmd.Flags().BoolVar(&f.trust, "trust", false, "trust this workspace's current project config before running")
	cmd.Flags().StringVar(&f.dir, "config-dir", defaultConfigDir, "name of the per-user and per-project config directory (another name than .hookcore looks only for its hooks.yaml and hooks.local.yaml, no other agent's files)")
	cmd.Flags().StringArrayVar(&f.settings, "settings", nil, "Claude Code's --settings: load this settings file after the discovered layers (repeatable; trusted because you named it)")
	managedDirFlag(cmd, &f.system)
}

// managedDirFlag registers the hidden --managed-settings-dir, Claude Code's managed settings
// directory, and --gemini-system-settings, Gemini CLI's system settings file, for tests
// (which must not read the machine's /etc) and unusual installs. They are flags, not
// environment variables: a project's Claude Code settings can set the environment of the
// hooks Claude Code runs (its `env` key), and a repository must not be able to swap the
// administrator's policy for its own.
func managedDirFlag(cmd *cobra.Command, p *systemFlags) {
	cmd.Flags().StringVar(&p.managedDir, "managed-settings-dir", config.DefaultManagedDir, "Claude Code's managed settings directory (managed-settings.json, managed-settings.d/)")
	cmd.Flags().StringVar(&p.geminiSystem, "gemini-system-settings", config.DefaultGeminiSystemSettings(), "Gemini CLI's system settings file")
	_ = cmd.Flags().MarkHidden("managed-settings-dir")
	_ = cmd.Flags().MarkHidden("gemini-system-settings")
}

// registerRun registers the config flags and those of commands that run hooks (--approve,
// --allow-host).
func (f *configFlags) registerRun(cmd *cobra.Command) {
	f.register(cmd)
	f.approve.register(cmd)
	cmd.Flags().StringArrayVar(&f.allowHosts, "allow-host", nil,
		"let http hooks reach this host name, IP address or CIDR prefix although the SSRF guard refuses loopback, private and link-local destinations (repeatable; added to each hook's allowed_hosts)")
	cmd.Flags().StringVar(&f.audit, "audit", os.Getenv("HOOKCORE_AUDIT"),
		"append every decision to this tamper-evident log (hash-chained JSON lines; HMAC-keyed by $HOOKCORE_AUDIT_KEY; check with 'hookcore audit verify'); default $HOOKCORE_AUDIT")
	cmd.Flags().StringVar(&f.otel, "otel", "",
		"send traces and metrics to this OTLP/HTTP receiver (http://localhost:4318); default: the OTEL_EXPORTER_OTLP_* variables, off when none is set")
}

func (f *approveFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.mode, "approve", approveOff,
		"approval gate before each hook runs: ask (on the terminal, once per distinct hook; answer a to remember) or deny-new (only hooks approved before)")
}

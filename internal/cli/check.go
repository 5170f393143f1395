//go:build !hookcore_lean

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/install"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/trust"
)

func checkCmd(e *env) *cobra.Command {
	var (
		dir         string
		tools       []string
		agentRunner bool
		system      systemFlags
		asJSON      bool
	)
	cmd := &cobra.Command{
		Use:   "check [FILE...]",
		Short: "Validate hook configs and report every problem with its position",
		Long: `check validates config files of any dialect (MiniCode YAML, codebot JSON, Claude Code
settings) and prints every problem on stderr as file:line:col: hook-id: message, warnings as
file:line:col: hook-id: warning: message, and a summary on stdout. Exit status 1 when there is
an error, else 0. Without files it checks the discovered layers (user, project, local).
It also warns about a command whose script or program does not exist (not in PATH), a prompt
hook whose model cannot be reached here, a func hook (only a Go program that registers it can
run it), a plain-name matcher that names no tool any supported agent sends (a typo: "Bsh"),
and, with --tools (which replaces that list: declare your own tools so), a matcher that can
never match one of the tools; an agent's entry that runs hookcore and that a switch of a file
the agent reads turns off (disableAllHooks, hooksConfig, [features] hooks), or that fails
open (--on-error allow, a timeout shorter than the agent's own default). An agent hook is
an error unless --agent-runner says the harness runs sub-agents.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var paths []config.LayerPath
			if len(args) == 0 {
				var err error
				paths, err = system.apply(config.Discovery{Cwd: e.cwd, Home: e.home, Dir: dir}).Paths()
				if err != nil {
					return err
				}
				if len(paths) == 0 {
					others := ""
					if dir == config.DefaultDir {
						others = ", and the other agents' hook files that `hookcore list` shows (Claude Code, Gemini CLI, Codex, Cursor, Copilot CLI, MiniCode, codebot)"
					}
					fmt.Fprintf(e.stderr, "hookcore: no config found (looked for ~/%[1]s/hooks.yaml, %[1]s/hooks.yaml and %[1]s/hooks.local.yaml%[2]s)\n", dir, others)
				}
			}
			for _, a := range args {
				if !filepath.IsAbs(a) {
					a = filepath.Join(e.cwd, a)
				}
				// A file named twice (hooks.yaml ./hooks.yaml, a link to it, a shell glob
				// and its name) is checked once: each of its problems printed twice, and
				// counted as two files (new-user trial, stop 33).
				if slices.ContainsFunc(paths, func(p config.LayerPath) bool {
					return filepath.Clean(p.Path) == filepath.Clean(a) || sameFile(p.Path, a)
				}) {
					continue
				}
				paths = append(paths, config.LayerPath{Path: a, Layer: config.Explicit})
			}
			var all config.ErrorList
			var files []*config.File
			hooks, self := 0, 0
			for _, p := range paths {
				if p.Refused != "" { // not read by the hook command either: say why, as list does
					all = append(all, &config.Problem{Pos: config.Pos{File: p.Path}, Msg: p.Refused})
					continue
				}
				f, problems := config.ParseLayerPath(p)
				for i, q := range problems {
					if q.Warning && strings.HasSuffix(q.Msg, config.ClaudeIgnoresFile) {
						q.Warning = false // hookcore's warning, but the agent runs none of the file
					}
					if !q.Warning && f != nil && !f.Failed && hookcore.ExtensionFile(f) {
						// A broken entry of a discovered Gemini CLI extension: skipped, as the
						// hook command skips it (stop 32). A file that does not load stays
						// an error here (stop 31).
						problems[i] = extensionWarning(q, f)
					}
				}
				all = append(all, problems...)
				if f != nil {
					files = append(files, f)
					n := selfEntries(f) // the agent's entries that run hookcore: not hookcore's hooks
					hooks += f.Entries - n
					self += n
					all = append(all, config.Lint(f, config.LintOptions{Tools: tools, Home: e.home})...)
					if len(tools) == 0 {
						all = append(all, unknownToolMatchers(f)...)
					}
					if len(f.EnvOverrides) > 0 {
						// What `hookcore hook claude` refuses (claudeEnvProblem): said here
						// too, where the user looks (stop 25 trial: check said 0 errors),
						// unless a trust grant accepts it (stop 29).
						if p := e.envCheckProblem(f); p != nil {
							all = append(all, p)
						}
					}
					all = append(all, e.externalProblems(f, agentRunner)...)
					prev := e.installPreview(f)
					all = append(all, bareHookcore(f, prev)...)
					all = append(all, shellHookcore(f, prev)...)
					all = append(all, narrowHookcore(f, prev)...)
					all = append(all, failOpen(f)...)
				}
			}
			if len(args) == 0 && e.home != "" {
				all = append(all, trustProblems(e, files)...)
			}
			all = append(all, hookcoreSwitchedOff(files)...)
			all = append(all, e.geminiTwice(files)...)
			all.Sort()
			if asJSON {
				if err := writeCheckJSON(e, all, hooks, len(paths)); err != nil {
					return err
				}
				if all.Errors() > 0 {
					return exitWith(ExitFailure)
				}
				return nil
			}
			for _, p := range all {
				fmt.Fprintln(e.stderr, relativize(p.Error(), e.cwd))
			}
			selfNote := ""
			if self > 0 {
				selfNote = fmt.Sprintf(" (and %d agent entries that run hookcore itself)", self)
				if self == 1 {
					selfNote = " (and 1 agent entry that runs hookcore itself)"
				}
			}
			fmt.Fprintf(e.stdout, "%d %s in %d %s%s: %d %s, %d %s\n",
				hooks, plural(hooks, "hook"), len(paths), plural(len(paths), "file"), selfNote,
				all.Errors(), plural(all.Errors(), "error"), all.Warnings(), plural(all.Warnings(), "warning"))
			if all.Errors() > 0 {
				return exitWith(ExitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "config-dir", ".hookcore", "name of the per-user and per-project config directory")
	managedDirFlag(cmd, &system)
	cmd.Flags().BoolVar(&agentRunner, "agent-runner", false, "the harness runs sub-agents for agent hooks (hookcore run does); without it an agent hook is an error")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the diagnostics and the summary as one JSON object on stdout (file, line, column, hook, message, severity)")
	cmd.Flags().StringSliceVar(&tools, "tools", nil, "tool names the harness declares (comma-separated), to warn about matchers that never match; default: the supported agents' tools")
	return cmd
}

// trustProblems says what the workspace's trust does to the discovered project and local
// files: an error when a grant no longer matches them (the hook command blocks every tool
// call until the next grant), a warning when project hooks wait for a first grant. `check`
// said "0 errors" while a stale grant had switched the project's hooks off (new-user trial,
// stop 24).
func trustProblems(e *env, files []*config.File) config.ErrorList {
	root := e.projectRoot()
	entry, ok, err := trust.DefaultStore(e.home).Lookup(root)
	project := slices.ContainsFunc(files, func(f *config.File) bool {
		return (f.Layer == config.Project || f.Layer == config.Local) && f.Entries > selfEntries(f)
	})
	at := config.Pos{File: root}
	switch {
	case err != nil:
		return config.ErrorList{{Pos: at, Msg: "workspace trust could not be checked: " + err.Error()}}
	case ok && entry.Digest != hookcore.TrustDigestOf(entry, &config.Set{Files: files}):
		return config.ErrorList{{Pos: at, Msg: "this workspace was trusted with other project config: its hooks do not run, and the hook command blocks every tool call until you review the change (`hookcore trust show`) and run `hookcore trust grant`"}}
	case !ok && project:
		return config.ErrorList{{Pos: at, Warning: true, Msg: "the project's hooks do not run until you run `hookcore trust grant`"}}
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// checkDiagnostic is one problem of `check --json`.
type checkDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Hook     string `json:"hook,omitempty"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // "error" or "warning"
}

func writeCheckJSON(e *env, all config.ErrorList, hooks, files int) error {
	out := struct {
		Hooks       int               `json:"hooks"`
		Files       int               `json:"files"`
		Errors      int               `json:"errors"`
		Warnings    int               `json:"warnings"`
		Diagnostics []checkDiagnostic `json:"diagnostics"`
	}{Hooks: hooks, Files: files, Errors: all.Errors(), Warnings: all.Warnings(), Diagnostics: []checkDiagnostic{}}
	for _, p := range all {
		sev := "error"
		if p.Warning {
			sev = "warning"
		}
		out.Diagnostics = append(out.Diagnostics, checkDiagnostic{
			File: relativize(p.Pos.File, e.cwd), Line: p.Pos.Line, Column: p.Pos.Col,
			Hook: p.HookID, Message: p.Msg, Severity: sev,
		})
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// hookcoreEntries returns the first hook of f that runs hookcore (hookcoreProgram) and
// that which accepts, the program it names, and how many such hooks f has: first is nil
// when there is none.
func hookcoreEntries(f *config.File, which func(h *config.Hook, prog string) bool) (first *config.Hook, prog string, n int) {
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if p := hookcoreProgram(h.Action); p != "" && which(h, p) {
			if n++; first == nil {
				first, prog = h, p
			}
		}
	}
	return first, prog, n
}

// bareHookcore warns, once per file, about the entries of f that run hookcore by a bare name
// (`hookcore-hook hook claude`, as install wrote them before red team round 45): the agent's
// shell looks the name up on the PATH of the hook's environment, which Claude Code takes
// from a project's settings `env` too, so a repository that puts its own bin/ first and
// ships a bin/hookcore-hook runs that program in hookcore's place at every event, and
// hookcore, which would refuse the env, never starts. `hookcore install` writes the
// absolute path, and replaces such an entry of its own.
func bareHookcore(f *config.File, prev *install.Plan) config.ErrorList {
	first, prog, n := hookcoreEntries(f, func(h *config.Hook, p string) bool { return !strings.ContainsRune(p, '/') })
	if first == nil {
		return nil
	}
	fix := "name the program there by its absolute path"
	if prev != nil && len(prev.ReplacedBare) > 0 {
		// Only where install replaces them (new-user trial, stop 30: it kept an entry of
		// the user's, and the advice changed nothing).
		fix = fmt.Sprintf("run `hookcore install %s --scope %s` again: it writes the absolute path in their place", f.Dialect, f.Layer)
		if len(prev.Kept) > 0 {
			fix += fmt.Sprintf(" (in %s, the entry you wrote stays as it is: name the program there by its absolute path)", strings.Join(prev.Kept, ", "))
		}
	}
	entries := "entries run"
	if n == 1 {
		entries = "entry runs"
	}
	return config.ErrorList{{Pos: first.Pos, Warning: true, Msg: fmt.Sprintf(
		"%d %s hookcore by its bare name (%s): the agent's shell looks it up on the PATH of the hook's environment, which a project's settings can set (Claude Code gives their env to every hook), so a repository's own %s would run instead and none of your guards would; %s",
		n, entries, text.Printable(prog), text.Printable(prog), fix)}}
}

// installPreview is what `hookcore install AGENT --scope LAYER` would do to f, an agent's
// settings file of the user, project or local layer (install.Preview); nil for any other
// file, or when install could not read it.
func (e *env) installPreview(f *config.File) *install.Plan {
	agent := f.Dialect.String()
	if !slices.Contains(install.Agents(), agent) || f.Layer != config.User && f.Layer != config.Project && f.Layer != config.Local {
		return nil
	}
	if f.Dialect == config.Nested && !config.IsClaudeSettings(f.Path) {
		return nil
	}
	data, _, err := config.ReadFile(f.Path)
	if err != nil {
		return nil
	}
	prog, err := hookProgram("", e.cwd, true)
	if err != nil {
		prog = ""
	}
	p, err := install.Preview(install.Options{Agent: agent, Scope: install.Scope(f.Layer.String()), Command: prog}, data)
	if err != nil {
		return nil
	}
	return p
}

// narrowHookcore warns about the events of f whose hookcore entries all sit in groups with a
// narrower matcher than install writes ("Bash" where install writes "*"): no other tool call
// reaches hookcore, so the guards of Write, Edit and the rest never run under the agent
// (new-user trial, stop 30: a hand-written entry for Bash, and nothing said so). The fix
// is install's where install replaces the entry (prev.Widened), else the user's.
func narrowHookcore(f *config.File, prev *install.Plan) config.ErrorList {
	if prev == nil {
		return nil
	}
	var out config.ErrorList
	say := func(list []string, fix string) {
		for _, ev := range list {
			name, _, _ := strings.Cut(ev, " ")
			at := config.Pos{File: f.Path}
			for i := range f.Hooks {
				h := &f.Hooks[i]
				if callsHookcore(h.Action) && (string(h.Event) == name || h.NativeEvent == name) {
					at = h.Pos
					break
				}
			}
			out = append(out, &config.Problem{Pos: at, Warning: true, Msg: fmt.Sprintf(
				"hooks.%s: hookcore runs only for the tools that matcher names: no other tool call (Write, Edit, ...) reaches hookcore, so none of their guards run under %s; %s",
				ev, f.Dialect.Agent(), fix)})
		}
	}
	say(prev.Widened, fmt.Sprintf("run `hookcore install %s --scope %s` again: it replaces the entry with one for every tool", f.Dialect, f.Layer))
	say(prev.Narrow, fmt.Sprintf("set that group's matcher to \"*\", or take the entry out and run `hookcore install %s --scope %s` again (it writes one for every tool)", f.Dialect, f.Layer))
	return out
}

// envCheckProblem is check's error for the Claude Code settings file f of the project or
// local layer, whose env sets variables config.GuardEnv refuses: what `hookcore hook
// claude` does with them (claudeEnvProblem), nil when a trust grant accepts them
// (judgeEnv; the values are the file's, as no agent gave this process any).
func (e *env) envCheckProblem(f *config.File) *config.Problem {
	at := config.Pos{File: f.Path}
	pe, err := config.ReadProjectEnv(f.Path, 16<<20)
	if err != nil {
		return &config.Problem{Pos: at, Msg: fmt.Sprintf("env cannot be checked (%v): under Claude Code, hookcore runs nothing and blocks tool calls while it cannot", err)}
	}
	var over []string
	for _, v := range pe.Vars {
		if config.GuardEnv(v.Name, v.Value) {
			over = append(over, v.Name)
		}
	}
	if len(over) == 0 {
		return nil
	}
	v := e.judgeEnv(nil, pe, over, nil, nil, []string{config.EnvHolder(f.Path), e.cwd})
	if v.accepted {
		return nil
	}
	return &config.Problem{Pos: at, Msg: fmt.Sprintf("env sets %s, which Claude Code gives every hook, hookcore's hook command and your guards included: under Claude Code, hookcore runs nothing and blocks tool calls while it does%s", envNames(over), e.grantAdvice(v, f.Path))}
}

// shellHookcore warns, once per Claude Code settings file, about the entries that run
// hookcore by an absolute path as a command line (shell form, as install wrote them before
// stop 29; a bare name draws bareHookcore's warning instead): Claude Code runs such a line
// with sh -c, and a project's settings env reaches that shell before hookcore does.
// CLAUDE_CODE_SHELL_PREFIX runs the line through the repository's program (red team round
// 45, with the real Claude Code: it swallowed hookcore's command, and rm -rf ran), and the
// dynamically linked shell loads LD_PRELOAD (observed: the repository's library ran in sh at
// every event). `hookcore install claude` writes exec form, which Claude Code runs with no
// shell, and replaces such an entry of its own.
func shellHookcore(f *config.File, prev *install.Plan) config.ErrorList {
	if f.Dialect != config.Nested || !config.IsClaudeSettings(f.Path) {
		return nil
	}
	first, prog, n := hookcoreEntries(f, func(h *config.Hook, p string) bool {
		return h.Action.Command != "" && strings.ContainsRune(p, '/')
	})
	if first == nil {
		return nil
	}
	fix := `write them in exec form ("command": the program, "args": its arguments), which Claude Code runs with no shell`
	if prev != nil && len(prev.ReplacedShell) > 0 {
		fix = fmt.Sprintf("run `hookcore install claude --scope %s` again: it writes them in exec form (\"args\"), which Claude Code runs with no shell", f.Layer)
		if len(prev.Kept) > 0 {
			fix += fmt.Sprintf(" (in %s, the entry you wrote stays as it is: write it in exec form yourself)", strings.Join(prev.Kept, ", "))
		}
	}
	entries := "entries run"
	if n == 1 {
		entries = "entry runs"
	}
	return config.ErrorList{{Pos: first.Pos, Warning: true, Msg: fmt.Sprintf(
		"%d %s hookcore as a command line (%s ...), which Claude Code runs with sh -c: a project's settings env reaches that shell before hookcore does (CLAUDE_CODE_SHELL_PREFIX runs the line through the repository's own program, which need not start hookcore at all; LD_PRELOAD loads the repository's code into the shell); %s",
		n, entries, text.Printable(prog), fix)}}
}

//go:build !hookcore_lean

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/agent/tools"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/executor/command"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/demo"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/model"
	"github.com/hookcore/hookcore/tool"
)

// runFlags are the options of hookcore run.
type runFlags struct {
	cf        configFlags
	model     string
	baseURL   string
	workspace string
	maxTurns  int
	log       string
	mode      string
	allow     []string
	deny      []string
	json      bool
}

func runCmd(e *env) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [PROMPT]",
		Short: "Run a session of the reference agent with the hooks, printing each step",
		Long: `run starts the reference agent (Bash, ReadFile, WriteFile, EditFile, tasks and sub-agents,
confined to the workspace) with the hooks wired in at every lifecycle point, and prints each
step as it happens: the model's text, tool calls and results, and every hook decision with its
reason. The session is non-interactive: a tool that needs permission runs only when a rule, the
permission mode or a PermissionRequest hook allows it.

Without --model and without OPENAI_API_KEY, ANTHROPIC_API_KEY or HOOKCORE_MODEL it runs the
offline demo: a scripted model, the demo hooks and a small workspace copied into a temporary
directory (or --workspace), exercising a block, a rewrite, context injection and stop
validation. --log writes the session log, which hookcore replay reads.`,
		Example: `  hookcore run
  hookcore run "fix the failing test" --model openai:gpt-4o-mini --config .hookcore/hooks.yaml
  hookcore run "list the files" --model openai:qwen --base-url http://127.0.0.1:8080/v1
  hookcore run --log session.jsonl && hookcore replay session.jsonl -c other-hooks.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := agent.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			prompt := ""
			if len(args) == 1 {
				prompt = args[0]
			}
			return e.run(ctx, &f, prompt)
		},
	}
	f.cf.registerRun(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&f.model, "model", "m", "", "the model: scripted:FILE, openai:NAME, anthropic:NAME or a bare name (default: $HOOKCORE_MODEL, else by API key, else the demo)")
	fl.StringVar(&f.baseURL, "base-url", "", "the API root of an OpenAI-compatible (or Anthropic) server, e.g. http://127.0.0.1:8080/v1")
	fl.StringVar(&f.workspace, "workspace", "", "the workspace root (default: the working directory; the demo: a temporary copy)")
	fl.IntVar(&f.maxTurns, "max-turns", 50, "at most N model requests per prompt")
	fl.StringVar(&f.log, "log", "", "write the session log (JSONL, docs/session-log.md) to this new file (an existing file is never overwritten)")
	fl.StringVar(&f.mode, "permission-mode", agent.ModeDefault, "default, acceptEdits or bypassPermissions")
	fl.StringArrayVar(&f.allow, "allow", nil, "a permission rule that allows, e.g. 'Bash(go test *)' (repeatable)")
	fl.BoolVar(&f.json, "json", false, "print the session log (JSONL, every event with its hook result; docs/session-log.md) on stdout instead of the transcript")
	fl.StringArrayVar(&f.deny, "deny", nil, "a permission rule that denies, e.g. 'Bash(rm *)' (repeatable; wins over every allow)")
	return cmd
}

// check refuses flag values that would silently do something else than asked.
func (f *runFlags) check(cwd string) error {
	switch f.mode {
	case agent.ModeDefault, agent.ModeAcceptEdits, agent.ModeBypassPermissions:
	default:
		return fmt.Errorf("--permission-mode %q: want %s, %s or %s", f.mode, agent.ModeDefault, agent.ModeAcceptEdits, agent.ModeBypassPermissions)
	}
	if f.maxTurns < 1 {
		return fmt.Errorf("--max-turns %d: want at least 1", f.maxTurns)
	}
	for _, r := range append(append([]string(nil), f.allow...), f.deny...) {
		if strings.TrimSpace(r) == "" {
			return errors.New("--allow and --deny take a permission rule such as 'Bash(go test *)', not an empty string")
		}
	}
	if f.log != "" {
		p := f.log
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("--log %s: the file exists; give a new file (the session log never overwrites one)", f.log)
		}
	}
	return nil
}

func (e *env) run(ctx context.Context, f *runFlags, prompt string) error {
	if err := f.check(e.cwd); err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	isDemo := f.model == "" && os.Getenv("OPENAI_API_KEY") == "" && os.Getenv("ANTHROPIC_API_KEY") == "" &&
		os.Getenv("ANTHROPIC_AUTH_TOKEN") == "" && os.Getenv("HOOKCORE_MODEL") == "" && f.baseURL == ""
	ws := f.workspace
	if ws != "" && !filepath.IsAbs(ws) {
		ws = filepath.Join(e.cwd, ws)
	}
	if isDemo && prompt != "" {
		return &exitError{code: ExitFailure, msg: "no model to run this prompt: pass --model (openai:NAME, anthropic:NAME, scripted:FILE) or set OPENAI_API_KEY or ANTHROPIC_API_KEY; without a prompt, run starts the offline demo"}
	}
	var m agent.Model
	if isDemo {
		if ws == "" {
			dir, err := os.MkdirTemp("", "hookcore-demo-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			ws = dir
		}
		if err := demo.CopyWorkspace(ws); err != nil {
			return fmt.Errorf("demo workspace: %w", err)
		}
		turns, err := model.ParseScript(demo.Script())
		if err != nil {
			return fmt.Errorf("demo script: %w", err)
		}
		m = model.NewScripted(turns...)
		if len(f.cf.files) == 0 {
			f.cf.files = []string{filepath.Join(ws, demo.HooksFile)}
		}
		if prompt == "" {
			prompt = demo.Prompt
		}
		w := e.stdout
		if f.json {
			w = e.stderr // stdout is the session log
		}
		fmt.Fprintf(w, "hookcore run: offline demo (scripted model) in %s\n", ws)
	} else {
		var err error
		m, err = model.Config{Dir: e.cwd, MaxRetries: 2, BaseURL: f.baseURL}.New(f.model)
		if err != nil {
			return err
		}
		if prompt == "" {
			return errors.New("run: a prompt is required (or run the demo without --model and API keys)")
		}
	}
	if ws == "" {
		ws = e.cwd
	}
	we := *e
	we.cwd = ws
	f.cf.frontmatter = true
	l, err := we.load(&f.cf)
	if err != nil {
		return err
	}
	// The skills and sub-agent types of the user and the project: the Skill tool and the
	// Agent tool's subagent_type (their frontmatter hooks are in l, in discovery mode).
	var defPaths []string
	for _, lp := range config.FrontmatterPaths(rootOf(ws), e.home) {
		defPaths = append(defPaths, lp.Path)
	}
	skills, agentTypes, err := agent.ReadDefinitions(defPaths)
	if err != nil {
		fmt.Fprintln(e.stderr, "hookcore run:", err)
	}
	// The agent hooks' sub-agents run in the session, which needs the Runner first.
	var s *agent.Session
	subagents := executor.AgentRunnerFunc(func(ctx context.Context, prompt string) (string, error) {
		if s == nil {
			return "", errors.New("no session yet")
		}
		return harness.AgentRunner(s).Run(ctx, prompt)
	})
	// CLAUDE_ENV_FILE: SessionStart hooks' exports reach the later Bash commands.
	envDir, err := os.MkdirTemp("", "hookcore-session-env-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(envDir)
	var sessionMu sync.Mutex // s is set after the Runner is built; rewakes may come at any time
	rewake := func(_ *hook.Input, _, text string) {
		sessionMu.Lock()
		defer sessionMu.Unlock()
		if s != nil {
			s.Note(text)
		}
	}
	r, err := we.runner(l, &f.cf, hookcore.Options{AgentRunner: subagents, SessionEnvDir: envDir, OnRewake: rewake})
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if r.Close(cctx) != nil {
			r.CancelAsync() // no async hook outlives the session's process (issue 10.8)
			kctx, kcancel := context.WithTimeout(context.Background(), asyncKillWait)
			defer kcancel()
			r.Close(kctx)
		}
	}()

	var logw io.Writer
	logPath := f.log
	if logPath != "" {
		if !filepath.IsAbs(logPath) {
			logPath = filepath.Join(e.cwd, logPath)
		}
		lf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("session log: %w", err)
		}
		defer lf.Close()
		logw = lf
	}
	out := e.stdout // the transcript, or with --json the session log
	if f.json {
		if logw != nil {
			logw = io.MultiWriter(logw, e.stdout)
		} else {
			logw = e.stdout
		}
		out = e.stderr
	}
	p := &printer{w: out}
	if f.json {
		p.w = io.Discard
	}
	h := harness.New(harness.Options{Runner: r, Log: logw, TranscriptPath: logPath, Trace: p.step})
	sessionMu.Lock()
	s, err = agent.New(agent.Options{
		Model: m, Tools: sessionTools(ws, envDir, func() string { return s.ID() }), Tasks: true, Subagents: true,
		Observer: h, Middleware: []tool.Middleware{h.Middleware()},
		System:    "You are a coding agent working in " + ws + ". Use the tools to inspect and change files; keep answers short.",
		Workspace: ws, PermissionMode: f.mode, Allow: f.allow, Deny: f.deny, MaxSteps: f.maxTurns,
		Trace: p.step, Skills: skills, AgentTypes: agentTypes,
		HomeDir: e.home, // ~/.claude/commands, as Claude Code reads it
	})
	sessionMu.Unlock()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "session %s, %d %s\n> %s\n", s.ID(), r.Len(), plural(r.Len(), "hook"), prompt)
	h.Startup(ctx, ws)
	runErr := s.Run(ctx, prompt)
	h.Shutdown(context.WithoutCancel(ctx), ws)
	if err := h.Err(); err != nil {
		fmt.Fprintln(e.stderr, "hookcore:", err)
	}
	if logPath != "" {
		fmt.Fprintf(out, "session log: %s (replay it with: hookcore replay %s --config FILE)\n", logPath, logPath)
	}
	var rej *agent.PromptRejectedError
	var sig *agent.SignalError
	switch {
	case runErr == nil:
		return nil
	case errors.As(runErr, &rej):
		fmt.Fprintln(e.stderr, "hookcore:", runErr)
		return exitWith(ExitBlocked)
	case errors.As(context.Cause(ctx), &sig):
		fmt.Fprintln(e.stderr, "hookcore: interrupted:", sig)
		return exitWith(ExitFailure)
	}
	return runErr
}

// printer shows the session's steps as they happen.
type printer struct{ w io.Writer }

func (p *printer) step(st agent.Step) {
	prefix := ""
	if st.AgentID != "" {
		prefix = "[" + st.AgentID + "] "
	}
	switch st.Kind {
	case agent.StepText:
		fmt.Fprintf(p.w, "%smodel: %s\n", prefix, st.Text)
	case agent.StepToolCall:
		fmt.Fprintf(p.w, "%stool call %s %s %s\n", prefix, st.Call.ID, st.Call.Name, st.Call.Input)
	case agent.StepToolResult:
		label := "result"
		if st.IsError {
			label = "error"
		}
		fmt.Fprintf(p.w, "%s  %s: %s\n", prefix, label, indent(clip(st.Text, 600)))
	case agent.StepHook:
		fmt.Fprintf(p.w, "%s  hook %s\n", prefix, st.Text)
	default:
		fmt.Fprintf(p.w, "%s  * %s\n", prefix, st.Text)
	}
}

// clip drops the trailing line breaks of s and cuts it at n runes.
func clip(s string, n int) string {
	return text.Truncate(strings.TrimRight(s, "\n"), n, "…")
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// sessionTools are the built-in tools of `run`; Bash sources the session's CLAUDE_ENV_FILE
// files (command.SessionEnvFiles) before each command.
func sessionTools(ws, envDir string, session func() string) []agent.Tool {
	ts := tools.All(tools.Workspace{Root: ws})
	for _, t := range ts {
		if b, ok := t.(*tools.Bash); ok {
			b.EnvFiles = func() []string { return command.SessionEnvFiles(envDir, session()) }
		}
	}
	return ts
}

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/audit"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/hostspec"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
	"github.com/hookcore/hookcore/trust"
)

// systemFlags name the files an administrator writes: Claude Code's managed settings
// directory (--managed-settings-dir) and Gemini CLI's system settings file
// (--gemini-system-settings).
type systemFlags struct {
	managedDir, geminiSystem string
}

// apply sets d's ManagedDir and GeminiSystemSettings.
func (s systemFlags) apply(d config.Discovery) config.Discovery {
	d.ManagedDir, d.GeminiSystemSettings = s.managedDir, s.geminiSystem
	return d
}

// configFlags are the config options shared by fire, list, replay and run (DESIGN.md 9).
type configFlags struct {
	files    []string
	trust    bool
	dir      string
	settings []string     // --settings: Claude Code's command-line layer
	system   systemFlags  // --managed-settings-dir, --gemini-system-settings
	approve  approveFlags // fire, replay and run only: see registerRun
	// allowHosts is --allow-host (fire, replay and run): the global allowlist of the SSRF
	// guard of http hooks (hookcore.Options.AllowedHosts).
	allowHosts []string
	// agents are the agents whose hook files discovery reads beside hookcore's own; nil:
	// config.DefaultAgents. The hook command of an agent and serve leave that agent out:
	// it runs its own hooks already, and hookcore would run them a second time.
	agents []config.Agent
	// audit is --audit FILE (fire, replay and run): the tamper-evident decision log
	// (package audit), keyed by HOOKCORE_AUDIT_KEY when set.
	audit string
	// otel is --otel URL (fire, replay and run): the OTLP/HTTP receiver of traces and
	// metrics (package telemetry); empty: the OTEL_EXPORTER_OTLP_* variables decide.
	otel string
	// frontmatter loads, in discovery mode, the hooks of the skills and sub-agents of the
	// user and the project (config.FrontmatterPaths): `hookcore run` and `trust`, whose
	// agent runs them. The other commands leave them out: Claude Code runs them itself.
	frontmatter bool
	// keepFailed makes load return the config when a file of it cannot be loaded as a
	// whole (or a named file of hookcore's own dialect has a broken entry), with why in
	// loaded.failed, instead of exit 1: the hook command and serve then block gate events
	// and run the other files' hooks on the others (loadRunnerThen).
	keepFailed bool
	// noFileAudit: the audit: key of a config file opens no log (hookcore test: its cases
	// are no decisions of record, and a repository's test file names the configs, so their
	// audit: key would choose where hookcore writes; red team round 41). --audit still does.
	noFileAudit bool
}

// loaded is a config set ready for a Runner, with the trust store that gates it.
type loaded struct {
	set        *config.Set
	store      *trust.Store // nil when only explicit files were named
	projectDir string
	// looked are the files discovery looked for (none with --config), for list and fire.
	looked []config.Candidate
	// untrustedIgnored is set when the only errors are in untrusted project layers, which
	// do not run (`hookcore hook` then does not count their broken entries).
	untrustedIgnored bool
	// projectTrusted is false when the project and local layers do not run (an untrusted
	// workspace, without --trust): their text is the repository's, not the user's.
	projectTrusted bool
	// granted is true when the workspace projectDir has a trust grant that holds for the
	// discovered config as it was loaded (not set by --trust, nor with named files).
	granted bool
	// failed says which files could not be loaded (configFlags.keepFailed); "" when all did.
	failed string
	// strict names the broken entries of the files of hookcore's own dialect named on the
	// command line (configFlags.keepFailed; without it they stop load), "" when none: list
	// shows the hooks that load and exits 1.
	strict string
	// notLoaded maps the path of each file of set that could not be loaded as a whole to its
	// first error (file:line:col: message), for list's table of files; a project or local
	// file of an untrusted workspace gets no text of its own (it is the repository's).
	notLoaded map[string]string
}

// load finds and validates the config: the named files, or else the discovered layers
// (user, project, local). With --trust it records trust of the project layers first.
// Every problem goes to stderr as file:line:col: hook-id: message. A hook entry with an
// error is skipped with a warning naming it, and the file's other hooks run (issue 8.2).
// A file that cannot be loaded as a whole returns exit 1 (fire: a block on a gate event),
// except in the project and local layers of an untrusted workspace (without --trust),
// whose errors are reported and ignored, and a discovered Gemini CLI extension's hooks
// file, skipped with a warning as Gemini CLI skips it (hookcore.BrokenExtension). With
// --trust a file of any layer that cannot be loaded as a whole stops the run (it is not
// trusted); a broken entry is skipped with its warning, as in every other layer, and the
// file's valid hooks are trusted and run.
func (e *env) load(f *configFlags) (*loaded, error) {
	explicit := len(f.files) > 0
	// The trust store, for every lookup of this load and of the Runner built from it: one
	// read of the file, each workspace path resolved once (trust.Store.Pinned; a hook event
	// read it three times, issue 9) — but not with --trust, which writes it and looks its
	// grant up again.
	var pinned *trust.Store
	if e.home != "" {
		pinned = trust.DefaultStore(e.home)
		if !f.trust {
			pinned = pinned.Pinned()
		}
	}
	root := rootOf(e.cwd)
	if !explicit {
		root = e.workspaceRoot(root, pinned)
	}
	var paths []config.LayerPath
	if explicit {
		for _, p := range f.files {
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.cwd, p)
			}
			paths = append(paths, config.LayerPath{Path: p, Layer: config.Explicit})
		}
	}
	var looked []config.Candidate
	if !explicit {
		var err error
		full := e.discovery(f, root)
		full.Agents = nil // every agent's files load, so the trust digest is the same in every mode
		looked, err = full.Look()
		if err != nil {
			return nil, fmt.Errorf("discover config: %w", err)
		}
		for _, c := range looked {
			if c.Loads() {
				paths = append(paths, c.LayerPath)
			}
		}
	}
	if !explicit && f.frontmatter {
		paths = append(paths, config.FrontmatterPaths(root, e.home)...)
	}
	set, problems := config.Load(paths)
	var store *trust.Store
	if !explicit {
		store = pinned // nil without a home
	}
	// A project's enabledPlugins counts only once the workspace is trusted (with --trust it
	// is about to be): the same gate as the project's own hooks, whose digest the plugin
	// files (User layer) do not enter.
	granted := false // the store's grant of root holds for the config as it is
	if store != nil {
		granted, _ = hookcore.TrustedSet(store, root, set)
	}
	projectTrusted := f.trust || store == nil || granted
	pf, pp := pluginFiles(set.Files, e.home, projectTrusted)
	set.Files, problems = append(set.Files, pf...), append(problems, pp...)
	mcpHome := ""
	if usesMCP(set) {
		// ~/.claude.json, where Claude Code keeps its per-project history too (megabytes in
		// real use), is read and decoded only for a config that calls an MCP tool: reading
		// it at every hook event cost 45 ms with a 4.8 MB file (issue 9).
		mcpHome = e.home
	}
	if !explicit || usesMCP(set) {
		// Discovered: the project's .mcp.json is in the trust digest. Named files without an
		// mcp_tool hook have no use for the MCP files, and a hook process saves their reads
		// (issue 9: 1 % of the process).
		set.MCP = config.MCPSources(root, mcpHome, pf)
	}
	problems.Sort()
	if !explicit {
		dropSelf(set)
		if f.agents != nil {
			dropped := dropAgentFiles(set, config.Select(looked, f.agents))
			// The calling agent reports its own settings files' problems itself; they do
			// not stop hookcore's hooks (new-user trial, stop 22: a broken
			// ~/.claude/settings.json blocked every call under `hookcore hook claude`).
			problems = slices.DeleteFunc(problems, func(p *config.Problem) bool { return dropped[p.Pos.File] })
		}
	}
	l := &loaded{set: set, projectDir: root, looked: looked, store: store, projectTrusted: projectTrusted, granted: granted}
	if l.store == nil && e.home != "" && hasProjectMCP(set) {
		// Named files are trusted because they were named; the project's .mcp.json was
		// not named: its servers start only in a trusted workspace, in every mode.
		l.store = pinned
	}
	// Errors only in the project and local layers of an untrusted workspace do not stop the
	// user's own hooks: those layers would not run anyway, and otherwise a repository could
	// switch off the user's guards by shipping a broken config (fire would exit 1, which
	// harnesses treat as a non-blocking error).
	untrusted := !f.trust && hookcore.UntrustedErrorsOnly(set, problems, l.store, root)
	fatal := hookcore.FatalProblems(set, problems, l.store, root)
	if f.trust {
		// Trusted now: the project and local layers run, so their whole-file failures
		// count like any layer's (FatalProblems without a store).
		fatal = hookcore.FatalProblems(set, problems, nil, root)
	}
	// The problems of an untrusted workspace's own files are counted, not printed: their
	// text (hook ids, keys) is the repository's, and under an agent stderr can reach the
	// model (red team round 2: a key named IGNORE_ALL_PREVIOUS_INSTRUCTIONS). check prints them.
	untrustedFile := func(path string) bool {
		if projectTrusted {
			return false
		}
		for _, f := range set.Files {
			if f.Path == path {
				return f.Layer == config.Project || f.Layer == config.Local
			}
		}
		return false
	}
	files := map[string]*config.File{}
	for _, f := range set.Files {
		files[f.Path] = f
	}
	notLoaded := map[string]string{}
	hidden := 0
	for _, p := range problems {
		file := files[p.Pos.File]
		if file != nil && file.Failed && !p.Warning && notLoaded[file.Path] == "" {
			notLoaded[file.Path] = relativize(p.Error(), e.cwd)
			if untrustedFile(file.Path) {
				notLoaded[file.Path] = "does not load (hookcore check shows why)"
			}
		}
		if untrustedFile(p.Pos.File) {
			hidden++
			continue
		}
		if file != nil && hookcore.ExtensionFile(file) && !p.Warning {
			// Skipped, as Gemini CLI skips it: a warning, not an error that stops the run.
			p = extensionWarning(p, file)
		}
		fmt.Fprintln(e.stderr, relativize(p.Error(), e.cwd))
	}
	var failed []string
	for _, p := range fatal {
		failed = append(failed, relativize(p.Error(), e.cwd))
	}
	strict := ""
	if explicit {
		strict = strictBroken(set, e.cwd)
	}
	switch {
	case len(fatal) > 0 && !f.keepFailed:
		return nil, exitWith(ExitFailure)
	case strict != "" && !f.keepFailed:
		// A file of hookcore's own dialect that the user named is being written or tested:
		// its errors stop the run, all at once (DESIGN.md section 9; conformance cases
		// 15-18), and fire blocks a gate event (gateBlock). Discovered layers and other
		// agents' files skip only the broken entry.
		return nil, &exitError{code: ExitFailure, broken: strict}
	}
	l.failed = strings.Join(failed, "; ")
	l.strict, l.notLoaded = strict, notLoaded
	l.untrustedIgnored = untrusted
	if hidden > 0 {
		what := "1 problem"
		if hidden > 1 {
			what = fmt.Sprintf("%d problems", hidden)
		}
		why := "workspace not trusted"
		if l.store != nil {
			if _, granted, _ := l.store.Lookup(root); granted {
				// New-user trial, stop 28: a trusted workspace whose config then broke was
				// called "not trusted", while PreToolUse said the config changed.
				why = "the workspace's trust grant is out of date (its project config changed since it was granted)"
			}
		}
		fmt.Fprintf(e.stderr, "hookcore: %s: %s in its project config ignored (hookcore check shows them); its hooks do not run\n", why, what)
	}
	if !untrusted {
		for _, file := range set.Files {
			if untrustedFile(file.Path) {
				continue
			}
			if hookcore.ExtensionFile(file) {
				continue // its entries' errors were warnings that say so (extensionWarning)
			}
			for _, b := range file.Broken {
				what := "hook skipped (it has errors); the other hooks run"
				if b.FailsShut() {
					what = fmt.Sprintf("guard misconfigured: it blocks every %s it matches (on_error: block)", b.Hook.Event)
				}
				fmt.Fprintf(e.stderr, "%s: %s: warning: %s\n", relativize(b.Hook.Pos.String(), e.cwd), b.Hook.ID, what)
			}
		}
	}
	if l.store != nil && f.trust && !explicit {
		if err := hookcore.GrantTrust(l.store, set, root, time.Now()); err != nil {
			return nil, fmt.Errorf("trust workspace: %w", err)
		}
	}
	return l, nil
}

// usesMCP reports whether a file of set has an mcp_tool hook, the only hooks that read the
// MCP servers of set.MCP.
func usesMCP(set *config.Set) bool {
	for _, f := range set.Files {
		for i := range f.Hooks {
			if f.Hooks[i].Action.Type == config.TypeMCPTool {
				return true
			}
		}
		for i := range f.Broken {
			if f.Broken[i].Hook.Action.Type == config.TypeMCPTool {
				return true
			}
		}
	}
	return false
}

// hasProjectMCP reports whether set has the project's .mcp.json.
func hasProjectMCP(set *config.Set) bool {
	for _, m := range set.MCP {
		if m.Layer == config.Project {
			return true
		}
	}
	return false
}

// projectRoot is the workspace of the working directory, as discovery and trust see it: the
// nearest directory at or above it that the trust store has a grant for, when there is one
// and it is not config.ProjectRoot's answer (the git top-level); that answer otherwise.
//
// The agent moves the root it would find: `mkdir sub/.git && cd sub`, `mv .git .git-x`, or
// a `cd sub` in a project without .git made the working directory another, untrusted
// workspace, and the trusted project's guards were off, without a word (red team round
// 21). A grant covers its directory's whole tree, nested repositories included; a nested
// repository granted on its own is its own workspace (the nearest grant).
func (e *env) projectRoot() string {
	root := rootOf(e.cwd)
	if e.home == "" {
		return root
	}
	return e.workspaceRoot(root, trust.DefaultStore(e.home))
}

// rootOf is the project root of dir (config.ProjectRootWithin) for a process an agent may
// have started: outside a git work tree, the agent's project directory when it holds dir
// ($CLAUDE_PROJECT_DIR, which Gemini CLI and Cursor set too, else theirs).
func rootOf(dir string) string {
	return config.ProjectRootWithin(dir, agentProjectDir())
}

// agentProjectDir is the agent's project directory as the hook's environment names it:
// $CLAUDE_PROJECT_DIR (Gemini CLI and Cursor set it as an alias), else GEMINI_PROJECT_DIR,
// else CURSOR_PROJECT_DIR; "" when none is set.
func agentProjectDir() string {
	agentDir := os.Getenv("CLAUDE_PROJECT_DIR")
	for _, v := range []string{"GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		if agentDir == "" {
			agentDir = os.Getenv(v)
		}
	}
	return agentDir
}

// workspaceRoot is projectRoot with root, config.ProjectRoot's answer for the working
// directory, and store, the trust store (nil: none, and root is the workspace).
func (e *env) workspaceRoot(root string, store *trust.Store) string {
	if store == nil {
		return root
	}
	if ws, ok, err := store.Enclosing(e.cwd); err == nil && ok {
		if c, err := store.Canonical(root); err != nil || c != ws {
			return ws
		}
	}
	return root
}

// discovery is the Discovery of the CLI's flags: the working directory, $HOME, the config
// directory, Claude Code's managed directory and --settings files.
func (e *env) discovery(f *configFlags, root string) config.Discovery {
	return f.system.apply(config.Discovery{Cwd: e.cwd, Home: e.home, Dir: f.dir, ProjectRoot: root,
		Settings: f.settings, Agents: f.agents})
}

// dropSelf removes from a discovered set the hooks that call hookcore itself (`hookcore
// hook claude`, `hookcore fire ...`, as a bridge installed into an agent's settings runs):
// run by hookcore they would call hookcore again for the same event, which would discover
// the same file again, without end. Files named with --config are left as written.
func dropSelf(set *config.Set) {
	for _, f := range set.Files {
		kept := f.Hooks[:0]
		for _, h := range f.Hooks {
			if !callsHookcore(h.Action) {
				kept = append(kept, h)
			}
		}
		f.Hooks = kept
	}
}

// callsHookcore reports whether a command action's program is hookcore.
func callsHookcore(a config.Action) bool {
	return hookcoreProgram(a) != ""
}

// hookcoreProgram returns a command action's program as written, when it is hookcore (a
// program named hookcore or hookcore-hook, after env, exec and VAR=value words); "" when it
// is not.
func hookcoreProgram(a config.Action) string {
	if a.Type != config.TypeCommand {
		return ""
	}
	prog := ""
	if a.Command != "" {
		fields := strings.Fields(a.Command)
		for len(fields) > 0 && (strings.Contains(fields[0], "=") || fields[0] == "exec" || fields[0] == "env") {
			fields = fields[1:]
		}
		if len(fields) > 0 {
			prog = strings.Trim(fields[0], `"'`)
		}
	} else if len(a.Args) > 0 {
		prog = a.Args[0]
	}
	base := filepath.Base(prog)
	if base != "hookcore" && base != "hookcore-hook" { // the lean hook binary is hookcore too
		return ""
	}
	return prog
}

// sessionEnvironment returns the files the tripwire compares, beside the hook config, that
// decide the environment the next session and its hooks start in (red team round 65): the
// shell's startup files in home (bash, zsh, ksh, mksh, csh and tcsh, at login, start and
// logout) and the files they commonly source (~/.bash_aliases, ~/.bashrc.d, rustup's
// ~/.cargo/env), fish's and systemd's user environment, PAM's, the X session's start files;
// git's global config (core.hooksPath picks the git hooks that run, core.fsmonitor a
// program git runs at every status); ssh's client config (ProxyCommand, Match exec) and
// ~/.ssh/rc (run at an ssh login); npm's user config (node-options, script-shell run at
// every npm run); direnv's user config, systemd's user units and the desktop's autostart
// (what runs at the next login or cd); fish's, environment.d, git's, direnv's, systemd's
// and autostart's under $XDG_CONFIG_HOME too when it is set elsewhere; and the project's
// .mcp.json (the MCP servers Claude Code starts, with no PreToolUse hook). Then what the
// startup files and git's config name (envFollowed, red team round 66): the files they
// source, zsh's files under the ZDOTDIR they set, git's include paths. The self-protect
// example's protect-session-environment refuses a write of each fixed file that it can
// read; normal agent work rewrites none of them. Not ~/.claude.json (Claude Code rewrites
// it at every session), ~/.ssh/known_hosts (ssh appends to it), pip's and conda's config
// (`conda config --add` is normal work, and neither runs a program of its own), git's
// attributes and ignore files (the filters and drivers attributes pick are defined in the
// compared config), the project's .envrc (direnv runs none it has not been allowed) nor
// the system's files in /etc (package upgrades rewrite them). A function, not a
// package-level table: nothing is built at init.
func sessionEnvironment(home, root string, getenv func(string) string) []string {
	var out, shells, gits []string
	if home != "" {
		for _, f := range []string{".bashrc.d", ".config/fish", ".config/environment.d", ".pam_environment",
			".gitconfig", ".config/git/config", ".ssh/config", ".ssh/rc", ".cargo/env", ".npmrc",
			".config/direnv", ".config/systemd/user", ".config/autostart"} {
			out = append(out, filepath.Join(home, f))
		}
		// The startup files: compared, and read for what they source.
		n := len(out)
		for _, f := range []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_aliases", ".bash_logout",
			".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
			".xprofile", ".xsessionrc", ".xinitrc"} {
			out = append(out, filepath.Join(home, f))
		}
		shells = append(shells, out[n:]...)
		shells = append(shells, filepath.Join(home, ".config", "fish", "config.fish"))
		gits = append(gits, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) && filepath.Clean(x) != filepath.Join(home, ".config") {
		for _, f := range []string{"fish", "environment.d", "git/config", "direnv", "systemd/user", "autostart"} {
			out = append(out, filepath.Join(x, f))
		}
		shells = append(shells, filepath.Join(x, "fish", "config.fish"))
		gits = append(gits, filepath.Join(x, "git", "config"))
	}
	if root != "" {
		out = append(out, filepath.Join(root, ".mcp.json"))
	}
	return append(out, envFollowed(home, shells, gits, out, getenv)...)
}

// runner builds the Runner of a loaded config with the CLI's logger, trust store, approval
// gate (--approve), SSRF allowlist (--allow-host) and model resolver (for prompt hooks: a
// hook's `model:` plus the OPENAI_/ANTHROPIC_ environment).
func (e *env) runner(l *loaded, f *configFlags, opts hookcore.Options) (*hookcore.Runner, error) {
	for _, h := range f.allowHosts {
		if _, ok := hostspec.Parse(h); !ok {
			// Named here, not at the first http hook the entry is checked with (new-user
			// trial, stop 27: it was blamed on the hook, and not reported without one).
			return nil, fmt.Errorf("--allow-host %q is not a host name, IP address or CIDR prefix", h)
		}
	}
	ap, err := e.approver(&f.approve)
	if err != nil {
		return nil, err
	}
	if g, ok := opts.Approver.(*signalGate); ok {
		g.next = ap // the hook command's gate arms its signals, then asks --approve's
	} else if opts.Approver == nil {
		opts.Approver = ap
	}
	if opts.Models == nil {
		opts.Models = e.models()
	}
	tripwire := usesTripwire(l.set)
	if opts.HookProgram == nil && (usesChanges(l.set, match.HookProgram) || tripwire) {
		progs, startup := e.hookGuards(l)
		opts.HookProgram, opts.HookStartup = append(hookPrograms(), progs...), startup
	}
	if opts.HookConfig == nil && usesChanges(l.set, match.HookConfig) {
		opts.HookConfig = e.hookConfig(l, f)
	}
	if tripwire && opts.HookScripts == nil {
		// What the tripwire compares beside: the scripts Claude Code's and git's hooks run.
		root := l.projectDir
		if root == "" {
			root = e.cwd
		}
		opts.HookScripts = []string{filepath.Join(e.home, ".claude", "hooks"), filepath.Join(root, ".claude", "hooks"), filepath.Join(root, ".git", "hooks")}
		opts.HookScripts = append(opts.HookScripts, sessionEnvironment(e.home, root, os.Getenv)...)
	}
	if opts.Executors == nil {
		// rego when built with -tags rego (rego_on.go), its bundles cached in the state directory
		opts.Executors = executors(e.bundleCacheDir(opts.State))
		registerMCP(opts.Executors) // mcp_tool when built with -tags mcp (mcp_on.go)
	}
	opts.AllowedHosts = append(opts.AllowedHosts, f.allowHosts...)
	auditPath := f.audit
	if auditPath == "" && !f.noFileAudit {
		for _, file := range l.set.Files {
			if file.Audit != "" && file.Layer != config.Project && file.Layer != config.Local {
				auditPath = file.Audit // the first of the user's own layers that names one
				break
			}
		}
	}
	if auditPath != "" && opts.AuditLog == nil {
		path := auditPath
		if !filepath.IsAbs(path) {
			path = filepath.Join(e.cwd, path)
		}
		w, err := audit.Open(path, audit.KeyFromEnv())
		if err != nil {
			return nil, err
		}
		opts.AuditLog = w // closed at process exit: every append is its own write(2)
	}
	if len(opts.HookConfig) > 0 {
		// What changes on every event under hookcore's directory: the tripwire does not
		// compare it (`tool changed hook_config`).
		opts.HookConfigVolatile = append(opts.HookConfigVolatile, state.DefaultDir(os.Getenv, e.home))
		// Claude Code's own data of its plugins, written as a session starts (2.1.332: a
		// builtin plugin's store/*.json between SessionStart and UserPromptSubmit): no
		// hook is read from it (config.FindPlugins reads installed_plugins.json,
		// known_marketplaces.json and the install paths).
		opts.HookConfigVolatile = append(opts.HookConfigVolatile, filepath.Join(e.home, ".claude", "plugins", "store"))
		if auditPath != "" {
			opts.HookConfigVolatile = append(opts.HookConfigVolatile, absIn(e.cwd, auditPath))
		}
	}
	opts.Logger = e.logger()
	if err := e.telemetry(f.otel, &opts); err != nil {
		return nil, err
	}
	opts.ProjectDir = l.projectDir
	if opts.AgentProjectDir == "" && !opts.SessionRoots {
		// The hook's agent's project directory: the tripwire's record key, and where the
		// project's paths are taken too when a git work tree above it is the root (red team
		// round 66). Not serve's: its environment is not its sessions'.
		opts.AgentProjectDir = agentProjectDir()
	}
	opts.Trust = l.store
	r, err := hookcore.New(l.set, opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// extensionWarning returns the error p of a discovered Gemini CLI extension's hooks file f
// (hookcore.ExtensionFile) as the warning hookcore gives instead, saying what is skipped:
// the file, when it does not load as a whole (hookcore.BrokenExtension), else the hook entry
// p is about, the extension's other hooks running (Gemini CLI 0.61.0 discards such an entry
// and registers the others; docs/decisions.md, "Small fixes (stop 32)").
func extensionWarning(p *config.Problem, f *config.File) *config.Problem {
	w := *p
	w.Warning = true
	if f.Failed {
		w.Msg += fmt.Sprintf("; Gemini CLI extension %s's hooks do not run (Gemini CLI skips the file too), the other files' hooks do", f.Extension)
	} else {
		w.Msg += fmt.Sprintf("; skipped (Gemini CLI discards it or runs it to no effect), extension %s's other hooks run", f.Extension)
	}
	return &w
}

// strictBroken names the broken hook entries of the files of the native dialect in set
// ("file:line:col: hook-id", paths relative to cwd, joined by ", "); "" when there are none.
func strictBroken(set *config.Set, cwd string) string {
	var names []string
	for _, f := range set.Files {
		if f.Dialect != config.Native {
			continue
		}
		for _, b := range f.Broken {
			names = append(names, relativize(b.Hook.Pos.String(), cwd)+": "+b.Hook.ID)
		}
	}
	return text.Printable(strings.Join(names, ", "))
}

// dropAgentFiles empties the hooks of the files of set that are not among sub, what discovery
// with the flags' agents loads (the calling agent's own settings, which it runs itself), and
// returns their paths. The files stay in the set, so that trust digests do not depend on the
// mode.
func dropAgentFiles(set *config.Set, sub []config.LayerPath) map[string]bool {
	dropped := map[string]bool{}
	keep := map[string]bool{}
	for _, lp := range sub {
		keep[lp.Path] = true
	}
	for _, file := range set.Files {
		if !keep[file.Path] {
			file.Hooks, file.Broken = nil, nil
			dropped[file.Path] = true
		}
	}
	return dropped
}

// withoutAgent returns config.DefaultAgents without a.
func withoutAgent(a config.Agent) []config.Agent {
	out := []config.Agent{}
	for _, x := range config.DefaultAgents {
		if x != a {
			out = append(out, x)
		}
	}
	return out
}

// hookPrograms returns the paths of the hook program for hookcore.Options.HookProgram: this
// executable, the path the agent started it by (a symlink's own directory counts too), and
// the full hookcore beside it or on PATH that a lean hook binary hands over to.
func hookPrograms() []string {
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	self, err := os.Executable()
	if err == nil {
		add(self)
		if full := filepath.Join(filepath.Dir(self), "hookcore"); regularFile(full) {
			add(full)
		}
	}
	if started := os.Args[0]; strings.Contains(started, "/") {
		if abs, err := filepath.Abs(started); err == nil {
			add(abs)
		}
	}
	if p, err := exec.LookPath("hookcore"); err == nil {
		add(p)
	}
	return out
}

// hookGuards returns what `changes hook_program` protects beside the hook program's own
// paths (red team round 50): the programs the config's command hooks run, the shadow slots
// before them on PATH and their startup paths, looked up on this machine as the hook
// process will find them (hookRuns, guardPaths).
// bundleCacheDir is where rego hooks keep the bundles of their bundle_url (rego.CachedFactory):
// serve's state directory, else the hook command's (its state.Dir: --state-dir,
// $HOOKCORE_STATE_DIR, ~/.hookcore/state), so that a hook process, one per event, starts from
// the last bundle rather than downloading it at every event. "" (other commands): no cache.
func (e *env) bundleCacheDir(st state.Store) string {
	if e.bundleCache != "" {
		return e.bundleCache
	}
	if d, ok := st.(*state.Dir); ok {
		return d.Path
	}
	return ""
}

func (e *env) hookGuards(l *loaded) (programs, startup []string) {
	return guardPaths(e.hookRuns(l), runView{home: e.home, cwd: e.cwd, getenv: os.Getenv, fs: newFSMemo()})
}

// regularFile reports whether path names a regular file (symlinks followed).
func regularFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// absIn returns p cleaned, joined to dir when relative.
func absIn(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

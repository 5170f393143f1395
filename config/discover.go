package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// DefaultDir is the directory name of the discovered layers when Discovery.Dir is empty.
const DefaultDir = ".hookcore"

// DefaultManagedDir is Claude Code's managed settings directory on Linux: it holds
// managed-settings.json and managed-settings.d/*.json, written by an administrator.
const DefaultManagedDir = "/etc/claude-code"

// DefaultGeminiSystemSettings returns Gemini CLI's system settings file, written by an
// administrator: /etc/gemini-cli/settings.json, on macOS /Library/Application
// Support/GeminiCli/settings.json (Storage.getSystemSettingsPath of Gemini CLI 0.61.0).
func DefaultGeminiSystemSettings() string {
	if runtime.GOOS == "darwin" {
		return "/Library/Application Support/GeminiCli/settings.json"
	}
	return "/etc/gemini-cli/settings.json"
}

// Agent names another agent whose hook files discovery reads beside hookcore's own.
type Agent string

// The agents whose files discovery knows (issue 8.3).
const (
	// Claude is Claude Code: ~/.claude/settings.json, <root>/.claude/settings.json,
	// <root>/.claude/settings.local.json and the managed settings.
	Claude Agent = "claude"
	// MiniCode is the MiniCode seed: ~/.minicode/config.yaml, <root>/.minicode/config.yaml,
	// <root>/.minicode/config.local.yaml (loaded in that order, appended).
	MiniCode Agent = "minicode"
	// Codebot is the codebot seed, whose hooks are the `hooks` key of settings.json; the seed
	// does not say where that file lives, so discovery reads ~/.codebot/settings.json and
	// <root>/.codebot/settings.json (docs/decisions.md).
	Codebot Agent = "codebot"
	// GeminiCLI is Gemini CLI: ~/.gemini/settings.json and <root>/.gemini/settings.json (the
	// Gemini dialect, chosen by that path).
	GeminiCLI Agent = "gemini"
	// CodexCLI is OpenAI Codex: ~/.codex/hooks.json, ~/.codex/config.toml ([hooks] tables)
	// and the same under <root>/.codex (the Codex dialect, chosen by that path).
	CodexCLI Agent = "codex"
	// CursorIDE is Cursor: ~/.cursor/hooks.json and <root>/.cursor/hooks.json (the Cursor
	// dialect, chosen by that path).
	CursorIDE Agent = "cursor"
	// CopilotCLI is GitHub Copilot CLI: ~/.copilot/hooks/*.json and
	// <root>/.github/hooks/*.json, in lexical order (the Copilot dialect, chosen by that path).
	CopilotCLI Agent = "copilot"
)

// DefaultAgents are the agents discovered when Discovery.Agents is nil.
var DefaultAgents = []Agent{Claude, MiniCode, Codebot, GeminiCLI, CodexCLI, CursorIDE, CopilotCLI}

// Discovery finds the layered config files of DESIGN.md section 4 and the hook files of the
// agents hookcore speaks for (issue 8.3). Its zero value uses the process's working
// directory and home directory, ".hookcore", every agent of DefaultAgents and
// DefaultManagedDir. Tests set Home, ManagedDir and GeminiSystemSettings, so that they never
// read the real $HOME or /etc.
type Discovery struct {
	// Cwd is the working directory; "" means os.Getwd.
	Cwd string
	// Home is the user's home directory; "" means os.UserHomeDir (no user layer when that
	// fails).
	Home string
	// Dir is the name of hookcore's config directory, ".hookcore" when empty. A harness may
	// use its own (".minicode", ".codebot"): any other name than ".hookcore" looks for that
	// directory's hooks.yaml, hooks.local.yaml only, with no agent files (the behaviour of
	// --config-dir).
	Dir string
	// ProjectRoot is where the project and local layers are looked up; when empty it is
	// ProjectRoot(Cwd).
	ProjectRoot string
	// Agents are the agents whose files are discovered beside hookcore's own; nil means
	// DefaultAgents, an empty non-nil slice none. A bridge that Claude Code itself calls
	// leaves Claude out: Claude Code runs those hooks already.
	Agents []Agent
	// ManagedDir is Claude Code's managed settings directory; "" means DefaultManagedDir.
	ManagedDir string
	// GeminiSystemSettings is Gemini CLI's system settings file; "" means
	// DefaultGeminiSystemSettings(). It loads in the Managed layer, after the project's
	// files: Gemini CLI runs its hooks beside the user's and the workspace's (its hook
	// lists concatenate), and its hooksConfig overrides theirs. Gemini CLI's
	// GEMINI_CLI_SYSTEM_SETTINGS_PATH is not read: a project's Claude Code settings set the
	// environment of the hook command, and a repository must not be able to name its own
	// file as the administrator's.
	GeminiSystemSettings string
	// Settings are Claude Code's --settings files, the command-line layer, loaded last (as
	// Explicit: named by the user, so trusted).
	Settings []string
	// fs is the file system Look examines; nil: the operating system's (osLookFS).
	fs lookFS
}

// LayerPath is one discovered config file and its layer.
type LayerPath struct {
	Path  string
	Layer Layer
	// Refused, when set, is why discovery does not read Path: Load reports it as the file's
	// error instead of reading the file (MaxGlobFiles).
	Refused string
	// Skip, when set, is why discovery does not read Path though its agent's rules make it
	// a file to leave out (Gemini CLI's system settings, not root's): Load reports it as a
	// warning, and the file loads with no hooks.
	Skip string
	// Claude is set for a file Claude Code reads as its settings whatever its name: a
	// --settings file (Discovery.Settings). Load reads its event names as Claude Code does,
	// exactly ("preToolUse" runs nothing), as for a .claude/settings.json.
	Claude bool
	// Extension is set for the hooks/hooks.json of a Gemini CLI extension: Load reads it
	// as Gemini CLI reads an extension's hooks (its `hooks` key only, the extension's
	// variables replaced: geminiext.go).
	Extension *GeminiExtension
}

// maxDiscoveryDirNames caps the names discovery reads from the directory of one of its
// patterns: reading and sorting a million took 1.7 s per hook event (stop 23, red team round
// 15). Past it, none of the directory's files load (a load error of the layer).
const maxDiscoveryDirNames = 10000

// globFiles returns the files that pattern (meta characters in its last element only)
// matches, in lexical order: filepath.Glob's, with complete false when capped (a
// repository's directory) and the directory holds more than maxDiscoveryDirNames names.
func globFiles(pattern string, capped bool) (matches []string, complete bool) {
	matches, complete, _ = globDir(osLookFS{}, pattern, capped)
	return matches, complete
}

// globDir is globFiles in fsys, with regularfile.Glob's error: why the directory of pattern
// holds no names (fs.ErrNotExist: it does not exist).
func globDir(fsys lookFS, pattern string, capped bool) (matches []string, complete bool, err error) {
	dir, file := filepath.Split(pattern)
	max := maxDiscoveryDirNames
	if !capped {
		max = math.MaxInt
	}
	return fsys.Glob(filepath.Clean(dir), file, max)
}

// MaxGlobFiles caps how many files one discovery pattern of a repository loads (Copilot CLI's
// .github/hooks/*.json; the user's ~/.copilot/hooks and managed-settings.d are not capped),
// in lexical order: a repository with tens of thousands of hook files made every hook event
// take seconds (stop 23, red team: 60 000 empty files, 23 s), which past the agent's hook
// timeout lets the tool call through. Past the cap, the pattern's next file is refused
// (LayerPath.Refused), a load error of its layer: ignored for an untrusted repository,
// failing gate events closed for a trusted one.
const MaxGlobFiles = 100

// Candidate is one config file that discovery looked for.
type Candidate struct {
	LayerPath
	// Agent is the agent whose file this is; "" for hookcore's own files and the Settings
	// files, which discovery looks for with any Agents.
	Agent Agent
	// Pattern is the glob discovery matched Path with, when it found the file by one (a
	// directory of drop-in files: .github/hooks/*.json, managed-settings.d/*.json); "" for
	// a fixed name, and for a pattern that matched nothing (Path is the pattern then). A
	// new file the pattern matches loads too (hookcore.Options.HookConfig protects it).
	Pattern string
	// Found is set when something exists at Path (it may still fail to load) or Path could
	// not be examined.
	Found bool
	// Dup is set when Path is a file found under another candidate too (compared with
	// os.SameFile), which it loads under instead: the first, or a later user, managed or
	// --settings candidate when this one is a project or local path (see Paths).
	Dup bool
	// Err is why Path could not be examined (a symlink loop, a regular file where a
	// directory should be, permission denied); nil when it does not exist or was examined.
	Err error
	// st is what Look's stat found at Path, for markDups; nil when nothing was found.
	st fs.FileInfo
	// Off, when set, is why the candidate does not load though it exists: its agent leaves
	// it out (a Gemini CLI extension disabled for the working directory). `list` shows it.
	Off string
	// Inputs are the other files that decided whether and how the candidate loads: a Gemini
	// CLI extension's install metadata, manifest and the extensions' enablement file. A
	// server that caches the config watches them too.
	Inputs []string
	// absent is set when Path is known not to exist before it is looked up: a pattern
	// that matched nothing in a directory that does not exist (examine).
	absent bool
}

// Loads reports whether the candidate is to be loaded: it was found and is not a duplicate,
// or it is a file named on the command line (Claude Code's --settings, layer Explicit) that
// is missing, whose absence is then that file's load error, as Claude Code 2.1.332 stops
// with "Settings file not found" rather than run without it.
func (c Candidate) Loads() bool {
	return c.Found && !c.Dup && c.Off == "" || !c.Found && c.Layer == Explicit
}

// Look returns every config file discovery looks for, in load order, with what it found
// (see Paths). It fails only when the working directory cannot be found: a problem with one
// candidate is that candidate's Err, so a repository cannot make discovery as a whole fail
// (issue 10.2). It looks the candidates up in as few system calls as the answers allow, one
// lstat for most (examine); a hook process runs it at every event.
func (d Discovery) Look() ([]Candidate, error) {
	dir := d.Dir
	if dir == "" {
		dir = DefaultDir
	}
	cwd := d.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cwd = wd
	}
	home := d.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	root := d.ProjectRoot
	if root == "" {
		root = ProjectRoot(cwd)
	}
	// Room for the fixed names of every agent (24 with DefaultAgents), a few pattern
	// matches and extensions: a Candidate is some 200 bytes, and the slice's growth by
	// doubling was 15 KB of a hook event's allocations (stop 34).
	out := make([]Candidate, 0, 32+len(d.Settings))
	listed := map[string]bool{} // the directories addGlob read
	add := func(path string, layer Layer, agent Agent) {
		out = append(out, Candidate{LayerPath: LayerPath{Path: path, Layer: layer}, Agent: agent})
	}
	// addGlob adds the files that pattern matches, in lexical order; when none does, the
	// pattern itself, which is not found, so that `list` and `fire` name it among the
	// places looked at.
	addGlob := func(pattern string, layer Layer, agent Agent) {
		names, complete, err := globDir(d.fsys(), pattern, repositoryLayer(layer))
		if err == nil {
			listed[filepath.Dir(pattern)] = true
		}
		if !complete {
			out = append(out, Candidate{LayerPath: LayerPath{Path: pattern, Layer: layer,
				Refused: fmt.Sprintf("%s holds more than %d names; none of its files are loaded", filepath.Dir(pattern), maxDiscoveryDirNames)}, Agent: agent})
			return
		}
		if len(names) == 0 {
			add(pattern, layer, agent)
			// With its directory missing, the pattern as a name is missing too: not looked
			// up again (issue 9). Otherwise it is, for what a listing does not say (a
			// directory that can be read but not searched: permission denied).
			out[len(out)-1].absent = errors.Is(err, fs.ErrNotExist)
			return
		}
		for i, n := range names {
			if i == MaxGlobFiles && repositoryLayer(layer) {
				out = append(out, Candidate{LayerPath: LayerPath{Path: n, Layer: layer,
					Refused: fmt.Sprintf("%d files match %s; hookcore loads the first %d by name, not this one nor the %d after it: merge them into fewer files", len(names), pattern, MaxGlobFiles, len(names)-MaxGlobFiles-1)}, Agent: agent})
				break
			}
			add(n, layer, agent)
			out[len(out)-1].Pattern = pattern
		}
	}
	agents := d.Agents
	if agents == nil {
		agents = DefaultAgents
	}
	if dir != DefaultDir {
		agents = nil // --config-dir: that directory only
	}
	has := func(a Agent) bool { return slices.Contains(agents, a) }
	geminiAt := -1 // Gemini CLI's system settings among out
	// Layer by layer, as Claude Code orders its sources: user, project, local, managed,
	// command line; within a layer hookcore's own file first.
	for _, layer := range []Layer{User, Project, Local} {
		base := root
		if layer == User {
			if home == "" {
				continue
			}
			base = home
		}
		switch layer {
		case User, Project:
			add(filepath.Join(base, dir, "hooks.yaml"), layer, "")
		case Local:
			add(filepath.Join(base, dir, "hooks.local.yaml"), layer, "")
		}
		if has(Claude) {
			name := "settings.json"
			if layer == Local {
				name = "settings.local.json"
			}
			add(filepath.Join(base, ".claude", name), layer, Claude)
		}
		if has(MiniCode) {
			name := "config.yaml"
			if layer == Local {
				name = "config.local.yaml"
			}
			add(filepath.Join(base, ".minicode", name), layer, MiniCode)
		}
		if has(Codebot) && layer != Local {
			add(filepath.Join(base, ".codebot", "settings.json"), layer, Codebot)
		}
		if has(GeminiCLI) && layer != Local {
			add(filepath.Join(base, ".gemini", "settings.json"), layer, GeminiCLI)
		}
		if has(CodexCLI) && layer != Local {
			add(filepath.Join(base, ".codex", "hooks.json"), layer, CodexCLI)
			add(filepath.Join(base, ".codex", "config.toml"), layer, CodexCLI)
		}
		if has(CursorIDE) && layer != Local {
			add(filepath.Join(base, ".cursor", "hooks.json"), layer, CursorIDE)
		}
		if has(CopilotCLI) && layer != Local {
			sub := ".github"
			if layer == User {
				sub = ".copilot"
			}
			addGlob(filepath.Join(base, sub, "hooks", "*.json"), layer, CopilotCLI)
		}
	}
	if has(Claude) {
		managed := d.ManagedDir
		if managed == "" {
			managed = DefaultManagedDir
		}
		add(filepath.Join(managed, "managed-settings.json"), Managed, Claude)
		// managed-settings.d/*.json in lexical order, as Claude Code merges drop-in files.
		addGlob(filepath.Join(managed, "managed-settings.d", "*.json"), Managed, Claude)
	}
	if has(GeminiCLI) {
		system := d.GeminiSystemSettings
		if system == "" {
			system = DefaultGeminiSystemSettings()
		}
		geminiAt = len(out)
		add(system, Managed, GeminiCLI)
		if home != "" {
			// After every settings file: Gemini CLI sorts its extensions' hooks last.
			out = append(out, d.geminiExtensions(home, cwd)...)
		}
	}
	for _, p := range d.Settings {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		add(p, Explicit, "")
		out[len(out)-1].Claude = true
	}

	d.examine(out, listed)
	if geminiAt >= 0 {
		// Its checks stat the file first, and skip what does not exist: only a file found
		// is checked (the look-up said so already).
		if c := &out[geminiAt]; c.st != nil {
			if why := geminiSystemCheck(c.Path); why != "" {
				c.Skip = "Gemini CLI skips its system settings file, and so does hookcore: its " + why
			}
		}
	}
	markDups(out)
	return out, nil
}

// markDups sets Dup on the found candidates that load under another one, from their stat
// results: a file loads under the first of its paths, unless a later one is of a layer the
// repository does not write (user, managed, a named --settings file) and the first is a
// project or local path. A repository's symlink to the managed settings or to a --settings
// policy would otherwise load that file as untrusted project config, and switch its hooks
// off (red team round 10).
func markDups(cands []Candidate) {
	type keptFile struct {
		st fs.FileInfo
		c  *Candidate
	}
	var kept []keptFile
	var ids fileIndex
	for i := range cands {
		c := &cands[i]
		c.Dup = false
		if c.st == nil {
			continue
		}
		k := ids.find(c.st, func(i int) fs.FileInfo { return kept[i].st })
		switch {
		case k < 0:
			ids.add(c.st, len(kept))
			kept = append(kept, keptFile{c.st, c})
		case repositoryLayer(kept[k].c.Layer) && !repositoryLayer(c.Layer):
			kept[k].c.Dup, kept[k].c = true, c
		default:
			c.Dup = true
		}
	}
}

// Select returns what Paths returns for a Discovery with Agents set to agents (nil:
// DefaultAgents), from cands, a Look with every agent of the same Discovery: hookcore's own
// files, the Settings files and those of agents, with a file reached twice loading under
// the candidate markDups picks among those. It states nothing: `hookcore hook AGENT` loads
// every agent's files, for the trust digest, and runs the other agents' hooks, and a second
// Look stated every candidate again (issue 9's cold start).
func Select(cands []Candidate, agents []Agent) []LayerPath {
	if agents == nil {
		agents = DefaultAgents
	}
	sub := make([]Candidate, 0, len(cands))
	for _, c := range cands {
		if c.Agent == "" || slices.Contains(agents, c.Agent) {
			sub = append(sub, c)
		}
	}
	markDups(sub)
	var out []LayerPath
	for _, c := range sub {
		if c.Loads() {
			out = append(out, c.LayerPath)
		}
	}
	return out
}

// repositoryLayer reports whether files of layer l are the repository's (project, local),
// which a cloned repository writes, symlinks included.
func repositoryLayer(l Layer) bool { return l == Project || l == Local }

// Paths returns the config files that exist, in load order (see Look): per layer — user,
// project, local — hookcore's own <Dir>/hooks.yaml (hooks.local.yaml for local), then
// Claude Code's .claude/settings.json (settings.local.json), MiniCode's .minicode/config.yaml
// (config.local.yaml), codebot's .codebot/settings.json, Gemini CLI's
// .gemini/settings.json and Codex's .codex/hooks.json and .codex/config.toml (user and
// project only), under
// the home directory for the user layer and the project root for the others; then Claude
// Code's managed settings (<ManagedDir>/managed-settings.json, then
// managed-settings.d/*.json in lexical order), Gemini CLI's system settings
// (GeminiSystemSettings) and the Settings files (also when missing: see
// Candidate.Loads). A file reached twice (the
// working directory is $HOME, or a symlink points at another layer's file) is returned once,
// under its first layer, compared with os.SameFile (DESIGN.md section 7) — except that a
// file a project or local path shares with a user, managed or --settings path is returned
// under the latter: a repository's symlink cannot make the managed settings or a named
// policy untrusted project config. The returned Path
// is the path as discovered, not the real path. A path that exists but cannot be examined
// (a symlink loop, permission denied, `.hookcore` a regular file) is returned too: loading
// it reports the problem as that file's error, which an untrusted project layer ignores.
// Paths fails only when the working directory cannot be found.
func (d Discovery) Paths() ([]LayerPath, error) {
	cands, err := d.Look()
	if err != nil {
		return nil, err
	}
	var out []LayerPath
	for _, c := range cands {
		if c.Loads() {
			out = append(out, c.LayerPath)
		}
	}
	return out, nil
}

// ProjectRoot returns the git top-level of cwd: the nearest directory at or above cwd that
// holds a ".git" entry (a directory, or a file as in worktrees and submodules); cwd itself
// (made absolute) when there is none (DESIGN.md section 7, "Project root").
func ProjectRoot(cwd string) string { return ProjectRootWithin(cwd, "") }

// ProjectRootWithin is ProjectRoot for a process an agent started in its project directory
// agentDir (Claude Code's $CLAUDE_PROJECT_DIR, Gemini CLI's, Cursor's): outside a git work
// tree, the root is agentDir when it is absolute and cwd is at or below it, not cwd. An
// agent's session moves with its shell (`cd sub`), and its hooks then run in sub while the
// agent still reads its project files (.mcp.json, .claude/settings.json) from agentDir: with
// cwd as the root, `changes ".mcp.json"` protected sub/.mcp.json and let `printf … >
// ../.mcp.json` through (red team round 65). Inside a git work tree its top-level is the
// root, as before. agentDir "" is ProjectRoot.
func ProjectRootWithin(cwd, agentDir string) string {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return cwd
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if agentDir != "" && filepath.IsAbs(agentDir) {
		d := filepath.Clean(agentDir)
		if rel, err := filepath.Rel(d, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return d
		}
	}
	return abs
}

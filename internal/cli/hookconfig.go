package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
	"github.com/hookcore/hookcore/trust"
)

// configPaths returns hookcore's config paths for hookcore.Options.HookConfig (red team
// round 53): every file discovery looks for from cwd and home, in every layer and for
// every agent, existing or not (creating one counts), with the glob a drop-in file was
// found by (a new file it matches loads too); the files loaded (loaded: --config files and
// the plugin files they bring); Gemini CLI's extensions directory, the files that decide
// an extension and a linked one's source directory; hookcore's directory in the home whole (dir: --config-dir's
// name too), which holds the trust store, the approvals and the state; and the state
// directory $HOOKCORE_STATE_DIR names; and Claude Code's skills, agents, commands (legacy
// skills) and plugins
// directories in the home and the project (their frontmatter and hooks files carry hooks). d is the discovery to look with (its Cwd, Home,
// ProjectRoot and managed places); its Agents are ignored.
func configPaths(d config.Discovery, loaded []string, getenv func(string) string) []string {
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) && !slices.Contains(out, filepath.Clean(p)) {
			out = append(out, filepath.Clean(p))
		}
	}
	if d.Home != "" {
		add(filepath.Join(d.Home, config.DefaultDir))
		if d.Dir != "" && !strings.Contains(d.Dir, "/") {
			add(filepath.Join(d.Home, d.Dir))
		}
		add(trust.DefaultStore(d.Home).Path)
		// Gemini CLI's extensions directory whole: a new directory there is a new extension
		// whose hooks load (config.GeminiExtensionEnablement's directory).
		add(filepath.Dir(config.GeminiExtensionEnablement(d.Home)))
	}
	add(state.DefaultDir(getenv, d.Home))
	// Claude Code's own hook carriers beside its settings (red team round 54): a skill's or a
	// sub-agent's frontmatter `hooks:` and a plugin's hooks/hooks.json run in Claude Code
	// itself, so a file the agent writes there is a hook that runs after hookcore's guards
	// (a PreToolUse hook of a skill may rewrite the call they allowed).
	root := d.ProjectRoot
	if root == "" && d.Cwd != "" {
		root = rootOf(d.Cwd)
	}
	for _, base := range []string{d.Home, root} {
		if base == "" {
			continue
		}
		for _, sub := range []string{"skills", "agents", "commands", "plugins"} {
			add(filepath.Join(base, ".claude", sub))
		}
	}
	d.Agents = nil // every agent's files
	if cands, err := d.Look(); err == nil {
		for _, c := range cands {
			add(c.Path)
			if c.Pattern != "" {
				add(c.Pattern)
			}
			// What decided whether and how it loads (a Gemini CLI extension's manifest,
			// install metadata and the enablement file), and a linked extension's source
			// directory whole: its hooks file's variables name files there (stop 31).
			for _, in := range c.Inputs {
				add(in)
			}
			if c.Extension != nil {
				add(c.Extension.Path)
			}
		}
	}
	for _, p := range loaded {
		add(p)
	}
	return out
}

// hookConfig returns what `changes hook_config` protects for the loaded config l, looked up
// with the flags f (configPaths) from the process's working directory; the Runner takes the
// paths under its ProjectDir under each event's project too (the input's cwd: serve, or a
// hook process started outside the project; stop 32).
func (e *env) hookConfig(l *loaded, f *configFlags) []string {
	root := l.projectDir
	if root == "" {
		root = rootOf(e.cwd)
	}
	var files []string
	for _, file := range l.set.Files {
		files = append(files, file.Path)
	}
	return configPaths(e.discovery(f, root), files, os.Getenv)
}

// usesChanges reports whether a hook of set names what (match.HookProgram,
// match.HookConfig) in its condition: only then does the hook process look its paths up
// (for hook_program a readlink, a stat and a PATH search; for hook_config discovery's
// stats), which every other hook process would pay for nothing.
func usesChanges(set *config.Set, what string) bool {
	if set == nil {
		return false
	}
	for _, f := range set.Files {
		for _, h := range f.Hooks {
			if strings.Contains(h.If, what) {
				return true
			}
		}
	}
	return false
}

// usesChangesAt is usesChanges for the hooks of one event.
func usesChangesAt(set *config.Set, event hook.Event, what string) bool {
	for _, f := range set.Files {
		for _, h := range f.Hooks {
			if h.Event == event && strings.Contains(h.If, what) {
				return true
			}
		}
	}
	return false
}

// tripwireRuns reports whether a file of l that hookcore runs — the project's and local
// layers only in a trusted workspace — has an enabled hook with `tool changed
// hook_config`, whether or not an agent's switch has turned the file's hooks off.
func tripwireRuns(l *loaded) bool {
	for _, f := range l.set.Files {
		if (l.projectTrusted || f.Layer != config.Project && f.Layer != config.Local) && armsTripwire(f) {
			return true
		}
	}
	return false
}

// usesTripwire reports whether a hook of set has `tool changed hook_config` in its
// condition (match.If.ConfigChanged): then the session is armed, every event compares
// hookcore's config paths, the hook program and the hook scripts with the session's
// baseline, and this process needs them.
func usesTripwire(set *config.Set) bool {
	if set == nil {
		return false
	}
	for _, f := range set.Files {
		if armsTripwire(f) {
			return true
		}
	}
	return false
}

// armsTripwire reports whether an enabled hook of f has `tool changed hook_config`.
func armsTripwire(f *config.File) bool {
	for _, h := range f.Hooks {
		if !h.Enabled || !strings.Contains(h.If, "changed") {
			continue // no compile for the conditions that cannot have it
		}
		if c, err := match.CompileIf(h.If); err == nil && c.ConfigChanged() {
			return true
		}
	}
	return false
}

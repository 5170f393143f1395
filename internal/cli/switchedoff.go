//go:build !hookcore_lean

package cli

import (
	"fmt"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/text"
)

// entrySwitch is the switch that turns off an agent's entry running hookcore: the file
// that sets it, that file's layer, and how ("disableAllHooks is true", "hooksConfig.disabled
// lists it", ...). Its zero value switches nothing off.
type entrySwitch struct {
	file  string
	layer config.Layer
	how   string
}

// why is "FILE: HOW", as check prints a switch.
func (s entrySwitch) why() string { return s.file + ": " + s.how }

// workspace reports whether the switch is in a file of the workspace (the project and local
// layers), which the agent reads on its own folder trust.
func (s entrySwitch) workspace() bool {
	return s.layer == config.Project || s.layer == config.Local
}

// hookcoreOff returns what switches h, an entry of f that runs hookcore, off under its agent,
// among files, the files the agent reads (those of the workspace as in a folder the agent
// trusts; agents is config.AgentSwitch(files, true)): for Claude Code's settings and a
// plugin's hooks, a Claude Code settings file of any layer with disableAllHooks (a managed
// one turns the managed hooks off too, any other every hook but the managed ones); for
// Gemini CLI and Codex, their own switches (config.AgentSwitches). The zero entrySwitch when
// nothing does. Claude Code resolves disableAllHooks by precedence, so a settings.local.json
// `false` would win over a settings.json `true`; hookcore keeps no `false`, and reports the
// switch (red team round 46).
func hookcoreOff(files []*config.File, agents config.AgentSwitches, f *config.File, h *config.Hook) entrySwitch {
	if claudeRuns(f) {
		for _, g := range files {
			if g.DisableAll && config.IsClaudeSettings(g.Path) && (g.Layer == config.Managed || f.Layer != config.Managed) {
				return entrySwitch{file: g.Path, layer: g.Layer, how: "disableAllHooks is true"}
			}
		}
		return entrySwitch{}
	}
	file, how := agents.By(f, h)
	if file == "" {
		return entrySwitch{}
	}
	sw := entrySwitch{file: file, layer: config.User, how: how}
	for _, g := range files {
		if g.Path == file {
			sw.layer = g.Layer
			break
		}
	}
	return sw
}

// claudeRuns reports whether f is a file whose hooks Claude Code runs: its settings or a
// plugin's hooks file.
func claudeRuns(f *config.File) bool {
	return f.Dialect == config.Nested && (config.IsClaudeSettings(f.Path) || f.Plugin != "")
}

// hookcoreSwitchedOff warns, once per file, about the agents' entries that run hookcore
// itself (callsHookcore) that a switch in any file the agent reads turns off (hookcoreOff):
// the agent then never starts hookcore, which cannot block anything. A switch of the
// workspace's turns off the user's own entries on the agent's own folder trust, and
// hookcore's grant has no say (red team round 43, with the real Gemini CLI and Codex: a
// repository's `"hooksConfig": {"disabled": ["hookcore"]}` let rm -rf run; round 46, with
// the real Claude Code 2.1.332: a repository's `{"disableAllHooks": true}` did). A switch in
// the very file that holds the entries, as after `hookcore install` into a project that
// switches its hooks off, and one of the user's own, are warned about too (red team round
// 59: check said 0 warnings).
func hookcoreSwitchedOff(files []*config.File) config.ErrorList {
	agents := config.AgentSwitch(files, true)
	var out config.ErrorList
	for _, f := range files {
		var first *config.Hook
		var sw entrySwitch
		n := 0
		for i := range f.Hooks {
			h := &f.Hooks[i]
			if !callsHookcore(h.Action) {
				continue
			}
			if s := hookcoreOff(files, agents, f, h); s.file != "" {
				if first == nil {
					first, sw = h, s
				}
				n++
			}
		}
		if first == nil {
			continue
		}
		mine := f.Layer != config.Project && f.Layer != config.Local
		msg := fmt.Sprintf("%d of this file's entries that run hookcore are switched off (%s): %s runs none of them, so none of hookcore's guards run under it here; change that setting to switch them on",
			n, text.Printable(sw.why()), f.Dialect.Agent())
		if sw.workspace() && mine {
			msg = fmt.Sprintf("%d of this file's entries that run hookcore are switched off by the workspace's settings (%s) wherever the agent trusts the folder: the agent then runs none of your hookcore guards here, on its own trust (hookcore's grant has no say)",
				n, text.Printable(sw.why()))
		}
		out = append(out, &config.Problem{Pos: first.Pos, Warning: true, Msg: msg})
	}
	return out
}

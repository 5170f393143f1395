//go:build !hookcore_lean

package cli

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/install"
	"github.com/hookcore/hookcore/internal/text"
)

// installedFiles returns the files agent reads here, as discovery finds them from the project
// directory projectDir (the user's, the project's and local ones, the managed ones), with the
// file install writes read as p.New, what it holds after install (also for --dry-run), and
// that file, target; target is nil when p.New does not parse.
func (e *env) installedFiles(agent string, p *install.Plan, projectDir string) (files []*config.File, target *config.File) {
	d := e.discovery(&configFlags{}, projectDir)
	d.Agents = []config.Agent{config.Agent(agent)}
	paths, err := d.Paths()
	if err != nil {
		paths = nil
	}
	abs, _ := filepath.Abs(p.Path)
	layer := config.User
	if p.Project {
		layer = config.Project
		if filepath.Base(abs) == "settings.local.json" {
			layer = config.Local
		}
	}
	dialect := config.Nested
	switch agent {
	case "gemini":
		dialect = config.Gemini
	case "codex":
		dialect = config.Codex
	case "cursor":
		dialect = config.Cursor
	case "copilot":
		dialect = config.Copilot
	}
	read := func(l config.Layer) *config.File {
		f, _ := config.ParseDialect(abs, p.New, l, dialect)
		if f == nil || f.Failed {
			return nil
		}
		return f
	}
	for _, lp := range paths {
		if filepath.Clean(lp.Path) == abs {
			if target = read(lp.Layer); target != nil {
				files = append(files, target)
			}
			continue
		}
		if lp.Refused != "" || lp.Skip != "" {
			continue
		}
		if f, _ := config.ParseLayerPath(lp); f != nil && !f.Failed {
			files = append(files, f)
		}
	}
	if target == nil {
		// A file install creates, which discovery did not find: it sets no switch, so its
		// place in the order does not matter.
		if target = read(layer); target != nil {
			files = append(files, target)
		}
	}
	return files, target
}

// agentOffNote is what install says, after its other lines, when a switch of the agent's
// turns off the entries of target, the file install wrote, that run hookcore (hookcoreOff,
// over files, the files the agent reads here, as in a folder it trusts), so that they will
// not run: Codex's [features] hooks (or codex_hooks) and [hooks.state], Gemini CLI's
// hooksConfig.enabled and a hooksConfig.disabled that names them, Claude Code's
// disableAllHooks in any of its settings files (new-user trial, stop 28: install codex said
// nothing of `[features] hooks = false`; red team round 59: nor install claude of the
// project's disableAllHooks, in the very file it wrote, nor install gemini of a disabled
// list naming "hookcore"). "" when nothing does. A note, and exit 0: the switch is the
// user's (or the repository's) setting, and the entries are right; `hookcore check` warns
// about it too.
func (e *env) agentOffNote(files []*config.File, target *config.File) string {
	if target == nil {
		return ""
	}
	agents := config.AgentSwitch(files, true)
	var sw entrySwitch
	var name string
	off, all := 0, 0
	for i := range target.Hooks {
		h := &target.Hooks[i]
		if !callsHookcore(h.Action) {
			continue
		}
		all++
		if s := hookcoreOff(files, agents, target, h); s.file != "" {
			if off == 0 {
				sw, name = s, h.AgentKey
			}
			off++
		}
	}
	if off == 0 {
		return ""
	}
	agent := target.Dialect.Agent()
	runs := agent + " runs none of these hooks"
	if off < all {
		runs = fmt.Sprintf("%s does not run %d of these %d hooks", agent, off, all)
	}
	where := e.shownPath(sw.file)
	switch sw.how {
	case "disableAllHooks is true":
		if sw.layer == config.Managed {
			return fmt.Sprintf("note: %s: %s sets disableAllHooks to true, which turns off every hook, the managed ones too; only its administrator can switch them on", runs, where)
		}
		return fmt.Sprintf("note: %s: %s sets disableAllHooks to true, which turns off every hook but the managed ones; take it out there to switch Claude Code's hooks on", runs, where)
	case "hooksConfig.enabled is false":
		return fmt.Sprintf("note: %s: %s sets hooksConfig.enabled to false; set it to true there (\"hooksConfig\": {\"enabled\": true}) to switch Gemini CLI's hooks on", runs, where)
	case "hooksConfig.disabled lists it":
		return fmt.Sprintf("note: %s: %s lists %s in hooksConfig.disabled; take it out of that list to switch them on", runs, where, text.Printable(strconv.Quote(name)))
	case "its [features] switch hooks off":
		key := "hooks"
		for _, f := range files {
			if f.Path == sw.file && f.HooksEnabled == nil {
				key = "codex_hooks"
			}
		}
		return fmt.Sprintf("note: %s: %s sets [features] %s = false; set it to true there to switch Codex's hooks on", runs, where, key)
	}
	return fmt.Sprintf("note: %s: %s: %s", runs, where, sw.how)
}

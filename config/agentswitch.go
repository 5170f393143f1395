package config

// AgentSwitches is what the agents' own switches turn off among the hooks of a set of
// files, as those agents resolve them: Gemini CLI's hooksConfig (enabled, disabled) and
// Codex's [features] hooks and [hooks.state] enabled = false. They apply to the hooks of
// that agent's files only. The zero value turns nothing off.
type AgentSwitches struct {
	off      map[Dialect]string            // the file whose switch turns all the agent's hooks off
	disabled map[Dialect]map[string]string // AgentKey → the first file that lists it
}

// AgentSwitch resolves the agents' switches over files. A project or local file counts only
// when projectTrusted: Gemini CLI and Codex read a workspace's settings only in a trusted
// folder, and a repository must not switch off the user's hooks. An agent's switch for all
// its hooks is the one of the last file that sets it (their precedence, project over user,
// is the load order; Codex's codex_hooks counts only where no file sets hooks); the lists of
// hooks switched off add up (Gemini CLI merges hooksConfig.disabled as a union, Codex
// gathers [hooks.state] from every layer).
//
// Observed: Gemini CLI 0.61.0 (peer-gemini) and Codex 0.171.0 (peer-codex), stop 26.
func AgentSwitch(files []*File, projectTrusted bool) AgentSwitches {
	var s AgentSwitches
	type setting struct {
		on   bool
		file string
	}
	enabled, alias := map[Dialect]setting{}, map[Dialect]setting{}
	for _, f := range files {
		if f.Dialect != Gemini && f.Dialect != Codex || !projectTrusted && (f.Layer == Project || f.Layer == Local) {
			continue
		}
		if f.HooksEnabled != nil {
			enabled[f.Dialect] = setting{*f.HooksEnabled, f.Path}
		}
		if f.HooksEnabledAlias != nil {
			alias[f.Dialect] = setting{*f.HooksEnabledAlias, f.Path}
		}
		for _, k := range f.HooksDisabled {
			if s.disabled == nil {
				s.disabled = map[Dialect]map[string]string{}
			}
			if s.disabled[f.Dialect] == nil {
				s.disabled[f.Dialect] = map[string]string{}
			}
			if _, seen := s.disabled[f.Dialect][k]; !seen {
				s.disabled[f.Dialect][k] = f.Path
			}
		}
	}
	for _, d := range []Dialect{Gemini, Codex} {
		e, ok := enabled[d]
		if !ok {
			e, ok = alias[d]
		}
		if ok && !e.on {
			if s.off == nil {
				s.off = map[Dialect]string{}
			}
			s.off[d] = e.file
		}
	}
	return s
}

// agentOffHint is what switches an agent's hooks off instead of disableAllHooks.
func agentOffHint(agent Dialect) string {
	switch agent {
	case Gemini:
		return `: hooksConfig: {"enabled": false} switches Gemini CLI's hooks off`
	case Codex:
		return ": [features] hooks = false in config.toml switches Codex's hooks off"
	}
	return ""
}

// AllOff returns the file whose switch turns off every hook of agent d (Gemini, Codex), ""
// when none does.
func (s AgentSwitches) AllOff(d Dialect) string { return s.off[d] }

// Off reports whether h, a hook of f, is switched off by its agent: all of f's agent's
// hooks, or h by its AgentKey.
func (s AgentSwitches) Off(f *File, h *Hook) bool { return s.Why(f, h) != "" }

// Why says what switches h, a hook of f, off ("FILE: hooksConfig.enabled is false", "FILE:
// hooksConfig.disabled lists it", "FILE: its [features] switch hooks off", "FILE: its
// [hooks.state] entry says enabled = false"); "" when nothing does.
func (s AgentSwitches) Why(f *File, h *Hook) string {
	if file, how := s.By(f, h); file != "" {
		return file + ": " + how
	}
	return ""
}

// By is Why in two parts: the file whose switch turns h, a hook of f, off and how it does
// ("hooksConfig.enabled is false", "hooksConfig.disabled lists it", "its [features] switch
// hooks off", "its [hooks.state] entry says enabled = false"); both "" when nothing does.
func (s AgentSwitches) By(f *File, h *Hook) (file, how string) {
	if file, ok := s.off[f.Dialect]; ok {
		if f.Dialect == Gemini {
			return file, "hooksConfig.enabled is false"
		}
		return file, "its [features] switch hooks off"
	}
	if h.AgentKey == "" {
		return "", ""
	}
	if file, ok := s.disabled[f.Dialect][h.AgentKey]; ok {
		if f.Dialect == Gemini {
			return file, "hooksConfig.disabled lists it"
		}
		return file, "its [hooks.state] entry says enabled = false"
	}
	return "", ""
}

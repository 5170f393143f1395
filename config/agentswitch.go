package config

// AgentSwitches is what the agents' own switches turn off among the hooks of a set of
// files, as those agents resolve them: Gemini CLI's hooksConfig (enabled, disabled) and
// Codex's [features] hooks and [hooks.state] enabled = false. They apply to the hooks of
// that agent's files only. The zero value turns nothing off.
type AgentSwitches struct {
	off      map[Dialect]bool
	disabled map[Dialect]map[string]bool
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
	enabled, alias := map[Dialect]*bool{}, map[Dialect]*bool{}
	for _, f := range files {
		if f.Dialect != Gemini && f.Dialect != Codex || !projectTrusted && (f.Layer == Project || f.Layer == Local) {
			continue
		}
		if f.HooksEnabled != nil {
			enabled[f.Dialect] = f.HooksEnabled
		}
		if f.HooksEnabledAlias != nil {
			alias[f.Dialect] = f.HooksEnabledAlias
		}
		for _, k := range f.HooksDisabled {
			if s.disabled == nil {
				s.disabled = map[Dialect]map[string]bool{}
			}
			if s.disabled[f.Dialect] == nil {
				s.disabled[f.Dialect] = map[string]bool{}
			}
			s.disabled[f.Dialect][k] = true
		}
	}
	for _, d := range []Dialect{Gemini, Codex} {
		e := enabled[d]
		if e == nil {
			e = alias[d]
		}
		if e != nil && !*e {
			if s.off == nil {
				s.off = map[Dialect]bool{}
			}
			s.off[d] = true
		}
	}
	return s
}

// Off reports whether h, a hook of f, is switched off by its agent: all of f's agent's
// hooks, or h by its AgentKey.
func (s AgentSwitches) Off(f *File, h *Hook) bool {
	return s.off[f.Dialect] || h.AgentKey != "" && s.disabled[f.Dialect][h.AgentKey]
}

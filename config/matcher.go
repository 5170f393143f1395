package config

import (
	"strings"

	"github.com/hookcore/hookcore/match"
)

// CompileMatcher compiles h's matcher as the agent whose file holds it reads it: an entry
// of a Claude Code settings file (Dialect Nested: .claude/settings*.json, --settings,
// managed settings, plugins' hooks.json, skills' and agents' frontmatter, and Codex's
// hooks.json, whose matchers follow Claude Code's) with match.CompileClaudeMatcher; any other
// with match.CompileMatcher (hookcore's YAML, codebot's JSON, and the matchers Gemini
// CLI's, Cursor's and Copilot CLI's files are translated into when they load).
func (h *Hook) CompileMatcher() (*match.Matcher, error) {
	if h.Dialect == Nested {
		return match.CompileClaudeMatcher(h.Matcher)
	}
	return match.CompileMatcher(h.Matcher)
}

// claudeMatcherWarning returns a warning about a Claude Code matcher that reads like
// hookcore's syntax and means something else to Claude Code, or "": a /…/ matcher, which
// Claude Code matches as the text with its slashes (hookcore's /regex/ form is not
// Claude Code's), and a name that differs from a value of the event only in case (Claude
// Code compares names case-sensitively). m is h's compiled matcher.
func claudeMatcherWarning(h *Hook, m *match.Matcher) string {
	if h.Dialect != Nested || h.Event.MatchField() == "" {
		return ""
	}
	if strings.HasPrefix(h.Matcher, "/") && strings.Count(h.Matcher, "/") >= 2 {
		msg := "matcher " + quote(h.Matcher) + ": Claude Code reads /…/ as a regular expression over the text with its slashes, not as hookcore's /regex/"
		hm, err := match.CompileMatcher(h.Matcher)
		if err != nil || hm.Regexp() == nil {
			return msg
		}
		var missed []string
		for _, v := range h.Event.ClaudeValues() {
			if hm.Match(v) && !m.Match(v) {
				missed = append(missed, v)
			}
		}
		if len(missed) > 0 {
			msg += ", so it never matches " + strings.Join(missed, ", ")
		} else {
			msg += ", so it matches only a " + h.Event.MatchField() + " with those slashes"
		}
		if js, err := match.Translate(hm.Regexp(), match.JavaScript); err == nil {
			if match.IsClaudeNameList(js) {
				js = "(?:" + js + ")"
			}
			msg += "; what hookcore's /regex/ means is " + quote(js) + " there"
		}
		return msg
	}
	names, _, ok := m.List()
	if !ok {
		return ""
	}
	var wrong []string
	for _, n := range names {
		for _, v := range h.Event.ClaudeValues() {
			if n != v && strings.EqualFold(n, v) {
				wrong = append(wrong, quote(n)+" (Claude Code sends "+quote(v)+")")
			}
		}
	}
	if len(wrong) == 0 {
		return ""
	}
	return "matcher " + quote(h.Matcher) + ": Claude Code compares names case-sensitively, so it never matches " + strings.Join(wrong, ", ")
}

package convert

import (
	"fmt"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// A matcher is written so that the target agent, reading it its own way, matches what
// hookcore's reading of the source matcher matches (config.Hook.CompileMatcher: Claude
// Code's syntax for a Claude Code or Codex file, hookcore's for the others), with the
// target's tool names where they are not Claude Code's. How each agent reads a matcher was
// observed with the real agents (docs/decisions.md, "convert writes matchers the target agent
// reads"):
//
//   - Claude Code 2.1.332: "" and "*" match all; text of ASCII letters, digits, '_', '-',
//     spaces, '|' and ',' is a list of exact names, case-sensitive; anything else is a
//     JavaScript regex, searched unanchored (a "/…/" is the text with its slashes).
//   - Codex 0.171.0: the same, but only letters, digits, '_' and '|' make a name list (no
//     ',', '-' or spaces) and the regex is Rust's.
//   - Gemini CLI 0.61.0: on BeforeTool and AfterTool a JavaScript regex, searched
//     unanchored, after trimming ("run_shell_command" also matches "x_run_shell_command");
//     on the other events the exact value.
//   - Cursor and Copilot CLI: a regex, not observed here; what is written is anchored
//     (^(?:…)$), which matches the same names whether the agent anchors it or not.
//   - hookcore: its own syntax (match.CompileMatcher).
//
// Names hookcore compares ignoring case are written in Claude Code's spelling where the
// value is one Claude Code sends (hook.Event.ClaudeValues: "bash" is Bash), else as a
// class of each letter's case forms ([Mm][Cc][Pp]__…), so nothing is narrowed.

// matchers returns the matchers to write for h on the target in place of h.Matcher: one,
// or several when the target compares exact values and h matches several (each is a
// definition of its own, Gemini CLI's lifecycle events); "" for none (every call). ok is
// false when h's matcher matches nothing the target sends: the hook is dropped, with a
// line. What cannot be written exactly is dropped (the hook then runs for every call),
// with a line, a warning on a gate event.
func (c *conv) matchers(h *config.Hook) (out []string, ok bool) {
	raw := h.Matcher
	if raw == "" || raw == "*" {
		return []string{raw}, true
	}
	if h.Event.MatchField() == "" {
		c.lose(h, "matcher %q dropped: %s has no matcher", raw, h.Event)
		return []string{""}, true
	}
	if c.sameSyntax(h) {
		return []string{raw}, true
	}
	m, err := h.CompileMatcher()
	if err != nil { // a valid hook's matcher compiles; keep it as it is
		return []string{raw}, true
	}
	if m.Any() {
		return []string{"*"}, true
	}
	if _, _, isList := m.List(); !isList && m.Regexp() != nil {
		if miss := otherSpellings(h, m); len(miss) > 0 {
			// Red team round 65: "^bash$" ran for no Bash call, and nothing said so.
			c.lose(h, "matcher %q is a regular expression that matches %s only spelled otherwise, and tool names are compared as spelled: it may match nothing in %s", raw, strings.Join(miss, ", "), c.target)
		}
	}
	if c.target == "hookcore" {
		if hm, err := match.CompileMatcher(raw); err == nil && hm.Regexp() != nil && m.Regexp() != nil && hm.Regexp().String() == m.Regexp().String() {
			return []string{raw}, true // the same regex in both syntaxes ("Notebook.*")
		}
	}
	natives := c.natives(h)
	var s set
	if names, fold, isList := m.List(); isList {
		s = c.nameSet(h, names, fold, natives)
	} else if vals, finite := m.Values(); finite && !caseForms(vals) {
		s = c.nameSet(h, vals, false, natives)
	} else {
		s = c.regexSet(m, natives)
	}
	if s.empty() {
		c.drop(h, fmt.Sprintf("matcher %q matches no %s of %s's: the hook would never run there", raw, h.Event.MatchField(), c.target))
		return nil, false
	}
	out, err = c.write(h, s)
	if err != nil {
		what := fmt.Sprintf("matcher %q not carried over: %v, so the hook runs for every %s", raw, err, h.Event)
		if h.Event.Kind() == hook.Gate {
			c.warn(h, "%s, and a command that blocks by itself blocks every one", what)
		} else {
			c.lose(h, "%s", what)
		}
		return []string{""}, true
	}
	return out, true
}

// nativeMatcher returns h's matcher in hookcore's syntax: as it is, or a Claude Code
// matcher that hookcore's syntax reads otherwise rewritten ("/Write/" is the regex
// /^(?:\/Write\/)$/, "bash" /^(?:bash)$/). A matcher on an event without a match field is kept:
// hookcore ignores it there, with a warning, as the source did.
func (c *conv) nativeMatcher(h *config.Hook) string {
	if h.Event.MatchField() == "" {
		return h.Matcher
	}
	out, ok := c.matchers(h)
	if !ok || len(out) != 1 {
		return h.Matcher // not reached: hookcore's syntax expresses every matcher
	}
	return out[0]
}

// matchesAll reports whether h's matcher matches every value as hookcore reads it ("",
// "*", a Gemini CLI ".*").
func matchesAll(h *config.Hook) bool {
	m, err := h.CompileMatcher()
	return h.Matcher == "" || err == nil && m.Any()
}

// otherSpellings returns, as `Bash ("bash")`, the values of h's event that regex matcher m
// does not match while it matches another spelling of them: another case, or the name
// Copilot CLI or Gemini CLI gives that tool. Such a matcher was most likely meant for one
// agent's names and read with another's.
func otherSpellings(h *config.Hook, m *match.Matcher) []string {
	var out []string
	for _, v := range h.Event.ClaudeValues() {
		if m.Match(v) {
			continue
		}
		spellings := []string{strings.ToLower(v), strings.ToUpper(v)}
		if h.Event.MatchField() == "tool_name" {
			for _, agent := range []string{"copilot", "gemini"} {
				for n, cn := range bridge.ToolNames(agent) {
					if cn == v {
						spellings = append(spellings, n)
					}
				}
			}
		}
		slices.Sort(spellings[2:])
		for _, o := range spellings {
			if o != v && m.Match(o) {
				out = append(out, fmt.Sprintf("%s (%q)", v, o))
				break
			}
		}
	}
	return out
}

// caseForms reports whether two of the values differ only in case ([Ww]rite): a regex says
// that more plainly than a list of the spellings.
func caseForms(vals []string) bool {
	seen := map[string]bool{}
	for _, v := range vals {
		k := string(match.FoldKey(nil, v))
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// sameSyntax reports whether the target reads h's matcher as hookcore reads it, so that it
// is written as it is: a Claude Code matcher for Claude Code, a Codex file's for Codex,
// hookcore's syntax for hookcore.
func (c *conv) sameSyntax(h *config.Hook) bool {
	switch c.target {
	case "claude":
		return h.Dialect == config.Nested
	case "codex":
		return h.Dialect == config.Nested && c.source == config.Codex
	case "hookcore":
		return h.Dialect != config.Nested
	}
	return false
}

// natives returns the target's own tool names mapped to Claude Code's (bridge.ToolNames),
// for a hook on a tool event of an agent that names its tools otherwise; nil when the
// target's names are Claude Code's.
func (c *conv) natives(h *config.Hook) map[string]string {
	if h.Event.MatchField() != "tool_name" {
		return nil
	}
	return bridge.ToolNames(c.target)
}

// set is what a matcher matches, in the target's names: values the agent sends spelled so
// (known: whether it compares case or not, they match the same), other values compared
// exactly and ignoring case, and an open regex; it matches a value when one of them does.
type set struct {
	known, exact, fold []string
	re                 *regexp.Regexp // over the target's names, RE2; nil for none
	// plus and minus are, for an open regex over an agent with names of its own, the
	// native names it must also match, and those it must not, although re matches them.
	plus, minus []string
}

func (s set) empty() bool { return len(s.known)+len(s.exact)+len(s.fold) == 0 && s.re == nil }

// nameSet returns the set of the names (compared ignoring case with fold): with natives,
// the native names of the tools whose Claude Code name is matched, and the other names as
// they are (a tool the agent sends under a name the bridge does not map, an MCP tool);
// without, a name Claude Code sends in another spelling is written in its spelling.
func (c *conv) nameSet(h *config.Hook, names []string, fold bool, natives map[string]string) set {
	var s set
	eq := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	if natives != nil {
		for _, v := range names {
			for _, n := range slices.Sorted(maps.Keys(natives)) {
				if eq(v, natives[n]) {
					s.known = appendNew(s.known, n)
				}
			}
		}
		for _, v := range names {
			_, isNative := natives[v]
			mapped := slices.ContainsFunc(slices.Collect(maps.Values(natives)), func(cn string) bool { return eq(v, cn) })
			if isNative || mapped {
				continue
			}
			if i := slices.IndexFunc(h.Event.ClaudeValues(), func(cn string) bool { return eq(v, cn) }); i >= 0 {
				c.lose(h, "matcher tool %q kept as written: %s has no known equivalent tool", v, c.target)
				s.known = appendNew(s.known, h.Event.ClaudeValues()[i])
				continue
			}
			s.add(v, fold)
		}
		return s
	}
	known := h.Event.ClaudeValues()
	for _, v := range names {
		if i := slices.IndexFunc(known, func(k string) bool { return eq(v, k) }); i >= 0 {
			s.known = appendNew(s.known, known[i])
			continue
		}
		s.add(v, fold)
	}
	return s
}

// add adds name v, compared ignoring case with fold; a name that case does not change
// matches the same either way.
func (s *set) add(v string, fold bool) {
	switch {
	case !hasCase(v):
		s.known = appendNew(s.known, v)
	case fold:
		s.fold = appendNew(s.fold, v)
	default:
		s.exact = appendNew(s.exact, v)
	}
}

// hasCase reports whether s has a letter with other case forms.
func hasCase(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.SimpleFold(r) != r }) >= 0
}

func appendNew(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// regexSet returns the set of an open regex matcher m: its regex, and with natives the
// native names whose Claude Code name it matches and those it matches itself but must not.
func (c *conv) regexSet(m *match.Matcher, natives map[string]string) set {
	s := set{re: m.Regexp()}
	for _, n := range slices.Sorted(maps.Keys(natives)) {
		switch want := m.Match(natives[n]); {
		case want && !m.Match(n):
			s.plus = append(s.plus, n)
		case !want && m.Match(n):
			s.minus = append(s.minus, n)
		}
	}
	return s
}

// write renders s as the target reads matchers.
func (c *conv) write(h *config.Hook, s set) ([]string, error) {
	switch {
	case c.target == "hookcore":
		return c.writeHookcore(s)
	case c.target == "gemini" && h.Event.MatchField() != "tool_name":
		return c.writeValues(h, s)
	}
	flavor := match.JavaScript
	if c.target == "codex" {
		flavor = match.Rust
	}
	// isList: a name the agent reads alone or in a '|' list as that name; readsList: text
	// the agent reads as a list of names.
	isList := map[string]func(string) bool{"claude": claudeName, "codex": codexName}[c.target]
	readsList := map[string]func(string) bool{"claude": match.IsClaudeNameList, "codex": codexName}[c.target]
	exact := append(slices.Clone(s.known), s.exact...)
	if s.re == nil && len(s.fold) == 0 && isList != nil && !slices.ContainsFunc(exact, func(v string) bool { return !isList(v) }) {
		return []string{strings.Join(exact, "|")}, nil
	}
	var alts []string
	if s.re == nil || len(s.plus) > 0 {
		var names []string
		for _, v := range append(exact, s.plus...) {
			t, err := quoteName(v, false, flavor)
			if err != nil {
				return nil, err
			}
			names = append(names, t)
		}
		for _, v := range s.fold {
			t, err := quoteName(v, true, flavor)
			if err != nil {
				return nil, err
			}
			names = append(names, t)
		}
		alts = append(alts, anchored(names))
	}
	if s.re != nil {
		t, err := match.Translate(s.re, flavor)
		if err != nil {
			return nil, err
		}
		if isList == nil && c.target != "gemini" && !wholeName(s.re) {
			// Cursor and Copilot CLI were not observed: a search is written so that it
			// searches whether the agent anchors the regex or not.
			t = `^[\s\S]*?(?:` + t + `)[\s\S]*$`
		}
		if len(s.minus) > 0 {
			if flavor != match.JavaScript {
				return nil, fmt.Errorf("%s has no lookahead to leave out %s", flavor, strings.Join(s.minus, ", "))
			}
			var minus []string
			for _, v := range s.minus {
				q, err := quoteName(v, false, flavor)
				if err != nil {
					return nil, err
				}
				minus = append(minus, q)
			}
			t = "^(?!(?:" + strings.Join(minus, "|") + ")$)[\\s\\S]*?(?:" + t + ")"
		}
		alts = append(alts, t)
	}
	out := strings.Join(alts, "|")
	// The agent must not read the regex as a name list, "*", or (Gemini CLI trims) another
	// text.
	if readsList != nil && readsList(out) || out == "*" || strings.TrimSpace(out) != out {
		out = "(?:" + out + ")"
	}
	return []string{out}, nil
}

// wholeName reports whether re must match a whole value (^…$ around all of it).
func wholeName(re *regexp.Regexp) bool {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return false
	}
	t = t.Simplify()
	return t.Op == syntax.OpConcat && len(t.Sub) > 1 && t.Sub[0].Op == syntax.OpBeginText && t.Sub[len(t.Sub)-1].Op == syntax.OpEndText
}

// anchored returns ^(?:a|b)$ of the quoted alternatives (^a$ for one).
func anchored(alts []string) string {
	if len(alts) == 1 {
		return "^" + alts[0] + "$"
	}
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

// quoteName returns name v as a regex of the flavor matching exactly v, or v in any case with
// fold.
func quoteName(v string, fold bool, flavor match.Flavor) (string, error) {
	src := regexp.QuoteMeta(v)
	if fold {
		src = "(?i)" + src
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return "", err
	}
	return match.Translate(re, flavor)
}

// claudeName reports whether Claude Code reads v, alone or in a '|' list, as the exact name
// v: ASCII letters, digits and '_'. 2.1.332 also takes '-' and spaces, but before 2.1.195 a
// hyphen made the matcher a regex searched unanchored ("code-reviewer" ran for
// "senior-code-reviewer"), and spaces around names need 2.1.191 (research note 2.3): such a
// name is written as an anchored regex, which every version reads alike.
func claudeName(v string) bool { return codexName(v) && !strings.Contains(v, "|") }

// codexName reports whether Codex reads v, alone or in a '|' list, as the exact names of
// v: ASCII letters, digits, '_' and '|' (observed with Codex 0.171.0: "Write,Bash", "Bash "
// and "as|-" are regexes).
func codexName(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '|') {
			return false
		}
	}
	return true
}

// writeHookcore renders s in hookcore's syntax: a name list (case-insensitive, which the
// exact names of a Claude Code file may be when case does not matter: values Claude Code
// spells so, names without letters), else a /regex/.
func (c *conv) writeHookcore(s set) ([]string, error) {
	plain := func(v string) bool {
		if v == "" || strings.TrimSpace(v) != v || strings.ContainsAny(v, "|,") {
			return false
		}
		return !strings.ContainsFunc(v, func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == ' ')
		})
	}
	if s.re == nil {
		list := append(slices.Clone(s.known), s.fold...)
		if len(s.exact) == 0 && !slices.ContainsFunc(list, func(v string) bool { return !plain(v) }) {
			return []string{strings.Join(list, "|")}, nil
		}
		var alts []string
		for _, l := range []struct {
			names []string
			fold  bool
		}{{s.known, false}, {s.exact, false}, {s.fold, true}} {
			if len(l.names) > 0 {
				alts = append(alts, match.QuoteNames(l.names, l.fold))
			}
		}
		return []string{"/" + strings.ReplaceAll("^(?:"+strings.Join(alts, "|")+")$", "/", `\/`) + "/"}, nil
	}
	return []string{"/" + strings.ReplaceAll(s.re.String(), "/", `\/`) + "/"}, nil
}

// writeValues renders s for Gemini CLI's lifecycle events, which compare the value exactly:
// one matcher per value. An open regex cannot be written; a value hookcore compares
// ignoring case is written as it is, with a line.
func (c *conv) writeValues(h *config.Hook, s set) ([]string, error) {
	if s.re != nil {
		return nil, fmt.Errorf("%s compares the %s of %s exactly, with no regular expression", c.target, h.Event.MatchField(), h.Event)
	}
	for _, v := range s.fold {
		c.lose(h, "matcher value %q: Gemini CLI compares it exactly, case included, where hookcore ignored case", v)
	}
	out := append(append(slices.Clone(s.known), s.exact...), s.fold...)
	if len(out) > 1 {
		c.lose(h, "matcher %q written as %d definitions, one per value: Gemini CLI compares the %s of %s exactly", h.Matcher, len(out), h.Event.MatchField(), h.Event)
	}
	return out, nil
}

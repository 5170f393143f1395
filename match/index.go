package match

import (
	"bytes"
	"encoding/json"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds what lets a runner with many hooks skip most of them without testing each
// one: fold keys and literal sets for matchers, and an index of `if` filters. Every answer
// here is a superset that the real Match then confirms, so an index can make matching
// faster but never change its result (TestIndexMatchesFilters compares the two).

// FoldKey returns the key under which strings.EqualFold compares s: each rune replaced by
// the smallest rune of its case-folding orbit (so "bash", "BASH" and "baſh" share the key
// "BASH"), an invalid byte by U+FFFD. strings.EqualFold(a, b) holds exactly when
// FoldKey(a) == FoldKey(b). dst is reused when it has room; an ASCII s costs no allocation
// beyond dst.
func FoldKey(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, foldMin(r))
		i += n
	}
	return dst
}

// foldMin returns the smallest rune of r's case-folding orbit (unicode.SimpleFold).
func foldMin(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

// maxLiterals bounds the set of names a regex matcher is expanded to.
const maxLiterals = 64

// Literals returns, for a matcher that can only ever match a few exact values, the
// FoldKey of each: every value v that Match accepts has FoldKey(v) among them. For an
// exact-name matcher of at most 64 names these are its names' keys; for a regex they exist when the regex is
// anchored at both ends and its language is a finite set of at most 64 strings ("^Bash$",
// "(Bash|Edit)", "/^(?:Read|Write)$/i"). nil means the matcher cannot be reduced to names
// (any, "Notebook.*", an unanchored /re/). Unlike Names, the answer for a regex, and for
// the case-sensitive names of Claude Code's syntax, is a candidate set: the caller must still
// call Match.
func (m *Matcher) Literals() []string {
	if m == nil {
		return nil
	}
	switch m.kind {
	case matchNames, matchExact:
		if len(m.names) > maxLiterals {
			// Not a few: indexing each hook under every name of a 3 500-name list, for
			// 10 000 hooks, took seconds and a gigabyte (stop 23, red team round 18).
			return nil
		}
		out := make([]string, 0, len(m.names))
		for _, n := range m.names {
			out = append(out, string(FoldKey(nil, n)))
		}
		return out
	case matchRegex:
		set, ok := regexLiterals(m.re, false)
		if !ok {
			return nil
		}
		out := make([]string, 0, len(set))
		for _, s := range set {
			out = append(out, string(FoldKey(nil, s)))
		}
		return out
	}
	return nil
}

// regexLiterals returns the finite language of re when re must match a whole string
// (anchored with \A or ^ without (?m) at the start and \z or $ without (?m) at the end).
// Under (?i) it returns one spelling per alternative, which FoldKey makes equivalent to
// every other, or with cases every spelling.
func regexLiterals(re *regexp.Regexp, cases bool) ([]string, bool) {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, false
	}
	t = t.Simplify()
	for t.Op == syntax.OpCapture {
		t = t.Sub[0]
	}
	if t.Op != syntax.OpConcat {
		return nil, false
	}
	subs := t.Sub
	anchoredStart, anchoredEnd := false, false
	for len(subs) > 0 && subs[0].Op == syntax.OpBeginText {
		subs, anchoredStart = subs[1:], true
	}
	for len(subs) > 0 && subs[len(subs)-1].Op == syntax.OpEndText {
		subs, anchoredEnd = subs[:len(subs)-1], true
	}
	if !anchoredStart || !anchoredEnd {
		return nil, false
	}
	return literalsOf(&syntax.Regexp{Op: syntax.OpConcat, Sub: subs}, cases)
}

// literalsOf enumerates the strings re matches, when they are at most maxLiterals; a
// literal under (?i) counts as its one spelling unless cases.
func literalsOf(re *syntax.Regexp, cases bool) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		if cases && re.Flags&syntax.FoldCase != 0 {
			out := []string{""}
			for _, r := range re.Rune {
				forms := []rune{r}
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					forms = append(forms, f)
				}
				if len(out)*len(forms) > maxLiterals {
					return nil, false
				}
				next := make([]string, 0, len(out)*len(forms))
				for _, a := range out {
					for _, f := range forms {
						next = append(next, a+string(f))
					}
				}
				out = next
			}
			return out, true
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxLiterals {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return literalsOf(re.Sub[0], cases)
	case syntax.OpQuest:
		s, ok := literalsOf(re.Sub[0], cases)
		if !ok || len(s) == maxLiterals {
			return nil, false
		}
		return append(s, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			s, ok := literalsOf(sub, cases)
			if !ok || len(out)+len(s) > maxLiterals {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			s, ok := literalsOf(sub, cases)
			if !ok || len(out)*len(s) > maxLiterals {
				return nil, false
			}
			next := make([]string, 0, len(out)*len(s))
			for _, a := range out {
				for _, b := range s {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// Index is a list of `if` filters compiled for evaluation against one Subject at a time,
// with what can be indexed indexed:
//
//   - Bash permission rules whose pattern starts with a literal command word
//     ("Bash(rm dir7 *)", "Bash(git push:*)") are indexed by that word. Each simple command
//     of the Bash command is parsed once per event (as for any Bash rule) and only the
//     rules whose word starts one of its texts are tried.
//   - A Regex filter (/re/) whose every match must contain a literal is tried only when the
//     compact arguments contain it.
//
// The other filters are tried one by one. An Index is immutable and safe for concurrent
// use; Bind gives the per-event state.
type Index struct {
	filters  []*If
	bashWord []string // per filter: the command word of an indexed Bash rule, "" otherwise
	required []string // per filter: the literal a Regex filter's match must contain, or ""
	// condLit is, per filter, a literal that the raw arguments contain whenever a Condition
	// filter matches, provided they are plain (see plainArgs); "" when there is none.
	condLit [][]byte
	// group numbers the filters whose source text another filter shares (CompileIf is a
	// function of it, so they answer alike): Hits evaluates one of each group per subject.
	// -1 for a filter with a source of its own, or past the 64 groups Hits can remember.
	group []int8
}

// maxGroups is the number of groups of identical filters Hits remembers (two bit sets).
const maxGroups = 64

// NewIndex returns the Index of filters; a nil filter matches everything, as in If.Match.
func NewIndex(filters []*If) *Index {
	x := &Index{filters: filters, bashWord: make([]string, len(filters)), required: make([]string, len(filters)),
		condLit: make([][]byte, len(filters)), group: make([]int8, len(filters))}
	first := map[string]int{} // source → the first filter with it
	groups := map[string]int8{}
	for i, f := range filters {
		x.group[i] = -1
		switch f.Syntax() {
		case Rule:
			x.bashWord[i] = bashRuleWord(f)
		case Regex:
			x.required[i] = requiredLiteral(f.re)
		case Condition:
			if lit := conditionLiteral(f.cond); lit != "" {
				x.condLit[i] = []byte(lit)
			}
		}
		if f == nil {
			continue
		}
		j, seen := first[f.src]
		if !seen {
			first[f.src] = i
			continue
		}
		g, ok := groups[f.src]
		if !ok {
			if len(groups) == maxGroups {
				continue
			}
			g = int8(len(groups))
			groups[f.src] = g
			x.group[j] = g
		}
		x.group[i] = g
	}
	return x
}

// conditionLiteral returns a literal that the raw arguments contain whenever c matches
// them and they are plain (plainArgs): the required literal of an args =~ /re/ clause or
// the value of an args == "value" clause, of a condition whose clauses must all hold. The
// literal is made of the bytes of plainLit only: a literal without quotes, structural JSON
// bytes, white space or bytes that encoding/json escapes lies inside one token of the
// arguments' value as jsonText renders it, and in plain arguments that token is spelt as in
// the raw text. "" when there is none.
func conditionLiteral(c *condition) string {
	if c == nil || c.or && len(c.clauses) > 1 {
		return ""
	}
	best := ""
	for i := range c.clauses {
		cl := &c.clauses[i]
		if cl.field != fieldArgs && cl.field != fieldFilePath {
			continue
		}
		lit := ""
		switch cl.op {
		case "=~":
			lit = requiredLiteral(cl.re)
		case "==":
			if cl.field == fieldArgs {
				// file_path == holds for other spellings of the file too (samePath), and for
				// a hard-linked one whatever its name: its value need not be in the arguments
				// (red team round 21: the prefilter dropped the hook before samePath ran).
				lit = cl.value
			}
		}
		if len(lit) > len(best) && strings.Trim(lit, plainLit) == "" {
			best = lit
		}
	}
	if len(best) < 3 {
		return ""
	}
	return best
}

// plainLit are the bytes a condition literal may hold (see conditionLiteral).
const plainLit = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=+*#@%!?;'()|$~^"

// plainArgs reports whether raw holds no byte that decoding and re-encoding the arguments
// (json.Marshal in jsonText, the canonical encoding) could spell otherwise: no escape, no
// byte HTML-escaped by encoding/json, nothing outside ASCII, no control byte.
func plainArgs(raw []byte) bool {
	for _, c := range raw {
		if c >= utf8.RuneSelf || c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// Hits is an Index bound to one Subject: Match(i) answers filter i for it. It is meant for
// one goroutine and one event.
type Hits struct {
	x     *Index
	s     *Subject
	state uint8    // 0: not looked at; open: Bash rules decide alone; words: see words
	words []string // the first words of the Bash command's texts
	plain uint8    // 0: not looked at; 1: the raw arguments are plainArgs; 2: they are not
	// known and value are bit sets by Index.group: the answer of each group once found.
	known, value uint64
}

const (
	hitsOpen uint8 = iota + 1
	hitsWords
)

// Bind returns the per-event state for s.
func (x *Index) Bind(s *Subject) *Hits { return &Hits{x: x, s: s} }

// Match reports whether filter i accepts the subject: the same answer as
// filters[i].Match(s), found without testing the filter when the index rules it out.
func (h *Hits) Match(i int) bool {
	g := h.x.group[i]
	if g >= 0 && h.known&(1<<g) != 0 {
		return h.value&(1<<g) != 0
	}
	ok := h.match(i)
	if g >= 0 {
		h.known |= 1 << g
		if ok {
			h.value |= 1 << g
		}
	}
	return ok
}

// match answers filter i, through the prefilters.
func (h *Hits) match(i int) bool {
	f := h.x.filters[i]
	if w := h.x.bashWord[i]; w != "" {
		if h.state == 0 {
			h.prepare()
		}
		if h.state == hitsWords && !containsString(h.words, w) {
			return false
		}
	} else if lit := h.x.required[i]; lit != "" && !strings.Contains(h.s.compactArgs(), lit) {
		return false
	} else if lit := h.x.condLit[i]; lit != nil {
		if h.plain == 0 {
			h.plain = 2
			if plainArgs(h.s.args) {
				h.plain = 1
			}
		}
		if h.plain == 1 && !bytes.Contains(h.s.args, lit) {
			return false
		}
	}
	return f.Match(h.s)
}

// BashWord returns the command word under which filter i, a Bash(word …) rule, is indexed,
// "" when it is not indexed that way. When BashWords reports ok for a subject and the word
// is not among the words, Match(i) is false: a caller may skip the filter without calling
// Match (the Runner does, to visit only the hooks whose word the command starts with).
func (x *Index) BashWord(i int) string { return x.bashWord[i] }

// BashWords returns the first word of each text of the subject's Bash command and true when
// the index decides Bash(word …) rules by those words: the tool is Bash, the arguments
// decode and the command was analysed (shell.Commands.Heads). With false, every filter decides on
// its own. The command is parsed on the first call (memoised by the Subject). The caller
// must not modify the slice.
func (h *Hits) BashWords() ([]string, bool) {
	if h.state == 0 {
		h.prepare()
	}
	return h.words, h.state == hitsWords
}

// prepare looks at the Bash command once. Every filter decides on its own (open) unless the
// tool is Bash, the arguments decode, and the command was analysed into texts: then a Bash
// rule can only match a text whose first word is its command word.
func (h *Hits) prepare() {
	h.state = hitsOpen
	if !strings.EqualFold("bash", h.s.tool) {
		return
	}
	if _, ok := h.s.decodedArgs(); !ok {
		return
	}
	b := h.s.bashCommands()
	if b == nil {
		h.state = hitsWords
		return
	}
	words, ok := b.Heads()
	if !ok {
		return
	}
	h.state, h.words = hitsWords, words
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// bashRuleWord returns the literal command word of a Bash(pattern) rule, "" when it has
// none. The pattern's words are matched as text with '*' as a wildcard and a trailing " *"
// or ":*" as "and any arguments" (see textPattern), so a text the rule matches starts with
// the pattern's first word, followed by white space or the end: that word is the text's
// first word. A first word with a '*' is not literal.
func bashRuleWord(f *If) string {
	r := f.rule
	if r == nil || r.kind != ruleBash {
		return ""
	}
	t := strings.TrimSpace(f.src)
	open := strings.IndexByte(t, '(')
	if open < 0 || !strings.HasSuffix(t, ")") {
		return ""
	}
	pat := strings.Join(strings.Fields(t[open+1:len(t)-1]), " ")
	if p, ok := strings.CutSuffix(pat, ":*"); ok {
		pat = p
	}
	word, _, _ := strings.Cut(pat, " ")
	if word == "" || strings.Contains(word, "*") {
		return ""
	}
	// The compiled rule must agree: its literal prefix starts with the word.
	if prefix, _ := r.re.LiteralPrefix(); !strings.HasPrefix(prefix, word) {
		return ""
	}
	return word
}

// requiredLiteral returns the longest literal that every match of re contains, "" when
// there is none worth testing (shorter than 3 bytes) or it cannot be told (case folding).
func requiredLiteral(re *regexp.Regexp) string {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return ""
	}
	lit := required(t.Simplify())
	if len(lit) < 3 {
		return ""
	}
	return lit
}

// required returns the longest literal every match of re contains.
func required(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return ""
		}
		for _, r := range re.Rune {
			if r == utf8.RuneError { // matches any invalid byte, not the bytes of U+FFFD
				return ""
			}
		}
		return string(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if s := required(sub); len(s) > len(best) {
				best = s
			}
		}
		return best
	}
	return ""
}

// isCompact reports whether args is valid JSON with no white space outside its strings, so
// that json.Compact would return it unchanged.
func isCompact(args []byte) bool {
	inString := false
	for i := 0; i < len(args); i++ {
		switch c := args[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return !inString && json.Valid(args)
}

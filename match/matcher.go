package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type matcherKind uint8

const (
	matchAny   matcherKind = iota
	matchNames             // exact names, compared ignoring case (hookcore's syntax)
	matchExact             // exact names, compared as written (Claude Code's syntax)
	matchRegex
)

// Matcher tests an event's match value: the tool name on tool events, or the source, reason,
// trigger, notification type or agent type on the events that have one (DESIGN section 5).
//
// A Matcher is compiled once by CompileMatcher, is immutable, and is safe for concurrent use.
// Its zero value matches everything.
type Matcher struct {
	src   string
	kind  matcherKind
	names []string // matchNames, matchExact: the names as written, trimmed
	re    *regexp.Regexp
}

// CompileMatcher compiles a matcher string, chosen by its shape (DESIGN section 5):
//
//   - "" or "*" (surrounding spaces ignored): matches any value.
//   - "/re/" or "/re/i": an RE2 regular expression searched anywhere in the value (unanchored,
//     as codebot does); the flags i, m and s are accepted.
//   - one plain name, or plain names joined by "|" or ",", where a plain name holds only
//     letters, digits, '_', '-' and spaces (spaces around a name are trimmed): the exact
//     names, compared case-insensitively. "Edit|Write" is the set {Edit, Write}: it matches
//     neither "WriteFile" nor "NotebookEdit". Empty names are dropped: "Bash|" is the list
//     {Bash}, as Claude Code 2.1.332 reads it (testdata/claude/matcher-trailing-pipe in the
//     root package); a list with no name at all ("|") is an error.
//   - anything else ("mcp__github__.*", "Notebook.*"): an RE2 regular expression that must
//     match the whole value, as if written ^(?:re)$. Claude Code leaves it unanchored, so
//     there "Edit.*" also matches "NotebookEdit"; here it does not (conformance case 12b).
//
// A matcher must be valid UTF-8. The error names the problem, e.g. `bad matcher regex "(": ...`.
func CompileMatcher(s string) (*Matcher, error) { return compileCached(s, false) }

// CompileClaudeMatcher compiles a matcher of a Claude Code settings file as Claude Code
// reads it (Claude Code 2.1.332, observed: testdata/claude/matchers in the root package):
//
//   - exactly "" or "*": matches any value (" * " is a regex, below).
//   - only ASCII letters, digits, '_', '-', spaces, '|' and ',': the names between the '|'
//     and ',', trimmed, compared exactly, case included: "bash" does not match Bash, and
//     "Edit, Write" is {Edit, Write}. Empty names are dropped; a list of none (" ", "|")
//     matches nothing.
//   - anything else: a regular expression over the text as written, with no trimming and
//     no /re/ form: "/Write/" is the regex of the text "/Write/", slashes included, which
//     matches no tool name. Claude Code searches it unanchored as a JavaScript regex; here it
//     is RE2 and must match the whole value, as every hookcore regex matcher of that shape
//     (DESIGN section 5, conformance case 12b), so "Edit.*" does not match "NotebookEdit".
func CompileClaudeMatcher(s string) (*Matcher, error) { return compileCached(s, true) }

// compileCached compiles s in hookcore's syntax or, with claude, in Claude Code's, once per
// process and syntax: the same Matcher comes back, its error too (matchers).
func compileCached(s string, claude bool) (*Matcher, error) {
	key := matcherKey{claude, s}
	matchers.Lock()
	c, ok := matchers.m[key]
	matchers.Unlock()
	if ok {
		return c.m, c.err
	}
	var m *Matcher
	var err error
	if claude {
		m, err = compileClaudeMatcher(s)
	} else {
		m, err = compileMatcher(s)
	}
	matchers.Lock()
	if matchers.bytes+len(s) > maxMatcherCache {
		matchers.m, matchers.bytes = nil, 0
	}
	if matchers.m == nil {
		matchers.m = map[matcherKey]compiledMatcher{}
	}
	matchers.m[key] = compiledMatcher{m, err}
	matchers.bytes += len(s)
	matchers.Unlock()
	return m, err
}

// matcherKey is a matcher's source and whether it is in Claude Code's syntax.
type matcherKey struct {
	claude bool
	src    string
}

// matchers remembers the matchers compiled in this process, by syntax and source: a Matcher does not
// change once compiled, and one matcher shared by a group's hooks was compiled once per
// hook, twice (validation and the Runner): 10 000 hooks under a 3 500-name matcher took
// seconds and a gigabyte (stop 23, red team round 18). Forgotten whole when the sources
// held pass maxMatcherCache bytes.
var matchers struct {
	sync.Mutex
	m     map[matcherKey]compiledMatcher
	bytes int
}

type compiledMatcher struct {
	m   *Matcher
	err error
}

// maxMatcherCache caps the bytes of matcher sources matchers holds (1 MiB).
const maxMatcherCache = 1 << 20

func compileMatcher(s string) (*Matcher, error) {
	m := &Matcher{src: s}
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("bad matcher %q: not valid UTF-8", s)
	}
	t := strings.TrimSpace(s)
	if t == "" || t == "*" {
		return m, nil
	}
	if src, flags, ok := splitSlashRegex(t); ok {
		re, err := compileRegex(src, flags, false)
		if err != nil {
			return nil, fmt.Errorf("bad matcher regex %q: %w", t, err)
		}
		if !searchesEmpty(re) {
			m.kind, m.re = matchRegex, re
		}
		return m, nil
	}
	if isNameList(t) {
		for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == '|' || r == ',' }) {
			if p = strings.TrimSpace(p); p != "" {
				m.names = append(m.names, p)
			}
		}
		if len(m.names) == 0 {
			return nil, fmt.Errorf("bad matcher %q: no name in list", s)
		}
		m.kind = matchNames
		return m, nil
	}
	re, err := compileRegex(t, "", true)
	if err != nil {
		return nil, fmt.Errorf("bad matcher regex %q: %w", t, err)
	}
	m.kind, m.re = matchRegex, re
	return m, nil
}

func compileClaudeMatcher(s string) (*Matcher, error) {
	m := &Matcher{src: s}
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("bad matcher %q: not valid UTF-8", s)
	}
	if s == "" || s == "*" {
		return m, nil
	}
	if IsClaudeNameList(s) {
		for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' }) {
			if p = strings.TrimSpace(p); p != "" {
				m.names = append(m.names, p)
			}
		}
		m.kind = matchExact
		return m, nil
	}
	re, err := compileRegex(s, "", true)
	if err != nil {
		return nil, fmt.Errorf("bad matcher regex %q: %w", s, err)
	}
	m.kind, m.re = matchRegex, re
	return m, nil
}

// searchesEmpty reports whether re, searched unanchored, matches every string: it can match
// the empty string with no ^, $ or \b on the way (".*", "x|", "a*").
func searchesEmpty(re *regexp.Regexp) bool {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	return err == nil && nullable(t)
}

// nullable reports whether re matches the empty string without an empty-width assertion.
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpPlus, syntax.OpCapture:
		return nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !nullable(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return slices.ContainsFunc(re.Sub, nullable)
	}
	return false
}

// IsClaudeNameList reports whether Claude Code reads matcher s as a list of exact names: s
// holds only ASCII letters, digits, '_', '-', spaces, '|' and ',' (Claude Code 2.1.332;
// research note 2.3), and is not "" (which matches any value).
func IsClaudeNameList(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_', c == '-', c == ' ', c == '|', c == ',':
		default:
			return false
		}
	}
	return true
}

// isNameList reports whether s holds only letters, digits, '_', '-', spaces and the list
// separators '|' and ','.
func isNameList(s string) bool {
	for _, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
		case r == '_', r == '-', r == ' ', r == '|', r == ',':
		default:
			return false
		}
	}
	return true
}

// Match reports whether name passes the matcher. It does not allocate.
func (m *Matcher) Match(name string) bool {
	if m == nil {
		return true
	}
	switch m.kind {
	case matchNames:
		for _, n := range m.names {
			if strings.EqualFold(n, name) {
				return true
			}
		}
		return false
	case matchExact:
		for _, n := range m.names {
			if n == name {
				return true
			}
		}
		return false
	case matchRegex:
		return m.re.MatchString(name)
	default:
		return true
	}
}

// Any reports whether the matcher matches every value: it was empty or "*", or a regex
// searched unanchored that matches the empty string wherever it starts ("/.*/", a Gemini
// CLI ".*" as hookcore reads it).
func (m *Matcher) Any() bool { return m == nil || m.kind == matchAny }

// Names returns, for an exact-name matcher that ignores case (hookcore's syntax), the names
// as written (trimmed, in order), so that a runner can index hooks by FoldKey and skip
// Match; it returns nil for an any or regex matcher and for the case-sensitive names of
// Claude Code's syntax (List has them). The caller must not modify the slice.
func (m *Matcher) Names() []string {
	if m == nil || m.kind != matchNames {
		return nil
	}
	return m.names
}

// List returns the names of an exact-name matcher of either syntax (trimmed, in order) and
// whether they are compared ignoring case (hookcore's syntax) or as written (Claude Code's);
// ok is false for an any or regex matcher. The caller must not modify the slice.
func (m *Matcher) List() (names []string, foldCase, ok bool) {
	if m == nil || m.kind != matchNames && m.kind != matchExact {
		return nil, false, false
	}
	return m.names, m.kind == matchNames, true
}

// Values returns the values the matcher matches when they are a finite set of at most 64
// strings, each compared as written: the names of Claude Code's case-sensitive list, and the
// language of a regex anchored at both ends, every case form under (?i) ("^(?:Edit|Write)$"
// is Edit and Write, "[Ww]rite" Write and write, "(?i)^ab$" AB, Ab, aB and ab). ok is false
// for any other matcher: any, hookcore's case-insensitive names, an open or larger regex.
func (m *Matcher) Values() (values []string, ok bool) {
	switch {
	case m == nil:
	case m.kind == matchExact && len(m.names) <= maxLiterals:
		return m.names, true
	case m.kind == matchRegex:
		return regexLiterals(m.re, true)
	}
	return nil, false
}

// Regexp returns the regular expression of a regex matcher as it is matched, with the
// anchors and flags its form adds ("Notebook.*" is ^(?:Notebook.*)$, "/rm/i" is (?i)rm);
// nil for another matcher.
func (m *Matcher) Regexp() *regexp.Regexp {
	if m == nil || m.kind != matchRegex {
		return nil
	}
	return m.re
}

// String returns the matcher's source text as given to CompileMatcher.
func (m *Matcher) String() string {
	if m == nil {
		return ""
	}
	return m.src
}

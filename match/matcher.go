package match

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type matcherKind uint8

const (
	matchAny matcherKind = iota
	matchNames
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
	names []string // matchNames: the names as written, trimmed
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
func CompileMatcher(s string) (*Matcher, error) {
	matchers.Lock()
	c, ok := matchers.m[s]
	matchers.Unlock()
	if ok {
		return c.m, c.err
	}
	m, err := compileMatcher(s)
	matchers.Lock()
	if matchers.bytes+len(s) > maxMatcherCache {
		matchers.m, matchers.bytes = nil, 0
	}
	if matchers.m == nil {
		matchers.m = map[string]compiledMatcher{}
	}
	matchers.m[s] = compiledMatcher{m, err}
	matchers.bytes += len(s)
	matchers.Unlock()
	return m, err
}

// matchers remembers the matchers compiled in this process, by source: a Matcher does not
// change once compiled, and one matcher shared by a group's hooks was compiled once per
// hook, twice (validation and the Runner): 10 000 hooks under a 3 500-name matcher took
// seconds and a gigabyte (stop 23, red team round 18). Forgotten whole when the sources
// held pass maxMatcherCache bytes.
var matchers struct {
	sync.Mutex
	m     map[string]compiledMatcher
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
		m.kind, m.re = matchRegex, re
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
	case matchRegex:
		return m.re.MatchString(name)
	default:
		return true
	}
}

// Any reports whether the matcher matches every value (it was empty or "*").
func (m *Matcher) Any() bool { return m == nil || m.kind == matchAny }

// Names returns, for an exact-name matcher, the names as written (trimmed, in order), so that
// a runner can index hooks by lower-cased name; it returns nil for an any or regex matcher.
// The caller must not modify the slice.
func (m *Matcher) Names() []string {
	if m == nil || m.kind != matchNames {
		return nil
	}
	return m.names
}

// String returns the matcher's source text as given to CompileMatcher.
func (m *Matcher) String() string {
	if m == nil {
		return ""
	}
	return m.src
}

package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Flavor is the regular-expression language another agent reads a matcher in.
type Flavor uint8

const (
	// JavaScript is an ECMAScript RegExp built from the text with no flags, as Claude Code,
	// Gemini CLI and Copilot CLI build a matcher's (new RegExp(matcher)): without the u flag
	// it runs on UTF-16 code units.
	JavaScript Flavor = iota
	// Rust is the syntax of Rust's regex crate with Unicode on, as Codex builds a matcher's
	// (Regex::new): it runs on Unicode scalar values, as RE2 does.
	Rust
)

// String returns "JavaScript" or "Rust".
func (f Flavor) String() string {
	if f == Rust {
		return "Rust"
	}
	return "JavaScript"
}

// Translate returns the text of a regular expression in flavor f that matches exactly the
// strings re matches, with RE2's meaning: on runes, `.` anything but "\n", \b between ASCII
// word characters, `$` only at the end. Nothing whose meaning differs between the languages
// is written: \d, \s, \w and [[:alpha:]] become explicit classes, a letter under (?i) the
// class of its case forms ([Ww], [Kk\u212A]), a capture a (?:…) group, (?m)'s ^ and $
// lookarounds (JavaScript) or (?m:^) (Rust), and in JavaScript a code point above U+FFFF
// its surrogate pair. The result has no flags and no delimiters, so an agent that reads a
// plain name list as exact names may read it so (Translate of ^(?:Write)$ is "^(?:Write)$",
// of Write "Write"): the caller decides how the agent tells the two apart.
func Translate(re *regexp.Regexp, f Flavor) (string, error) {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return "", err
	}
	w := translator{flavor: f}
	s, _ := w.node(t, false)
	if w.err != nil {
		return "", w.err
	}
	return s, nil
}

// Precedences of a translated node: what it needs to be quantified or concatenated.
const (
	precAtom   = iota // a character, a class, a group
	precConcat        // a sequence: quantified, it needs a group
	precAlt           // an alternation: in a sequence too
)

type translator struct {
	flavor Flavor
	err    error
}

// node translates re; rep is set when re is the operand of * or +, where a JavaScript class
// may run on code units (a pair of surrogates is two of them).
func (w *translator) node(re *syntax.Regexp, rep bool) (string, int) {
	js := w.flavor == JavaScript
	switch re.Op {
	case syntax.OpNoMatch:
		return w.class(nil, false), precAtom
	case syntax.OpEmptyMatch:
		return "(?:)", precAtom
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				if orbit := foldOrbit(r); orbit != nil {
					b.WriteString(w.class(orbit, false))
					continue
				}
			}
			b.WriteString(w.literal(r))
		}
		if len(re.Rune) == 1 {
			return b.String(), precAtom
		}
		return b.String(), precConcat
	case syntax.OpCharClass:
		return w.class(re.Rune, rep), precAtom
	case syntax.OpAnyCharNotNL:
		if !js {
			return ".", precAtom
		}
		return w.class([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}, rep), precAtom
	case syntax.OpAnyChar:
		if !js {
			return "(?s:.)", precAtom
		}
		return w.class([]rune{0, unicode.MaxRune}, rep), precAtom
	case syntax.OpBeginLine:
		if js {
			return `(?<![^\n])`, precAtom
		}
		return "(?m:^)", precAtom
	case syntax.OpEndLine:
		if js {
			return `(?![^\n])`, precAtom
		}
		return "(?m:$)", precAtom
	case syntax.OpBeginText:
		return "^", precAtom
	case syntax.OpEndText:
		return "$", precAtom
	case syntax.OpWordBoundary:
		if js {
			return `\b`, precAtom
		}
		return `(?-u:\b)`, precAtom
	case syntax.OpNoWordBoundary:
		if js {
			return `\B`, precAtom
		}
		return `(?-u:\B)`, precAtom
	case syntax.OpCapture:
		s, _ := w.node(re.Sub[0], false)
		return "(?:" + s + ")", precAtom
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		op := map[syntax.Op]string{syntax.OpStar: "*", syntax.OpPlus: "+", syntax.OpQuest: "?"}[re.Op]
		if re.Op == syntax.OpRepeat {
			switch {
			case re.Max == -1:
				op = fmt.Sprintf("{%d,}", re.Min)
			case re.Min == re.Max:
				op = fmt.Sprintf("{%d}", re.Min)
			default:
				op = fmt.Sprintf("{%d,%d}", re.Min, re.Max)
			}
		}
		s, p := w.node(re.Sub[0], re.Op == syntax.OpStar || re.Op == syntax.OpPlus)
		if p != precAtom {
			s = "(?:" + s + ")"
		}
		if re.Flags&syntax.NonGreedy != 0 {
			op += "?"
		}
		return s + op, precAtom
	case syntax.OpConcat:
		if len(re.Sub) == 1 {
			return w.node(re.Sub[0], rep)
		}
		var b strings.Builder
		for i := 0; i < len(re.Sub); {
			// A run of literals and alternations of literals, as syntax.Parse factors a
			// list of names (read_(?:file|many_files)), is written as the list again.
			j := i
			for j < len(re.Sub) && wordsOp(re.Sub[j]) {
				j++
			}
			if run := re.Sub[i:j]; slices.ContainsFunc(run, func(t *syntax.Regexp) bool { return t.Op == syntax.OpAlternate }) {
				if s, p, ok := w.words(&syntax.Regexp{Op: syntax.OpConcat, Sub: run}); ok {
					if p == precAlt {
						s = "(?:" + s + ")"
					}
					b.WriteString(s)
					i = j
					continue
				}
			}
			s, p := w.node(re.Sub[i], false)
			if p == precAlt {
				s = "(?:" + s + ")"
			}
			b.WriteString(s)
			i++
		}
		return b.String(), precConcat
	case syntax.OpAlternate:
		if s, p, ok := w.words(re); ok {
			return s, p
		}
		parts := make([]string, len(re.Sub))
		for i, sub := range re.Sub {
			parts[i], _ = w.node(sub, false)
		}
		return strings.Join(parts, "|"), precAlt
	}
	if w.err == nil {
		w.err = fmt.Errorf("cannot write %s in %s", re, w.flavor)
	}
	return "", precAtom
}

// wordsOp reports whether re is a literal or an alternation (or group) of them, with no
// (?i): what w.words may write as a list of strings.
func wordsOp(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return re.Flags&syntax.FoldCase == 0
	case syntax.OpCharClass, syntax.OpEmptyMatch:
		return true
	case syntax.OpCapture, syntax.OpAlternate, syntax.OpConcat:
		for _, sub := range re.Sub {
			if !wordsOp(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// words writes re, when it matches a few strings and holds no (?i), as the list of them
// ("Glob|Grep", not the G(?:lob|rep) syntax.Parse makes of it); ok is false otherwise.
func (w *translator) words(re *syntax.Regexp) (string, int, bool) {
	if !wordsOp(re) {
		return "", 0, false
	}
	list, ok := literalsOf(re, false)
	if !ok || len(list) < 2 || len(list) > 32 {
		return "", 0, false
	}
	parts := make([]string, len(list))
	for i, s := range list {
		var b strings.Builder
		for _, r := range s {
			b.WriteString(w.literal(r))
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "|"), precAlt, true
}

// surrogates are the code points UTF-16 spends on pairs; no Go or Rust string holds them.
const surrogateLo, surrogateHi = 0xD800, 0xDFFF

// class writes the code points of the sorted ranges (lo, hi pairs) as one atom that matches
// one of them: a class, or in JavaScript, for code points above U+FFFF, a group of the class
// and their surrogate pairs. With rep, a JavaScript class that takes every code point above
// U+FFFF, or none, is written as a class of code units ([^\n] for `.`), which repeated
// matches the same strings.
func (w *translator) class(ranges []rune, rep bool) string {
	var bmp, astral []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for _, cut := range [][2]rune{{0, surrogateLo - 1}, {surrogateHi + 1, 0xFFFF}, {0x10000, unicode.MaxRune}} {
			a, b := max(lo, cut[0]), min(hi, cut[1])
			if a > b {
				continue
			}
			if cut[0] == 0x10000 {
				astral = append(astral, a, b)
			} else {
				bmp = append(bmp, a, b)
			}
		}
	}
	if w.flavor == Rust {
		return w.rustClass(append(bmp, astral...))
	}
	allAstral := len(astral) == 2 && astral[0] == 0x10000 && astral[1] == unicode.MaxRune
	if rep && (len(astral) == 0 || allAstral) {
		units := bmp
		if allAstral {
			units = mergeRanges(append(slices.Clone(bmp), surrogateLo, surrogateHi))
		}
		return w.jsClass(units)
	}
	var alts []string
	if len(bmp) > 0 {
		alts = append(alts, w.jsClass(bmp))
	}
	alts = append(alts, surrogatePairs(astral)...)
	switch len(alts) {
	case 0:
		return w.jsClass(nil)
	case 1:
		if len(bmp) > 0 {
			return alts[0]
		}
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// jsClass writes a JavaScript class of the code units in ranges (all at most U+FFFF): the
// shorter of [ranges] and [^complement]; [^\s\S] for none, [\s\S] for all.
func (w *translator) jsClass(ranges []rune) string {
	if len(ranges) == 0 {
		return `[^\s\S]`
	}
	if len(ranges) == 2 && ranges[0] == ranges[1] {
		return w.literal(ranges[0])
	}
	neg := complement(ranges, 0xFFFF)
	if len(neg) == 0 {
		return `[\s\S]`
	}
	if len(neg) < len(ranges) {
		return "[^" + w.ranges(neg) + "]"
	}
	return "[" + w.ranges(ranges) + "]"
}

// rustClass writes a Rust class of the scalar values in ranges: the shorter of [ranges] and
// [^complement] (which leaves out the surrogates, no scalar values), `.` for all but "\n".
func (w *translator) rustClass(ranges []rune) string {
	if len(ranges) == 0 {
		return `[^\s\S]`
	}
	if len(ranges) == 2 && ranges[0] == ranges[1] {
		return w.literal(ranges[0])
	}
	neg := complement(ranges, unicode.MaxRune)
	neg = subtract(neg, surrogateLo, surrogateHi)
	switch {
	case len(neg) == 0:
		return "(?s:.)"
	case len(neg) == 2 && neg[0] == '\n' && neg[1] == '\n':
		return "."
	case len(neg) < len(ranges):
		return "[^" + w.ranges(neg) + "]"
	}
	return "[" + w.ranges(ranges) + "]"
}

func (w *translator) ranges(rs []rune) string {
	var b strings.Builder
	for i := 0; i+1 < len(rs); i += 2 {
		b.WriteString(w.classRune(rs[i]))
		if rs[i+1] != rs[i] {
			if rs[i+1] > rs[i]+1 {
				b.WriteByte('-')
			}
			b.WriteString(w.classRune(rs[i+1]))
		}
	}
	return b.String()
}

// literal writes r outside a class.
func (w *translator) literal(r rune) string {
	if w.flavor == JavaScript && r > 0xFFFF {
		hi, lo := utf16Pair(r)
		return jsUnit(hi) + jsUnit(lo)
	}
	if r >= 0x20 && r < 0x7F {
		if strings.ContainsRune(`\^$.|?*+()[]{}`, r) {
			return `\` + string(r)
		}
		return string(r)
	}
	return w.escape(r)
}

// classRune writes r inside a class (r is at most U+FFFF in JavaScript).
func (w *translator) classRune(r rune) string {
	if r >= 0x20 && r < 0x7F {
		switch {
		case w.flavor == Rust && (r == '&' || r == '~'):
			return w.escape(r) // "&&" and "~~" are set operations in a Rust class
		case strings.ContainsRune(`\]^-[`, r):
			return `\` + string(r)
		}
		return string(r)
	}
	return w.escape(r)
}

func (w *translator) escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	}
	if w.flavor == Rust {
		return `\x{` + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + `}`
	}
	return jsUnit(r)
}

func jsUnit(u rune) string { return fmt.Sprintf(`\u%04X`, u) }

func utf16Pair(r rune) (hi, lo rune) {
	r -= 0x10000
	return 0xD800 + r>>10, 0xDC00 + r&0x3FF
}

// surrogatePairs writes the code points of the sorted ranges (all above U+FFFF) as
// JavaScript alternatives of a high surrogate and a class of low ones.
func surrogatePairs(ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		hl, ll := utf16Pair(lo)
		hh, lh := utf16Pair(hi)
		unit := func(a, b rune) string {
			if a == b {
				return jsUnit(a)
			}
			return "[" + jsUnit(a) + "-" + jsUnit(b) + "]"
		}
		if hl == hh {
			out = append(out, jsUnit(hl)+unit(ll, lh))
			continue
		}
		first, last := hl, hh
		if ll != 0xDC00 {
			out = append(out, jsUnit(hl)+unit(ll, 0xDFFF))
			first++
		}
		if lh != 0xDFFF {
			last--
		}
		if first <= last {
			out = append(out, unit(first, last)+unit(0xDC00, 0xDFFF))
		}
		if lh != 0xDFFF {
			out = append(out, jsUnit(hh)+unit(0xDC00, lh))
		}
	}
	return out
}

// complement returns the ranges of [0, top] not in the sorted, disjoint ranges rs.
func complement(rs []rune, top rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(rs); i += 2 {
		if rs[i] > next {
			out = append(out, next, rs[i]-1)
		}
		next = rs[i+1] + 1
	}
	if next <= top {
		out = append(out, next, top)
	}
	return out
}

// subtract returns the sorted ranges rs without [lo, hi].
func subtract(rs []rune, lo, hi rune) []rune {
	var out []rune
	for i := 0; i+1 < len(rs); i += 2 {
		a, b := rs[i], rs[i+1]
		if b < lo || a > hi {
			out = append(out, a, b)
			continue
		}
		if a < lo {
			out = append(out, a, lo-1)
		}
		if b > hi {
			out = append(out, hi+1, b)
		}
	}
	return out
}

// mergeRanges sorts lo, hi pairs and joins those that touch or overlap.
func mergeRanges(rs []rune) []rune {
	type r2 struct{ lo, hi rune }
	var ps []r2
	for i := 0; i+1 < len(rs); i += 2 {
		ps = append(ps, r2{rs[i], rs[i+1]})
	}
	slices.SortFunc(ps, func(a, b r2) int { return int(a.lo - b.lo) })
	var out []rune
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p.hi)
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

// foldOrbit returns r's case forms, r included, as sorted single-rune ranges (lo, hi pairs),
// merged where adjacent: what (?i)r matches.
func foldOrbit(r rune) []rune {
	rs := []rune{r, r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		rs = append(rs, f, f)
	}
	if len(rs) == 2 {
		return nil
	}
	return mergeRanges(rs)
}

// QuoteNames returns an RE2 alternation that matches exactly the given names, ignoring case
// with foldCase: "(?i:Bash|Edit)" or "Bash|Edit" (each name quoted with regexp.QuoteMeta).
// Wrapped as ^(?:…)$ it is a whole-name regex of the list.
func QuoteNames(names []string, foldCase bool) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	s := strings.Join(q, "|")
	if foldCase {
		return "(?i:" + s + ")"
	}
	return s
}

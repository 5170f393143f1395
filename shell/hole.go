package shell

import (
	"regexp"
	resyntax "regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// A deny rule asks whether the line MAY run what it names, so a word whose value is not
// known when the line is read ($f, "$@", $(printf -- -rf), a glob, {a,b}) must count as
// possibly equal to whatever the rule names at its place (red team: f=-rf; rm $f build
// passed Bash(rm -rf:*)). Such a word is a hole: the text "rm $f build" is matched as the
// language "rm" ( " " ANY )? " build", where ANY is any string (word splitting may make it
// several words, and an unquoted expansion may vanish with its blank), and the rule matches
// when its regular expression matches SOME string of that language. That is decided by
// running the rule's compiled program (regexp/syntax) over the pieces as a set of NFA
// states: a literal steps the states by its runes, a hole adds every state reachable by
// any run of runes. Allow rules keep matching the rendered text (the source of the word),
// which permits a line only when the rule's own text covers the word as written.

// piece is one run of a text for deny rules: literal text, or a hole.
type piece struct {
	text string
	hole bool // any string
	word bool // with hole: a whole word and the blank before it, which may both be absent
	glob bool // with hole: a run of file-name bytes (no blank, no '/'): a glob's * ? [...]
}

// holeText is a text (see Commands.texts) with holes.
type holeText []piece

// Rule is a deny rule's regular expression ready for Commands.MatchRule: the expression
// and its program for texts with holes. NewRule builds it; it is immutable.
type Rule struct {
	re   *regexp.Regexp
	prog *resyntax.Prog // nil: the program could not be built, a text with a hole matches
}

// NewRule prepares re for MatchRule. re is a Go regular expression over one command's text
// as Texts renders it (package match compiles Bash(...) rules to such expressions).
func NewRule(re *regexp.Regexp) *Rule {
	r := &Rule{re: re}
	if t, err := resyntax.Parse(re.String(), resyntax.Perl); err == nil {
		if p, err := resyntax.Compile(t.Simplify()); err == nil {
			r.prog = p
		}
	}
	return r
}

// MatchRule reports whether r may match one of the line's commands: it matches one of
// Texts, or a text with a word whose value is not known for some value of that word (see
// the comment at the top of hole.go), or the line is Opaque.
func (b *Commands) MatchRule(r *Rule) bool {
	if b.MatchesAll() {
		return true
	}
	for _, t := range b.texts {
		if r.re.MatchString(t) {
			return true
		}
	}
	for _, h := range b.holes {
		if r.prog == nil || possible(r.prog, h) {
			return true
		}
	}
	return false
}

// addWords adds the text of words (the first replaced by name if set), and its holes when
// a word is not static.
func (b *Commands) addWords(words []word, name string) {
	shown := words
	if n := len(words); n > 1 && words[n-1].text == "" && !words[n-1].static && words[n-1].pieces == nil {
		shown = words[:n-1] // the hole that xargs appends (denyWords) is no text
	}
	b.add(joinWords(shown, name))
	if !anyHole(words, name) {
		return // all static: the joined text is the whole answer (a 60 000-word alias copy
		// would otherwise build a piece list it then drops: TestBashHugeCommand)
	}
	var h holeText
	holes := false
	for i, w := range words {
		switch {
		case i == 0 && name != "":
			h = append(h, piece{text: name})
			continue
		case w.static && w.tilde && i > 0: // ~/x: the home directory is not known
			_, rest, slash := strings.Cut(w.text, "/")
			h = append(h, piece{text: " "}, piece{hole: true})
			if slash {
				h = append(h, piece{text: "/" + rest})
			}
			holes = true
			continue
		case w.static:
			if i > 0 {
				h = append(h, piece{text: " "})
			}
			h = append(h, piece{text: w.text})
			continue
		}
		holes = true
		known := false
		for _, p := range w.pieces {
			known = known || !p.hole && p.text != ""
		}
		if !known && i > 0 { // $f, "$@", a glob: any words, or none
			h = append(h, piece{hole: true, word: true})
			continue
		}
		if i > 0 {
			h = append(h, piece{text: " "})
		}
		if w.pieces == nil {
			h = append(h, piece{hole: true})
		}
		h = append(h, w.pieces...)
	}
	if holes && b.grow(len(h)) {
		b.holes = append(b.holes, h)
	}
}

// anyHole reports whether addWords would find a hole: a word after the first that is not
// static or starts with an unquoted tilde (the first word counts too when name is "").
func anyHole(words []word, name string) bool {
	for i, w := range words {
		if i == 0 && name != "" {
			continue
		}
		if !w.static || w.tilde && i > 0 {
			return true
		}
	}
	return false
}

// denyWords returns the words of a command run in c as deny rules see them: a "{}" that
// find -exec replaces by a file name, and the marker of xargs -I, are holes, and a command
// run by xargs ends in a hole for the words xargs appends (red team class: echo -rf x |
// xargs rm is rm -rf x). A static word that starts with an unquoted tilde (~/x, ~user/x)
// is a hole up to its first '/': the home directory is not known.
func denyWords(words []word, c ctx) []word {
	var markers []string
	if c.braces {
		markers = append(markers, "{}")
	}
	if c.marker != "" {
		markers = append(markers, c.marker)
	}
	var out []word
	for i, w := range words {
		if i == 0 || len(markers) == 0 {
			continue
		}
		ps, ok := splitMarkers(w.text, markers)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(words)
		}
		out[i] = word{text: w.text, pieces: ps}
	}
	if out == nil {
		out = words
	}
	if c.xargs && c.marker == "" {
		out = append(slices.Clip(out), word{})
	}
	return out
}

// splitMarkers splits text at each marker into literal pieces and holes; false when text
// holds none.
func splitMarkers(text string, markers []string) ([]piece, bool) {
	var ps []piece
	found := false
	for len(text) > 0 {
		at, m := -1, ""
		for _, mk := range markers {
			if i := strings.Index(text, mk); i >= 0 && (at < 0 || i < at) {
				at, m = i, mk
			}
		}
		if at < 0 {
			break
		}
		found = true
		ps = append(ps, piece{text: text[:at]}, piece{hole: true})
		text = text[at+len(m):]
	}
	return append(ps, piece{text: text}), found
}

// possible reports whether prog matches some string of the language of h: an NFA run over
// sets of instructions, a hole closing the set under every rune. Empty-width assertions
// other than the text's start and end are taken as satisfied (a deny answer may err toward
// matching). prog is run unanchored, as regexp.MatchString does.
func possible(prog *resyntax.Prog, h holeText) bool {
	n := len(prog.Inst)
	cur, next := newStateSet(n), newStateSet(n)
	cur.add(prog, uint32(prog.Start), true, false)
	begin := true
	matched := func(s *stateSet) bool {
		for _, pc := range s.dense {
			if prog.Inst[pc].Op == resyntax.InstMatch {
				return true
			}
		}
		return false
	}
	step := func(r rune) {
		next.clear()
		for _, pc := range cur.dense {
			in := &prog.Inst[pc]
			if consumes(in, r) {
				next.add(prog, in.Out, false, false)
			}
		}
		next.add(prog, uint32(prog.Start), false, false) // unanchored: a match may start here
		cur, next = next, cur
		begin = false
	}
	for _, p := range h {
		if matched(cur) {
			return true
		}
		switch {
		case !p.hole:
			for _, r := range p.text {
				step(r)
			}
		case p.glob:
			cur.anyName(prog)
			begin = false
		case p.word:
			saved := append([]uint32(nil), cur.dense...)
			step(' ')
			cur.anyRun(prog)
			for _, pc := range saved {
				cur.add(prog, pc, begin, false)
			}
		default:
			cur.anyRun(prog)
			begin = false
		}
	}
	final := newStateSet(n)
	for _, pc := range cur.dense {
		final.add(prog, pc, begin, true)
	}
	return matched(cur) || matched(final)
}

// consumes reports whether the rune instruction in accepts r.
func consumes(in *resyntax.Inst, r rune) bool {
	switch in.Op {
	case resyntax.InstRune, resyntax.InstRune1:
		return in.MatchRune(r)
	case resyntax.InstRuneAny:
		return true
	case resyntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// consumesSome reports whether the rune instruction in accepts some rune.
func consumesSome(in *resyntax.Inst) bool {
	switch in.Op {
	case resyntax.InstRune:
		return len(in.Rune) > 0
	case resyntax.InstRune1, resyntax.InstRuneAny, resyntax.InstRuneAnyNotNL:
		return true
	}
	return false
}

// stateSet is a sparse set of instruction indexes.
type stateSet struct {
	sparse []uint32
	dense  []uint32
}

func newStateSet(n int) *stateSet { return &stateSet{sparse: make([]uint32, n)} }

func (s *stateSet) has(pc uint32) bool {
	i := s.sparse[pc]
	return int(i) < len(s.dense) && s.dense[i] == pc
}

func (s *stateSet) clear() { s.dense = s.dense[:0] }

// add adds pc and what it reaches without a rune, at a place that is the text's start
// (begin) or end (end) or neither.
func (s *stateSet) add(prog *resyntax.Prog, pc uint32, begin, end bool) {
	if s.has(pc) {
		return
	}
	s.sparse[pc] = uint32(len(s.dense))
	s.dense = append(s.dense, pc)
	in := &prog.Inst[pc]
	switch in.Op {
	case resyntax.InstAlt, resyntax.InstAltMatch:
		s.add(prog, in.Out, begin, end)
		s.add(prog, in.Arg, begin, end)
	case resyntax.InstCapture, resyntax.InstNop:
		s.add(prog, in.Out, begin, end)
	case resyntax.InstEmptyWidth:
		op := resyntax.EmptyOp(in.Arg)
		if op&resyntax.EmptyBeginText != 0 && !begin || op&resyntax.EmptyEndText != 0 && !end {
			return // kept in the set: the end is tried again at the end
		}
		s.add(prog, in.Out, begin, end)
	}
}

// anyRun adds every state reachable from the set by any run of runes (a hole).
func (s *stateSet) anyRun(prog *resyntax.Prog) {
	for i := 0; i < len(s.dense); i++ {
		in := &prog.Inst[s.dense[i]]
		if consumesSome(in) {
			s.add(prog, in.Out, false, false)
		}
	}
}

// anyName adds every state reachable from the set by a run of runes that are neither
// blanks nor '/' (a glob's hole where a command name may start: a part of one file name; a
// name with a blank is no program a rule names).
func (s *stateSet) anyName(prog *resyntax.Prog) {
	for i := 0; i < len(s.dense); i++ {
		in := &prog.Inst[s.dense[i]]
		if consumesName(in) {
			s.add(prog, in.Out, false, false)
		}
	}
}

// consumesName reports whether the rune instruction in accepts some rune of a file name
// other than a blank or '/'.
func consumesName(in *resyntax.Inst) bool {
	sep := func(r rune) bool { return r == ' ' || r >= '\t' && r <= '\r' || r == '/' }
	switch in.Op {
	case resyntax.InstRune1:
		return !sep(in.Rune[0]) || in.Arg&uint32(resyntax.FoldCase) != 0
	case resyntax.InstRune:
		for i := 0; i+1 < len(in.Rune); i += 2 {
			for r := in.Rune[i]; r <= in.Rune[i+1]; r++ {
				if !sep(r) {
					return true
				}
			}
		}
		return len(in.Rune) == 1 && !sep(in.Rune[0])
	case resyntax.InstRuneAny, resyntax.InstRuneAnyNotNL:
		return true
	}
	return false
}

// globPieces returns the pieces of an unquoted glob word (its *, ? and [...] holes of
// file-name bytes, the rest literal), or nil when the word has a brace expansion or an
// expansion: any words.
func globPieces(w *syntax.Word) []piece {
	var ps []piece
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			var lit strings.Builder
			for i := 0; i < len(v); i++ {
				switch c := v[i]; {
				case c == '\\' && i+1 < len(v):
					i++
					lit.WriteByte(v[i])
				case c == '{':
					return nil
				case c == '*' || c == '?' || c == '[':
					if c == '[' {
						j := strings.IndexByte(v[i+1:], ']')
						if j < 0 {
							lit.WriteByte(c)
							continue
						}
						i += j + 1
					}
					ps = append(ps, piece{text: lit.String()}, piece{hole: true, glob: true})
					lit.Reset()
				default:
					lit.WriteByte(c)
				}
			}
			ps = append(ps, piece{text: lit.String()})
		case *syntax.SglQuoted:
			if p.Dollar {
				return nil
			}
			ps = append(ps, piece{text: p.Value})
		case *syntax.DblQuoted:
			text, ok := litParts(p.Parts)
			if !ok {
				return nil
			}
			ps = append(ps, piece{text: text})
		default:
			return nil
		}
	}
	return ps
}

// addGlob adds, for deny rules, the text of a command whose name is the glob g: the file
// names it may expand to, from its last '/' on (the base name), then any words.
func (b *Commands) addGlob(g []piece) {
	start, cut := 0, ""
	for i, p := range g {
		if !p.hole {
			if j := strings.LastIndexByte(p.text, '/'); j >= 0 {
				start, cut = i, p.text[j+1:]
			}
		}
	}
	h := holeText{piece{text: cut}}
	if start == 0 && strings.IndexByte(g[0].text, '/') < 0 {
		h = holeText{}
		start = -1
	}
	h = append(h, g[start+1:]...)
	h = append(h, piece{hole: true, word: true})
	if b.grow(len(h)) {
		b.holes = append(b.holes, h)
		b.headHole = true
	}
}

// expands reports whether the unquoted literal text of w holds a glob (*, ?, [...]) or a
// brace expansion ({a,b}, {1..3}), either of which may make it other words than written.
// Quoted and escaped characters do not count; an expansion elsewhere in the word is a
// placeholder.
func expands(w *syntax.Word) bool {
	var mask []byte
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			mask = append(mask, 0)
			continue
		}
		for i := 0; i < len(l.Value); i++ {
			if l.Value[i] == '\\' {
				mask = append(mask, 0, 0)
				i++
				continue
			}
			mask = append(mask, l.Value[i])
		}
	}
	m := string(mask)
	if strings.ContainsAny(m, "*?") {
		return true
	}
	if i := strings.IndexByte(m, '['); i >= 0 && strings.IndexByte(m[i+1:], ']') >= 0 {
		return true
	}
	for i := strings.IndexByte(m, '{'); i >= 0; {
		j := strings.IndexByte(m[i+1:], '}')
		if j < 0 {
			break
		}
		inner := m[i+1 : i+1+j]
		if strings.Contains(inner, ",") || strings.Contains(inner, "..") {
			return true
		}
		k := strings.IndexByte(m[i+1:], '{')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// ansiC decodes the body of a $'...' string as bash does: \a \b \e \E \f \n \r \t \v \\
// \' \" \?, octal \NNN, \xHH, \uHHHH and \UHHHHHHHH; another backslash is kept. It reports
// false when the value is not a plain string: a NUL (bash ends the string there), \cX, or
// a code point that is not valid.
func ansiC(s string) (string, bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, true
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(e)
		case 'c':
			return "", false
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			if v&0xff == 0 {
				return "", false
			}
			sb.WriteByte(byte(v))
			i = j - 1
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if j == i+1 { // no digits: kept as written
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			switch {
			case v == 0:
				return "", false
			case e == 'x':
				sb.WriteByte(byte(v))
			case v > utf8.MaxRune || !utf8.ValidRune(rune(v)):
				return "", false
			default:
				sb.WriteRune(rune(v))
			}
			i = j - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String(), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

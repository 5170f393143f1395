package match

import (
	"fmt"
	"github.com/hookcore/hookcore/internal/shbound"
	"math/bits"
	"strings"
)

// A names clause (`args.command names ".env"`) holds when the field's text, read as bash
// words, has a word that may become NAME once bash, or curl or wget, has expanded it. It
// is the fail-closed test of a guard that must see a file's name however a command line
// spells it, and is written as an automaton rather than a regex so that one rule covers
// every spelling: a word is a tree of items (written bytes, expansions standing for any
// text, globs standing for file-name text, brace alternatives), and a small automaton that
// recognises NAME between boundaries is run over the tree, alternatives by union of its
// state sets, so the work stays linear in the text however many words the braces make.
//
// How a word is read (the text is not parsed as a command line: a quoted string may be
// code for sh -c, so quotes are transparent):
//   - words are split at white space outside $'...'; quotes and backslashes are dropped
//     (a backslash-newline too), so .e”nv, ".e"nv, .e\nv spell .env;
//   - brace expansion is done as bash does it, nested, {a,b} and {a..z} (a letter range is
//     each of its bytes, a number range any run of digits and -); a {x} with no comma is
//     also read as x, as curl expands it in a URL; a { or } without its pair stands for any
//     text;
//   - any text: $name, $1, $@ and the other special parameters, ${...} (also its two ends,
//     as what is between them may be dropped or replaced), $(...), $((...)), $[...],
//     `...`, ( and ), an extglob group @( !( *( ?( +(, $'...' with a numeric escape
//     (\0 \x \u \U \c), curl's output name template #1 (-o '.en#1'), and a URL's %XX
//     (wget saves http://h/%2eenv as .env);
//   - a glob * stands for any text without a slash, ? and [...] for one such byte; a glob
//     that starts a path component cannot give it a leading dot (dotglob and GLOBIGNORE
//     are a guard's own names to refuse), and glob text gives no word boundary.
//
// The word may become NAME when some expansion of it holds NAME (any case) preceded by the
// word's start or a byte that is not a letter, digit, _ or . and followed by the word's end
// or a byte that is not a letter, digit or _ (a slash after it names a directory, not the
// file; NAME followed by . or - and more name bytes is NAME.*), and when enough of NAME is
// written in the word: one byte of its stem (NAME up to its last dot, or all of it when
// that dot is the first byte), or four when the stem is longer than four bytes. The count
// keeps a word that only touches a long name (-n$x, p*, *.json) from matching, and lets
// .* and ${x}v match .env, since a glob can not supply a leading dot.
//
// What the line assigns (lineFacts, names_line.go): an expansion of a variable the line sets
// to a written value is a choice between any text and what those values give (whole, joined,
// split at IFS, trimmed to any part, with bytes replaced), whose written bytes count as
// written; on a line that decodes text into a variable (printf -v, ${x@P}, ${x@E}, ${!x},
// declare -n, read or mapfile with a here-string), in an option word of shopt or set, in a
// BASHOPTS value and in a $"..." string on a line that names TEXTDOMAIN, an expansion may
// be the whole name, none of it written; a line whose alias value ends in a backslash, or
// that may turn history expansion on and has a ! or ^ after it, holds for every name.
type nameSpec struct {
	name string // lower case
	// dir is set for a directory's name, written with a trailing slash (`names ".claude/"`):
	// the name followed by a slash matches too, as a component of a longer path
	// (`~/.mini''code/config.yaml`, red team round 52).
	dir bool
	// spelledOut is set for a file's name written after */ (`names "*/settings.json"`): an
	// occurrence alone or after a written relative directory does not count (names_dir.go).
	spelledOut bool
	stem       int    // bytes of name that count as written
	need       int    // written stem bytes needed
	reps       []byte // one byte of each class the automaton tells apart
	n          int    // number of states
	// The states an item of each kind leads to from each state, computed once: any text
	// (itAny), a * glob, a ? glob, a number range.
	anyText, globMany, globOne, digits []stateSet
	// anyWritten: any text whose bytes count as written, for an expansion that may hold
	// the whole name (lineFacts.waive, itAny.hidden).
	anyWritten []stateSet
}

// maxNameLen bounds a names value, which sizes the automaton.
const maxNameLen = 64

// compileName returns the spec of a names value.
func compileName(v string) (*nameSpec, error) {
	if v == "" || len(v) > maxNameLen {
		return nil, fmt.Errorf("names takes a file name of 1 to %d bytes", maxNameLen)
	}
	spelledOut := strings.HasPrefix(v, "*/") && len(v) > 2
	if spelledOut {
		v = v[2:]
	}
	dir := len(v) > 1 && strings.HasSuffix(v, "/")
	if spelledOut && dir {
		return nil, fmt.Errorf("names takes */ before a file's name, not a directory's: %q", "*/"+v)
	}
	v = strings.TrimSuffix(v, "/")
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c >= 0x7f || c == '/' {
			return nil, fmt.Errorf("names takes one file name of printable ASCII without spaces or slashes (a directory's with one slash at its end), not %q", v)
		}
	}
	ns := &nameSpec{name: strings.ToLower(v), dir: dir, spelledOut: spelledOut}
	ns.stem = len(v)
	if i := strings.LastIndexByte(v, '.'); i > 0 {
		ns.stem = i
	}
	ns.need = 1
	if ns.stem > 4 {
		ns.need = 4
	}
	ns.n = stM + (len(v)-1)*(ns.need+1)
	seen := map[byte]bool{}
	add := func(c byte) {
		if !seen[c] {
			seen[c] = true
			ns.reps = append(ns.reps, c)
		}
	}
	for i := 0; i < len(ns.name); i++ {
		add(ns.name[i])
	}
	add('.')
	add('/')
	add('-')
	for _, c := range []byte("qzxj_0") { // a word byte not in the name
		if !seen[c] {
			add(c)
			break
		}
	}
	for _, c := range []byte(" ;,:") { // a byte that ends a name
		if !seen[c] {
			add(c)
			break
		}
	}
	for st := 0; st < ns.n; st++ {
		in := single(st)
		ns.anyText = append(ns.anyText, ns.closure(in, srcAny, func(byte) bool { return true }))
		ns.anyWritten = append(ns.anyWritten, ns.closure(in, srcLit, func(byte) bool { return true }))
		ns.globMany = append(ns.globMany, ns.glob(in, true))
		ns.globOne = append(ns.globOne, ns.glob(in, false))
		ns.digits = append(ns.digits, ns.closure(in, srcSeq, func(c byte) bool { return c == '-' || isDigit(c) }))
	}
	return ns, nil
}

// In reports whether some word of text may become the name (see nameSpec). A text longer
// than shbound.MaxLen (256 KiB, the length past which a Bash command is not parsed and
// matches every Bash rule) holds without being read: the analysis's memory grows with the
// text (about 200 bytes a byte), and a guard must not be switched off by a process killed
// for its memory (new-user trial, stop 21: a 10 MB command took 2 GB). With cwdUnknown
// (Subject.WithCwdUnknown) a `*/NAME` value counts every occurrence: a relative name is a
// file of a directory no one knows (red team round 60).
func (ns *nameSpec) in(text string, cwdUnknown bool) bool {
	if len(text) > shbound.MaxLen {
		return true
	}
	if ns.spelledOut && !cwdUnknown {
		text, _ = blankSpelledOut(text, ns.name)
	}
	lf := scanLine(text)
	if lf.join || lf.history || lf.over {
		return true
	}
	r := runner{ns: ns, waive: lf.waive, left: workBudget(text)}
	var cmd cmdState
	found := false
	eachWord(text, lf, func(wd *word) bool {
		name, first := cmd.word(wd)
		w := wd.items
		if !first && (name == cmdShopt || name == cmdSet) || optionValue(w) {
			hide(w)
		}
		if wd.braces {
			w = parseBraces(w)
		}
		set := r.run(w, single(stStart))
		found = set.has(stAcc) || set.has(stEnd) || set.has(stTail)
		return !found
	})
	return found || lf.over
}

// runner runs the automaton over the words of one line.
type runner struct {
	ns    *nameSpec
	waive bool // any expansion may hold the whole name (lineFacts.waive)
	left  int  // items it may still visit; past them the word matches (fail closed)
}

// The automaton's states: before the name (at a path component's start, after a boundary,
// or not), the name matched and a boundary seen (acc, absorbing), the whole name matched
// (end), the name followed by . or - and name bytes (tail), and inside the name: state
// stM + (i-1)*(need+1) + w has matched i bytes of it, w of them written stem bytes
// (counted up to need).
const (
	stStart = iota // before the name, at the start of a path component
	stB            // before the name, after a byte that may precede it
	stNB           // before the name, after a byte that may not
	stAcc
	stEnd
	stTail
	stM
)

// src is where a byte of an expanded word comes from.
type src uint8

const (
	srcLit  src = iota // written in the word
	srcSeq             // made by a {a..z} range
	srcAny             // produced by an expansion
	srcGlob            // matched by a glob
)

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// step adds to out the states reached from state st by byte c from s. first is set for
// the first byte of a glob's text.
func (ns *nameSpec) step(out *stateSet, st int, c byte, s src, first bool) {
	c = lower(c)
	k := len(ns.name)
	switch {
	case st == stAcc:
		out.add(stAcc)
	case st <= stNB:
		switch {
		case s == srcGlob:
			out.add(stNB)
		case c == '/':
			out.add(stStart)
		case isWordByte(c) || c == '.':
			out.add(stNB)
		default:
			out.add(stB)
		}
		canStart := st == stStart || st == stB
		if s == srcGlob {
			canStart = st == stStart && first && c != '.'
		}
		if canStart && c == ns.name[0] {
			ns.advance(out, 0, 0, s)
		}
	case st == stEnd:
		switch {
		case c == '/' && ns.dir && s != srcGlob:
			out.add(stAcc)
		case isWordByte(c) || c == '/':
		case c == '.' || c == '-':
			out.add(stTail)
		case s != srcGlob:
			out.add(stAcc)
		}
	case st == stTail:
		switch {
		case c == '/':
		case isWordByte(c) || c == '.' || c == '-' || s == srcGlob:
			out.add(stTail)
		default:
			out.add(stAcc)
		}
	default:
		i, w := (st-stM)/(ns.need+1)+1, (st-stM)%(ns.need+1)
		if i < k && c == ns.name[i] {
			ns.advance(out, i, w, s)
		}
	}
}

// advance adds the state after byte i of the name, w written stem bytes before it.
func (ns *nameSpec) advance(out *stateSet, i, w int, s src) {
	if s == srcLit && i < ns.stem && w < ns.need {
		w++
	}
	if i+1 < len(ns.name) {
		out.add(stM + i*(ns.need+1) + w)
	} else if w >= ns.need {
		out.add(stEnd)
	}
}

// run returns the states reached from in over the items of a word.
func (r *runner) run(items []item, in stateSet) stateSet {
	ns := r.ns
	cur := in
	for i := range items {
		it := &items[i]
		if cur.has(stAcc) || cur.empty() {
			return cur
		}
		if r.left--; r.left < 0 {
			return single(stAcc)
		}
		var next stateSet
		switch it.kind {
		case itLit:
			cur.each(func(st int) { ns.step(&next, st, it.c, srcLit, false) })
		case itRange:
			for c := it.lo; ; c++ {
				cur.each(func(st int) { ns.step(&next, st, c, srcSeq, false) })
				if c == it.hi {
					break
				}
			}
		case itChoice:
			for _, alt := range it.alts {
				out := r.run(alt, cur)
				next.union(&out)
			}
		case itSub:
			next = cur
			r.sub(it.alts[0], cur, cur, &next)
		case itSet:
			cur.each(func(st int) {
				out := r.setStep(it.set, st)
				next.union(&out)
			})
		case itBreak:
			if cur.has(stEnd) || cur.has(stTail) {
				next.add(stAcc)
			}
			next.add(stStart)
		default:
			table := ns.anyText
			switch it.kind {
			case itAny:
				if r.waive || it.hidden {
					table = ns.anyWritten
				}
			case itGlob:
				table = ns.globMany
			case itGlob1:
				table = ns.globOne
			case itDigits:
				table = ns.digits
			}
			cur.each(func(st int) { next.union(&table[st]) })
		}
		cur = next
	}
	return cur
}

// sub runs items as text any part of which may be taken (itSub): the part may start before
// any item, nested choices included (start is added there), and end after any (every state
// reached is added to acc). It returns the states after the last item.
func (r *runner) sub(items []item, in, start stateSet, acc *stateSet) stateSet {
	t := in
	for j := range items {
		if it := &items[j]; it.kind == itChoice {
			var next stateSet
			for _, alt := range it.alts {
				out := r.sub(alt, t, start, acc)
				next.union(&out)
			}
			t = next
		} else {
			t = r.run(items[j:j+1], t)
		}
		t.union(&start)
		acc.union(&t)
	}
	return t
}

// closure returns the states reached from in by any text of bytes allowed from s, the
// empty text included.
func (ns *nameSpec) closure(in stateSet, s src, allowed func(byte) bool) stateSet {
	out, frontier := in, in
	for !frontier.empty() {
		var next stateSet
		frontier.each(func(st int) {
			for _, c := range ns.reps {
				if allowed(c) {
					ns.step(&next, st, c, s, false)
				}
			}
		})
		frontier = next.minus(&out)
		out.union(&next)
	}
	return out
}

// glob returns the states reached from in by a glob's text: any text without a slash
// (many) or one such byte.
func (ns *nameSpec) glob(in stateSet, many bool) stateSet {
	var first stateSet
	in.each(func(st int) {
		for _, c := range ns.reps {
			if c != '/' {
				ns.step(&first, st, c, srcGlob, true)
			}
		}
	})
	if !many {
		return first
	}
	out := first
	// No text at all: a glob that starts a path component still keeps its start.
	in.each(func(st int) {
		if st == stStart {
			st = stNB
		}
		out.add(st)
	})
	frontier := first
	for !frontier.empty() {
		var next stateSet
		frontier.each(func(st int) {
			for _, c := range ns.reps {
				if c != '/' {
					ns.step(&next, st, c, srcGlob, false)
				}
			}
		})
		frontier = next.minus(&out)
		out.union(&next)
	}
	return out
}

// stateSet is a set of automaton states, a bit set (maxStates bits).
type stateSet [(maxStates + 63) / 64]uint64

// maxStates bounds the automaton: stM states and need+1 for each byte of the name but its
// last.
const maxStates = stM + (maxNameLen-1)*5

func single(st int) stateSet {
	var s stateSet
	s.add(st)
	return s
}

func (s *stateSet) add(st int)      { s[st/64] |= 1 << (st % 64) }
func (s *stateSet) has(st int) bool { return s[st/64]&(1<<(st%64)) != 0 }
func (s *stateSet) empty() bool     { return *s == stateSet{} }

func (s *stateSet) union(t *stateSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

func (s *stateSet) minus(t *stateSet) stateSet {
	out := *s
	for i := range out {
		out[i] &^= t[i]
	}
	return out
}

func (s *stateSet) each(f func(int)) {
	for i, w := range s {
		for ; w != 0; w &= w - 1 {
			f(i*64 + bits.TrailingZeros64(w))
		}
	}
}

package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion is static: bash turns {-exec,rm} into the two words -exec and rm before
// it runs the command, so the analysis expands it too, before any program's options are
// read (red team 4, findings 1 to 3: find . {-exec,rm} -rf x \; ran rm, and so did
// git {-c,'alias.x=!rm -rf x',x} and sort {--compress-program=sh,-}). The words of a
// simple command (and of an echo or printf before a pipe, of an alias value and of a for
// loop's items) are split into brace expansions by mvdan.cc/sh's syntax.SplitBraces and
// expanded by expand.BracesSeq, lazily; past maxBraceFields words made by brace expansion
// in one command, or maxBraceLine in the whole line, the line is not analysed (Opaque):
// every deny rule matches and no allow rule permits it. An expanded word is rendered like any other: it is static unless it holds
// another expansion ($x, a glob), and it is never an alias name (bash expands aliases
// before braces). Allow rules see the expanded words too: they are what the command runs.
// A script that may turn brace expansion off (set +B, set +o braceexpand: braceOff) is
// rendered as written, its braces words of unknown value, so that an allow rule never
// permits words bash would not make.

// maxBraceFields bounds the words that brace expansion makes in one simple command
// ({1..1024} makes 1024); more makes the line Opaque.
const maxBraceFields = 1024

// maxBraceLine bounds the words that brace expansion makes in one line, nested scripts
// and alias values included (each costs about half a microsecond to make and read).
const maxBraceLine = 4 * maxBraceFields

// braces tells whether a script leaves brace expansion on (braceOff), found out once and
// only for a script with a word that holds a '{'.
type braces struct {
	script     string
	known, off bool
	line       *int // the words brace expansion made in the line so far (maxBraceLine)
}

func (m *braces) on() bool {
	if !m.known {
		m.off, m.known = braceOff(m.script), true
	}
	return !m.off
}

// renderArgs renders the words of one simple command from src (the script m tells of),
// each brace expansion expanded (see above); false when brace expansion makes more than
// maxBraceFields words, or the line more than maxBraceLine.
func renderArgs(args []*syntax.Word, src string, m *braces) ([]word, bool) {
	out := make([]word, 0, len(args))
	fields := 0
	for _, w := range args {
		if !slices.ContainsFunc(w.Parts, hasBrace) || !m.on() {
			out = append(out, renderWord(w, src))
			continue
		}
		braced := &syntax.Word{Parts: slices.Clone(w.Parts)}
		if !syntax.SplitBraces(braced) || !slices.ContainsFunc(braced.Parts, isBraceExp) {
			out = append(out, renderWord(w, src))
			continue
		}
		before := fields
		var ok bool
		if out, fields, ok = appendBraces(out, braced, src, fields); !ok {
			return nil, false
		}
		if *m.line += fields - before; *m.line > maxBraceLine {
			return nil, false
		}
	}
	return out, true
}

// appendBraces appends to out the words brace expansion makes of w (a word split by
// syntax.SplitBraces) and adds their number to fields; false past maxBraceFields. It is
// apart from renderArgs so that the variables its loop captures are not moved to the heap
// for the words without braces.
func appendBraces(out []word, w *syntax.Word, src string, fields int) ([]word, int, bool) {
	for e, err := range expand.BracesSeq(nil, w) {
		fields++
		if err != nil || fields > maxBraceFields {
			return nil, fields, false
		}
		r := renderWord(e, src)
		r.plain = false
		out = append(out, r)
	}
	return out, fields, true
}

// braceOff reports whether script may turn brace expansion off: it names braceexpand or
// has a word like +B or +euB (set +B). Its words are then rendered as written, and a brace
// expansion in them is a word of unknown value.
func braceOff(script string) bool {
	if strings.Contains(script, "braceexpand") {
		return true
	}
	for i := 0; i < len(script); i++ {
		if script[i] != '+' {
			continue
		}
		for j := i + 1; j < len(script) && isLetter(script[j]); j++ {
			if script[j] == 'B' {
				return true
			}
		}
	}
	return false
}

func hasBrace(p syntax.WordPart) bool {
	l, ok := p.(*syntax.Lit)
	return ok && strings.IndexByte(l.Value, '{') >= 0
}

func isBraceExp(p syntax.WordPart) bool {
	_, ok := p.(*syntax.BraceExp)
	return ok
}

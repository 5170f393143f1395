package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the expansions of bash (and zsh) that re-read text in ways the parse
// does not model (red team, round 5; docs/decisions.md, "Red team round 5: expansion
// semantics"). Each is settled for the whole line, as the evaluating contexts are
// (basheval.go): the analysis records that the line may turn the expansion on and that it
// holds what the expansion would act on, and a line with both matches every rule.
//
//   - History expansion (!!, !$:s/X//, ^a^b, !#): once `set -o history -H` (or set -H, -o
//     histexpand, shopt -o, bash -H, SHELLOPTS, ...) is on, bash rewrites each later line
//     it reads before parsing it, so the commands it runs are not the ones written.
//   - Locale strings $"...": bash translates them through the message catalog that
//     TEXTDOMAIN and TEXTDOMAINDIR name, which a repository can ship, and expands the
//     translation as a double-quoted string ($(...) in it runs). The word is a hole
//     (renderWord); a line that may set either variable makes every $"..." code.
//   - Here-document delimiters: bash ends the body at the delimiter after quote removal
//     ("E\\" ends at E\, $'E\x41' at EA), mvdan.cc/sh at a delimiter it unquotes
//     differently; a delimiter whose two readings may differ makes the line opaque. Under
//     an unquoted delimiter bash also joins the body's backslash-newlines before it
//     compares a line (round 6); a body bash would end at another line is opaque too
//     (hdocEndAgrees). Inside a substitution bash also ends it at a line that starts
//     with the delimiter, "EOF)" (round 7); such a body is opaque too.

// expandState is what the line holds of the expansions above.
type expandState struct {
	histOn     bool // a command may turn history expansion on
	histChar   bool // a script text holds '!' or '^', or names histchars
	textDomain bool // a script text names TEXTDOMAIN or TEXTDOMAINDIR
	locale     bool // a word is a $"..." locale string
}

// scanText records what script, a text the analysis reads as a script, holds of the
// expansions above.
func (b *Commands) scanText(script string) {
	x := &b.expand
	if strings.ContainsAny(script, "!^") || strings.Contains(script, "histchars") {
		x.histChar = true
	}
	if strings.Contains(script, "TEXTDOMAIN") {
		x.textDomain = true
	}
	if strings.Contains(script, "SHELLOPTS") {
		x.histOn = true // an exported SHELLOPTS turns histexpand on in the shells it starts
	}
}

// settleExpand applies the line-level rules of the expansions above: history expansion
// that may be on in a line with '!' or '^', and a $"..." string in a line that may name
// the catalog, make it opaque.
func (b *Commands) settleExpand() {
	x := &b.expand
	if x.histOn && x.histChar || x.locale && (x.textDomain || b.anyBound) {
		b.all = true
	}
}

// histOption reports whether opt, an option name given to set -o, shopt -o or a shell's
// -o, may turn history expansion on: histexpand, history, or a name not known.
func histOption(opt word) bool {
	return !opt.static || opt.text == "histexpand" || opt.text == "history"
}

// setHist records a `set` or `shopt` command's arguments that may turn history expansion
// on: -H in a group of short options, -o histexpand or -o history, a word not known.
// shopt's option names are those of set -o under -o; any of the two is taken as on.
func (b *Commands) setHist(args []word) {
	for _, a := range args {
		t := a.text
		switch {
		case !a.static || histOption(a):
			b.expand.histOn = true
		case len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' && strings.ContainsRune(t, 'H'):
			b.expand.histOn = true
		}
	}
}

// hdocAgrees reports whether bash and mvdan.cc/sh end the body of a here-document at the
// same line: both remove quotes from the delimiter word, but mvdan.cc/sh keeps the
// backslashes inside double quotes, does not decode $'...' and drops expansions, where
// bash removes the backslash before \ $ ` " in double quotes, decodes $'E\x41' to EA and
// keeps $x as written. The shapes both read alike are unquoted text (its backslashes
// escape the byte after them, except a backslash-newline), '...' and $'...' without a
// backslash, and "..." of text without a backslash (neither with a newline, which no line
// can end); any other delimiter makes the line opaque.
func hdocAgrees(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\\n") || strings.HasSuffix(p.Value, "\\") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.ContainsRune(p.Value, '\\') || strings.ContainsRune(p.Value, '\n') {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar { // $"E": translated
				return false
			}
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); !ok || strings.ContainsAny(l.Value, "\\\n") {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// hdocEndAgrees reports whether bash ends the body of r, a here-document whose delimiter
// hdocAgrees accepts, at the line where mvdan.cc/sh ended it in script (red team, round 6,
// finding 1). Under an unquoted delimiter bash removes each backslash-newline from the
// body as it reads it and compares the joined line with the delimiter (<<- strips the
// joined line's leading tabs), so "EO\\" and "F" end a body at "EOF" that the parser
// reads on past; under a quoted one it compares each line as written. The body is read
// again here as bash reads it: the answer is true only when the first line equal to the
// delimiter is the parser's last line, and starts a line of its own. A body whose span in
// script is not the expected shape gives false.
//
// Inside a command or process substitution (subst: $(...), <(...), `...`) bash 5.2 also
// ends the body at a line that starts with the delimiter and goes on ("EOF)" ends the
// body and closes the substitution; red team, round 7, finding 1), where mvdan.cc/sh
// reads on; such a line anywhere in the body gives false.
func hdocEndAgrees(r *syntax.Redirect, script string, subst bool) bool {
	if r.Hdoc == nil {
		return true // no body line: both end at the line after the command
	}
	start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if start <= 0 || end > len(script) || start > end || script[start-1] != '\n' {
		return false
	}
	span := script[start:end]
	last := strings.LastIndexByte(span, '\n') + 1 // the parser's delimiter line
	delim := span[last:]
	dash := r.Op == syntax.DashHdoc
	if dash {
		delim = strings.TrimLeft(delim, "\t")
	}
	join := unquotedDelim(r.Word)
	for i := 0; i <= len(span); {
		lineStart := i
		var logical strings.Builder
		for {
			j := strings.IndexByte(span[i:], '\n')
			if j < 0 {
				j = len(span) - i
			}
			line := span[i : i+j]
			i += j + 1
			if join && trailingBackslashes(line)%2 == 1 && i <= len(span) {
				logical.WriteString(line[:len(line)-1])
				continue
			}
			logical.WriteString(line)
			break
		}
		l := logical.String()
		if dash {
			l = strings.TrimLeft(l, "\t")
		}
		if l == delim {
			return lineStart == last && i > len(span)
		}
		if subst && strings.HasPrefix(l, delim) {
			return false // bash may end the body here (red team, round 7)
		}
	}
	return false
}

// unquotedDelim reports whether w, a here-document's delimiter, is unquoted for bash: no
// quote and no backslash in it, so that bash joins the body's backslash-newlines.
func unquotedDelim(w *syntax.Word) bool {
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || strings.ContainsRune(l.Value, '\\') {
			return false
		}
	}
	return true
}

// trailingBackslashes counts the backslashes at the end of line.
func trailingBackslashes(line string) int {
	return len(line) - len(strings.TrimRight(line, "\\"))
}

// aliasStandsAlone reports whether value, an alias's value, is read by bash as the text
// alone: a value that ends in a backslash joins the line after the alias's use (alias
// x='r\' then x and a line "m -rf d" runs rm -rf d), and one that does not parse (an open
// quote, a here-document without its body) reads on into the lines after it.
func aliasStandsAlone(value string) bool {
	if strings.HasSuffix(value, "\\") {
		return false
	}
	f, ok := parse(value)
	if !ok {
		return false
	}
	alone := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			alone = false
		}
		return alone
	})
	return alone
}

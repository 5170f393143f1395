package shell

import (
	"strings"

	"github.com/hookcore/hookcore/internal/shbound"
)

// This file is the fast path of the analysis: a line that is only plain words separated by
// spaces and the operators &&, ||, ; and | is split here, without mvdan.cc/sh, into the
// same simple commands the parser's tree gives, and each goes through the same addCall. Any
// other byte, and any shape the parser treats specially (a reserved word or declaration
// builtin in command position, an assignment, an empty command, a very long list) sends
// the line to the parser. The answer is the parser's answer (TestFastLineEqualsParser
// compares the two on a generated corpus; FuzzFastLine keeps looking).

// maxFastCommands bounds the simple commands of a line split by the fast path. The
// parser's tree of a long && list is as deep as the list is long, and past maxWalkDepth the
// slow path matches every rule; far below that bound the fast path can not differ.
const maxFastCommands = 64

// noFastLine turns the fast path off (tests and benchmarks compare the two).
var noFastLine = false

// plainByte reports whether c is a byte of a plain word: letters, digits and - _ . / , : + =.
// None of them is special to bash inside a word, or starts a word the parser reads
// differently ('#' a comment, '~' a tilde expansion, '{' a brace expansion, '!' history
// and negation, glob and extglob bytes, quotes, '$', '\', '`').
func plainByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '-', '_', '.', '/', ',', ':', '+', '=':
		return true
	}
	return false
}

// commandWords are the words the parser reads as something else than a simple command
// when they come first (reserved words, declaration builtins, let; mvdan.cc/sh
// gotStmtPipe and isBashCompoundCommand), compared without case to be safe.
var commandWords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
	"while", "until", "do", "done", "in", "function", "time", "coproc", "let", "declare", "local",
	"export", "readonly", "typeset", "nameref"}

// collectPlain analyses script by the fast path and reports true, or reports false and
// leaves b unchanged when script is not a plain line.
func (b *Commands) collectPlain(script string, depth int) bool {
	if noFastLine || len(script) == 0 || shbound.Check(script) != nil {
		return false
	}
	var wbuf [32]word
	words := wbuf[:0]
	var ebuf [8]int
	ends := ebuf[:0] // the end of each simple command's words in words
	var pipes uint64 // bit k: command k writes into a pipe (maxFastCommands ≤ 64)
	start := 0       // the first word of the command being read
	for i := 0; i < len(script); {
		c := script[i]
		switch {
		case c == ' ':
			i++
		case plainByte(c):
			j := i + 1
			for j < len(script) && plainByte(script[j]) {
				j++
			}
			w := script[i:j]
			if len(words) == start && !commandWord(w) {
				return false
			}
			words = append(words, word{text: w, static: true, plain: true})
			i = j
		case c == ';' || c == '|' || c == '&':
			op := 1
			if c != ';' && i+1 < len(script) && script[i+1] == c {
				op = 2 // && or ||
			} else if c == '&' {
				return false // background, or &> and friends
			}
			if len(words) == start || len(ends) == maxFastCommands {
				return false // an empty command: ";;", "| |", a leading operator
			}
			if c == '|' && op == 1 {
				pipes |= 1 << len(ends)
			}
			ends = append(ends, len(words))
			start = len(words)
			i += op
			if c == ';' && op == 1 {
				continue
			}
			// && || | must be followed by a command.
			rest := strings.TrimLeft(script[i:], " ")
			if rest == "" {
				return false
			}
		default:
			return false
		}
	}
	if len(words) > start {
		if len(ends) == maxFastCommands {
			return false
		}
		ends = append(ends, len(words))
	}
	if len(ends) == 0 {
		return false // only spaces
	}
	if b.all {
		return true // the parser's walk would stop at its first node
	}
	// One allocation each for the texts and units of a first analysis, instead of a growing
	// slice; left nil, as the parser's analysis leaves them, when nothing was added.
	fresh := b.texts == nil && b.units == nil
	if fresh {
		b.texts = make([]string, 0, len(ends))
		b.units = make([]string, 0, len(ends))
	}
	from, prev := 0, 0   // the first words of this command and of the one before
	var feeds [][]string // the words of the commands of this pipeline before this one (bashfed.go)
	for k, end := range ends {
		c := ctx{depth: depth}
		if k > 0 && pipes&(1<<(k-1)) != 0 { // the output of echo or printf (pipeOutput)
			if w := words[prev].text; w == "echo" || w == "printf" {
				c.in = outputOf(words[prev:from])
			}
			p := make([]string, 0, from-prev)
			for _, w := range words[prev:from] {
				p = append(p, w.text)
			}
			feeds = append(feeds[:len(feeds):len(feeds)], p)
			c.feed = &feed{words: feeds}
		} else {
			feeds = nil
		}
		prev = from
		b.addCall(words[from:end:end], c)
		if b.all {
			break
		}
		from = end
	}
	if fresh && len(b.texts) == 0 {
		b.texts = nil
	}
	if fresh && len(b.units) == 0 {
		b.units = nil
	}
	return true
}

// commandWord reports whether w may start a simple command in the fast path: not a word the
// parser reads as a keyword or declaration, and not an assignment (which needs a '=').
func commandWord(w string) bool {
	if strings.IndexByte(w, '=') >= 0 {
		return false
	}
	for _, k := range commandWords {
		if strings.EqualFold(w, k) {
			return false
		}
	}
	return true
}

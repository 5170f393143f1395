// Package shbound bounds the shell source handed to the recursive-descent parser of
// mvdan.cc/sh/v3/syntax.
//
// That parser recurses once per nesting level: every ( { [ $( ${ $[ <( backquote, every
// if/elif/while/until/for/select/case/time/coproc/function, and every && || ! inside [[ ]],
// costs it about 2 to 7 KB of goroutine stack and some heap. 200 000 nested parentheses
// (400 KB of text) exhaust Go's 1 GB stack limit, which is a fatal error that no recover
// catches, so a model that writes such a Bash command would take down the whole agent.
// Check refuses, before parsing, any source that could nest that deep: callers treat a
// refused source as one that does not parse.
//
// The check is a single pass over the bytes with no lexing at all (quotes, comments and
// heredoc bodies are counted like code), so it can not be misled by quoting; the price is
// that it over-estimates: it counts every nesting token, not the depth.
package shbound

import (
	"errors"
	"strings"
)

// MaxLen is the longest source Check accepts, in bytes (256 KiB). A Bash tool call that
// writes a file through a heredoc stays far below it.
const MaxLen = 256 << 10

// MaxNesting is the most nesting tokens Check accepts (see Nesting). Parsing that many
// nested levels takes at most about 7 MB of stack; real commands, even ones that write a
// few hundred lines of code through a heredoc, hold fewer.
const MaxNesting = 1000

// ErrTooLong is returned by Check for a source longer than MaxLen.
var ErrTooLong = errors.New("shell source too long to parse")

// ErrTooNested is returned by Check for a source with more than MaxNesting nesting tokens.
var ErrTooNested = errors.New("shell source nested too deeply to parse")

// Check returns nil when src may be given to the mvdan.cc/sh parser: it is at most MaxLen
// bytes long and Nesting(src) is at most MaxNesting. Otherwise it returns ErrTooLong or
// ErrTooNested.
func Check(src string) error {
	if len(src) > MaxLen {
		return ErrTooLong
	}
	if Nesting(src) > MaxNesting {
		return ErrTooNested
	}
	return nil
}

// keywords are the reserved words after which the parser recurses into a nested command.
var keywords = []string{"if", "elif", "while", "until", "for", "select", "case", "time", "coproc", "function"}

// Nesting returns an upper bound of the nesting depth the mvdan.cc/sh parser reaches on
// src: the number of bytes ( { [ and `, plus the number of words (runs of letters, digits
// and '_') that are one of the keywords, plus, when src holds "[[", the number of &&, ||
// and !. Line continuations (backslash newline) are removed first, as the shell does, so
// that they can not split a keyword or a "[[". Quoting is ignored: a quoted "(" counts.
func Nesting(src string) int {
	if strings.Contains(src, "\\\n") {
		src = strings.ReplaceAll(src, "\\\n", "")
	}
	n := 0
	test := strings.Contains(src, "[[")
	word := -1 // start of the current word, or -1
	for i := 0; i <= len(src); i++ {
		var c byte
		if i < len(src) {
			c = src[i]
		}
		if isWordByte(c) {
			if word < 0 {
				word = i
			}
			continue
		}
		if word >= 0 {
			if isKeyword(src[word:i]) {
				n++
			}
			word = -1
		}
		switch c {
		case '(', '{', '[', '`':
			n++
		case '!':
			if test {
				n++
			}
		case '&', '|':
			if test && i+1 < len(src) && src[i+1] == c {
				n++
				i++
			}
		}
	}
	return n
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isKeyword(w string) bool {
	if len(w) < 2 || len(w) > 8 {
		return false
	}
	for _, k := range keywords {
		if w == k {
			return true
		}
	}
	return false
}

package config

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/internal/text"
)

// Problem is one finding about a config file: an error, or a warning when Warning is set.
// HookID names the hook (its id or generated id) and is empty for file-level problems.
type Problem struct {
	Pos     Pos
	HookID  string
	Msg     string
	Warning bool
}

// Error returns "file:line:col: hook-id: message", with "warning: " before the message of a
// warning and no hook-id part when HookID is empty (DESIGN.md section 9).
func (p *Problem) Error() string {
	var b strings.Builder
	// The file's name, the hook's id and the message can be a repository's text: control
	// and format characters are shown as escapes, so that a file named with an escape
	// sequence cannot hide the lines a user reads before trust grant (red team round 34).
	b.WriteString(text.Printable(p.Pos.String()))
	b.WriteString(": ")
	if p.HookID != "" {
		b.WriteString(text.Printable(p.HookID))
		b.WriteString(": ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(text.PrintableLines(p.Msg))
	return b.String()
}

// ErrorList is a list of problems, as go/scanner.ErrorList: all are reported at once.
type ErrorList []*Problem

// Sort orders the list by file, line and column; problems at one position keep their order.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Problem) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
		)
	})
}

// Error returns every problem, one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, p := range l {
		s[i] = p.Error()
	}
	return strings.Join(s, "\n")
}

// Err returns the list as an error when it holds at least one error (not a warning), and nil
// otherwise.
func (l ErrorList) Err() error {
	if l.Errors() == 0 {
		return nil
	}
	return l
}

// Errors returns the number of errors (problems that are not warnings).
func (l ErrorList) Errors() int {
	n := 0
	for _, p := range l {
		if !p.Warning {
			n++
		}
	}
	return n
}

// Warnings returns the number of warnings.
func (l ErrorList) Warnings() int { return len(l) - l.Errors() }

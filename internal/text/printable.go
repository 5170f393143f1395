package text

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable makes s safe to print on a terminal in one line: tabs and line breaks become
// spaces, and every other control character (C0, DEL, C1: escape sequences, bell, NUL) and
// every invisible format character (bidirectional overrides, zero-width characters) is
// shown as an escape such as \x1b or \u202e. A recorded session is untrusted text: an
// escape sequence in a tool input must not repaint the table a user reads.
func Printable(s string) string {
	return printable(s, false)
}

// PrintableLines is Printable that keeps line breaks and tabs, and also shows a byte that
// is not UTF-8 as an escape (\xff): for the lines of a program's output quoted in a
// message, such as a failed guard's stderr in the reason that blocks a call. That stderr
// can echo the model's tool input, and the reason reaches the agent's terminal (a UTF-16
// traceback's NUL bytes, an escape sequence).
func PrintableLines(s string) string {
	return printable(s, true)
}

func printable(s string, lines bool) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) && !(lines && (r == '\n' || r == '\t')) || unicode.Is(unicode.Cf, r) || lines && r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\t' || r == '\n' || r == '\r' && !lines:
			b.WriteByte(' ')
		case r < 0x100 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case lines && r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

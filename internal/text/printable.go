package text

import (
	"fmt"
	"strings"
	"unicode"
)

// Printable makes s safe to print on a terminal in one line: tabs and line breaks become
// spaces, and every other control character (C0, DEL, C1: escape sequences, bell, NUL) and
// every invisible format character (bidirectional overrides, zero-width characters) is
// shown as an escape such as \x1b or \u202e. A recorded session is untrusted text: an
// escape sequence in a tool input must not repaint the table a user reads.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r < 0x100 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

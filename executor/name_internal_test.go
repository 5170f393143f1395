package executor

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCommandNameCutsOnARune: a hook without an id is named in messages by its command cut
// to 60 characters, never inside a multi-byte rune (regression: the cut was at byte 57, and
// a command in Chinese came out with a \xe6 escape in the quoted name).
func TestCommandNameCutsOnARune(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ command, want string }{
		{"echo " + strings.Repeat("日", 60), "echo " + strings.Repeat("日", 52) + "..."},
		{"echo " + strings.Repeat("日", 55), "echo " + strings.Repeat("日", 55)},
		{"echo short", "echo short"},
	} {
		got, err := strconv.Unquote((&Command{Command: tt.command}).name())
		if err != nil || !utf8.ValidString(got) || got != tt.want {
			t.Errorf("name of %q = %q (%v), want %q", tt.command, got, err, tt.want)
		}
	}
}

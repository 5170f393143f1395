//go:build !hookcore_lean

package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipCutsOnARune: the transcript of hookcore run cuts a tool result at 600 characters
// without splitting a multi-byte rune (regression: it cut at 600 bytes, and a terminal
// showed U+FFFD for the half 日).
func TestClipCutsOnARune(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{strings.Repeat("a", 599) + "日本語\n", strings.Repeat("a", 599) + "日…"},
		{strings.Repeat("é", 600) + "\n", strings.Repeat("é", 600)},
	} {
		got := clip(tt.in, 600)
		if !utf8.ValidString(got) || got != tt.want {
			t.Errorf("clip = %q, want %q", got, tt.want)
		}
	}
}

package agent

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipCutsOnARune: the compaction summary cuts each message at 200 characters without
// splitting a multi-byte rune (regression: it cut at 200 bytes, and the model got half of
// a 日 in the summary).
func TestClipCutsOnARune(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{strings.Repeat("a", 199) + "日本語", strings.Repeat("a", 199) + "日…"},
		{strings.Repeat("日", 201), strings.Repeat("日", 200) + "…"},
		{"short\n  text", "short text"},
	} {
		got := clip(tt.in, 200)
		if !utf8.ValidString(got) || got != tt.want {
			t.Errorf("clip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, s string
		n       int
		marker  string
		want    string
	}{
		{"short", "abc", 5, "…", "abc"},
		{"exact", "abcde", 5, "…", "abcde"},
		{"ascii cut", "abcdef", 5, "…", "abcde…"},
		{"no marker", "abcdef", 3, "", "abc"},
		// Each rune of 日本語 is three bytes: a byte cut at 4 would keep half of 本.
		{"three-byte runes", "日本語テキスト", 2, "…", "日本…"},
		{"three-byte runes fit", "日本語", 3, "…", "日本語"},
		{"bytes over n, runes not", "日本語", 4, "…", "日本語"},
		{"four-byte runes", "🎉🎉🎉", 1, "...", "🎉..."},
		{"mixed at the cut", "ab日cd", 3, "…", "ab日…"},
		{"combining mark is its own rune", "e\u0301e\u0301", 1, "", "e"},
		{"invalid byte counts as one", "a\xffbc", 2, "…", "a\xff…"},
		{"long marker", strings.Repeat("日", 10001), 10000, "\n… [cut]", strings.Repeat("日", 10000) + "\n… [cut]"},
		{"zero", "abc", 0, "…", "…"},
		{"negative", "abc", -1, "", ""},
		{"empty", "", 0, "…", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Truncate(tt.s, tt.n, tt.marker)
			if got != tt.want {
				t.Errorf("Truncate(%q, %d, %q) = %q, want %q", tt.s, tt.n, tt.marker, got, tt.want)
			}
			if utf8.ValidString(tt.s) && !utf8.ValidString(got) {
				t.Errorf("Truncate(%q, %d) = %q split a rune", tt.s, tt.n, got)
			}
		})
	}
}

// FuzzTruncate: the result is a prefix of s (plus the marker when cut), has at most n runes
// of s, and is valid UTF-8 whenever s is.
func FuzzTruncate(f *testing.F) {
	f.Add("日本語テキスト", 2)
	f.Add("a\xffb", 1)
	f.Add("🎉x", 0)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 64
		got := Truncate(s, n, "…")
		head, cut := strings.CutSuffix(got, "…")
		if !cut || got == s {
			head = got
		}
		if !strings.HasPrefix(s, head) {
			t.Fatalf("Truncate(%q, %d) = %q: not a prefix", s, n, got)
		}
		if utf8.RuneCountInString(head) > max(n, 0) && got != s {
			t.Fatalf("Truncate(%q, %d) = %q: more than %d runes", s, n, got, n)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Truncate(%q, %d) = %q: split a rune", s, n, got)
		}
	})
}

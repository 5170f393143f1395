package match

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestConditionErrorQuotesWholeRunes: a syntax error quotes the next 12 characters of the
// condition, never half a multi-byte rune (regression: it cut at 12 bytes, and the message
// showed "\xe6" for half a 日).
func TestConditionErrorQuotesWholeRunes(t *testing.T) {
	t.Parallel()
	_, err := CompileIf("tool == Bash ab日本語日本語日本語")
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); !utf8.ValidString(msg) || strings.Contains(msg, `\x`) || !strings.Contains(msg, "日本語日本語日本語") {
		t.Errorf("error = %q", msg)
	}
}

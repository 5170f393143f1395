package match

import (
	"strings"
	"testing"
)

// TestCompileRegexAnchoredErrors: an anchored pattern's error quotes the user's text, not
// the anchored form, and a pattern that only the anchoring would balance is refused
// (new-user trial, stop 32: `bad matcher regex "([": ... missing closing ]: `[)$“).
func TestCompileRegexAnchoredErrors(t *testing.T) {
	t.Parallel()
	if _, err := compileRegex("([", "", true); err == nil || strings.Contains(err.Error(), ")$") {
		t.Errorf(`compileRegex("([") error = %v, want one about "([" alone`, err)
	}
	if re, err := compileRegex("a)|(b", "", true); err == nil {
		t.Errorf(`compileRegex("a)|(b") = %v, want an error (unbalanced alone)`, re)
	}
	if re, err := compileRegex("Bash|Edit", "i", true); err != nil || !re.MatchString("bash") || re.MatchString("xbash") {
		t.Errorf(`compileRegex("Bash|Edit", "i") = %v, %v`, re, err)
	}
}

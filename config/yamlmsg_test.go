package config

import "testing"

// TestYAMLMessage: a parser message that quotes a tab says \t and gets the hint; others are
// left as they are (new-user trial, stop 33).
func TestYAMLMessage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, want string }{
		{"tab token", "found character '\t' that cannot start any token", `found character '\t' that cannot start any token (YAML indents with spaces, not tabs)`},
		{"tab in quoted text", "tab character cannot be used for indentation in single-quoted text", "tab character cannot be used for indentation in single-quoted text (YAML indents with spaces, not tabs)"},
		{"other", "sequence end token ']' not found", "sequence end token ']' not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := YAMLMessage(tt.in); got != tt.want {
				t.Errorf("YAMLMessage(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

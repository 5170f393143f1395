package config

import (
	"slices"
	"testing"
)

// TestDotEnvWords: every name a .env parser could take as a key is among the words, whatever
// the spaces or line breaks around it; comment lines give none.
func TestDotEnvWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src        string
		want, none []string
	}{
		{"PYTHONPATH=.pyevil\n", []string{"PYTHONPATH", ".pyevil"}, nil},
		{"export NODE_OPTIONS='--require ./x.js'\n", []string{"export", "NODE_OPTIONS", "--require", "x.js"}, nil},
		{"\u00a0PYTHONPATH\u00a0=\u00a0.x\n", []string{"PYTHONPATH"}, nil},        // JavaScript's \s around the key
		{"A=1\u2028PYTHONPATH=.x\r\nB: 2", []string{"A", "PYTHONPATH", "B"}, nil}, // its line terminators
		{"# HOME and PATH are explained below\n  # so is ENV\nX=1 # LANG\n", []string{"X", "LANG"}, []string{"HOME", "PATH", "ENV"}},
		{"#x\u2028PYTHONPATH=.x\n", []string{"PYTHONPATH"}, nil}, // a comment line ends at U+2028
	} {
		got := DotEnvWords([]byte(tt.src))
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q missing from %q", tt.src, w, got)
			}
		}
		for _, w := range tt.none {
			if slices.Contains(got, w) {
				t.Errorf("%q: %q (a comment's) among %q", tt.src, w, got)
			}
		}
	}
}

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

// TestDotEnvMayGive: a value dotenv (Gemini CLI 0.61.0's reader) can take from the file is
// found, in every form dotenv gives it (quoted, trimmed, CRLF made LF, a double-quoted
// value's \n and \r escapes made line breaks, cut at a NUL as Node cuts an environment
// value); a value the file does not hold is the user's own (stop 29: a .env naming PATH or
// HOME blocked every session).
func TestDotEnvMayGive(t *testing.T) {
	t.Parallel()
	file := "# the shell sets PATH\nPATH=./node_modules/.bin:$PATH\r\nHOME='/home/app'\r" +
		"PYTHONPATH=\"a\\nb\\rc\"\nMULTI=\"x\r\ny\"\nexport NODE_OPTIONS: --require ./n.js # comment\nNUL=p\x00q\n"
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"./node_modules/.bin:$PATH", true},
		{"/home/app", true},
		{"a\nb\rc", true}, // the escapes
		{"x\ny", true},    // CRLF inside quotes
		{"--require ./n.js", true},
		{"p", true}, // Node cuts p\x00q at the NUL
		{"", true},
		{"/usr/local/bin:/usr/bin:/bin", false}, // the user's PATH
		{"/home/user", false},
		{"a\\nb", true}, // the escape as written is in the file too
		{"x\r\ny", false},
	} {
		if got := DotEnvMayGive([]byte(file), tc.value); got != tc.want {
			t.Errorf("DotEnvMayGive(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
	if !DotEnvMayGive([]byte("A=\xff\n"), "anything") {
		t.Error("a file that is not UTF-8: a value is not known to be the user's")
	}
	// dotenv's quote-stripping pattern is multiline: between two U+2028 of an unquoted
	// value, `B` loses its quotes (found by comparing with dotenv's parse on random files).
	if !DotEnvMayGive([]byte("X=a\u2028`B`\u2028c\n"), "a\u2028B\u2028c") {
		t.Error("a value dotenv took from a file with U+2028 is not known to be the user's")
	}
}

package text

import "testing"

func TestPrintable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"a\tb\nc\rd", "a b c d"},
		{"\x1b[1G\x1b[Kallowed", `\x1b[1G\x1b[Kallowed`},
		{"bell\a nul\x00", `bell\x07 nul\x00`},
		{"\u202etxt.exe", `\u202etxt.exe`},
		{"del\x7f c1\u0085", `del\x7f c1\x85`},
		{"中文 🎉", "中文 🎉"},
	} {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

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

func TestPrintableLines(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"Traceback:\n\tline 1", "Traceback:\n\tline 1"},
		{"T\x00r\x00a\x00c\x00e\x00", `T\x00r\x00a\x00c\x00e\x00`},
		{"\x1b[31mred\r\n", `\x1b[31mred\x0d` + "\n"},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`},
		{"\u202etxt.exe \uFFFD", `\u202etxt.exe ` + "\uFFFD"},
		{"中文 🎉", "中文 🎉"},
	} {
		if got := PrintableLines(tt.in); got != tt.want {
			t.Errorf("PrintableLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

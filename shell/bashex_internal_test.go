package shell

import (
	"strings"
	"testing"
)

// FuzzHarmlessEx: the Ex reader (bashex.go) ends without a panic on any text, and never
// calls a command with a bar, a backquote, a control byte or a bang after a range harmless.
func FuzzHarmlessEx(f *testing.F) {
	for _, s := range []string{"wq", ":q!", "%s/a/b/g", "1,$d", "set ts=4 nonu", "w out.txt", "+/pat",
		"'<,'>s#x#y#", ":!rm -rf x", "sil!!rm", "1,1!rm", "s/^/\\=system('x')/", "w !sh", "w!!sh", "r!x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !harmlessEx(s) {
			return
		}
		if strings.ContainsAny(s, "|`\n\r") {
			t.Fatalf("harmlessEx(%q) with a bar, a backquote or a line break", s)
		}
		rest, _ := skipExRange(strings.TrimLeft(s, " \t:"))
		if strings.HasPrefix(strings.TrimLeft(rest, " \t"), "!") {
			t.Fatalf("harmlessEx(%q): a range then '!' filters through a shell", s)
		}
	})
}

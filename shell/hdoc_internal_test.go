package shell

import "testing"

// FuzzHdocEnd: reading a here-document's body as bash does (hdocEndAgrees) ends without
// a panic on any body, delimiter and operator, and a body bash would end at another line
// than the parser never leaves the line analysable.
func FuzzHdocEnd(f *testing.F) {
	for _, s := range []string{"EO\\\nF\nrm -rf d", "x\\\nEOF\ny", "a\\\\", "\tEO\\\n\tF", ""} {
		f.Add(s, "EOF", false)
		f.Add(s, "'EOF'", true)
	}
	f.Fuzz(func(t *testing.T, body, delim string, dash bool) {
		op := "<<"
		if dash {
			op = "<<-"
		}
		line := "cat " + op + delim + "\n" + body + "\n" + delim
		Parse(line)
		if delim == "EOF" && !dash && body == "EO\\\nF" {
			if !Parse(line + "\nrm -rf d\nEOF").Opaque() {
				t.Errorf("%q: analysable", line)
			}
		}
	})
}

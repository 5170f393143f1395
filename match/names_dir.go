package match

import "strings"

// A names value written as `*/NAME` (`args.command names "*/settings.json"`) holds only
// where the name may be a file of a directory the line does not spell out (stop 33): an
// occurrence of NAME that stands alone or after a relative directory of written bytes
// (`cat settings.json`, `git commit -m "update settings.json"`, `jq . .vscode/settings.json`,
// `python3 -c 'json.load(open("package/settings.json"))'`) names a file of the working
// directory or below it, which the call's own cwd and the path rules judge, and does not
// count. Every other occurrence is read as for `names "NAME"`: after an absolute path or a
// `..` (`/x/.cla+ude/settings.json`, `../settings.json`), after an expansion, a glob, a
// brace, a tilde or a backslash (`$D/settings.json`, `~/.c*e/settings.json`), in an
// assignment's value (`x=settings.json`), and in a string an interpreter joins to another
// (`'/home/u/.cla' + 'ude/settings.json'`, `join(d, 'settings.json')`, `'a' 'settings.json'`:
// a quote that follows anything but `(`, a blank or the word's start). A line with a here
// document (`<<`) has every occurrence counted: its body's quotes are not bash's. So does a
// name split by quotes or a backslash (`.vscode/sett''ings.json`).
//
// The line is read as bash passes its words on: bash's quotes are dropped, a quote inside
// the other kind is a written byte (an interpreter's string), and `$`, `` ` `` and a
// backslash outside single quotes are expansions.

// spelled is one byte of a line as bash passes it on.
type spelled struct {
	b    byte
	at   int // offset in the line
	kind spelledKind
}

type spelledKind uint8

const (
	spelledLit spelledKind = iota // a written byte
	spelledSep                    // an unquoted blank, ;, |, &, < or >: a word's end
	spelledExp                    // an expansion or an escape: any text
)

// spelledBytes returns the bytes of line as bash passes them on (see spelled).
func spelledBytes(line string) []spelled {
	const (
		unquoted = iota
		single
		double
		ansi
	)
	us := make([]spelled, 0, len(line))
	q := unquoted
	for i := 0; i < len(line); i++ {
		c := line[i]
		kind := spelledLit
		switch q {
		case single:
			if c == '\'' {
				q = unquoted
				continue
			}
		case ansi:
			if c == '\'' {
				q = unquoted
				continue
			}
			if c == '\\' {
				kind = spelledExp
			}
		case double:
			switch c {
			case '"':
				q = unquoted
				continue
			case '\\', '$', '`':
				kind = spelledExp
			}
		default:
			switch c {
			case '\'':
				q = single
				continue
			case '"':
				q = double
				continue
			case '$':
				if i+1 < len(line) && line[i+1] == '\'' {
					q = ansi
					i++
					continue
				}
				kind = spelledExp
			case '\\', '`':
				kind = spelledExp
			case ' ', '\t', '\n', '\r', ';', '|', '&', '<', '>':
				kind = spelledSep
			}
		}
		us = append(us, spelled{c, i, kind})
		if c == '\\' && kind == spelledExp && i+1 < len(line) {
			i++ // the escaped byte is part of the expansion
			us = append(us, spelled{line[i], i, spelledExp})
		}
	}
	return us
}

// blankSpelledOut returns line with each occurrence of name (lower case) that a `*/NAME`
// value does not count (see above) replaced by blanks, and whether it replaced any.
func blankSpelledOut(line, name string) (string, bool) {
	if strings.Contains(line, "<<") || strings.Contains(line, "=(") || !strings.Contains(strings.ToLower(line), name) {
		return line, false
	}
	us := spelledBytes(line)
	var out []byte
	for k := 0; k+len(name) <= len(us); k++ {
		if !spelledAt(us, k, name) || !inSpelledDir(us, k) {
			continue
		}
		if out == nil {
			out = []byte(line)
		}
		for j := k; j < k+len(name); j++ {
			out[us[j].at] = ' '
		}
		k += len(name) - 1
	}
	if out == nil {
		return line, false
	}
	return string(out), true
}

// spelledAt reports whether the written bytes at us[k:] are name, in any case, written in
// one piece (a name split by quotes counts as for names "NAME").
func spelledAt(us []spelled, k int, name string) bool {
	for j := 0; j < len(name); j++ {
		u := us[k+j]
		if u.kind != spelledLit || u.at != us[k].at+j || lower(u.b) != name[j] {
			return false
		}
	}
	return true
}

// inSpelledDir reports whether the name at us[k] stands alone or after a written relative
// directory, at a word's start, after a blank, or in a string that opens a call's
// arguments.
func inSpelledDir(us []spelled, k int) bool {
	i := k
	for i > 0 && us[i-1].kind == spelledLit && isPlainPathByte(us[i-1].b) {
		i--
	}
	if dir := spelledString(us[i:k]); dir != "" {
		if dir[0] == '/' {
			return false
		}
		for _, c := range strings.Split(dir, "/") {
			if c == ".." {
				return false
			}
		}
	}
	if inAssignment(us, i) {
		return false
	}
	if i == 0 {
		return true
	}
	switch d := us[i-1]; {
	case d.kind == spelledSep:
		return true
	case d.kind != spelledLit:
		return false
	case d.b == ' ' || d.b == '\t' || d.b == '\n':
		return true
	case d.b == '\'' || d.b == '"':
		// A string of an interpreter: the first argument of a call, or a word of its own.
		j := i - 1
		for j > 0 && us[j-1].kind == spelledLit && (us[j-1].b == ' ' || us[j-1].b == '\t') {
			j--
		}
		return j == 0 || us[j-1].kind == spelledSep || us[j-1].kind == spelledLit && us[j-1].b == '('
	}
	return false
}

// inAssignment reports whether us[i] is in the value of an assignment word (`x=V`, `x+=V`,
// also after export or declare), whose value the line may use anywhere.
func inAssignment(us []spelled, i int) bool {
	w := i
	for w > 0 && us[w-1].kind != spelledSep {
		w--
	}
	j := w
	for j < i && us[j].kind == spelledLit && isWordByte(us[j].b) && (j > w || !isDigit(us[j].b)) {
		j++
	}
	if j == w || j == i {
		return false
	}
	if us[j].kind == spelledLit && us[j].b == '+' {
		j++
	}
	return j < i && us[j].kind == spelledLit && us[j].b == '='
}

// isPlainPathByte reports whether c may be a byte of a plainly written relative path.
func isPlainPathByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' || c == '/'
}

func spelledString(us []spelled) string {
	b := make([]byte, len(us))
	for i, u := range us {
		b[i] = u.b
	}
	return string(b)
}

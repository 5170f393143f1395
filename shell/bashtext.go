package shell

import (
	"path"
	"strings"
)

// sed and awk read programs of their own, and both can run a command: GNU sed's `e`
// command and the `e` flag of `s///`, awk's system(), `print | "cmd"`, `"cmd" | getline`
// and gawk's `|&` (red team 2, finding 5: sed -n '1e rm -rf x' f deleted x). They are not
// on the inert list; their programs are read here, for deny rules only, far enough to find
// those constructs:
//
//   - sed: the script (the -e/--expression values joined by newlines, or the first
//     operand) is split into commands, addresses, regular expressions and texts skipped;
//     `e COMMAND` is analysed as code; a bare `e` (it runs the pattern space), the `e` flag
//     of `s` (it runs the pattern space after the substitution) and any command letter
//     GNU sed does not define make the line match every deny rule. --sandbox turns them
//     off.
//   - awk: the program (the -e/--source values, or the first operand) is scanned as
//     tokens, strings and regular expressions skipped; system("…"), print | "…",
//     "…" | getline and |& "…" with one string literal have it analysed as code; the same
//     with any other expression (system($0), "rm " $1 | getline), a gawk `@` (an indirect
//     call may be system: f="system"; @f(x)) or -l/--load make the line match every deny
//     rule. -S/--sandbox turns them off.
//
// A script or program given as a file (-f) is a file's content (docs/security.md). A
// script or program word that is not static is read as written; the variables it reads
// must not be set by the line (as for a command name, settleDeny), and any other expansion
// makes the line match every deny rule: a value can close a string or an `s` command early.

// textProgram analyses, for deny rules, the program given to sed or awk (base), and
// reports false for any other program.
//
// Under xargs, the words xargs adds may be the script or an -e option: when the line
// spells them (echo '1e CMD' | xargs sed -n) the line matches every deny rule; when they
// come from a program or a file (grep -l x -r . | xargs sed -i 's/a/b/') they are data,
// like a file's content (bashstdin.go).
func (b *Commands) textProgram(base string, args []word, c ctx) bool {
	switch base {
	case "sed", "gsed", "awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "goawk", "onetrue-awk":
		if c.xargs && c.in != nil {
			b.denyAll = true
			return true
		}
	}
	switch base {
	case "sed", "gsed":
		b.denyScope(func() { b.sed(args, c) })
	case "awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "goawk", "onetrue-awk":
		b.denyScope(func() { b.awk(args, c) })
	default:
		return false
	}
	return true
}

// sedLong are GNU sed's long options that the analysis reads (longName).
var sedLong = []string{"--expression", "--file", "--line-length", "--sandbox", "--in-place"}

// sedCode are sed's options whose value is a script, or a file holding one.
var sedCode = []string{"-e", "-f", "--expression", "--file"}

// sed analyses sed's arguments (see the top of this file).
func (b *Commands) sed(args []word, c ctx) {
	var scripts, operands []word
	fromFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		next := func() word {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return word{static: true}
		}
		switch {
		case t == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case len(t) > 1 && t[0] == '-' && !a.static:
			b.all = true // -$X may be -e
			return
		case strings.HasPrefix(t, "--"):
			name, value, eq := strings.Cut(t, "=")
			switch longName(name, sedLong) {
			case "--expression":
				if !eq {
					scripts = append(scripts, next())
				} else {
					scripts = append(scripts, word{text: value, static: a.static, exp: a.exp})
				}
			case "--file", "--line-length":
				isFile := longOption(name, "--file") || name == "--file"
				fromFile = fromFile || isFile
				v := word{text: value, static: a.static, exp: a.exp}
				if !eq {
					v = next()
				}
				if isFile && !b.programFile(v) {
					return
				}
			case "--sandbox":
				return // e, r and w are refused
			}
		case len(t) > 1 && t[0] == '-':
		short:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'e', 'f', 'l':
					v := word{text: t[j+1:], static: true}
					if j+1 == len(t) {
						v = next()
					}
					if t[j] == 'e' {
						scripts = append(scripts, v)
					}
					if t[j] == 'f' && !b.programFile(v) {
						return
					}
					fromFile = fromFile || t[j] == 'f'
					break short
				case 'i':
					break short // -i[SUFFIX]: the rest is the suffix
				}
			}
		default:
			if !a.static && mayBeOption(a, sedCode) {
				b.unknownOption(a) // "$f" may be -e'1e CMD' (bashunknown.go)
			}
			operands = append(operands, a)
		}
	}
	if len(scripts) == 0 && !fromFile && len(operands) > 0 {
		scripts = operands[:1]
	}
	var text []string
	for _, s := range scripts {
		if !b.textWord(s) {
			return
		}
		text = append(text, s.text)
	}
	if len(text) > 0 {
		b.sedScript(strings.Join(text, "\n"), c)
	}
}

// programFile checks the file a sed script or awk program is read from (-f, gawk's -i,
// -E, --include, --exec): a stream the line may write (-, /dev/stdin, /dev/fd/N,
// /proc/PID/fd/N, a process substitution, a word of unknown value) makes the line match
// every deny rule (red team 3, findings 1 and 2: awk -f /dev/fd/3 3<<< 'BEGIN{system(…)}',
// sed -f <(echo '1e CMD')), reported false; a word that only reads variables is a file
// name when the line does not set them (settleDeny). Any other file is a file's content.
func (b *Commands) programFile(w word) bool {
	if !w.static {
		if w.exp == nil || w.exp.dyn || w.exp.glob != nil {
			b.all = true
			return false
		}
		b.reads = append(b.reads, w.exp.vars...)
		return true
	}
	if streamPath(w.text) || stdinPath(w.text) {
		// stdinPath: the terminal too (/dev/tty, /dev/pts/0, /dev/stdout), where a program
		// is typed later (red team round 43, Codex: awk -f /dev/tty, then write_stdin).
		b.all = true
		return false
	}
	return true
}

// streamPath reports whether the file name p may name a stream rather than a file: -, or a
// path whose cleaned form holds "stdin" or a directory named fd (/dev/fd/3,
// /proc/self/fd/0, ../../dev/stdin).
func streamPath(p string) bool {
	if p == "-" {
		return true
	}
	c := "/" + path.Clean(p) + "/"
	return strings.Contains(c, "stdin") || strings.Contains(c, "/fd/")
}

// textWord checks a sed script or awk program word: a static one is read; one that is
// not static is read as written when it only reads variables (which the line must not
// set: settleDeny), and otherwise makes the line match every deny rule (reported false).
func (b *Commands) textWord(w word) bool {
	if w.static {
		return true
	}
	if w.exp == nil || w.exp.dyn || w.exp.glob != nil {
		b.all = true
		return false
	}
	b.reads = append(b.reads, w.exp.vars...)
	return true
}

// sedScript reads a GNU sed script (sed(1), "sed scripts" in the GNU sed manual).
func (b *Commands) sedScript(s string, c ctx) {
	i := 0
	for i < len(s) && !b.all {
		switch s[i] {
		case ' ', '\t', '\n', ';', '{', '}':
			i++
			continue
		case '#':
			i = lineEnd(s, i)
			continue
		}
		// Addresses: ADDR, ADDR,ADDR, then blanks and '!'.
		var ok bool
		if i, ok = sedAddress(s, i); !ok {
			b.all = true
			return
		}
		i = skipBlanks(s, i)
		if i < len(s) && s[i] == ',' {
			if i, ok = sedAddress(s, skipBlanks(s, i+1)); !ok {
				b.all = true
				return
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '!') {
			i++
		}
		if i >= len(s) {
			return
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'q', 'Q', 'l', 'L':
			i = skipBlanks(s, i)
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c':
			i = textEnd(s, i)
		case 'r', 'R', 'w', 'W':
			i = lineEnd(s, i)
		case 'e':
			end := lineEnd(s, i)
			if command := strings.TrimSpace(s[i:end]); command != "" {
				b.codeString(command, c)
			} else {
				b.denyAll = true // runs the pattern space: data
			}
			i = end
		case 's', 'y':
			var parts int
			if i, parts = sedParts(s, i, cmd == 's'); parts < 0 {
				b.all = true
				return
			}
			if cmd == 'y' {
				continue
			}
			for i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[i]) >= 0 {
				switch s[i] {
				case 'e':
					b.denyAll = true // runs the pattern space after the substitution
				case 'w':
					i = lineEnd(s, i)
					continue
				}
				i++
			}
		default:
			b.all = true // not a command of GNU sed: read no further
			return
		}
	}
}

// sedAddress skips one sed address at s[i:] (a line number, first~step, $, /RE/ or \cREc
// with I and M flags, +N or ~N after a comma; or none) and returns where it ends, or false
// when a regular expression does not end.
func sedAddress(s string, i int) (int, bool) {
	if i >= len(s) {
		return i, true
	}
	switch ch := s[i]; {
	case ch >= '0' && ch <= '9' || ch == '+' || ch == '~':
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
			i++
		}
		return i, true
	case ch == '$':
		return i + 1, true
	case ch == '/' || ch == '\\':
		delim := byte('/')
		if ch == '\\' {
			if i+1 >= len(s) {
				return i, false
			}
			delim = s[i+1]
			i++
		}
		end := sedRegexEnd(s, i+1, delim)
		if end < 0 {
			return i, false
		}
		i = end + 1
		for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
		return i, true
	}
	return i, true
}

// sedParts skips the delimited parts of `s/RE/REPL/` (re: the first is a regular
// expression) or `y/SRC/DST/` starting at the delimiter s[i], and returns where the
// flags start, or -1 parts when a part does not end.
func sedParts(s string, i int, re bool) (int, int) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return i, -1
	}
	delim := s[i]
	end := sedRegexEnd(s, i+1, delim)
	if !re {
		end = sedTextEnd(s, i+1, delim)
	}
	if end < 0 {
		return i, -1
	}
	end = sedTextEnd(s, end+1, delim)
	if end < 0 {
		return i, -1
	}
	return end + 1, 2
}

// sedRegexEnd returns the index of the delimiter that ends a regular expression starting
// at s[i] (backslash escapes and bracket expressions skipped), or -1.
func sedRegexEnd(s string, i int, delim byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			k := strings.IndexByte(s[j:], ']')
			if k < 0 {
				return -1
			}
			i = j + k
		case delim:
			return i
		}
	}
	return -1
}

// sedTextEnd returns the index of the delimiter that ends a replacement or a y text
// starting at s[i] (backslash escapes skipped), or -1.
func sedTextEnd(s string, i int, delim byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case delim:
			return i
		}
	}
	return -1
}

// textEnd returns the end of the text of sed's a, i and c: the end of the line, lines
// ending in a backslash continued.
func textEnd(s string, i int) int {
	for {
		end := lineEnd(s, i)
		if end >= len(s) || end == 0 || s[end-1] != '\\' {
			return end
		}
		i = end + 1
	}
}

// lineEnd returns the index of the newline at or after s[i], or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// skipBlanks returns the index of the first byte at or after s[i] that is not a space or
// a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

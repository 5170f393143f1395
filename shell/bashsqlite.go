package shell

import (
	"strings"
	"sync"
)

// sqlite3's shell runs commands from its dot-commands (red team 5, finding 9): .shell and
// .system run their arguments, joined, with system(3); .read, .once, .output and .import
// run a file name that starts with '|' with popen(3); .load loads a shared object; the SQL
// function edit(TEXT, EDITOR) runs EDITOR and load_extension() loads code. A dot-command's
// arguments in double quotes are C-escape decoded first ("\162m" is rm). For deny rules,
// every text sqlite3 reads as commands (the operands after the database, -cmd values, and
// the text the line feeds it on a stream: escapeText) is read here, a dot-command at a
// time: the decoded arguments of .shell/.system (under any prefix sqlite3 accepts) and
// every argument that starts with '|' are analysed as code; .load, edit( and
// load_extension( make the line match every deny rule, and so does a command text of
// unknown value. An -init file is checked with programFile, as other code files are.

// sqlitePrograms are the names of sqlite's shell.
var sqlitePrograms = sync.OnceValue(func() map[string]bool {
	return setOf("sqlite3", "sqlite")
})

// sqliteValues are sqlite3's options (without their leading dashes) that take values, and
// how many words they take; -cmd and -init are read apart.
var sqliteValues = sync.OnceValue(func() map[string]int {
	return map[string]int{"separator": 1, "newline": 1, "nullvalue": 1, "vfs": 1, "heap": 1,
		"maxsize": 1, "mmap": 1, "escape": 1, "lookaside": 2, "pagecache": 2}
})

// sqliteArgs analyses sqlite3's arguments for deny rules (see the top of this file). Only
// inside denyScope.
func (b *Commands) sqliteArgs(args []word, c ctx) {
	db := false
	for i := 0; i < len(args) && !b.all; i++ {
		a := args[i]
		name := strings.TrimPrefix(strings.TrimPrefix(a.text, "-"), "-")
		switch {
		case !a.static && (strings.HasPrefix(a.text, "-") || db):
			b.all = true // -$X may be -cmd; a command of unknown value
		case strings.HasPrefix(a.text, "-") && (name == "cmd" || name == "init"):
			if i+1 >= len(args) {
				return
			}
			i++
			if name == "init" {
				if !args[i].static || !streamPath(args[i].text) { // a stream is read by escapeText
					b.programFile(args[i])
				}
				continue
			}
			if !args[i].static {
				b.all = true
				return
			}
			b.sqliteText(args[i].text, c)
		case strings.HasPrefix(a.text, "-"):
			i += sqliteValues()[name]
		case !db:
			db = true
		default:
			b.sqliteText(a.text, c)
		}
	}
}

// sqliteText analyses s, commands sqlite3 reads (an argument, or a stream line by line),
// for deny rules.
func (b *Commands) sqliteText(s string, c ctx) {
	if sqlCallsCode(s) {
		b.all = true
		return
	}
	for line := range strings.SplitSeq(s, "\n") {
		if b.all {
			return
		}
		t := strings.TrimLeft(line, " \t\r")
		if !strings.HasPrefix(t, ".") {
			continue
		}
		args := sqliteDotArgs(t[1:])
		if len(args) == 0 {
			continue
		}
		cmd := args[0]
		switch {
		case len(cmd) >= 2 && strings.HasPrefix("load", cmd):
			b.all = true
			return
		case len(cmd) >= 2 && (strings.HasPrefix("shell", cmd) || strings.HasPrefix("system", cmd)):
			b.codeString(sqliteShellLine(args[1:]), c)
		}
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "|") {
				b.codeString(a[1:], c)
			}
		}
	}
}

// sqlCallsCode reports whether SQL text s may call edit() or load_extension(), which run
// a command or load code (any case, blanks before the parenthesis).
func sqlCallsCode(s string) bool {
	l := strings.ToLower(s)
	for _, f := range []string{"edit", "load_extension"} {
		for i := 0; ; {
			j := strings.Index(l[i:], f)
			if j < 0 {
				break
			}
			i += j + len(f)
			if strings.HasPrefix(strings.TrimLeft(l[i:], " \t\r\n"), "(") {
				return true
			}
		}
	}
	return false
}

// sqliteDotArgs splits a dot-command line (after the '.') into its arguments as sqlite3's
// shell does (do_meta_command): blank-separated words, or a word in '…' or "…", the
// latter with its backslash escapes decoded (resolve_backslashes: \a \b \t \n \v \f \r
// \" \' \\, \NNN octal, \X is X), a value cut at a NUL as C cuts it.
func sqliteDotArgs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i >= len(s) {
			break
		}
		if d := s[i]; d == '\'' || d == '"' {
			i++
			start := i
			for i < len(s) && s[i] != d {
				if s[i] == '\\' && d == '"' && i+1 < len(s) {
					i++
				}
				i++
			}
			v := s[start:min(i, len(s))]
			if d == '"' {
				v = sqliteUnescape(v)
			}
			out = append(out, v)
			i++
			continue
		}
		start := i
		for i < len(s) && !isSpaceByte(s[i]) {
			i++
		}
		out = append(out, s[start:i])
	}
	return out
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// sqliteUnescape decodes the backslash escapes of a double-quoted dot-command argument
// (see sqliteDotArgs).
func sqliteUnescape(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '\\' && i+1 < len(s) {
			i++
			ch = s[i]
			switch ch {
			case 'a':
				ch = '\a'
			case 'b':
				ch = '\b'
			case 't':
				ch = '\t'
			case 'n':
				ch = '\n'
			case 'v':
				ch = '\v'
			case 'f':
				ch = '\f'
			case 'r':
				ch = '\r'
			default:
				if ch >= '0' && ch <= '7' {
					ch -= '0'
					for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
						i++
						ch = ch<<3 | (s[i] - '0')
					}
				}
			}
		}
		if ch == 0 {
			break
		}
		sb.WriteByte(ch)
	}
	return sb.String()
}

// sqliteShellLine is the command line .shell and .system give system(3): the arguments
// joined by spaces, each one that holds a space in double quotes (nothing escaped).
func sqliteShellLine(args []string) string {
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if strings.Contains(a, " ") {
			a = `"` + a + `"`
		}
		sb.WriteString(a)
	}
	return sb.String()
}

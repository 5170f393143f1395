package shell

import (
	"strings"
	"sync"
)

// gdb's command language runs commands many ways: shell and !, pipe and |, python, guile,
// $_shell(), call system(), run's arguments (a shell reads them), set exec-wrapper, and
// eval "FORMAT", ARGS, which formats a command before running it (red team 5, finding 10:
// gdb -batch -ex 'eval "shell %cm -rf x", 114'). For deny rules, the gdb commands a line
// gives (-ex, -iex, --eval-command, --init-eval-command, and text fed to gdb on a stream:
// escapeText) are read by an allow list, as Vim's Ex commands are (bashex.go): the
// commands that only inspect or step (bt, info, list, frame, next, print without a call,
// ...; harmlessGDB) pass, anything else makes the line match every deny rule, and so does
// a command of unknown value. -x and -ix files are checked with programFile, but for a stream, whose text the line spells
// and escapeText reads.

// gdbPrograms are the names of gdb.
var gdbPrograms = sync.OnceValue(func() map[string]bool {
	return setOf("gdb", "cgdb", "gdb-multiarch", "gdbtui")
})

// gdbInspect are gdb commands (and their common abbreviations) that run nothing and take
// no expression.
var gdbInspect = sync.OnceValue(func() map[string]bool {
	return setOf("bt", "backtrace", "where", "info", "i", "list", "l", "quit", "q", "kill", "k",
		"frame", "f", "up", "down", "finish", "fin", "next", "n", "step", "s", "nexti", "ni", "stepi", "si",
		"continue", "c", "cont", "disassemble", "end", "delete", "d", "disable", "enable", "detach", "where",
		"echo", "help", "h", "show", "file", "core", "core-file", "symbol-file", "directory", "dir")
})

// gdbExpr are gdb commands that evaluate an expression, harmless when it calls nothing
// and reads no convenience variable or function ($_shell).
var gdbExpr = sync.OnceValue(func() map[string]bool {
	return setOf("print", "p", "output", "x", "display", "break", "b", "tbreak", "watch", "rwatch",
		"awatch", "until", "u", "advance", "ptype", "whatis")
})

// gdbSettings are the settings `set` may change harmlessly.
var gdbSettings = sync.OnceValue(func() map[string]bool {
	return setOf("pagination", "confirm", "print", "width", "height", "listsize",
		"disassembly-flavor", "style", "verbose", "logging", "breakpoint", "language")
})

// gdbArgs analyses gdb's arguments for deny rules (see the top of this file). Only inside
// denyScope.
func (b *Commands) gdbArgs(args []word, c ctx) {
	for i := 0; i < len(args) && !b.all; i++ {
		a := args[i]
		if a.text == "--args" || a.text == "-args" {
			return // the program and its arguments: the suffixes (tails)
		}
		if !strings.HasPrefix(a.text, "-") {
			continue
		}
		if !a.static {
			b.all = true // -$X may be -ex
			return
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.text, "-"), "-"), "=")
		command := name == "ex" || name == "iex" || len(name) >= 4 &&
			(strings.HasPrefix("eval-command", name) || strings.HasPrefix("init-eval-command", name))
		file := name == "x" || name == "ix" || len(name) >= 4 &&
			(strings.HasPrefix("command", name) || strings.HasPrefix("init-command", name))
		if !command && !file {
			continue
		}
		v := word{text: value, static: true}
		if !eq {
			if i+1 >= len(args) {
				return
			}
			i++
			v = args[i]
		}
		switch {
		case file && v.static && streamPath(v.text):
			// a stream the line spells is read as gdb's (escapeText); any other is data
		case file:
			b.programFile(v)
		case !v.static:
			b.all = true
		default:
			b.gdbText(v.text, c)
		}
	}
}

// gdbText checks s, gdb commands one a line: shell CMD and !CMD are analysed as code, any
// other command is checked against the allow list (see the top of this file), and one not
// on it makes the line match every deny rule. Only inside denyScope.
func (b *Commands) gdbText(s string, c ctx) {
	for line := range strings.SplitSeq(s, "\n") {
		if b.all {
			return
		}
		t := strings.TrimLeft(line, " \t")
		if rest, ok := strings.CutPrefix(t, "!"); ok {
			b.codeString(rest, c)
			continue
		}
		if f := strings.Fields(t); len(f) > 0 && f[0] == "shell" {
			b.codeString(strings.TrimPrefix(t, "shell"), c)
			continue
		}
		if !harmlessGDB(line) {
			b.all = true
			return
		}
	}
}

// harmlessGDB reports whether the gdb command line runs nothing (see gdbInspect(), gdbExpr(),
// gdbSettings()); a blank line and a comment do not, nor does run without arguments.
func harmlessGDB(line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return true
	}
	cmd, rest := fields[0], fields[1:]
	if strings.ContainsAny(line, "|!") {
		return false // pipe, shell escapes
	}
	switch {
	case cmd == "thread" && len(rest) >= 3 && rest[0] == "apply":
		return harmlessGDB(strings.Join(rest[2:], " ")) // thread apply all bt
	case gdbInspect()[cmd]:
		return true
	case gdbExpr()[cmd], cmd == "set" && len(rest) > 0 && gdbSettings()[rest[0]]:
		return !strings.ContainsAny(line, "($")
	case cmd == "run" || cmd == "r" || cmd == "start" || cmd == "starti":
		return len(rest) == 0
	}
	return false
}

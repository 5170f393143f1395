package shell

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A program may read its standard input as a script without the engine knowing it for a
// shell: /proc/self/exe (the running shell), newgrp and sg (a shell of the new group),
// sh.distrib, bash-static, ssh (a remote shell), a copied shell (red team 2, finding 3:
// echo 'rm -rf x' | /proc/self/exe deleted x). For deny rules:
//
//   - the text fed to the stdin of any program not known to be inert, when the line spells
//     it (a static here-document or here-string, or the output of echo or printf with
//     static words before a pipe), is analysed as code (stdinData); `echo foo | grep rm`
//     is not (grep is inert), `echo 'rm -rf x' | ./x` is;
//   - a program that may be a shell (mayBeShell) whose stdin is not spelled by the line
//     (`cat s | newgrp`, `curl … | sh.distrib`, the agent's own stdin) matches every deny
//     rule, as a shell of a known name already does for every rule;
//   - any other program's stdin that the line does not spell (`cat x | python3 s.py`) is
//     data the engine does not see, like a file's content (docs/security.md).
//
// The same rule covers every other stream the line spells (another descriptor, a compound
// command's stdin, exec's): bashstream.go.
//
// Allow rules are unchanged: the texts are deny-only, and a known shell given a pipe is
// still opaque both ways (stdinShell).

// pipeOutput returns what the left side x of a pipe writes (outputOf its last simple
// command, when that is an echo or printf without redirections), or nil.
func pipeOutput(x *syntax.Stmt, src string, br *braces) *input {
	for {
		p, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || p.Op != syntax.Pipe && p.Op != syntax.PipeAll {
			break
		}
		x = p.Y
	}
	call, ok := x.Cmd.(*syntax.CallExpr)
	if !ok || len(x.Redirs) > 0 || len(call.Args) == 0 || x.Background || x.Coprocess {
		return nil
	}
	first := call.Args[0]
	if len(first.Parts) != 1 {
		return nil
	}
	if l, ok := first.Parts[0].(*syntax.Lit); !ok || l.Value != "echo" && l.Value != "printf" {
		return nil // the walk renders only the words of an echo or printf
	}
	words, ok := renderArgs(call.Args, src, br)
	if !ok {
		return nil
	}
	return outputOf(words)
}

// outputOf returns what the command words (an echo or printf with static words) writes to
// its standard output, as the input of the next command of a pipe, or nil when the line
// does not spell it.
func outputOf(words []word) *input {
	if len(words) == 0 {
		return nil
	}
	for _, w := range words {
		if !w.static {
			return nil
		}
	}
	var text string
	var ok bool
	switch path.Base(words[0].text) {
	case "echo":
		text, ok = echoText(words[1:])
	case "printf":
		text, ok = printfText(words[1:])
	}
	if !ok || strings.TrimSpace(text) == "" {
		return nil
	}
	return &input{script: text, pipe: true}
}

// echoText is what bash's echo writes for args: the -n, -e and -E options, then the words
// joined by spaces and a newline; with -e, backslash escapes are decoded (as $'…' is;
// false when they do not decode to a plain string).
func echoText(args []word) (string, bool) {
	escape, newline := false, true
	for len(args) > 0 {
		t := args[0].text
		if len(t) < 2 || t[0] != '-' || strings.Trim(t[1:], "neE") != "" {
			break
		}
		for _, f := range t[1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escape = true
			case 'E':
				escape = false
			}
		}
		args = args[1:]
	}
	text := joinWords(args, "")
	if escape {
		var ok bool
		if text, ok = ansiC(text); !ok {
			return "", false
		}
	}
	if newline {
		text += "\n"
	}
	return text, true
}

// printfText is what printf FORMAT ARGS writes: the format's escapes decoded, each
// conversion (%s, %b, %d, …) replaced by the next argument, the format reused while
// arguments remain. printf -v writes nothing.
func printfText(args []word) (string, bool) {
	if len(args) > 0 && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0].text, "-v") {
		return "", false
	}
	format, ok := ansiC(args[0].text)
	if !ok {
		return "", false
	}
	rest := args[1:]
	var sb strings.Builder
	for round := 0; ; round++ {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch != '%' || i+1 >= len(format) {
				sb.WriteByte(ch)
				continue
			}
			if format[i+1] == '%' {
				sb.WriteByte('%')
				i++
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
				j++
			}
			if used < len(rest) {
				sb.WriteString(rest[used].text)
			}
			used++
			i = j
		}
		if used == 0 || used >= len(rest) || round > maxTailWords {
			break
		}
		rest = rest[used:]
	}
	return sb.String(), true
}

// mayBeShell reports whether the program name (base its base name; words its words) may
// be a shell reading its stdin: a /proc/…/exe (the running shell), newgrp, sg without a
// command, or a shell's name followed by a byte that is not a letter (sh.distrib,
// bash-static, dash5).
func mayBeShell(name, base string, words []word) bool {
	switch {
	case !strings.Contains(base, "sh") && base != "exe" && base != "newgrp" && base != "sg" && !strings.HasPrefix(name, "/proc/"):
		return false // the common case, decided at once
	case strings.HasPrefix(name, "/proc/") || base == "exe" || base == "newgrp":
		return true
	case base == "sg":
		operands := 0
		for _, w := range words[1:] {
			if !strings.HasPrefix(w.text, "-") {
				operands++
			}
		}
		return operands <= 1
	}
	for _, sh := range [...]string{"bash", "sh", "dash", "zsh", "ksh", "ash", "mksh", "yash", "posh", "rbash"} {
		if len(base) > len(sh) && strings.HasPrefix(base, sh) && !isLetter(base[len(sh)]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// stdinData analyses, for deny rules, the stdin of words, run by a program that is not
// known to be inert (see the top of this file), and records the program as a reader of the
// line's other streams (bashstream.go).
func (b *Commands) stdinData(base string, words []word, c ctx) {
	b.addReader(base)
	shell := mayBeShell(words[0].text, base, words)
	switch {
	case c.in != nil && !c.in.data:
		c.in.data = true
		if shell {
			b.codeString(c.in.script, c)
		} else {
			b.stdinText(c.in.script, c)
			b.escapeText(base, c.in, c)
		}
	case c.in == nil && (shell || readsProgram(base, words)):
		b.denyAll = true
	}
}

// programReaders are interpreters, debuggers, REPLs and other programs that, given no
// program (no script operand, no -c or -e), read one from their stdin or their terminal and
// run it, or start a shell reading it (base names without a version suffix: python3.12 is
// python, python3-dbg is python).
var programReaders = sync.OnceValue(func() map[string]bool {
	return setOf("python", "pypy", "ipython", "bpython", "ptpython", "node", "nodejs", "perl",
		"ruby", "irb", "pry", "php", "lua", "luajit", "tclsh", "wish", "expect", "R", "Rscript",
		"julia", "ghci", "guile", "racket", "sbcl", "clisp", "ocaml", "jshell", "jjs", "scala",
		"groovysh", "pwsh", "powershell", "fish", "csh", "tcsh", "nu", "xonsh", "elvish", "osh",
		"ysh", "ion", "osascript", "deno", "bun", "tmux", "screen", "byobu", "zellij", "make",
		"gmake", "at", "batch", "crontab", "socat", "systemd-run", "ed", "red", "dc")
})

// valueOptions are the one-letter options of the program reader name that take a value:
// the rest of the word, or the next word. A function, not a map, so that no hook process
// builds it at start (issue 9's cold start).
func valueOptions(name string) string {
	switch name {
	case "python", "pypy", "ipython":
		return "WXQmc"
	case "tmux":
		return "cefFLnSstxylp"
	case "screen":
		return "cehpSTtrRxXs"
	case "make", "gmake":
		return "CIjlof"
	case "perl":
		return "IMmiFlx0Cee"
	case "ruby":
		return "IrCe"
	case "node", "nodejs":
		return "rep"
	case "php":
		return "dcrfz"
	case "lua", "luajit":
		return "le"
	case "julia":
		return "LtJe"
	case "irb", "pry":
		return "rI"
	case "crontab":
		return "u"
	}
	return ""
}

// programLetters are the one-letter options of the program reader name whose value is the
// program to run (python -c, -m; perl -e; node -e, -p; ...): with one, the line gives the
// program, and the analysis reads it.
func programLetters(name string) string {
	switch name {
	case "python", "pypy", "ipython":
		return "cm"
	case "perl":
		return "eE"
	case "ruby", "lua", "luajit", "julia":
		return "e"
	case "node", "nodejs":
		return "ep"
	case "php":
		return "rf"
	}
	return ""
}

// replModules are the Python modules that, run with -m, read code from the terminal.
var replModules = sync.OnceValue(func() map[string]bool {
	return setOf("code", "pdb", "ipdb", "pudb", "asyncio", "IPython", "bpython", "ptpython", "idlelib", "idlelib.idle", "_pyrepl")
})

// readerLine is what readsProgram reads of a program reader's command line: its options
// before the first operand (the script, or a subcommand), their letters, and what follows.
type readerLine struct {
	opts     []string // the option words, values of value options included
	letters  string   // every one-letter flag given, in order (-ui gives "ui")
	program  string   // the value of a program letter (python -m MOD, -c CODE), if any
	hasProg  bool     // a program letter was given
	operands []word   // the first operand and every word after it
}

// readReaderLine splits words[1:] of the program reader name: options (a value option
// takes the rest of its word or the next word), then, from the first operand or the value
// of a program letter on, the program's own arguments, which are never the reader's
// options (python3 x.py -i runs x.py with -i).
func readReaderLine(name string, words []word) readerLine {
	var l readerLine
	values, progs := valueOptions(name), programLetters(name)
	for i := 1; i < len(words); i++ {
		w := words[i].text
		if w == "--" {
			l.operands = words[i+1:]
			return l
		}
		if w == "-" || !strings.HasPrefix(w, "-") || !words[i].static {
			l.operands = words[i:]
			return l
		}
		l.opts = append(l.opts, w)
		if strings.HasPrefix(w, "--") {
			continue
		}
		for j := 1; j < len(w); j++ {
			c := w[j]
			l.letters += string(c)
			if strings.IndexByte(values, c) < 0 {
				continue
			}
			v := w[j+1:]
			if v == "" && i+1 < len(words) {
				i++
				v = words[i].text
				l.opts = append(l.opts, v)
			}
			if strings.IndexByte(progs, c) >= 0 {
				l.program, l.hasProg = v, true
				if c == 'm' && (name == "python" || name == "pypy" || name == "ipython") {
					l.program = "-m " + v
				}
				l.operands = words[i+1:]
				return l
			}
			break // the rest of the word was the value
		}
	}
	return l
}

// mayVanish reports whether w, a word of a program reader's line, may expand to no word at
// all: an unquoted parameter expansion or command substitution alone ($X, ${X},
// $(cmd)), which leaves the bare program when empty (red team round 37: python3 $X).
// Quoted, or with literal text beside it, it is at least one word.
func mayVanish(w word) bool {
	if w.static || w.exp == nil || !w.exp.split {
		return false // a value, or a quoted expansion: one word at least
	}
	for _, p := range w.pieces {
		if !p.hole && p.text != "" {
			return false // literal text beside the expansion
		}
	}
	return true
}

// readsProgram reports whether the program base, run as words with a stdin the line does not
// spell, may read from it a program or a shell's commands, which nothing can check. Codex
// runs a command with a terminal and feeds it through write_stdin, which fires no hook (red
// team rounds 35 to 38: python3, then python3 -m code, with a terminal, then
// shutil.rmtree on its stdin). Only the reader's own options count, those before its script
// or subcommand (readReaderLine). It holds for a program of programReaders given no
// program — no script operand and no program option (python -c, -m, perl -e, ...), unless
// an option prints and exits (endsAtOnce) — or whose first operand is the stdin or the
// terminal (stdinPath) or may expand to nothing (mayVanish), and for:
//
//   - python run interactively (-i, alone or combined: -ui; also after -c) or with a REPL
//     or debugger module (-m code, -mpdb);
//   - node with -i or inspect, perl with -d (its debugger; -d:Module is a profiler), ed
//     (its commands always come from stdin);
//   - deno or bun given only repl;
//   - tmux, screen, byobu, zellij given no command, or only new or attach;
//   - make, at, batch, crontab reading their file from stdin (make -f -, crontab -; at and
//     batch without -f);
//   - socat with an EXEC: or SYSTEM: address, systemd-run with a terminal (--pty, -t, -P).
func readsProgram(base string, words []word) bool {
	name := strings.TrimSuffix(base, "-dbg")
	name = strings.TrimRight(name, "0123456789.")
	if !programReaders()[name] {
		return false
	}
	l := readReaderLine(name, words)
	first := ""
	if len(l.operands) > 0 {
		if mayVanish(l.operands[0]) {
			return true
		}
		first = l.operands[0].text
	}
	if stdinPath(first) && (!l.hasProg || name == "make" || name == "gmake") {
		return true
	}
	switch name {
	case "python", "pypy", "ipython":
		if strings.Contains(l.letters, "i") {
			return !endsAtOnce(name, l.opts)
		}
		if l.hasProg {
			return strings.HasPrefix(l.program, "-m ") && replModules()[strings.TrimPrefix(l.program, "-m ")]
		}
	case "node", "nodejs":
		if !l.hasProg && (strings.Contains(l.letters, "i") || slices.Contains(l.opts, "--interactive") || first == "inspect") {
			return !endsAtOnce(name, l.opts)
		}
	case "perl":
		for _, o := range l.opts {
			if strings.HasPrefix(o, "--") || !strings.HasPrefix(o, "-") {
				continue
			}
			for j := 1; j < len(o) && strings.IndexByte(valueOptions(name), o[j]) < 0; j++ {
				if rest := o[j+1:]; o[j] == 'd' && !strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "t:") {
					return true // the debugger reads its commands from the terminal (-d:Mod is a profiler)
				}
			}
		}
	case "ed", "red":
		return true // its commands come from stdin, files or not (!CMD)
	case "deno", "bun":
		return first == "" && !endsAtOnce(name, l.opts) || first == "repl"
	case "tmux", "screen", "byobu", "zellij":
		if _, ok := tmuxShellCommand(words[1:]); ok && name == "tmux" {
			return false // a shell runs the command, read as sh -c's (tmuxShellCommand)
		}
		switch {
		case endsAtOnce(name, l.opts):
			return false
		case len(l.operands) == 0:
			return true
		}
		switch first {
		case "new", "new-session", "attach", "attach-session", "a", "at":
		default:
			return false // a command it runs, which the analysis reads, or one it only asks about
		}
		// new or attach, with options only: a shell on the terminal.
		rest := l.operands[1:]
		for i := 0; i < len(rest); i++ {
			w := rest[i].text
			switch {
			case !strings.HasPrefix(w, "-"):
				return false // the command the new session runs
			case len(w) == 2 && strings.IndexByte(valueOptions(name), w[1]) >= 0:
				i++
			}
		}
		return true
	case "make", "gmake":
		for _, o := range l.opts {
			if v, ok := strings.CutPrefix(o, "--file="); ok && stdinPath(v) {
				return true
			}
			if v, ok := strings.CutPrefix(o, "--makefile="); ok && stdinPath(v) {
				return true
			}
			if v, ok := strings.CutPrefix(o, "-f"); ok && v != "" && stdinPath(v) {
				return true
			}
		}
		for i, o := range l.opts {
			if (o == "-f" || o == "--file" || o == "--makefile") && i+1 < len(l.opts) && stdinPath(l.opts[i+1]) {
				return true
			}
		}
		return false
	case "at", "batch":
		return !endsAtOnce(name, l.opts) && !slices.ContainsFunc(l.opts, func(o string) bool {
			return o == "-f" || o == "-l" || o == "-r" || o == "-d" || o == "-c"
		}) // without a file, at reads the job from stdin
	case "crontab":
		return false // only "crontab -", seen above
	case "socat":
		for _, o := range l.operands {
			u := strings.ToUpper(o.text)
			if strings.HasPrefix(u, "EXEC:") || strings.HasPrefix(u, "SYSTEM:") {
				return true
			}
		}
		return false
	case "systemd-run":
		return slices.ContainsFunc(l.opts, func(o string) bool {
			return o == "--pty" || o == "-t" || o == "-P" || o == "--pipe" || o == "--shell" || o == "-S"
		})
	}
	return len(l.operands) == 0 && !l.hasProg && !endsAtOnce(name, l.opts)
}

// stdinPath reports whether p names the process's stdin or its terminal: -, /dev/stdin,
// /dev/tty, /dev/stdout, /dev/stderr (on a terminal all are readable), /dev/fd/0 to 2,
// /proc/*/fd/0 to 2, a /dev/pts/ device, however spelled (/dev//stdin, /dev/./stdin, and
// relative: ../../dev/stdin).
func stdinPath(p string) bool {
	if p == "" {
		return false
	}
	if p == "-" {
		return true
	}
	c := path.Clean(p)
	if strings.HasPrefix(c, "../") {
		for strings.HasPrefix(c, "../") {
			c = c[3:] // above the working directory: the root, for all it tells
		}
		c = "/" + c
	}
	switch c {
	case "/dev/stdin", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/console":
		return true
	}
	std := func(fd string) bool { return fd == "0" || fd == "1" || fd == "2" }
	if fd, ok := strings.CutPrefix(c, "/dev/fd/"); ok {
		return std(fd) // 3 and up: a descriptor the line opens, read as its text elsewhere
	}
	if strings.HasPrefix(c, "/dev/pts/") {
		return true
	}
	parts := strings.Split(c, "/")
	return len(parts) == 5 && parts[1] == "proc" && parts[3] == "fd" && std(parts[4])
}

// endsAtOnce reports whether options opts of the program reader name make it print something
// and exit without reading a program: --version, --help and their kin, and per program its
// own (python -V, node -v, php -m, screen -ls, ...).
func endsAtOnce(name string, opts []string) bool {
	for _, o := range opts {
		switch o {
		case "--version", "--help", "--help-all", "-version", "-?", "--revision", "--v8-options", "--ini", "--test", "--check":
			return true
		case "-h":
			if name != "tmux" && name != "screen" { // their -h is no help
				return true
			}
		}
		if strings.HasPrefix(o, "--") || len(o) < 2 || o[0] != '-' {
			continue
		}
		var flags string
		switch name {
		case "python", "pypy":
			flags = "V"
		case "node", "nodejs":
			flags = "vc"
		case "perl":
			flags = "vV"
		case "php":
			flags = "vmi"
		case "ruby", "lua", "luajit", "bun", "julia", "irb", "pwsh", "expect":
			flags = "v"
		case "deno", "dc", "at", "tmux":
			flags = "V"
		case "screen":
			if o == "-ls" || o == "-list" {
				return true
			}
			flags = "v"
		}
		if flags != "" && strings.IndexByte(flags, o[1]) >= 0 && (len(o) == 2 || name == "perl" && o[2] == ':' || name == "python" && o == "-VV") {
			return true
		}
	}
	return false
}

// bangPrograms lists programs (base names) whose input runs the text after a '!' as a
// shell command: ed's !CMD, w !CMD, r !CMD and e !CMD, the mail readers' ~!CMD, ftp's and
// sftp's !CMD, dc's !CMD, gdb's and lftp's !CMD (red team 3, finding 3: echo '!rm -rf x' |
// ed deleted x). Vim and its relatives read Ex commands or keystrokes (exProgram).
var bangPrograms = sync.OnceValue(func() map[string]bool {
	return setOf("ed", "red", "mail", "mailx", "Mail", "s-nail", "bsd-mailx", "ftp",
		"sftp", "lftp", "tnftp", "dc", "gdb", "cgdb", "busybox")
})

// m4Programs lists the names of m4, whose input runs commands through syscmd and esyscmd.
var m4Programs = sync.OnceValue(func() map[string]bool {
	return setOf("m4", "gm4")
})

// escapeText analyses, for deny rules, the spelled input in of the program base for a
// command escape of that program's own language:
//
//   - for bangPrograms(), the text after each '!' on each line is code;
//   - for m4, a text with a '(' makes the line match every deny rule (m4Text);
//   - for Vim and its relatives, any text does (exProgram: Ex commands in Ex mode,
//     keystrokes otherwise, a -S script when opened by name).
//
// A text with an expansion (in.source) that one of them reads makes the line match every
// deny rule: its value may hold any escape.
func (b *Commands) escapeText(base string, in *input, c ctx) {
	switch {
	case exProgram(base):
		b.denyAll = true
	case (sqlitePrograms()[base] || gdbPrograms()[base]) && in.source:
		b.denyAll = true
	case sqlitePrograms()[base]:
		b.denyScope(func() { b.sqliteText(in.script, c) })
	case gdbPrograms()[base]:
		b.denyScope(func() { b.gdbText(in.script, c) })
	case !bangPrograms()[base] && !m4Programs()[base]:
	case in.source:
		b.denyAll = true
	case bangPrograms()[base]:
		for line := range strings.SplitSeq(in.script, "\n") {
			for i := strings.IndexByte(line, '!'); i >= 0 && !b.all; {
				b.codeString(line[i+1:], c)
				j := strings.IndexByte(line[i+1:], '!')
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	default:
		b.m4Text(in.script)
	}
}

// m4Text makes the line match every deny rule when s, text that m4 reads as input or as
// a macro body (-D NAME=BODY), holds a '(': m4 runs commands through syscmd and esyscmd,
// and builds their names at run time from any macro that returns text it then rescans
// (a body's $1$2, ifelse, translit, format, builtin, indir, defn, m4wrap; red team 4,
// finding 9), and every such call takes arguments, in parentheses. Text without one only
// names macros.
func (b *Commands) m4Text(s string) {
	if strings.IndexByte(s, '(') >= 0 {
		b.denyAll = true
	}
}

// m4Args analyses m4's arguments for deny rules: each one's text is read by m4Text (a -D
// or --define body, and any other word, which errs toward matching), and a word of unknown
// value makes the line match every deny rule.
func (b *Commands) m4Args(args []word) {
	for _, a := range args {
		if !a.static {
			b.denyAll = true
			return
		}
		b.m4Text(a.text)
	}
}

// stdinText analyses s, the stdin of a program not known to be inert nor to be a shell,
// as code for deny rules, on a guess: parsed whole, or else line by line (a shell runs
// the lines before a syntax error), a line that does not parse read by guessText. The
// input of a program that may be a shell, and the commands of an escape (ed's !CMD), go
// through codeString instead.
func (b *Commands) stdinText(s string, c ctx) {
	b.guessing++ // a make recipe, too (makePrefixless)
	defer func() { b.guessing-- }()
	b.readCode(s, c, func(depth int) {
		for line := range strings.SplitSeq(s, "\n") {
			if f, ok := parse(line); ok {
				b.walk(f, line, depth, false)
			} else {
				b.guessText(line, depth)
			}
			if b.all {
				return
			}
		}
	})
}

// tmuxShellCommand returns the shell command of tmux's own -c option (`tmux [-2CDlNuVv]
// [-c shell-command] [-f file] [-L socket-name] [-S socket-path] [-T features]`): tmux
// runs it with its default shell, as `sh -c` would, in the working directory, and starts no
// server nor terminal (tmux(1): for use as a login shell). A -c after tmux's command
// (new-session -c DIR) is that command's start directory, not this.
func tmuxShellCommand(args []word) (word, bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if !args[i].static || t == "--" || len(t) < 2 || t[0] != '-' || t[1] == '-' {
			return word{}, false
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte("cfLST", t[j]) < 0 {
				continue
			}
			v := word{text: t[j+1:], static: true}
			if v.text == "" {
				if i++; i >= len(args) {
					return word{}, false
				}
				v = args[i]
			}
			if t[j] == 'c' {
				return v, true
			}
			break
		}
	}
	return word{}, false
}

package shell

import (
	"path"
	"strings"
	"sync"
)

// A program outside the wrapper table may run its arguments as a command all the same:
// setpriv rm -rf x, prlimit, setarch, choom, fakeroot, systemd-run, firejail, bwrap,
// dbus-run-session, sg root -c 'rm -rf x', tmux new -d 'rm -rf x', pee 'rm -rf x', and
// options whose value is a command (tar --to-command=, rsync -e, ssh -o ProxyCommand=,
// go test -exec) (red team, stop 20). The table of wrappers (bashwrap.go) can never be
// complete, so deny rules fail closed on every program that is not known to be inert:
//
//   - each suffix of its words that starts at a word (argv[k:], k ≥ 1) is analysed as a
//     command of its own, for deny rules only (tails);
//   - each operand that holds a blank or a shell operator is analysed as shell code, and so
//     is the text after each '=' in a word (--to-command=rm, ProxyCommand=...), for deny
//     rules only (operandCode).
//
// A program is inert when it is known not to run any operand as a command (inertProgram):
// echo, printf, cat, grep, ls, man, the coreutils that only read or write files, the bash
// builtins the engine already analyses, and git's subcommands that run nothing (git is
// analysed per subcommand, gitArgs). Inert programs are not looked into: `grep rm file`,
// `man rm`, `echo rm -rf x` and `git commit -m "rm -rf x"` match no rule for rm.
//
// Deny rules only: the suffixes and operand scripts add texts, never units, so an allow
// rule still has to permit the program itself (Bash(setpriv *)); a suffix that looks like
// an allowed command permits nothing. What makes such an analysis opaque (a word of
// unknown value where a command may start, a script nested too deep) makes the line match
// every deny rule (denyAll) but leaves allow rules as they were.

// maxTailWords bounds the words of one command whose suffixes are analysed; a command with
// more words, run by a program that is not inert, matches every deny rule.
const maxTailWords = 256

// maxEquals bounds the '=' signs of one word after which the rest is analysed as code.
const maxEquals = 4

// inertPrograms lists programs (base names) that do not run an operand as a command: the
// bash builtins that run nothing (or that builtinEval and the walk already analyse), and
// common programs that only read, print, search or change files and text. A program with an
// option whose value is a command is inert only with inertExec naming that option.
var inertPrograms = sync.OnceValue(func() map[string]bool {
	return setOf(
		// bash builtins (eval, source, trap, alias, the shells, find and the wrappers are
		// analysed by addCall itself).
		"cd", "pushd", "popd", "dirs", "echo", "printf", "test", "[", "true", "false", ":", "pwd", "exit",
		"return", "break", "continue", "shift", "shopt", "caller", "help", "history", "jobs", "fg", "bg",
		"disown", "wait", "kill", "ulimit", "umask", "times", "type", "unalias", "unset", "logout",
		"suspend", "getopts", "read", "readarray", "mapfile", "let", "local", "declare", "typeset",
		"export", "readonly", "set", "enable", "complete", "compgen", "compopt", "bind", "hash", "fc",
		// coreutils and util-linux that read, print or change files.
		"ls", "dir", "vdir", "cat", "tac", "head", "tail", "wc", "cut", "paste", "join", "tr", "uniq",
		"comm", "cmp", "diff", "basename", "dirname", "realpath", "readlink", "stat", "touch",
		"mkdir", "rmdir", "cp", "mv", "ln", "rm", "chmod", "chown", "chgrp", "shred", "truncate", "dd",
		"du", "df", "date", "sleep", "id", "whoami", "groups", "hostname", "uname", "arch", "nproc",
		"printenv", "seq", "yes", "tee", "base64", "base32", "basenc", "md5sum", "sha1sum",
		"sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "fold", "fmt",
		"nl", "pr", "expand", "unexpand", "numfmt", "factor", "expr", "tsort", "mktemp", "mkfifo",
		"install", "sync", "tty", "who", "users", "logname", "csplit", "shuf", "column", "rev",
		"look", "lsblk", "free", "uptime", "ps", "pgrep", "pkill", "killall", "lsof", "file", "tree",
		"which", "whereis", "whatis", "apropos", "iconv", "sort",
		// text, search and data tools (sed and awk run commands: bashtext.go reads their
		// programs; less and more read a lesskey file that may set LESSOPEN to a command: red
		// team 4, finding 8; gofmt runs nothing it is given, red team round 54: `find . -name
		// '*.go' | xargs gofmt -l`).
		"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "jq", "yq", "man", "info",
		"xxd", "od", "hexdump", "strings", "gofmt",
		// archives and transfers that run no command of theirs.
		"gzip", "gunzip", "zcat", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzip", "curl", "wget",
		"ping", "dig", "nslookup", "host",
		// Codex's patch tool as a program on its shells' PATH: it applies the patch it is
		// given, whose lines (`*** Add File: x`) are not code (red team round 65: the
		// patch read as a guessed script matched the guardrails' rm guard).
		"apply_patch", "applypatch",
	)
})

// inertExec names, for inert programs, the options whose value is a command: the value
// (attached with '=' or as the next word) is analysed as code for deny rules.
var inertExec = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"rg":      {"--pre"},
		"sort":    {"--compress-program"},
		"man":     {"-P", "--pager", "-H", "--html"},
		"wget":    {"--use-askpass", "-e", "--execute"}, // -e 'use_askpass=CMD': a wgetrc command
		"ag":      {"--pager"},
		"ack":     {"--pager"},
		"install": {"--strip-program"},
	}
})

// codeFiles names, per program (inert or not), the options whose value is a file the
// program reads as code or as settings that can name a command: less's lesskey file (its
// #env section may set LESSOPEN='|CMD'), wget's wgetrc (use_askpass), man-db's
// configuration (DEFINE pager). A file the line may write (a stream, <(…), a word of
// unknown value: programFile) makes every deny rule match; any other is a file's content.
// Red team 4, finding 8: less --lesskey-src=/dev/stdin x <<< $'#env\nLESSOPEN=|rm -rf x %s'.
var codeFiles = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"less": {"-k", "--lesskey-file", "--lesskey-src"},
		"wget": {"--config"},
		"man":  {"-C", "--config-file"},
	}
})

// inertProgram reports whether the program base (a base name) runs no operand as a command.
func inertProgram(base string) bool { return inertPrograms()[base] }

// The word tables of this package are built on first use (sync.OnceValue), not at
// package initialisation: every hook process paid for them at start, a fortieth of a
// millisecond, whether or not its rules read a shell command (issue 9, the lean hook binary).

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// program analyses, for deny rules, the arguments of words[0], a program that addCall does
// not otherwise understand: nothing for an inert one but the options of inertExec(), else
// its suffixes and code operands. In a suffix already (c.tail) it does nothing: the
// suffixes of the outer command cover this one's.
func (b *Commands) program(base string, words []word, c ctx) {
	if b.textProgram(base, words[1:], c) {
		return
	}
	inert := inertProgram(base)
	if !inert {
		b.stdinData(base, words, c)
	}
	if makeProgram(base) {
		b.makeArgs(words[1:], c) // '$' it expands itself (bashmake.go)
	}
	if c.tail {
		return
	}
	if opts := codeFiles()[base]; opts != nil {
		b.denyScope(func() { b.codeFileOptions(words[1:], opts) })
	}
	switch {
	case inert:
		if opts := inertExec()[base]; opts != nil {
			b.denyScope(func() { b.execOptions(words[1:], opts, c) })
			b.unknownOptions(base, words[1:], opts, c)
		}
		return
	case exProgram(base):
		b.exArgs(words[1:])
	case m4Programs()[base]:
		b.m4Args(words[1:])
	case sshPrograms()[base]:
		b.denyScope(func() { b.percentCode(words[1:], c) })
	case sqlitePrograms()[base]:
		b.denyScope(func() { b.sqliteArgs(words[1:], c) })
	case gdbPrograms()[base]:
		b.denyScope(func() { b.gdbArgs(words[1:], c) })
	}
	b.tails(words, c)
}

// codeFileOptions checks, for deny rules, the values of the options opts among args
// (codeFiles()) with programFile: -k FILE, -kFILE, --opt FILE, --opt=FILE, a long option
// by any prefix (longOption). Only inside denyScope.
func (b *Commands) codeFileOptions(args []word, opts []string) {
	for i := 0; i < len(args) && !b.all; i++ {
		t := args[i].text
		name, value, eq := strings.Cut(t, "=")
		for _, o := range opts {
			switch {
			case len(o) > 2:
				if !longOption(name, o) && name != o {
					continue
				}
				v := word{static: true}
				switch {
				case eq:
					v = word{text: value, static: args[i].static, pieces: args[i].pieces, exp: args[i].exp}
				case i+1 < len(args):
					v = args[i+1]
				}
				if !args[i].static && eq {
					b.all = true // --lesskey-src=<(…), --config="$f"
					return
				}
				b.programFile(v)
			case len(t) > 1 && t[0] == '-' && t[1] != '-': // -k FILE, -kFILE, -xkFILE
				for j := 1; j < len(t) && j <= maxCluster && isOptionLetter(t[j]); j++ {
					if t[j] != o[1] {
						continue
					}
					if !args[i].static {
						b.all = true
						return
					}
					v := word{static: true}
					if j+1 < len(t) {
						v = word{text: t[j+1:], static: true}
					} else if i+1 < len(args) {
						v = args[i+1]
					}
					b.programFile(v)
					break
				}
			}
		}
	}
}

// tails analyses, for deny rules, every suffix words[k:] (k ≥ 1) as a command, and every
// operand as possible code (see the comment at the top of this file).
func (b *Commands) tails(words []word, c ctx) {
	if len(words) < 2 && !c.xargs {
		return
	}
	if len(words) > maxTailWords || c.xargs && c.marker == "" {
		b.denyAll = true // too many to try; or xargs appends words that may be the command
		return
	}
	b.denyScope(func() {
		tc := c
		tc.tail = true
		for k := 1; k < len(words) && !b.all; k++ {
			w := words[k]
			if c.braces && w.text == "{}" {
				continue // a file name (find -exec): a program written to the tree (security.md)
			}
			if k <= 2 && removeSubcommand(words[:k+1]) {
				continue // docker rm, npm rm, aws s3 rm: the CLI's own verb, not the program rm
			}
			b.addCall(words[k:], tc)
		}
		gc := c
		gc.guess = true // an operand is read as code on a guess (denyCode)
		for k := 1; k < len(words) && !b.all; k++ {
			b.operandCode(words[k], gc)
		}
	})
}

// removeSubcommand reports whether words, a command's first words, are a subcommand CLI's
// name and the path of its own subcommand rm, which removes the CLI's objects (containers,
// packages, remote files) and runs no program: `docker rm c`, `docker container rm c`,
// `npm rm lodash`, `aws s3 rm s3://b/k`. The suffix from that rm on is then not read as a
// command, the one case of tails' reading (every suffix may be a command the program runs)
// that a whole class of everyday lines fell into (red team round 65: `docker rm abc` matched
// the guardrails' rm guard; so did npm, pnpm, bun, brew, cargo, rclone, gsutil, hg and svn's
// rm). Every word must be static and the path exact: no option before the subcommand (a
// global option's value could stand where the subcommand is read: `docker --context rm run
// img rm -rf /h`), and the suffixes after rm are still commands (`docker rm rm -rf x`).
// A function, not a table, so that no hook process builds it at start (issue 9).
func removeSubcommand(words []word) bool {
	n := len(words)
	if n < 2 || n > 3 || words[n-1].text != "rm" {
		return false
	}
	for _, w := range words {
		if !w.static {
			return false
		}
	}
	base := path.Base(words[0].text)
	if n == 2 {
		switch base {
		case "docker", "podman", "nerdctl", "docker-compose", "podman-compose", "npm", "pnpm", "bun", "brew",
			"cargo", "rclone", "gsutil", "mc", "hg", "svn":
			return true
		}
		return false
	}
	switch mid := words[1].text; base {
	case "docker", "podman", "nerdctl":
		switch mid {
		case "container", "image", "volume", "network", "compose", "context", "buildx", "builder", "plugin",
			"secret", "config", "service", "stack", "node", "manifest", "pod", "machine":
			return true
		}
	case "aws":
		return mid == "s3"
	case "gcloud":
		return mid == "storage"
	}
	return false
}

// operandCode analyses an operand for deny rules: as shell code when it holds a blank or a
// shell operator, the text after each '=' in it (up to maxEquals), the text after a
// leading '+' (vim +CMD, +'!CMD': red team 3, finding 7), and, for a short-option cluster,
// each value it may carry attached (clusterValues: -yx'CMD', -TTCMD).
func (b *Commands) operandCode(w word, c ctx) {
	if codeLike(w.text) {
		b.codeString(w.text, c)
	}
	if strings.HasPrefix(w.text, "+") && len(w.text) > 1 {
		b.codeString(w.text[1:], c)
	}
	for _, v := range clusterValues(w.text) {
		if b.all {
			return
		}
		b.codeString(v, c)
	}
	t := w.text
	for n := 0; n < maxEquals && !b.all; n++ {
		i := strings.IndexByte(t, '=')
		if i < 0 {
			return
		}
		t = t[i+1:]
		if t != "" {
			b.codeString(t, c)
		}
	}
}

// maxCluster bounds the option letters of a short-option cluster read by clusterValues.
const maxCluster = 16

// clusterValues returns the values a short-option cluster (one '-', then option letters:
// -iO'CMD', -yxCMD, -TTCMD) may carry attached: for each letter, the rest of the word after
// it, up to maxCluster letters, or nil for a word that is not such a cluster. getopt and
// git's parse-options read the value of a value-taking letter as the rest of the cluster
// (red team 3, findings 4 to 6); which letters take one is not known here, so every split
// is tried, which errs toward matching.
func clusterValues(t string) []string {
	if len(t) < 3 || t[0] != '-' || t[1] == '-' {
		return nil
	}
	var out []string
	for j := 1; j < len(t)-1 && j <= maxCluster && isOptionLetter(t[j]); j++ {
		out = append(out, t[j+1:])
	}
	return out
}

// clusterValue returns the value of the short option letter in args[i], a word holding a
// short-option cluster (-O, -iO'CMD', -nO CMD): the rest of the word after the letter, or
// the next word when the letter ends the cluster; false when args[i] is not a cluster of
// option letters holding it.
func clusterValue(args []word, i int, letter byte) (string, bool) {
	t := args[i].text
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return "", false
	}
	for j := 1; j < len(t) && j <= maxCluster && isOptionLetter(t[j]); j++ {
		if t[j] != letter {
			continue
		}
		if j+1 < len(t) {
			return t[j+1:], true
		}
		if i+1 < len(args) {
			return args[i+1].text, true
		}
		return "", false
	}
	return "", false
}

func isOptionLetter(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

// codeLike reports whether s may be a command line rather than one word: it holds a blank
// or a byte bash reads as an operator or an expansion.
func codeLike(s string) bool { return strings.ContainsAny(s, " \t\n;|&<>()`$") }

// execOptions analyses the values of the options opts among args as code (optionCode):
// the next word, or the text after '=' of a long option, which may be abbreviated
// (longOption), or the rest of a short option's word (-xCMD).
func (b *Commands) execOptions(args []word, opts []string, c ctx) {
	for i := 0; i < len(args) && !b.all; i++ {
		t := args[i].text
		name, value, eq := strings.Cut(t, "=")
		for _, o := range opts {
			switch {
			case len(o) > 2: // a long option, or a prefix of it (longOption)
				if !longOption(name, o) && name != o {
					continue
				}
				if eq {
					b.optionCode(value, c)
				} else if i+1 < len(args) {
					b.optionCode(args[i+1].text, c)
				}
			default: // -x CMD, -xCMD, -ix'CMD', -ix CMD (clusterValue)
				if v, ok := clusterValue(args, i, o[1]); ok {
					b.optionCode(v, c)
				}
			}
		}
	}
}

// optionCode analyses the value of an option that is a command, or a setting holding
// one (wget -e use_askpass=CMD): as code, and the text after each '=' in it.
func (b *Commands) optionCode(s string, c ctx) {
	b.operandCode(word{text: s, static: true}, c)
	if !codeLike(s) {
		b.codeString(s, c)
	}
}

// codeString analyses s, a string some program may run as a shell command line, for deny
// rules, one level deeper: a leading '|' or '!' (LESSOPEN's "|cmd", git's "!cmd") and
// blanks are dropped. A string that does not parse makes every deny rule match, or, read
// on a guess (c.guess), is read by guessText (denyCode).
func (b *Commands) codeString(s string, c ctx) {
	s = strings.TrimLeft(s, " \t\n|!")
	if s == "" {
		return
	}
	b.denyCode(s, c)
}

// denyCode analyses s as shell code for deny rules, one level deeper than c (past
// maxShellDepth: every deny rule matches): a plain line by the fast path, else the parsed
// script. It is the one path for every text read as code for deny rules, and a text that
// does not parse is never split into words at blanks alone: bash runs what the parser
// rejects in ways it does not model (an unterminated here-document at the end, which bash
// runs with a warning; a stray quote of the program's own language around shell code:
// make --eval="x': ;rm -rf d"), so a command after ';' or '|' would be missed (red team,
// round 6, finding 2).
//
//   - A text a program runs as shell by its spec (sh -c's script, awk's system(), sed's e,
//     ed's !, strace -o '|…', git rebase -x, the options of gitExec and inertExec()) that
//     does not parse makes every deny rule match, as a script of sh -c does.
//   - A text read as code on a guess (c.guess: an operand of a program not known to be
//     inert, an assignment's value, a line of a non-shell's stdin) is mostly not shell
//     (SQL's "select * from t", Python's "print(1)", "it's"), and failing closed on it
//     would match every deny rule on most such lines; it is read by guessText, which
//     errs toward matching. Such a text may be a make recipe line, so each of its
//     commands is also checked without make's prefixes (makePrefixless).
func (b *Commands) denyCode(s string, c ctx) {
	if c.guess {
		b.guessing++
		defer func() { b.guessing-- }()
		if strings.ContainsAny(s, ";&|\n") {
			b.guessLines++
			defer func() { b.guessLines-- }()
		}
	}
	b.readCode(s, c, func(depth int) {
		if !c.guess {
			b.all = true // made denyAll by denyScope
			return
		}
		b.guessText(s, depth)
	})
}

// makePrefixless returns words, a command in a text read as code on a guess, without the
// recipe prefixes make removes before it hands a recipe line to the shell: the leading
// '@', '-' and '+' characters of the first word, in any mix, and the words made only of
// them ("@-+rm" and "@ rm" run rm; red team, round 7, finding 2). ok is false when the
// first word has no such prefix or is not static; the result may be empty.
func makePrefixless(words []word) ([]word, bool) {
	if len(words) == 0 || !words[0].static || strings.TrimLeft(words[0].text, "@-+") == words[0].text {
		return nil, false
	}
	for len(words) > 0 && words[0].static {
		first := words[0]
		first.text = strings.TrimLeft(first.text, "@-+")
		if first.text != "" {
			return append([]word{first}, words[1:]...), true
		}
		words = words[1:]
	}
	return words, true
}

// guessText analyses s, a text read as code on a guess that does not parse (denyCode), as
// every command a shell could run from any part of it: with '$' or '`' in it (an expansion
// or substitution whose value is not known) every deny rule matches; otherwise its
// backslash-newlines, backslashes and quotes are removed, it is cut at every byte that may
// end a command or start one (; & | ( ) < > { } and line ends), and each piece's words are
// a command (and, through program, each of its suffixes). Removing quotes only joins or
// splits words where a shell would keep them apart or together, which makes more texts
// match, never fewer.
func (b *Commands) guessText(s string, depth int) {
	if strings.ContainsAny(s, "$`") {
		b.all = true // made denyAll by denyScope
		return
	}
	s = strings.NewReplacer("\\\n", "", "\\", "", "'", "", `"`, "").Replace(s)
	pieces := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(";&|()<>{}\n\r", r) })
	for _, p := range pieces {
		if b.all {
			return
		}
		var words []word
		for _, f := range strings.Fields(p) {
			words = append(words, word{text: f, static: true})
		}
		if len(words) > 0 {
			b.addCall(words, ctx{depth: depth})
		}
	}
}

// readCode analyses s as shell code for deny rules inside denyScope, one level deeper
// than c: a plain line by the fast path, else the parsed script; a text that does not
// parse is handed to unparsed with the depth to use. Only denyCode and stdinText call it.
func (b *Commands) readCode(s string, c ctx, unparsed func(depth int)) {
	b.denyScope(func() {
		depth := c.depth + 1
		if depth > maxShellDepth {
			b.all = true
			return
		}
		if b.collectPlain(s, depth) {
			return
		}
		if f, ok := parse(s); ok {
			b.walk(f, s, depth, false)
			return
		}
		unparsed(depth)
	})
}

// denyScope runs f as an analysis for deny rules only: it adds no units, its evaluating
// contexts are settled on their own (the code runs in another process), and what would make
// the line opaque makes it match every deny rule instead (denyAll).
func (b *Commands) denyScope(f func()) {
	if b.all {
		return
	}
	saved := b.eval
	b.eval = evalState{}
	b.deny++
	f()
	b.deny--
	b.settleEval()
	b.eval = saved
	if b.all {
		b.all, b.denyAll = false, true
	}
}

// unknownName analyses, for deny rules, a command whose name words[0] is not a fixed word
// (only inside denyScope; elsewhere such a name makes the line opaque): a name whose base
// name is literal ("$HOME/bin/rm") is that program; a glob is matched as the file names it
// may expand to (hole.go); a name made of variables the line does not set comes from the
// agent's environment (checked when the line is settled); anything else matches every
// deny rule.
func (b *Commands) unknownName(words []word, c ctx) {
	w := words[0]
	if base, ok := literalBase(w); ok {
		out := append([]word{{text: base, static: true}}, words[1:]...)
		b.addCall(out, c)
		return
	}
	if mktempName(w) {
		return // a new file's or directory's name: it runs nothing (stop 33)
	}
	e := w.exp
	switch {
	case e != nil && e.glob != nil:
		b.addGlob(e.glob)
	case e != nil && len(e.vars) > 0 && !e.dyn:
		b.nameReads = append(b.nameReads, nameRead{words: words, c: c, guessing: b.guessing, lines: b.guessLines > 0}) // bashvalues.go
	default:
		b.all = true
		return
	}
	b.program("", words, c)
}

// mktempName reports whether the word w is one command substitution of mktemp with
// literal arguments, `$(mktemp -d)`: where a program's suffix may start (tar -C "$(mktemp
// -d)", bashtail.go's tails) its value is the name of the file or directory mktemp has
// just made (mode 0600: no program), or of none with -u, which runs nothing. The
// substitution's command is read as a command of its own. A false positive of the tails'
// reading before stop 33: `tar -xf x.tar -C "$(mktemp -d)"` matched every deny rule.
func mktempName(w word) bool {
	t, ok := strings.CutPrefix(w.text, "$(")
	if !ok || !strings.HasSuffix(t, ")") {
		return false
	}
	f := strings.Fields(strings.TrimSuffix(t, ")"))
	if len(f) == 0 || f[0] != "mktemp" {
		return false
	}
	for _, a := range f[1:] {
		if strings.ContainsAny(a, "$`()|;&<>'\"\\") {
			return false
		}
	}
	return true
}

// literalBase returns the base name of a word that is not static when the text after its
// last '/' is literal: "$HOME/bin/rm" is rm.
func literalBase(w word) (string, bool) {
	if len(w.pieces) == 0 {
		return "", false
	}
	last := w.pieces[len(w.pieces)-1]
	if last.hole {
		return "", false
	}
	i := strings.LastIndexByte(last.text, '/')
	if i < 0 || i == len(last.text)-1 {
		return "", false
	}
	return path.Base(last.text[i:]), true
}

// gitInertSub lists git subcommands that run no command given on the line, except
// through the options of gitExec().
var gitInertSub = sync.OnceValue(func() map[string]bool {
	return setOf("add", "am", "annotate", "apply", "archive", "blame", "branch", "bundle",
		"cat-file", "check-ignore", "checkout", "cherry", "cherry-pick", "clean", "clone", "commit",
		"config", "count-objects", "describe", "diff", "fetch", "for-each-ref", "format-patch", "fsck",
		"gc", "grep", "help", "init", "log", "ls-files", "ls-remote", "ls-tree", "maintenance",
		"merge", "merge-base", "mv", "notes", "prune", "pull", "push", "range-diff", "rebase", "reflog",
		"remote", "repack", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog",
		"show", "show-ref", "sparse-checkout", "stash", "status", "switch", "symbolic-ref", "tag",
		"update-ref", "var", "version", "whatchanged", "worktree")
})

// gitExec names, per inert git subcommand, the options whose value is a command (git's
// manual pages: rebase --exec, the remote helpers' --upload-pack/--receive-pack/--exec,
// grep --open-files-in-pager). A short option is also read inside a cluster (-iO'CMD').
var gitExec = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"rebase":    {"-x", "--exec"},
		"fetch":     {"--upload-pack"},
		"pull":      {"--upload-pack"},
		"clone":     {"-u", "--upload-pack"},
		"ls-remote": {"-u", "--upload-pack"},
		"push":      {"--receive-pack", "--exec"},
		"archive":   {"--exec"},
		"grep":      {"-O", "--open-files-in-pager"},
	}
})

// gitArgs analyses, for deny rules, `git SUB ARGS` (sub[0] is SUB): an inert subcommand's
// command options, or, for any other subcommand (bisect run, submodule foreach,
// filter-branch, difftool -x, send-email, an alias), its arguments as those of a program
// that is not inert.
func (b *Commands) gitArgs(sub []word, c ctx) {
	if c.tail || len(sub) == 0 {
		return
	}
	name := sub[0].text
	if sub[0].static && gitInertSub()[name] {
		if opts := gitExec()[name]; opts != nil {
			b.denyScope(func() { b.execOptions(sub[1:], opts, c) })
			b.unknownOptions("git "+name, sub[1:], opts, c)
		}
		return
	}
	b.tails(sub, c)
}

package shell

import (
	"strings"
	"sync"
)

// Vim and its relatives (vi, view, vimdiff, ex, evim, rvim, gvim, nvim, nvi, Debian's
// vim.basic and vim.tiny, …) run the Ex commands the line gives them: -c CMD (-cCMD),
// --cmd CMD and +CMD, and Vim script or keystrokes from a file named by -S, -u, -U, -s
// (and Lua by nvim -l). Ex runs a program in more ways than a list can hold: :!CMD with
// any range or modifier before it (:1,1!, :%!, :silent !, :sil!!), :r !CMD, :w !CMD,
// call system(), systemlist(), :exe, :sh, :terminal, :py, :lua, :perl, :ruby, :normal, a
// file name in backquotes, \= in a substitution, an expression option such as 'foldexpr'
// (red team 4, finding 6: every one of vim -es -c ':!rm -rf x' … deleted x). So, for deny
// rules, the analysis is an allow list:
//
//   - an Ex command it can prove harmless (harmlessEx: a range alone, a quit or write
//     without a shell, a substitution without \=, set of a few plain options, a comment)
//     is skipped; any other, and one whose text is not known, makes the line match every
//     deny rule;
//   - a script file (-S, -u, -U, -s, nvim -l) the line may write (programFile: -, a
//     /dev/fd/N or /dev/stdin path, <(…), a word of unknown value) makes every deny rule
//     match; any other is a file's content (docs/security.md);
//   - --remote-send and --remote-expr (keys and expressions for another Vim) make every
//     deny rule match;
//   - any text the line spells on one of its streams does too (escapeText): stdin holds
//     Ex commands in Ex mode and keystrokes otherwise, and a stream may be a -S script.
//
// `vim file.txt` and `vim -c wq file` match no rule for rm.

// exPrograms lists the base names (before any '.': vim.basic is vim) of Vim and its
// relatives.
var exPrograms = sync.OnceValue(func() map[string]bool {
	return setOf("vi", "vim", "view", "vimdiff", "ex", "evim", "eview", "rvim", "rview",
		"gvim", "gview", "gvimdiff", "rgvim", "rgview", "gex", "vimx", "nvim", "nvi", "nex", "nview",
		"elvis", "vile")
})

// exProgram reports whether base is Vim or a relative (exPrograms()).
func exProgram(base string) bool {
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return exPrograms()[base]
}

// exArgs analyses, for deny rules, the arguments of Vim or a relative (see the top of
// this file). Every word is read as an option, whether or not an earlier one took it as
// its value, which errs toward matching.
func (b *Commands) exArgs(args []word) {
	b.denyScope(func() {
		for i := 0; i < len(args) && !b.all; i++ {
			a := args[i]
			t := a.text
			next := word{static: true}
			if i+1 < len(args) {
				next = args[i+1]
			}
			switch {
			case !a.static:
				if optionLike(a) {
					b.unknownOption(a) // -c"$x", "$opts", a glob a file named '+!rm -rf x' matches
				}
			case t == "--":
				return // file names follow
			case t == "--cmd":
				b.exCommand(next)
			case t == "--remote-send" || t == "--remote-expr":
				b.all = true
			case strings.HasPrefix(t, "--"):
			case strings.HasPrefix(t, "+"):
				b.exCommand(word{text: t[1:], static: true})
			case strings.HasPrefix(t, "-"):
				b.exCluster(t, next)
			}
		}
	})
}

// exCluster analyses one short-option word of Vim (-c CMD, -cCMD, -es, -S FILE, -nu FILE):
// the value of c is an Ex command; that of S, u, U, s and l a script file.
func (b *Commands) exCluster(t string, next word) {
	for j := 1; j < len(t); j++ {
		if !strings.ContainsRune("cSuUsl", rune(t[j])) {
			continue
		}
		v := next
		if j+1 < len(t) {
			v = word{text: t[j+1:], static: true}
		}
		if t[j] == 'c' {
			b.exCommand(v)
			return
		}
		if !b.programFile(v) {
			return
		}
		if j+1 < len(t) && t[j] != 's' {
			return // the rest of the word was the file (-s is a flag in Ex mode: -esc CMD)
		}
	}
}

// exCommand analyses one Ex command given on the line (see the top of this file).
func (b *Commands) exCommand(w word) {
	if !w.static || !harmlessEx(w.text) {
		b.all = true
	}
}

// harmlessEx reports whether the Ex command line s can run no program: after blanks and
// colons, a comment; or a range (numbers, . $ % 'x /pat/ ?pat? and offsets) with no
// command or with one of
//
//   - a quit (:q, :qa, :wq, :wqa, :x, :xa, :wa, with or without !);
//   - a write or update (:w, :up, :wq, :x) to no file or to one plain file name (no blank,
//     no backquote, not starting with ! + or >);
//   - a substitution :s/PAT/REP/FLAGS with a delimiter that is not a letter, a digit, a
//     blank, \ " or |, and a replacement without \= (an expression) or ~ (the previous
//     replacement, which viminfo may hold);
//   - :d (delete lines) to an optional register;
//   - :set, :setlocal or :setglobal of plainOptions only.
//
// Any '|' (another command follows), '`' or control byte makes it not harmless.
func harmlessEx(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 && s[i] != '\t' || s[i] == 0x7f || s[i] == '|' || s[i] == '`' {
			return false
		}
	}
	s = strings.TrimLeft(s, " \t:")
	if s == "" || s[0] == '"' {
		return true
	}
	s, ok := skipExRange(s)
	if !ok {
		return false
	}
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return true
	}
	n := 0
	for n < len(s) && isLetter(s[n]) {
		n++
	}
	name, rest := s[:n], s[n:]
	if exName(name, "s", "substitute") {
		return harmlessSubstitute(rest)
	}
	bang := strings.HasPrefix(rest, "!")
	arg := strings.TrimLeft(strings.TrimPrefix(rest, "!"), " \t")
	switch {
	case exName(name, "q", "quit"), exName(name, "qa", "qall"), exName(name, "quita", "quitall"),
		exName(name, "wqa", "wqall"), exName(name, "xa", "xall"), exName(name, "wa", "wall"):
		return arg == ""
	case exName(name, "w", "write"), exName(name, "wq", "wq"), exName(name, "x", "xit"),
		exName(name, "exi", "exit"), exName(name, "up", "update"):
		return arg == "" || plainExFile(arg)
	case exName(name, "d", "delete"):
		return !bang && (arg == "" || len(arg) == 1 && isOptionLetter(arg[0]))
	case exName(name, "se", "set"), exName(name, "setl", "setlocal"), exName(name, "setg", "setglobal"):
		return !bang && plainOptions(arg)
	}
	return false
}

// exName reports whether name is the Ex command full, abbreviated to no less than short.
func exName(name, short, full string) bool {
	return len(name) >= len(short) && strings.HasPrefix(full, name)
}

// skipExRange returns s after an Ex range, or false when a pattern in it does not end
// where the range needs it to.
func skipExRange(s string) (string, bool) {
	for s != "" {
		switch c := s[0]; {
		case c >= '0' && c <= '9' || c == '.' || c == '$' || c == '%' || c == ',' || c == ';' ||
			c == '+' || c == '-' || c == ' ' || c == '\t':
			s = s[1:]
		case c == '\'' && len(s) > 1:
			s = s[2:]
		case c == '\\' && len(s) > 1 && strings.IndexByte("/?&", s[1]) >= 0:
			s = s[2:]
		case c == '/' || c == '?':
			end := sedTextEnd(s[1:], 0, c)
			if end < 0 {
				return "", true // the pattern runs to the end: a search
			}
			s = s[1+end+1:]
		default:
			return s, true
		}
	}
	return s, true
}

// harmlessSubstitute reports whether rest, what follows :s, is /PAT/REP/FLAGS with a
// replacement that evaluates nothing (see harmlessEx). A bare :s repeats the previous
// substitution, whose replacement is not known.
func harmlessSubstitute(rest string) bool {
	if rest == "" {
		return false
	}
	d := rest[0]
	if isOptionLetter(d) || strings.IndexByte(" \t\\\"|", d) >= 0 {
		return false
	}
	end := sedTextEnd(rest[1:], 0, d)
	if end < 0 {
		return true // :s/PAT: an empty replacement
	}
	rep := rest[1+end+1:]
	flags := ""
	if k := sedTextEnd(rep, 0, d); k >= 0 {
		rep, flags = rep[:k], rep[k+1:]
	}
	if strings.Contains(rep, `\=`) || strings.Contains(strings.ReplaceAll(rep, `\~`, ""), "~") {
		return false
	}
	return strings.Trim(flags, "&cegiInp#lr0123456789 \t") == ""
}

// plainExFile reports whether arg, the file argument of :w, names one file plainly: letters,
// digits and . _ - / % # ~ , = @ only, not starting with - or +. Vim hands a name with a
// wildcard, a '$' or a quote to the shell to expand.
func plainExFile(arg string) bool {
	if arg[0] == '-' || arg[0] == '+' {
		return false
	}
	for i := 0; i < len(arg); i++ {
		if c := arg[i]; !isOptionLetter(c) && strings.IndexByte("._-/%#~,=@", c) < 0 {
			return false
		}
	}
	return true
}

// exBoolOptions and exValueOptions are the Vim options that :set may change in a harmless
// Ex command: display, editing and file-format switches, none of which names a program or
// an expression.
var (
	exBoolOptions = sync.OnceValue(func() map[string]bool {
		return setOf("number", "nu", "relativenumber", "rnu", "list", "wrap", "paste",
			"expandtab", "et", "ignorecase", "ic", "smartcase", "scs", "hlsearch", "hls", "incsearch",
			"is", "binary", "bin", "eol", "endofline", "fixendofline", "fixeol", "bomb", "readonly", "ro",
			"modifiable", "ma", "autoindent", "ai", "smartindent", "si", "ruler", "ru", "wrapscan", "ws",
			"magic", "backup", "bk", "writebackup", "wb", "swapfile", "swf", "undofile", "udf", "hidden",
			"hid", "autoread", "ar", "compatible", "cp", "modeline", "ml", "spell", "all")
	})
	exValueOptions = sync.OnceValue(func() map[string]bool {
		return setOf("tabstop", "ts", "shiftwidth", "sw", "softtabstop", "sts", "textwidth",
			"tw", "wrapmargin", "wm", "fileformat", "ff", "fileformats", "ffs", "fileencoding", "fenc",
			"fileencodings", "fencs", "encoding", "enc", "scrolloff", "so")
	})
)

// plainOptions reports whether arg, the arguments of :set, only switches exBoolOptions (with
// no, inv, !, & or ? around them) or gives exValueOptions a plain value (letters, digits,
// - , . _ +).
func plainOptions(arg string) bool {
	for _, f := range strings.Fields(arg) {
		name, value, eq := strings.Cut(f, "=")
		if !eq {
			name, value, eq = strings.Cut(f, ":")
		}
		if eq {
			name = strings.TrimRight(name, "+-^")
			if !exValueOptions()[name] || strings.Trim(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-,._+") != "" {
				return false
			}
			continue
		}
		name = strings.TrimRight(name, "!&?")
		if !exBoolOptions()[name] && !exValueOptions()[name] {
			trimmed := strings.TrimPrefix(strings.TrimPrefix(name, "no"), "inv")
			if !exBoolOptions()[trimmed] {
				return false
			}
		}
	}
	return true
}

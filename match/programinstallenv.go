package match

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
)

// rawCommands splits the line cmd into its simple commands' words as written, quotes
// removed: at unquoted ; & | ( ) ` and newlines, and after a reserved word that starts a
// command (if, then, do, ...).
func rawCommands(cmd string) [][]string {
	var out [][]string
	var words []string
	var sb strings.Builder
	in := false // a word is being read
	var q byte
	end := func() {
		if in {
			words = append(words, sb.String())
			sb.Reset()
			in = false
		}
	}
	flush := func() {
		end()
		for len(words) > 0 && reservedStart()[words[0]] {
			words = words[1:]
		}
		if len(words) > 0 {
			out = append(out, words)
		}
		words = nil
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case q == '\'':
			if c == q {
				q = 0
			} else {
				sb.WriteByte(c)
			}
		case q == '"':
			switch {
			case c == q:
				q = 0
			case c == '\\' && i+1 < len(cmd):
				i++
				sb.WriteByte(cmd[i])
			default:
				sb.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			if cmd[i] != '\n' {
				sb.WriteByte(cmd[i])
				in = true
			}
		case strings.IndexByte(";&|()`\n", c) >= 0:
			flush()
		case c == ' ' || c == '\t':
			end()
			for len(words) == 1 && reservedStart()[words[0]] {
				words = nil
			}
		default:
			sb.WriteByte(c)
			in = true
		}
	}
	flush()
	return out
}

// reservedStart are bash's words after which a command starts.
var reservedStart = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true,
		"!": true, "{": true, "time": true, "exec": true, "command": true, "nohup": true,
	}
})

// assignments moves the leading assignments of words into pre and returns the rest; an
// append (P+=x) is recorded as a value of unknown text.
func assignments(words []string, pre map[string]string) []string {
	for len(words) > 0 && shell.IsAssignmentWord(words[0]) {
		name, val, _ := strings.Cut(words[0], "=")
		if n, ok := strings.CutSuffix(name, "+"); ok {
			name, val = n, "$"+val
		}
		pre[name] = val
		words = words[1:]
	}
	return words
}

// envCommand returns the command env runs with args, its NAME=VALUE operands moved into
// pre (an unset one recorded as empty).
func envCommand(args []string, pre map[string]string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return assignments(args[1:], pre)
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			if len(args) > 1 && (a == "-u" || a == "--unset") {
				pre[args[1]] = ""
			}
			args = args[min(2, len(args)):]
			continue
		case strings.HasPrefix(a, "-"):
			if n, ok := strings.CutPrefix(a, "--unset="); ok {
				pre[n] = ""
			}
		case shell.IsAssignmentWord(a):
			return assignments(args, pre)
		default:
			return args
		}
		args = args[1:]
	}
	return nil
}

// under reports whether a directory holding the program is tree or under it.
func (w *writeCheck) under(tree string) bool {
	t := w.scope.tilde(tree)
	if !hasExpansion(t) {
		var cands []string
		if filepath.IsAbs(t) {
			cands = append(cands, filepath.Clean(t))
		} else {
			for _, c := range w.scope.cwdForms() {
				cands = append(cands, filepath.Join(c, t))
			}
		}
		for _, c := range cands {
			if r, err := filepath.EvalSymlinks(c); err == nil {
				cands = append(cands, r)
			}
		}
		for _, c := range cands {
			for _, d := range w.dirs {
				if d == c || strings.HasPrefix(d, strings.TrimSuffix(c, "/")+"/") {
					return true
				}
			}
		}
		if filepath.IsAbs(t) || !w.scope.anywhere {
			return false
		}
	}
	comps, last, _ := dotComps(t)
	if last >= 0 {
		return true
	}
	re := operandPattern(strings.Join(comps, "/"))
	pat := `(^|/)` + re + `(/.*)?$`
	if filepath.IsAbs(t) || strings.HasPrefix(t, "$") || strings.HasPrefix(t, "`") {
		pat = `^` + re + `(/.*)?$`
	}
	return anyMatches(w.dirs, regexp.MustCompile(pat))
}

// lookup returns the values the environment variable name may have for a command whose
// own leading assignments are pre: pre's when it sets name; else the hook's environment's
// and each literal one the line assigns elsewhere. unset is set when the variable may be
// unset (the program's default applies), unknown when a value cannot be read.
func (w *writeCheck) lookup(pre map[string]string, name string) (vals []string, unset, unknown bool) {
	if v, ok := pre[name]; ok {
		if v == "" {
			return nil, true, false
		}
		return []string{v}, false, hasExpansion(w.scope.tilde(v))
	}
	vals, unknown = lineValues(w.cmd, name)
	for _, v := range vals {
		unknown = unknown || hasExpansion(w.scope.tilde(v))
	}
	if e := os.Getenv(name); e != "" {
		vals = append(vals, e)
	} else {
		unset = true
	}
	return vals, unset, unknown
}

// subcommand returns the first operand of args (options before it skipped, with the
// values of those in valued) and the arguments after it.
func subcommand(args []string, valued ...string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return a, args[i+1:]
		}
		for _, v := range valued {
			if a == v {
				i++
			}
		}
	}
	return "", nil
}

// xdgData returns XDG_DATA_HOME (default ~/.local/share) joined with rel.
func (w *writeCheck) xdgData(rel string) string {
	d := os.Getenv("XDG_DATA_HOME")
	if d == "" {
		d = "~/.local/share"
	}
	return filepath.Join(d, rel)
}

// configHas reports whether one of the files names has a setting one of keys names: a
// line that is the key (a section: "[install]") or whose key (before =, : or a blank,
// leading dashes dropped) is it, or that has it as a --option (gemrc: `install:
// --user-install`). Such a setting may move an install.
func configHas(names []string, keys ...string) bool {
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			key := line
			if i := strings.IndexAny(line, "=: \t"); i >= 0 {
				key = line[:i]
			}
			key = strings.TrimLeft(key, "-")
			for _, k := range keys {
				if line == k || key == k || strings.Contains(line, "--"+k) {
					return true
				}
			}
		}
	}
	return false
}

// expand returns the path p with its tilde prefix taken in the line's home.
func (w *writeCheck) expand(p string) string { return w.scope.tilde(p) }

// lookPath returns the path of the executable name on the hook's PATH, or "".
func lookPath(name string) string {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

package match

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// operands reads the words of one Bash line's commands for the `changes` clauses: a word
// is split at blanks outside an expansion, so that a command substitution is one word
// (`cp x "$(ls -d ~/go/bin/* | tail -1)"` has the destination `$(ls -d ~/go/bin/* | tail
// -1)`, any path, not `-1)`: red team round 57, finding 2), and a word whose value the line
// makes known is rewritten to it (value): a variable the line assigns a literal at its
// start and never binds again, and a command substitution whose output is confined.
type operands struct {
	vars map[string]string // NAME: the literal value the line's leading assignment gives it
	// pwd is set when $(pwd) is the working directory: the line defines no function, alias
	// or builtin of that name and does not set PWD.
	pwd bool
	// tmp is where $(mktemp ...) creates its file ("" when not known): the hook's TMPDIR or
	// /tmp, when the mktemp found on PATH is a file the hook's user cannot write and the
	// line sets neither PATH nor TMPDIR.
	tmp string
	// top is what $(git rev-parse --show-toplevel) prints ("" when not known): the nearest
	// directory above the call's working directory with a .git, when the line has no cd and
	// sets no GIT_ variable, and git on PATH is a file the hook's user cannot write.
	top string
}

// lineRebinds matches what in a line may change what a command of a name runs or the
// variables mktemp, pwd and git read: a function or alias definition, enable, hash, an
// assignment of PATH, TMPDIR, PWD or a GIT_ variable, BASH_ENV.
var lineRebinds = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(alias|function|enable|hash|PATH|TMPDIR|PWD|GIT_[A-Z_]*|BASH_ENV)\b|\(\s*\)`)
})

// leadingAssign matches a literal assignment statement at the start of the line: NAME=VALUE
// followed by ; && or a newline (VALUE without quotes, expansions, globs or a ~ other than
// a leading ~/).
var leadingAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)=(~/[A-Za-z0-9_./+,:@%-]*|[A-Za-z0-9_./+,:@%-]+)\s*(;|&&|\n)`)
})

// lineOperands returns the operands reader of the Bash line cmd for s.
func (s *Subject) lineOperands(cmd string) *operands {
	o := &operands{vars: map[string]string{}}
	rest := cmd
	for {
		m := leadingAssign().FindStringSubmatchIndex(rest)
		if m == nil {
			break
		}
		name, val := rest[m[2]:m[3]], rest[m[4]:m[5]]
		if strings.HasPrefix(val, "~/") {
			home := s.homePath()
			if home == "" {
				break
			}
			val = home + val[1:]
		}
		rest = rest[m[1]:]
		if _, dup := o.vars[name]; dup || !onlyExpanded(rest, name) {
			delete(o.vars, name)
			continue
		}
		o.vars[name] = val
	}
	if lineRebinds().MatchString(cmd) {
		return o
	}
	o.pwd = true
	if trustedTool("mktemp") {
		o.tmp = "/tmp"
		if t := os.Getenv("TMPDIR"); filepath.IsAbs(t) {
			o.tmp = filepath.Clean(t)
		}
	}
	if !strings.Contains(cmd, "cd") && filepath.IsAbs(s.cwd) && gitEnvUnset() && trustedTool("git") {
		o.top = gitTop(s.cwd)
	}
	return o
}

// onlyExpanded reports whether every occurrence of the variable name in text is an
// expansion of it, $NAME or ${NAME} (not ${NAME[, ${!NAME}, NAME=, read NAME, unset NAME):
// then the line binds it nowhere else.
func onlyExpanded(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return true
		}
		j += i
		end := j + len(name)
		i = end
		if j > 0 && isIdentByte(text[j-1], false) || end < len(text) && isIdentByte(text[end], false) {
			continue // part of a longer name
		}
		switch {
		case j > 0 && text[j-1] == '$':
		case j > 1 && text[j-2:j] == "${" && end < len(text) && text[end] == '}':
		default:
			return false
		}
	}
}

// words splits the text t of one of package shell's commands (quotes removed) into its
// words (splitOperands), each rewritten by value.
func (o *operands) words(t string) []string {
	out := splitOperands(t)
	for i, w := range out {
		out[i] = o.value(w)
	}
	return out
}

// known returns texts with each word that value makes known written out (the texts a
// directory option is read from: `tar -C "$(mktemp -d)"`, `make -C "$(pwd)/sub"`); a text
// without an expansion is kept as it is.
func (o *operands) known(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = t
		if strings.ContainsAny(t, "$`") {
			out[i] = strings.Join(o.words(t), " ")
		}
	}
	return out
}

// splitOperands splits t at blanks outside a $(...), `...` or ${...}.
func splitOperands(t string) []string {
	var out []string
	start, depth, tick := -1, 0, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if start < 0 && !(depth == 0 && !tick && (c == ' ' || c == '\t' || c == '\n')) {
			start = i
		}
		switch {
		case tick:
			tick = c != '`'
		case c == '`':
			tick = true
		case c == '$' && i+1 < len(t) && (t[i+1] == '(' || t[i+1] == '{'):
			depth++
			i++
		case depth > 0 && (c == '(' || c == '{'):
			depth++
		case depth > 0 && (c == ')' || c == '}'):
			depth--
		case depth == 0 && (c == ' ' || c == '\t' || c == '\n'):
			if start >= 0 {
				out = append(out, t[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, t[start:])
	}
	return out
}

// value returns the word w with its known parts written out: $NAME or ${NAME} of a
// variable of o.vars; a substitution that runs printf or echo on words of known value (its
// output); and, at the start of the word, $(pwd) (the working directory: "."),
// $(mktemp ...) as the whole word (a new name in o.tmp, or in the working directory for a
// template of mktemp's own without -t) and $(git rev-parse --show-toplevel) followed by a
// relative path whose first name is no entry of / (git's output, or none when it fails:
// then that path at the top of the file system, where it cannot be written).
func (o *operands) value(w string) string {
	if !strings.ContainsAny(w, "$`") {
		return w
	}
	for name, v := range o.vars {
		w = strings.ReplaceAll(w, "${"+name+"}", v)
		w = replaceVar(w, name, v)
	}
	if p, ok := substPrinted(w); ok {
		return p // printf or echo of words of known value (programprintf.go)
	}
	sub, rest, ok := leadingSubst(w)
	if !ok {
		return w
	}
	f := strings.Fields(sub)
	switch {
	case o.pwd && len(f) == 1 && f[0] == "pwd", o.pwd && len(f) == 2 && f[0] == "pwd" && (f[1] == "-P" || f[1] == "-L"):
		return "." + rest
	case o.tmp != "" && rest == "" && len(f) > 0 && f[0] == "mktemp":
		if v, ok := mktempValue(f[1:], o.tmp); ok {
			return v
		}
	case o.top != "" && len(f) == 3 && f[0] == "git" && f[1] == "rev-parse" && f[2] == "--show-toplevel":
		first, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		if !strings.HasPrefix(rest, "/") || first == "" || first == "." || first == ".." || strings.ContainsAny(rest, "$`*?[{") {
			return w
		}
		if _, err := os.Lstat("/" + first); err == nil {
			return w
		}
		return o.top + rest
	}
	return w
}

// replaceVar replaces each $NAME of w (not the start of a longer name) with v.
func replaceVar(w, name, v string) string {
	var sb strings.Builder
	for {
		i := strings.Index(w, "$"+name)
		if i < 0 {
			sb.WriteString(w)
			return sb.String()
		}
		end := i + 1 + len(name)
		if end < len(w) && isIdentByte(w[end], false) {
			sb.WriteString(w[:end])
			w = w[end:]
			continue
		}
		sb.WriteString(w[:i])
		sb.WriteString(v)
		w = w[end:]
	}
}

// leadingSubst returns the command of the command substitution w starts with ($(...) or
// `...`, with no other substitution inside) and the rest of w.
func leadingSubst(w string) (sub, rest string, ok bool) {
	switch {
	case strings.HasPrefix(w, "$("):
		i := strings.IndexByte(w, ')')
		if i < 0 || strings.ContainsAny(w[2:i], "$`(") {
			return "", "", false
		}
		return w[2:i], w[i+1:], true
	case strings.HasPrefix(w, "`"):
		i := strings.IndexByte(w[1:], '`')
		if i < 0 || strings.ContainsAny(w[1:i+1], "$(") {
			return "", "", false
		}
		return w[1 : i+1], w[i+2:], true
	}
	return "", "", false
}

// mktempValue returns the path pattern of the file or directory mktemp with args creates: a
// new name in tmp (no template, or -t), or the template's in the working directory, its
// X's any file-name text. False for an option that names another directory (-p,
// --tmpdir), a template with a / or an expansion, or an option not known.
func mktempValue(args []string, tmp string) (string, bool) {
	tmpl, inTmp := "", false
	for _, a := range args {
		switch {
		case a == "-d" || a == "-q" || a == "-u" || a == "-dq" || a == "-qd" || a == "--directory" || a == "--quiet" || a == "--dry-run":
		case a == "-t":
			inTmp = true
		case strings.HasPrefix(a, "-") || tmpl != "" || strings.ContainsAny(a, "/$`*?[{\\"):
			return "", false
		default:
			tmpl = a
		}
	}
	if tmpl == "" {
		return tmp + "/tmp.*", true
	}
	pat := strings.TrimRight(tmpl, "X") + "*"
	if inTmp {
		return tmp + "/" + pat, true
	}
	return pat, true
}

// gitEnvUnset reports whether the hook's environment sets none of the variables that move
// git's repository or work tree (GIT_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES, ...).
func gitEnvUnset() bool {
	for _, e := range os.Environ() {
		if strings.HasPrefix(e, "GIT_") {
			return false
		}
	}
	return true
}

// gitTop returns the nearest directory at or above the absolute directory cwd that holds a
// .git entry (git's work tree top), "" when none does.
func gitTop(cwd string) string {
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// trustedTool reports whether the program name, looked up on the hook's PATH, is a file
// that neither it nor its directory (links resolved) can be written by the hook's user:
// one the agent, which runs as that user, cannot have replaced by a program that prints a
// protected path.
func trustedTool(name string) bool {
	p, err := exec.LookPath(name)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return !writable(p) && !writable(filepath.Dir(p)) && !writable(filepath.Dir(filepath.Dir(p)))
}

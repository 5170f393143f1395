package match

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// lineScope is where the words of one Bash line are taken, for `changes hook_program`: the
// home `~` stands for, the directories the line may run in, and the hard links of the
// program. Its may method is the one test of an operand word (red team round 50: the
// rule read `~+/bin`, `~user/go`, `./bin` after an unknown cd and `b?n/` as other names).
type lineScope struct {
	home     string   // what ~ and $HOME stand for; "" when the line may set HOME: any text
	cwds     []string // the call's cwd, then each directory a cd of the line spells
	anywhere bool     // the line may run in any directory (a cd it does not spell)
	pwdSet   bool     // the line may set PWD: ~+ is any text
	// placeholder is set when the line runs find with -exec, -execdir, -ok or -okdir, xargs
	// or parallel, which replace {} in their command's words with a file's name.
	placeholder bool
	links       []os.FileInfo
	// exactDots takes a word of only . and .. components from the line's directories as they
	// are (their parents, logical and resolved), never as any directory: for the operands of
	// a command that is not known to change them (`cd build && cmake ..`).
	exactDots bool

	forms  []string // cwdForms of the first formsN cwds
	formsN int
	memo   *scopeMemo // set once the directories are known: the work words share
}

// scopeMemo is what lineScope.may computes once per line: a literal word's spellings and
// a pattern's regular expression (one word is tested against several lists of paths).
type scopeMemo struct {
	cands map[string][]string
	res   map[string]*regexp.Regexp
}

// re returns the regular expression pat, compiled once per line.
func (l *lineScope) re(pat string) *regexp.Regexp {
	if l.memo == nil {
		return regexp.MustCompile(pat)
	}
	r, ok := l.memo.res[pat]
	if !ok {
		r = regexp.MustCompile(pat)
		l.memo.res[pat] = r
	}
	return r
}

// suffixOf reports whether one of prot is the relative path rest, or ends in /rest (rest a
// cleaned path without expansions; "" is any path).
func suffixOf(prot []string, rest string) bool {
	for _, p := range prot {
		p = strings.TrimSuffix(p, "/")
		if rest == "" || p == rest || strings.HasSuffix(p, "/"+rest) {
			return true
		}
	}
	return false
}

// unknownTilde is what a tilde prefix of unknown value is rewritten to: an expansion, any
// text to operandPattern.
const unknownTilde = "${~}"

// tilde rewrites the leading tilde prefix of w (bash: an unquoted ~ up to the first /, the
// quotes already gone from package shell's texts: more, never less) and a leading $HOME or
// ${HOME}: `~` and HOME are the home; `~+`, `~+0` and `~0` the working directory ("."); every
// other prefix any text (`~-` is OLDPWD, `~N`, `~+N`, `~-N` the directory stack, `~user` the
// home the user database gives that name at expansion time, which the line may change).
func (l *lineScope) tilde(w string) string {
	for _, p := range []string{"$HOME", "${HOME}"} {
		if w == p || strings.HasPrefix(w, p+"/") {
			if l.home == "" {
				return unknownTilde + w[len(p):]
			}
			return l.home + w[len(p):]
		}
	}
	if !strings.HasPrefix(w, "~") {
		return w
	}
	prefix, rest, _ := strings.Cut(w[1:], "/")
	if rest != "" || strings.HasSuffix(w, "/") {
		rest = "/" + rest
	}
	switch prefix {
	case "":
		if l.home != "" {
			return l.home + rest
		}
	case "+", "+0", "0":
		if !l.pwdSet {
			return "." + rest
		}
	}
	return unknownTilde + rest
}

// hasExpansion reports whether w has a part of unknown value: a parameter, command or
// arithmetic expansion, a glob or a brace group.
func hasExpansion(w string) bool { return strings.ContainsAny(w, "$`*?[{") }

// dotComps splits the path word w into its components, "" and "." dropped (a leading / is
// kept as the first, empty, component of an absolute word), and reports where the last ".."
// is (-1 when none) and whether a ".." follows another component, whose symlink the kernel
// resolves before it (`/tmp/l/../bin` with /tmp/l a link to ~/go/pkg is ~/go/bin).
func dotComps(w string) (comps []string, last int, inner bool) {
	last = -1
	if strings.HasPrefix(w, "/") {
		comps = append(comps, "")
	}
	for _, c := range strings.Split(w, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(comps) > 0 && comps[len(comps)-1] != ".." && comps[len(comps)-1] != "" {
				inner = true
			}
			last = len(comps)
		}
		comps = append(comps, c)
	}
	return comps, last, inner
}

// moved reports whether the line's cwd may be a directory a cd of it spells, which the line
// itself may have made a symbolic link (a relative ".." is then taken from its target).
func (l *lineScope) moved() bool { return l.anywhere || len(l.cwds) > 1 }

// may reports whether the operand word w may name one of the paths prot: taken absolute,
// or relative to each of the line's directories (to any directory when anywhere), its
// tilde prefix rewritten (tilde), its expansions as any text and its globs as file-name
// text, `.`, `//` and a trailing / folded, and with its symlinks resolved when it names an
// existing file; a ".." after a component (or after a cd of the line), whose directory may
// be a symbolic link to anywhere, leaves the components after it to be anywhere; and a file
// that is the same file as the program (its hard link, when it has one not among its paths)
// counts.
func (l *lineScope) may(w string, prot []string) bool {
	w = l.tilde(w)
	comps, last, inner := dotComps(w)
	if l.exactDots && !filepath.IsAbs(w) && last == len(comps)-1 && !inner {
		return l.literal(w, prot) // only ".." (or none: "."), from the cwds
	}
	loose := last >= 0 && (inner || l.moved())
	if !hasExpansion(w) {
		if l.literal(w, prot) {
			return true
		}
		if len(l.links) > 0 && l.anywhere && !filepath.IsAbs(w) {
			return true // a hard link of the program may have that name anywhere
		}
		if !loose && (!l.anywhere || filepath.IsAbs(w)) {
			return false
		}
	} else if len(l.links) > 0 && l.linkedGlob(w) {
		return true
	}
	if loose {
		rest := strings.Join(comps[last+1:], "/")
		if !hasExpansion(rest) {
			return len(prot) > 0 && suffixOf(prot, rest) // "": some directory
		}
		return anyMatches(prot, l.re(`(^|/)`+operandPattern(rest)+`/*$`))
	}
	up := 0 // leading ".."s (not loose: the call's own cwd), taken from its parents
	for up < len(comps) && comps[up] == ".." {
		up++
	}
	text := strings.Join(comps[up:], "/")
	if !hasExpansion(w) { // a relative word taken anywhere (literal checked the cwds)
		return len(prot) > 0 && suffixOf(prot, text)
	}
	re := operandPattern(text)
	var pats []*regexp.Regexp
	switch {
	case filepath.IsAbs(w) || strings.HasPrefix(w, "$") || strings.HasPrefix(w, "`"):
		pats = append(pats, l.re(`^`+re+`/*$`))
	default:
		if l.anywhere {
			if re == "" {
				return len(prot) > 0
			}
			pats = append(pats, l.re(`(^|/)`+re+`/*$`))
		}
		for _, c := range l.cwdForms() {
			for range up {
				c = filepath.Dir(c)
			}
			base := regexp.QuoteMeta(strings.TrimSuffix(c, "/"))
			if re == "" {
				pats = append(pats, l.re(`^`+base+`/*$`))
			} else {
				pats = append(pats, l.re(`^`+base+`/`+re+`/*$`))
			}
		}
	}
	return anyMatches(prot, pats...)
}

func anyMatches(prot []string, pats ...*regexp.Regexp) bool {
	for _, p := range prot {
		for _, pat := range pats {
			if pat.MatchString(p) {
				return true
			}
		}
	}
	return false
}

// cwdForms returns the line's directories and their symlink-resolved spellings (the kernel
// takes a relative path from the resolved one).
func (l *lineScope) cwdForms() []string {
	if l.formsN == len(l.cwds) && l.forms != nil {
		return l.forms
	}
	var out []string
	for _, c := range l.cwds {
		if c == "" {
			continue
		}
		out = append(out, c)
		if r, err := filepath.EvalSymlinks(c); err == nil && r != c {
			out = append(out, r)
		}
	}
	l.forms, l.formsN = out, len(l.cwds)
	return out
}

// literal reports whether the word w, without expansions, names one of prot: cleaned, as
// written (the kernel's ".." after a symlink) and symlink-resolved, or the same file as the
// program when the program has a hard link of another name.
func (l *lineScope) literal(w string, prot []string) bool {
	cands := l.spellings(w)
	for _, c := range cands {
		for _, p := range prot {
			if c == p {
				return true
			}
		}
	}
	if len(l.links) > 0 {
		for _, c := range cands {
			if l.sameAsProgram(c) {
				return true
			}
		}
	}
	return false
}

// spellings returns the paths the word w without expansions may name: cleaned, as written
// (the kernel takes a ".." after a symbolic link from its target), and each resolved.
func (l *lineScope) spellings(w string) []string {
	if l.memo != nil {
		if c, ok := l.memo.cands[w]; ok {
			return c
		}
	}
	var raw []string
	if filepath.IsAbs(w) {
		raw = append(raw, w)
	} else {
		for _, c := range l.cwdForms() {
			raw = append(raw, strings.TrimSuffix(c, "/")+"/"+w)
		}
	}
	var cands []string
	add := func(p string) {
		for _, c := range cands {
			if c == p {
				return
			}
		}
		cands = append(cands, p)
	}
	for _, r := range raw {
		add(filepath.Clean(r))
		if r, err := filepath.EvalSymlinks(r); err == nil {
			add(r)
		}
	}
	if l.memo != nil {
		l.memo.cands[w] = cands
	}
	return cands
}

// operandPattern turns a word into a regular expression over paths: an expansion ($x,
// ${...}, $(...), `...`, a brace group) is any text, a glob * or ? file-name text, a
// bracket expression one byte.
func operandPattern(w string) string {
	var sb strings.Builder
	for i := 0; i < len(w); i++ {
		switch c := w[i]; c {
		case '$', '`', '{':
			sb.WriteString(`.*`)
			// Skip the expansion's name or body.
			j := i + 1
			if c == '$' && j < len(w) && (w[j] == '{' || w[j] == '(') {
				c = w[j]
				j++
			}
			switch c {
			case '{':
				for j < len(w) && w[j] != '}' {
					j++
				}
				i = j
			case '(':
				for j < len(w) && w[j] != ')' {
					j++
				}
				i = j
			case '`':
				for j < len(w) && w[j] != '`' {
					j++
				}
				i = j
			default:
				for j < len(w) && isIdentByte(w[j], false) && w[j] != '-' {
					j++
				}
				if j == i+1 && j < len(w) && c == '$' {
					j++ // $@, $1, $$
				}
				i = j - 1
			}
		case '*':
			sb.WriteString(`[^/]*`)
		case '?':
			sb.WriteString(`[^/]`)
		case '[':
			j := strings.IndexByte(w[i+1:], ']')
			if j < 0 {
				sb.WriteString(`\[`)
				continue
			}
			sb.WriteString(`[^/]`)
			i += j + 1
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

// cwdIn reports whether one of the line's directories (not anywhere) is one of dirs.
func (l *lineScope) cwdIn(dirs []string) bool {
	for _, c := range l.cwdForms() {
		for _, d := range dirs {
			if c == d {
				return true
			}
		}
	}
	return false
}

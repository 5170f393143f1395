package match

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// HookProgram is the value of a `changes` clause: the hook program (the program the agent
// runs as its hook command and the full hookcore it hands over to, Subject.WithProgram)
// and every directory on the path to it.
const HookProgram = "hook_program"

// WithProgram sets the paths of the hook program (absolute: the executable the agent runs
// and the full hookcore it hands over to) that a `changes hook_program` clause protects,
// and returns s. Call it before s is used. Without it the clause never holds.
func (s *Subject) WithProgram(paths []string) *Subject {
	s.programs = paths
	return s
}

// protected returns the hook program's paths and every directory above each, "/" and the
// symlink-resolved spellings included: what moving, removing, re-linking or changing the
// mode of takes the hook command away (red team round 46: `mv ~/go/bin ~/go/bin.old`, and
// the agent's shell exited 127, which Claude Code reads as a non-blocking hook error).
func (s *Subject) protected() []string {
	var out []string
	add := func(p string) {
		for {
			out = append(out, p)
			d := filepath.Dir(p)
			if d == p {
				return
			}
			p = d
		}
	}
	for _, p := range s.programs {
		if !filepath.IsAbs(p) {
			continue
		}
		add(filepath.Clean(p))
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			add(r)
		}
	}
	return out
}

// changers are the programs that move, rename, remove, re-link or change the mode, owner
// or attributes of the files they are given; find counts when it runs a command or deletes.
var changers = map[string]bool{
	"mv": true, "rm": true, "rmdir": true, "unlink": true, "ln": true, "link": true,
	"chmod": true, "chown": true, "chgrp": true, "chattr": true, "setfacl": true,
	"setfattr": true, "rename": true, "prename": true, "file-rename": true,
	"truncate": true, "shred": true, "mount": true, "umount": true,
}

// dirChangers are the commands after which a relative path may be anywhere.
var dirChangers = map[string]bool{"cd": true, "pushd": true, "popd": true}

// lineChanges reports whether the Bash line cmd may move, rename, remove, re-link or change
// the mode or owner of the hook program or a directory on the path to it: a command of
// changers (wrappers, shells and find -exec looked through by package shell) with an operand
// that may be one of them, or a find that runs a command or deletes under one. An operand
// is matched as a pattern: ~ and $HOME are the home, another expansion any text, a glob
// file-name text; a relative operand is taken in the call's cwd and each directory the line
// cd's to, and anywhere after a cd the line does not spell. A line package shell cannot
// analyse holds.
func (s *Subject) lineChanges(cmd string) bool {
	prot := s.protected()
	if len(prot) == 0 {
		return false
	}
	b := s.bashCommands()
	if b == nil {
		return false
	}
	if b.MatchesAll() {
		return true
	}
	home := s.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	// The directories the line may run in: the call's and each one a cd spells, in any
	// order (a command before a cd is checked in the cd's directory too: more, never less).
	cwds := []string{s.cwd}
	anywhere := s.cwd == ""
	for _, t := range b.Texts() {
		words := strings.Fields(t)
		if len(words) == 0 || !dirChangers[words[0]] {
			continue
		}
		prog := words[0]
		if len(words) < 2 || prog == "popd" {
			cwds = append(cwds, home)
			anywhere = anywhere || prog == "popd"
			continue
		}
		d := expandHome(words[len(words)-1], home)
		if strings.ContainsAny(d, "$`*?[{") || d == "-" {
			anywhere = true
			continue
		}
		if !filepath.IsAbs(d) {
			for _, c := range cwds {
				if c != "" {
					cwds = append(cwds, filepath.Join(c, d))
				}
			}
			continue
		}
		cwds = append(cwds, filepath.Clean(d))
	}
	w := &writeCheck{
		may:   func(op string) bool { return operandMay(op, home, cwds, anywhere, prot) },
		file:  func(op string) bool { return operandMay(op, home, cwds, anywhere, s.programFiles()) },
		cwdIn: func() bool { return anywhere || slicesHasAny(cwds, prot) },
	}
	for _, t := range b.Texts() {
		words := strings.Fields(t)
		if len(words) == 0 {
			continue
		}
		prog := words[0]
		switch {
		case prog == "find":
			if !findActs(words[1:]) {
				continue
			}
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "-") || w == "(" || w == "!" {
					break
				}
				if operandMay(w, home, cwds, anywhere, prot) {
					return true
				}
			}
		case changers[prog]:
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "-") {
					continue
				}
				if operandMay(w, home, cwds, anywhere, prot) {
					return true
				}
			}
		}
		if w.command(prog, words[1:]) {
			return true
		}
	}
	// A write redirection anywhere on the line (package shell makes each a unit of its own,
	// in nested shells too): its target may be the program.
	for _, u := range b.Units() {
		if t, ok := redirectTarget(u); ok && w.file(t) {
			return true
		}
	}
	return false
}

// programFiles returns the hook program's paths, cleaned and symlink-resolved: what a write
// of a file's contents (a redirection, tee, dd of=, cp onto it) replaces.
func (s *Subject) programFiles() []string {
	var out []string
	for _, p := range s.programs {
		if !filepath.IsAbs(p) {
			continue
		}
		out = append(out, filepath.Clean(p))
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			out = append(out, r)
		}
	}
	return out
}

func slicesHasAny(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// findActs reports whether find's arguments run a command or delete.
func findActs(args []string) bool {
	for _, a := range args {
		switch a {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir":
			return true
		}
	}
	return false
}

// expandHome replaces a leading ~, $HOME or ${HOME} of w with home.
func expandHome(w, home string) string {
	for _, p := range []string{"~", "$HOME", "${HOME}"} {
		if w == p || strings.HasPrefix(w, p+"/") {
			return home + w[len(p):]
		}
	}
	return w
}

// operandMay reports whether the operand word w may name one of the protected paths prot:
// taken absolute, or relative to each of cwds (to any directory when anywhere is set), with
// its expansions as any text and its globs as file-name text, and with its symlinks resolved
// when it names an existing file.
func operandMay(w, home string, cwds []string, anywhere bool, prot []string) bool {
	w = expandHome(w, home)
	if !strings.ContainsAny(w, "$`*?[{") {
		var cands []string
		if filepath.IsAbs(w) {
			cands = append(cands, filepath.Clean(w))
		} else {
			for _, c := range cwds {
				if c != "" {
					cands = append(cands, filepath.Join(c, w))
				}
			}
		}
		for _, c := range cands {
			if r, err := filepath.EvalSymlinks(c); err == nil {
				cands = append(cands, r)
			}
		}
		for _, c := range cands {
			for _, p := range prot {
				if c == p {
					return true
				}
			}
		}
		if !anywhere || filepath.IsAbs(w) {
			return false
		}
	}
	re := operandPattern(w)
	var pats []*regexp.Regexp
	switch {
	case filepath.IsAbs(w) || strings.HasPrefix(w, "$") || strings.HasPrefix(w, "`"):
		pats = append(pats, regexp.MustCompile(`^`+re+`/*$`))
	default:
		for _, c := range cwds {
			if c != "" {
				pats = append(pats, regexp.MustCompile(`^`+regexp.QuoteMeta(strings.TrimSuffix(c, "/"))+`/`+re+`/*$`))
			}
		}
		if anywhere {
			pats = append(pats, regexp.MustCompile(`(^|/)`+re+`/*$`))
		}
	}
	for _, p := range prot {
		for _, pat := range pats {
			if pat.MatchString(p) {
				return true
			}
		}
	}
	return false
}

// operandPattern turns a word into a regular expression over paths: an expansion ($x,
// ${...}, $(...), `...`, a brace group) is any text, a glob * or ? file-name text, a
// bracket expression one byte; ./ and .. are kept as written (a pattern with .. matches
// less, never more, than the path it names: it fails toward holding only via expansions).
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

// pathIsProtected reports whether the file path v is, in some spelling (pathForms), the hook
// program or a directory on the path to it.
func (s *Subject) pathIsProtected(v string) bool {
	if v == "" {
		return false
	}
	prot := s.protected()
	for _, f := range s.forms(v, s.root).forms {
		for _, p := range prot {
			if f == p {
				return true
			}
		}
	}
	return false
}

package match

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
)

// scopeOf returns the lineScope of the Bash line cmd, whose simple commands are texts (and,
// as written, units: package shell's Texts and Units), for the program's paths files: the
// call's cwd and home, each directory a cd of the line may move to, the program's links.
func (s *Subject) scopeOf(cmd string, texts, units, files []string) *lineScope {
	home := s.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if setsVar(cmd, "HOME") {
		home = "" // ~ and $HOME are HOME's value when expanded
	}
	l := &lineScope{
		home:     home,
		cwds:     []string{s.cwd},
		anywhere: s.cwd == "",
		pwdSet:   setsVar(cmd, "PWD"),
		links:    programLinks(files),
		// {} is a name only where find -exec, xargs -I or parallel replace it.
		placeholder: placeholderLine(cmd),
	}
	cdpathEnv := os.Getenv("CDPATH")
	cdpathLine := cdpathMay(cmd, units) // as written: a tail of rsync's words (`.`) sources nothing
	// A line that starts with `cd DIR &&` into a project subdirectory runs the rest there,
	// as a call made from it would (leadingCd; red team round 54: `cd build && rsync -a
	// /tmp/tpl/ .`): with no CDPATH, its cd does not move the line anywhere else.
	lead := ""
	if d, ok := s.leadingCd(cmd); ok && cdpathEnv == "" && !cdpathLine {
		l.cwds, lead = []string{d}, "cd "+strings.TrimPrefix(d, strings.TrimSuffix(s.cwd, "/")+"/")
	}
	for _, t := range texts {
		if lead != "" && strings.Join(strings.Fields(t), " ") == lead {
			lead = "" // that cd, once
			continue
		}
		words := strings.Fields(t)
		if len(words) > 0 && dirChangers()[words[0]] {
			l.cd(words, cdpathEnv, cdpathLine || len(words) > 1 && cdableMay(cmd, words[len(words)-1]))
		} else if cd := wrapperCd(words); cd != nil {
			l.cd(cd, "", false) // chdir(2): no CDPATH
		}
	}
	for _, u := range units {
		// An assignment is no command (`PATH=./bin:$PATH make test`, whose assignment is a
		// unit of its own: red team round 57's false positive as root).
		if words := strings.Fields(u); len(words) == 1 && !shell.IsAssignmentWord(words[0]) && autoCd(words[0]) {
			l.cd([]string{"cd", words[0]}, cdpathEnv, cdpathLine)
		}
	}
	l.memo = &scopeMemo{cands: map[string][]string{}, res: map[string]*regexp.Regexp{}}
	return l
}

// wrapperCd returns the words of the cd that the simple command words does for the
// command it wraps (shell.WrapperDir: `env -C DIR CMD`, `sudo -D DIR CMD` run CMD as `cd
// DIR && CMD` would; red team round 55), "$" for a directory that is not known; nil when
// it is no such wrapper.
//
// A command package shell does not know as a wrapper (systemd-run, bwrap, systemd-nspawn)
// is looked through by speculative suffixes of Texts; a long option of it that names a
// working directory (--working-directory, --chdir, --wd, --workdir, their `=DIR` forms)
// counts the same way.
func wrapperCd(words []string) []string {
	d, ok := shell.WrapperDir(words)
	if !ok && len(words) > 0 {
		if !shell.IsWrapper(words[0]) {
			d, ok = workdirOption(words[1:])
		}
		if !ok {
			d, ok = startDir(words)
		}
	}
	switch {
	case !ok:
		return nil
	case d == "" || strings.ContainsAny(d, "$`"):
		d = "$"
	}
	return []string{"cd", d}
}

// workdirLong are the long options by which commands package shell does not look through
// name the directory they run their command in.
var workdirLong = []string{"--working-directory", "--chdir", "--wd", "--workdir", "--work-dir", "--cwd"}

// workdirOption returns the directory a workdirLong option of args names ("" when not
// known), and whether there is one.
func workdirOption(args []string) (string, bool) {
	for i, a := range args {
		name, v, eq := strings.Cut(a, "=")
		if !slices.Contains(workdirLong, name) {
			continue
		}
		if !eq {
			if i+1 >= len(args) {
				return "", true
			}
			v = args[i+1]
		}
		return v, true
	}
	return "", false
}

// startDir returns the directory tmux's -c (new-session, new-window, split-window,
// respawn-pane: the directory its command starts in) or systemd-run's WorkingDirectory=
// property names ("" when not known), and whether there is one (red team round 56: `tmux
// new -d -c ~/go "mv bin x"`, `systemd-run -p WorkingDirectory=~ rm -rf go`).
func startDir(words []string) (string, bool) {
	switch filepath.Base(words[0]) {
	case "tmux":
		args := tmuxCommands(words[1:])
		for i, a := range args {
			if a == "-c" {
				if i+1 < len(args) {
					return args[i+1], true
				}
				return "", true
			}
			if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], "c") {
				return "", true // -dc DIR, -cDIR: read as any directory
			}
		}
	case "systemd-run":
		for i, a := range words[1:] {
			v, ok := strings.CutPrefix(a, "--property=")
			if !ok {
				v, ok = strings.CutPrefix(a, "-p")
			}
			if ok && v == "" && i+2 < len(words) && (a == "-p" || a == "--property") {
				v = words[i+2]
			} else if a == "--property" && i+2 < len(words) {
				v, ok = words[i+2], true
			}
			if d, found := strings.CutPrefix(v, "WorkingDirectory="); ok && found {
				return strings.TrimPrefix(d, "-"), true // a leading - ignores a missing one
			}
		}
	}
	return "", false
}

// tmuxCommands returns tmux's arguments after its own options (`tmux [-2CDlNuVv] [-c
// shell-command] [-f file] [-L socket-name] [-S socket-path] [-T features] command
// [flags]`): its commands, whose -c is a start directory. tmux's own -c is a shell command
// run in the working directory, as sh -c's (tmux(1); a false positive of red team round
// 56's reading, stop 32: `tmux -c "ls"`).
func tmuxCommands(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args[i+1:]
		}
		if len(a) < 2 || a[0] != '-' {
			return args[i:]
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte("cfLST", a[j]) >= 0 {
				if j == len(a)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
	return nil
}

// setsVar reports whether the line cmd may set the shell variable name: it names it other
// than as an expansion ($name, ${name...}) or in `unset name` / `export name`.
func setsVar(cmd, name string) bool {
	vals, other := lineValues(cmd, name)
	return other || len(vals) > 0
}

// cdpathMay reports whether the line cmd, whose simple commands as written are units (not
// the speculative suffixes of Texts: `rsync -a x/ .` sources nothing), may set CDPATH
// (any case: zsh's cdpath array is tied to it; red team round 50: `CDPATH=~/go; cd bin`) or
// read a file that may (a sourced file, a shell's startup files).
func cdpathMay(cmd string, units []string) bool {
	if strings.Contains(strings.ToLower(cmd), "cdpath") {
		return true
	}
	for _, k := range []string{"BASH_ENV", "ENV=", "--rcfile", "--init-file", "ZDOTDIR"} {
		if strings.Contains(cmd, k) {
			return true
		}
	}
	for _, u := range units {
		words := shell.CommandWords(u)
		if len(words) == 0 {
			continue
		}
		if words[0] == "." || words[0] == "source" {
			return true
		}
		if shells()[words[0]] {
			for _, w := range words[1:] {
				if w == "--login" || len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsAny(w, "il") {
					return true
				}
			}
		}
	}
	return false
}

// shells are the shells whose interactive or login start reads startup files.
var shells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "yash": true}
})

// cdableMay reports whether the cd operand d may be read as a variable's name (bash's
// cdable_vars, zsh's CDABLE_VARS: a cd to a name that is no directory goes to the variable's
// value): the line may turn the option on, or assigns that variable, or the environment has
// it (the user's shell may have the option on).
func cdableMay(cmd, d string) bool {
	if !shell.IsAssignmentWord(d + "=") {
		return false
	}
	if strings.Contains(strings.ToLower(strings.ReplaceAll(cmd, "_", "")), "cdablevars") {
		return true
	}
	_, env := os.LookupEnv(d)
	vals, _ := lineValues(cmd, d)
	return env || len(vals) > 0
}

// autoCd reports whether the word w, run as a command on its own, may be a directory that
// zsh's AUTO_CD changes to: a path word (with a /, or ~, . or ..).
func autoCd(w string) bool {
	return strings.Contains(w, "/") || w == "." || w == ".." || strings.HasPrefix(w, "~")
}

// cd records the directories the cd-like command words (cd, pushd, popd, or a directory
// run as a command: zsh's AUTO_CD) may move the line to. cdpathEnv is the hook process's
// CDPATH, cdpathLine whether the line may set CDPATH or look up a variable's value for a cd
// (cdable_vars) itself.
func (l *lineScope) cd(words []string, cdpathEnv string, cdpathLine bool) {
	prog := words[0]
	var ops []string
	for i, w := range words[1:] {
		if w == "--" {
			ops = append(ops, words[i+2:]...)
			break
		}
		if len(w) > 1 && w[0] == '-' && prog != "pushd" {
			continue
		}
		ops = append(ops, w)
	}
	switch {
	case prog == "popd" || len(ops) > 1: // zsh's cd OLD NEW
		l.anywhere = true
		return
	case len(ops) == 0:
		if l.home == "" {
			l.anywhere = true
			return
		}
		l.cwds = append(l.cwds, l.home)
		return
	case prog == "pushd" && len(ops[0]) > 1 && (ops[0][0] == '+' || ops[0][0] == '-'):
		return // pushd +N: a directory of the stack, which holds the line's own
	}
	d := l.tilde(ops[0])
	if d == "-" || hasExpansion(d) {
		l.anywhere = true
		return
	}
	_, last, inner := dotComps(d)
	if last >= 0 && inner {
		l.anywhere = true // bash retries a logical cd that fails physically: after a link
		return
	}
	if last >= 0 && l.moved() {
		// A leading "..": bash takes it from the logical cwd, and from the resolved one when
		// that is no directory; a cwd that does not exist yet may be a link made by the line.
		for _, c := range l.cwds {
			if c == "" {
				continue
			}
			lex := filepath.Join(c, d)
			l.cwds = append(l.cwds, lex)
			if fi, err := os.Stat(lex); err == nil && fi.IsDir() {
				continue
			}
			r, err := filepath.EvalSymlinks(c)
			if err != nil {
				l.anywhere = true
				return
			}
			l.cwds = append(l.cwds, filepath.Join(r, d))
		}
		return
	}
	if filepath.IsAbs(d) {
		l.cwds = append(l.cwds, filepath.Clean(d))
		return
	}
	for _, c := range l.cwdForms() {
		l.cwds = append(l.cwds, filepath.Join(c, d))
	}
	if d == "." || d == ".." || strings.HasPrefix(d, "./") || strings.HasPrefix(d, "../") {
		return // bash does not search CDPATH for these
	}
	if cdpathLine {
		l.anywhere = true
		return
	}
	for _, e := range filepath.SplitList(cdpathEnv) {
		e = l.tilde(e)
		switch {
		case e == "" || e == ".":
		case hasExpansion(e):
			l.anywhere = true
		case filepath.IsAbs(e):
			l.cwds = append(l.cwds, filepath.Join(e, d))
		default:
			for _, c := range l.cwdForms() {
				l.cwds = append(l.cwds, filepath.Join(c, e, d))
			}
		}
	}
}

// lineValues returns the values the line cmd assigns the variable name (NAME=value in any
// word: a leading assignment, export, declare, env, `go env -w`), and other when it names it
// otherwise than in an expansion ($name, ${name}), an assignment, `unset name` or `export
// name` (`read name`, `printf -v name`: a value the line does not spell).
func lineValues(cmd, name string) (vals []string, other bool) {
	for i := 0; ; {
		j := strings.Index(cmd[i:], name)
		if j < 0 {
			return vals, other
		}
		j += i
		i = j + len(name)
		if j > 0 && isNameByte(cmd[j-1]) || i < len(cmd) && isNameByte(cmd[i]) {
			continue // part of another name
		}
		before := cmd[:j]
		if strings.HasSuffix(before, "$") || strings.HasSuffix(before, "${") || strings.HasSuffix(before, "${!") || strings.HasSuffix(before, "${#") {
			if rest := cmd[i:]; strings.HasPrefix(rest, ":=") || strings.HasPrefix(rest, "=") {
				other = true // ${name:=value}
			}
			continue
		}
		rest := cmd[i:]
		switch {
		case strings.HasPrefix(rest, "="):
			vals = append(vals, wordAt(rest[1:]))
		case strings.HasPrefix(rest, "+="):
			other = true
		default:
			b := strings.TrimRight(before, " \t")
			if !strings.HasSuffix(b, "unset") && !strings.HasSuffix(b, "export") {
				other = true
			}
		}
	}
}

func isNameByte(c byte) bool { return c == '_' || isIdentByte(c, false) && c != '-' }

// wordAt returns the shell word at the start of s, its quotes removed.
func wordAt(s string) string {
	var sb strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			sb.WriteByte(c)
		case c == '\'' || c == '"':
			q = c
		case strings.IndexByte(" \t\n;&|()<>", c) >= 0:
			return sb.String()
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

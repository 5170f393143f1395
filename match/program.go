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
		if r, err := s.evalSymlinks(p); err == nil && r != p { // hookrun.go: memoized
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
	// The program itself and its own directory: what a command not known to only read its
	// operands may change when one of them may name it (red team round 48: gzip, xz, script,
	// objcopy, find -fprint on `~/go/bin/*`).
	near := s.programNear()
	nearMay := func(op string) bool { return operandMay(op, home, cwds, anywhere, near) }
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
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") && !findSyntax[w] && nearMay(w) {
					return true
				}
			}
		case recursiveMutator(prog, words[1:]):
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") && operandMay(w, home, cwds, anywhere, prot) {
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
	// Any other command that may name the program or its directory: each command the line
	// runs as written (package shell's Units: a wrapper's command a unit of its own, the
	// wrapper's unit left to it; no speculative suffixes), its leading assignments dropped.
	//
	// A word with an expansion of unknown value ("$f", $(…)) is taken for the program only
	// when some word of the line may name it or its directory (a loop's or an array's list,
	// a cd, a command substitution's words: red team round 49, `for f in ~/go/bin/*; do
	// gzip "$f"; done`); else any command with a variable operand would be blocked (`go test
	// -run $T`, `kill $pid`). Likewise xargs, whose operands come through its input, counts
	// when the line names them; a command run where the directory may be the program's
	// counts whatever its operands (`git apply`, `patch`); an option's `=PATH` is an operand.
	lineNear := lineMayName(cmd, nearMay)
	inNear := slicesHasAny(cwds, s.programDirs())
	units := b.Units()
	for _, u := range units {
		if _, ok := redirectTarget(u); ok || wraps(u, units) {
			continue
		}
		words := strings.Fields(u)
		for len(words) > 0 && leadingAssignment(words[0]) {
			words = words[1:]
		}
		if len(words) == 0 || readers[words[0]] || changers[words[0]] || judged[words[0]] {
			continue
		}
		if inNear || words[0] == "xargs" && lineNear {
			return true
		}
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				_, v, ok := strings.Cut(w, "=")
				if !ok || v == "" {
					continue
				}
				w = v
			}
			if strings.ContainsAny(w, "$`") && !lineNear {
				continue
			}
			if nearMay(w) {
				return true
			}
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
		if r, err := s.evalSymlinks(p); err == nil && r != p { // hookrun.go: memoized
			out = append(out, r)
		}
	}
	return out
}

// leadingAssignment reports whether w is a leading variable assignment of a command (X=1,
// a[0]=x, P+=x). Not a regular expression: one compiled at package initialisation is paid by
// every hook process (issue 9's cold start).
func leadingAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok {
		return false
	}
	name = strings.TrimSuffix(name, "+")
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		name = name[:i]
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return name != ""
}

// wraps reports whether the unit u runs another of units as its command (sudo cat x, sh -c
// 'gzip x'): the other is a suffix of u starting at a word.
func wraps(u string, units []string) bool {
	for _, o := range units {
		if o != u && strings.HasSuffix(u, " "+o) {
			return true
		}
	}
	return false
}

// lineMayName reports whether a word of the command line cmd, split at blanks, quotes and
// the shell's ( ) ; | & = < > characters, may name what may names; a word with an expansion
// names nothing here.
func lineMayName(cmd string, may func(string) bool) bool {
	for _, w := range strings.FieldsFunc(cmd, func(r rune) bool {
		return strings.ContainsRune(" \t\n()|;&=<>\"'", r)
	}) {
		if !strings.ContainsAny(w, "$`") && may(w) { // a word of unknown value names nothing
			return true
		}
	}
	return false
}

// programDirs returns the directories that hold the hook program's paths.
func (s *Subject) programDirs() []string {
	var out []string
	for _, p := range s.programFiles() {
		out = append(out, filepath.Dir(p))
	}
	return out
}

// programNear returns the hook program's paths and the directories that hold them, cleaned
// and symlink-resolved: what any command that may write its operands may change.
func (s *Subject) programNear() []string {
	var out []string
	for _, p := range s.programFiles() {
		out = append(out, p, filepath.Dir(p))
	}
	return out
}

// readers are the commands known to only read (or name) the files they are given: on the
// program or its directory any other command counts as a change, the ones writeCheck and
// changers judge precisely aside.
var readers = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "less": true, "more": true,
	"stat": true, "file": true, "wc": true, "du": true, "sha1sum": true, "sha256sum": true,
	"sha512sum": true, "md5sum": true, "cksum": true, "b2sum": true, "strings": true,
	"od": true, "xxd": true, "hexdump": true, "readlink": true, "realpath": true,
	"basename": true, "dirname": true, "test": true, "[": true, "cd": true, "pushd": true,
	"popd": true, "echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true,
	"rg": true, "diff": true, "cmp": true, "ldd": true, "nm": true, "objdump": true,
	"readelf": true, "which": true, "type": true, "tree": true,
}

// judged are the commands whose writes writeCheck.command judges precisely (find is judged
// by its primaries).
var judged = map[string]bool{
	"find": true, "cp": true, "install": true, "rsync": true, "tar": true, "gtar": true,
	"bsdtar": true, "unzip": true, "cpio": true, "7z": true, "7za": true, "7zr": true,
	"dd": true, "tee": true, "sed": true, "perl": true,
}

// findSyntax are find's words that name no file.
var findSyntax = map[string]bool{"{}": true, ";": true, `\;`: true, "+": true, "(": true, ")": true, "!": true}

// compressors replace each file they are given with a compressed (or decompressed) one.
var compressors = map[string]bool{
	"gzip": true, "gunzip": true, "pigz": true, "unpigz": true, "xz": true, "unxz": true,
	"lzma": true, "unlzma": true, "bzip2": true, "bunzip2": true, "pbzip2": true,
	"zstd": true, "unzstd": true, "lz4": true, "lzip": true, "compress": true,
}

// recursiveMutator reports whether prog with args changes every file under the directories
// it is given, which taken on any directory above the program takes it away: a compressor's
// -r, tar --remove-files, zip -m, rsync --remove-source-files.
func recursiveMutator(prog string, args []string) bool {
	p := parseArgs(args, "")
	switch {
	case compressors[prog]:
		return p.has("-r", "--recursive")
	case prog == "tar" || prog == "gtar" || prog == "bsdtar":
		return slicesHasAny(args, []string{"--remove-files"})
	case prog == "zip":
		return p.has("-m", "--move")
	case prog == "rsync":
		return p.has("--remove-source-files")
	}
	return false
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

// findActs reports whether find's arguments run a command, delete or write a file.
func findActs(args []string) bool {
	for _, a := range args {
		switch a {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
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

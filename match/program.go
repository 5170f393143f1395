package match

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
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
var changers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"mv": true, "rm": true, "rmdir": true, "unlink": true, "ln": true, "link": true,
		"chmod": true, "chown": true, "chgrp": true, "chattr": true, "setfacl": true,
		"setfattr": true, "rename": true, "prename": true, "file-rename": true,
		"truncate": true, "shred": true, "mount": true, "umount": true,
	}
})

// dirChangers are the commands after which a relative path may be anywhere.
var dirChangers = sync.OnceValue(func() map[string]bool { return map[string]bool{"cd": true, "pushd": true, "popd": true} })

// lineChanges reports whether the Bash line cmd may move, rename, remove, re-link or change
// the mode or owner of the hook program or a directory on the path to it: a command of
// changers (wrappers, shells and find -exec looked through by package shell) with an operand
// that may be one of them, or a find that runs a command or deletes under one; or write over
// the program, make a new name for it, or install programs of a package's naming into its
// directory (writeCheck). An operand is matched by lineScope.may. A line package shell
// cannot analyse holds.
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
	files := s.programFiles()
	dirs := dirsOf(files)
	fed := s.fedLines(b)
	links, hold := s.linkLines(cmd, b) // globs' and finds' links, xargs's split names (stop 32)
	if hold {
		return true
	}
	fed = append(fed[:len(fed):len(fed)], links...)
	ops := s.lineOperands(cmd)
	texts, units := s.loopTexts(b.Texts()), s.loopTexts(b.Units()) // a for loop's values (loops.go)
	l := s.scopeOf(cmd, ops.known(append(texts[:len(texts):len(texts)], fed...)), units, files)
	// The program itself and its own directory: what a command not known to only read its
	// operands may change when one of them may name it (red team round 48: gzip, xz, script,
	// objcopy, find -fprint on `~/go/bin/*`).
	near := append(append([]string{}, files...), dirs...)
	exact := *l
	exact.exactDots = true
	nearMay := func(op string) bool { return exact.may(op, near) }
	w := &writeCheck{scope: l, prot: prot, files: files, dirs: dirs, cmd: cmd, units: units}
	w.gitEnv.trees, w.gitEnv.template = gitLine(cmd)
	w.suffix = backupSuffix(cmd)
	if len(l.cwds) > 1 || l.anywhere && s.cwd != "" {
		for _, c := range l.cwds {
			if c != "" {
				w.gitEnv.cwds = append(w.gitEnv.cwds, c)
			}
		}
		if l.anywhere {
			w.gitEnv.cwds = append(w.gitEnv.cwds, "$D")
		}
	}
	for _, t := range append(texts[:len(texts):len(texts)], fed...) {
		words := ops.words(t) // a command substitution is one word (programoperand.go)
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
				if l.may(w, prot) {
					return true
				}
			}
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") && !findSyntax()[w] && nearMay(w) {
					return true
				}
			}
		case recursiveMutator(prog, words[1:]):
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") && l.may(w, prot) {
					return true
				}
			}
		case changers()[prog]:
			// A symbolic link's relative target is taken from the link's directory, which
			// may be anywhere (`ln -s go ~/g`); and a link into the program's directory is a
			// way into it with no name of it (`cd LINK && strip ..`).
			// Only a symbolic link's target is read so (`ln -s README.md README2.md` makes
			// README2.md, in the working directory, a link to README.md there: red team round
			// 57's false positive as root); the link's own name and a hard link's source are
			// taken from the working directory (lnTargets).
			sc, link := l, prog == "ln" || prog == "link"
			targets := map[int]bool{}
			if link {
				c := *l
				c.anywhere = true
				sc = &c
				targets = lnTargets(prog, words[1:], l)
			}
			for i, w := range words[1:] {
				if strings.HasPrefix(w, "-") {
					continue
				}
				if sc.may(w, prot) && (!link || targets[i] || l.may(w, prot)) || link && l.mayUnder(w, dirs) {
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
	// counts whatever its operands (`git apply`, `patch`), and so does one run after a cd
	// the line does not spell when it names them; an option's `=PATH` is an operand.
	lineNear := lineMayName(cmd, nearMay)
	inNear := l.cwdIn(dirs) || l.anywhere && lineNear
	for _, u := range append(units[:len(units):len(units)], fed...) {
		if _, ok := redirectTarget(u); ok || wraps(u, units) {
			continue
		}
		words := shell.CommandWords(u)
		if len(words) == 0 || readsOnly(words) || changers()[words[0]] || judged()[words[0]] {
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
	// A package manager's install into the program's directory, under names its package
	// chooses (red team round 50: `go install` of a module named hookcore-hook).
	if w.installs(units) {
		return true
	}
	// A write redirection anywhere on the line (package shell makes each a unit of its own,
	// in nested shells too): its target may be the program.
	for _, u := range append(units[:len(units):len(units)], fed...) {
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

// dirsOf returns the directories that hold the hook program's paths files.
func dirsOf(files []string) []string {
	var out []string
	for _, p := range files {
		out = append(out, filepath.Dir(p))
	}
	return out
}

// readers are the commands known to only read (or name) the files they are given: on the
// program or its directory any other command counts as a change, the ones writeCheck and
// changers judge precisely aside.
var readers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ls": true, "cat": true, "head": true, "tail": true, "less": true, "more": true,
		"stat": true, "file": true, "wc": true, "du": true, "sha1sum": true, "sha256sum": true,
		"sha512sum": true, "md5sum": true, "cksum": true, "b2sum": true, "strings": true,
		"od": true, "xxd": true, "hexdump": true, "readlink": true, "realpath": true,
		"basename": true, "dirname": true, "test": true, "[": true, "cd": true, "pushd": true,
		"popd": true, "echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true,
		"rg": true, "diff": true, "cmp": true, "ldd": true, "nm": true, "objdump": true,
		"readelf": true, "which": true, "type": true, "tree": true,
	}
})

// judged are the commands whose writes writeCheck.command judges precisely (find is judged
// by its primaries).
var judged = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"find": true, "cp": true, "install": true, "rsync": true, "tar": true, "gtar": true,
		"bsdtar": true, "unzip": true, "cpio": true, "7z": true, "7za": true, "7zr": true,
		"dd": true, "tee": true, "sed": true, "perl": true, "pax": true, "scp": true, "dpkg-deb": true,
	}
})

// findSyntax are find's words that name no file.
var findSyntax = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"{}": true, ";": true, `\;`: true, "+": true, "(": true, ")": true, "!": true}
})

// compressors replace each file they are given with a compressed (or decompressed) one.
var compressors = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"gzip": true, "gunzip": true, "pigz": true, "unpigz": true, "xz": true, "unxz": true,
		"lzma": true, "unlzma": true, "bzip2": true, "bunzip2": true, "pbzip2": true,
		"zstd": true, "unzstd": true, "lz4": true, "lzip": true, "compress": true,
	}
})

// recursiveMutator reports whether prog with args changes every file under the directories
// it is given, which taken on any directory above the program takes it away: a compressor's
// -r, tar --remove-files, zip -m, rsync --remove-source-files.
func recursiveMutator(prog string, args []string) bool {
	p := parseArgs(args, "")
	switch {
	case compressors()[prog]:
		return p.has("-r", "--recursive")
	case prog == "tar" || prog == "gtar" || prog == "bsdtar":
		return p.has("--remove-files")
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

// pathIsProtected reports whether the file path v is, in some spelling (pathForms), the hook
// program or a directory on the path to it, or a hard link of the program (a file with
// more than one link is matched by every deny glob too: pathSet).
func (s *Subject) pathIsProtected(v string) bool {
	if v == "" {
		return false
	}
	prot := s.protected()
	links := programLinks(s.programFiles())
	for _, f := range s.forms(v, s.root).forms {
		for _, p := range prot {
			if f == p {
				return true
			}
		}
		if sameFileAs(f, links) {
			return true
		}
	}
	return false
}

// lnTargets returns the indexes in args (ln's or link's arguments) of the symbolic link
// targets taken from a directory that may not be the working directory: every operand of
// a symbolic ln but its last, unless that last names, with no expansion and no /, a link
// in the working directory (not a directory there, no -t, -T or --target-directory: the
// link is then made there and its target is read from there); all of them when the
// arguments cannot be read so.
func lnTargets(prog string, args []string, l *lineScope) map[int]bool {
	out := map[int]bool{}
	sym := false
	var ops []int
	for i, a := range args {
		switch {
		case a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s"):
			sym = true
		case strings.HasPrefix(a, "-t") || strings.HasPrefix(a, "--t") || a == "-T" || a == "--no-target-directory" || a == "--":
			for j := range args {
				out[j] = true
			}
			return out
		case !strings.HasPrefix(a, "-"):
			ops = append(ops, i)
		}
	}
	if prog != "ln" || !sym {
		return out // a hard link's source is taken from the working directory
	}
	if len(ops) == 2 && !l.anywhere && len(l.cwds) == 1 {
		name := args[ops[1]]
		if !hasExpansion(name) && !strings.Contains(name, "/") && !strings.HasPrefix(name, "~") {
			if fi, err := os.Stat(filepath.Join(l.cwds[0], name)); err != nil || !fi.IsDir() {
				return out
			}
		}
	}
	for _, i := range ops[:max(len(ops)-1, 0)] {
		out[i] = true
	}
	return out
}

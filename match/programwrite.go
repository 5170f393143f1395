package match

import (
	"os"
	"path/filepath"
	"strings"
)

// writeCheck answers, for one Bash line, whether a command writes over the hook program:
// its contents replaced with no name of it on the line (red team round 47: `cd ~/go/bin &&
// for f in *; do printf '#!/bin/sh\nexit 0\n' > "$f"; done`, `cat /bin/false | tee *`,
// `cp -rT /tmp/evil ~/go/bin`, `tar -xf p.tar -C ~/go/bin`), after which a hook that exits 0
// lets every call through; or makes a new name for it, through which a later write replaces
// its contents (red team round 50: `cp -l ~/go/bin/*k /tmp/zz && cat /bin/true > /tmp/zz`).
type writeCheck struct {
	scope *lineScope
	prot  []string // the program and every directory on the path to it
	files []string // the program's paths
	dirs  []string // the directories that hold them
	cmd   string   // the line
	units []string // the line's commands as written (package shell's Units); nil: not known

	lineProtOnce bool
	lineProt     bool

	gitEnv gitEnv // the line's git environment (programwritegit.go)
	suffix string // SIMPLE_BACKUP_SUFFIX's value on the line (backupSuffix)

	// over, when set, answers may, file, dir and cwdIn for other paths than the program's,
	// with the same reading of each command: the hooks' startup paths (hookrun.go). A check
	// with over has no scope.
	over *writeOver
}

// writeOver is what a writeCheck over other paths asks: whether an operand may be one of
// them or a directory on the path to one (may), whether it may be one or lie under one
// (file, which also answers dir), and whether the line may run in such a directory.
type writeOver struct {
	may, file func(op string) bool
	cwdIn     func() bool
	absent    func(op string) bool // nil: any operand may not exist
	// projectFloor reports whether the operand is the project root or the project
	// subdirectory the line runs in (nil: none is): a directory a command runs code over,
	// as make does, rather than one it writes data into (a container's bind mount).
	projectFloor func(op string) bool
}

// may reports whether the operand may be the program or a directory on its path.
func (w *writeCheck) may(op string) bool {
	if w.over != nil {
		return w.over.may(op)
	}
	return w.scope.may(op, w.prot)
}

// file reports whether the operand may be the program itself.
func (w *writeCheck) file(op string) bool {
	if w.over != nil {
		return w.over.file(op)
	}
	return w.scope.may(op, w.files)
}

// dir reports whether the operand may be a directory that holds the program.
func (w *writeCheck) dir(op string) bool {
	if w.over != nil {
		return w.over.file(op)
	}
	return w.scope.may(op, w.dirs)
}

// cwdIn reports whether the line may run in a directory on the program's path.
func (w *writeCheck) cwdIn() bool {
	if w.over != nil {
		return w.over.cwdIn()
	}
	return w.scope.anywhere || w.scope.cwdIn(w.prot)
}

// absent reports whether the operand may name a path that does not exist: one with an
// expansion, or a spelling of it that no file has.
func (w *writeCheck) absent(op string) bool {
	if w.over != nil {
		if w.over.absent != nil {
			return w.over.absent(op)
		}
		return true
	}
	t := w.scope.tilde(op)
	if hasExpansion(t) {
		return true
	}
	for _, c := range w.scope.spellings(t) {
		if _, err := os.Lstat(c); err != nil {
			return true
		}
	}
	return false
}

// names reports whether a word of the line may name the program or a directory on its path
// (the files a command reads from its input: `find ~/go | cpio -pl /tmp/x`).
func (w *writeCheck) names() bool {
	if !w.lineProtOnce {
		w.lineProtOnce = true
		w.lineProt = lineMayName(w.cmd, w.may)
	}
	return w.lineProt
}

// command reports whether the simple command prog args may write over the program: a
// copy, sync, link or install whose destination may be it or a directory on its path and
// whose source may land on it (a glob or a variable, a directory's contents, -T), an
// extraction into such a directory, a file written by tee, dd of=, sed -i, perl -i or an
// -o option, or install -d on such a directory (GNU install sets the mode of an existing
// one).
func (w *writeCheck) command(prog string, args []string) bool {
	if prog != "find" && w.outputOption(args) {
		return true
	}
	for _, n := range namedWrites(prog, args, w.suffix) {
		if w.file(n) {
			return true // a backup, a split's piece, a decompressed file (red team round 56)
		}
	}
	if hit, ok := w.fromInput(prog, args); ok {
		return hit
	}
	if dirs, ok := debExtractDirs(prog, args); ok {
		return w.extractInto(dirs) // dpkg-deb -x DEB DIR: as tar -C DIR (red team round 54)
	}
	if dirs, anyDir, ok := extractDirs(prog, args); ok {
		return anyDir || w.into(dirs)
	}
	if hit, ok := w.copier(prog, args); ok {
		return hit // cmake -E, rclone, degit, ditto, docker and podman (stop 32)
	}
	switch prog {
	case "git":
		return w.git(append([]string{prog}, args...))
	case "scp":
		if p, ok := scpLocal(args); ok { // both operands local: a cp (red team round 54, `scp -r SRC/. ~`)
			return w.copyInto(p, false, false)
		}
		return false
	case "cp":
		p := parseArgs(args, "tS", "--target-directory", "--suffix")
		if p.has("-l", "--link", "-s", "--symbolic-link") && w.linksFrom(p) {
			return true
		}
		return w.copyInto(p, p.has("-T", "--no-target-directory"), false)
	case "install":
		p := parseArgs(args, "tSmgo", "--target-directory", "--suffix", "--mode", "--group", "--owner", "--strip-program")
		if p.has("-d", "--directory") {
			for _, op := range p.ops {
				if w.may(op) {
					return true
				}
			}
			return false
		}
		return w.copyInto(p, p.has("-T", "--no-target-directory"), false)
	case "rsync":
		p := parseArgs(args, "efTBM", "--exclude", "--include", "--filter", "--rsh", "--temp-dir",
			"--partial-dir", "--backup-dir", "--compare-dest", "--copy-dest", "--link-dest", "--files-from",
			"--exclude-from", "--include-from", "--chmod", "--suffix", "--log-file", "--out-format",
			"--password-file", "--port", "--rsync-path", "--chown", "--usermap", "--groupmap")
		for _, d := range p.vals("--link-dest") {
			// A relative --link-dest is taken from the destination directory.
			if w.over != nil {
				if w.may(d) {
					return true
				}
				continue
			}
			c := *w.scope
			c.anywhere = c.anywhere || !filepath.IsAbs(c.tilde(d))
			if c.may(d, w.prot) {
				return true
			}
		}
		return w.copyInto(p, false, true)
	case "pax":
		p := parseArgs(args, "fsopxbBT")
		switch {
		case p.has("-r") && p.has("-w") && p.has("-s"):
			return true // -s rewrites names: a copy may land anywhere (stop 32)
		case p.has("-r") && p.has("-w"): // copy: -l links instead
			if p.has("-l") {
				if len(p.ops) < 2 {
					return w.names() || w.cwdIn()
				}
				for _, op := range p.ops[:len(p.ops)-1] {
					if w.may(op) {
						return true
					}
				}
			}
			if len(p.ops) > 0 {
				return w.extractInto(p.ops[len(p.ops)-1:])
			}
		case p.has("-r"):
			return true // an absolute member lands where it names
		}
		return false
	case "tar", "gtar", "bsdtar":
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			args = append([]string{"-" + args[0]}, args[1:]...) // tar xf: old-style options
		}
		short := "fCTXgKNLbHVI"
		if prog == "bsdtar" {
			short += "s" // bsdtar -s PATTERN (GNU tar's -s is --same-order)
		}
		p := parseArgs(args, short, "--directory", "--file", "--files-from", "--exclude-from", "--cd",
			"--exclude", "--transform", "--xform", "--to-command", "--use-compress-program", "--owner", "--group", "--mode")
		if !p.has("-x", "--extract", "--get") {
			return false
		}
		if p.has("-P", "--absolute-names", "--absolute-paths") {
			return true
		}
		dirs := append(p.vals("-C"), p.vals("--directory")...)
		if prog == "bsdtar" {
			dirs = append(dirs, p.flags["--cd"]...) // bsdtar(1): --cd DIR is -C DIR
		}
		return w.extractInto(dirs)
	case "bsdcpio":
		// bsdcpio(1): -i extracts into the working directory and -p into its operand, with
		// absolute names and ".." refused unless --insecure.
		p := parseArgs(args, "EFHIORC", "--format", "--file")
		switch {
		case p.has("-t", "--list"):
			return false
		case !p.has("-i", "--extract", "-p", "--pass-through"):
			return false
		case p.has("--insecure"):
			return true
		case p.has("-p", "--pass-through"):
			if p.has("-l", "--link") && (w.names() || w.cwdIn()) {
				return true
			}
			if len(p.ops) > 0 {
				return w.extractInto(p.ops[len(p.ops)-1:])
			}
		}
		return w.cwdIn()
	case "unzip":
		p := parseArgs(args, "dP")
		if p.has("-l", "-t", "-v", "-p", "-Z", "-z") {
			return false
		}
		if p.has("-:") {
			return true // a member's ../ is kept: it lands anywhere (red team round 51)
		}
		return w.extractInto(p.vals("-d"))
	case "cpio":
		p := parseArgs(args, "DEFHIMOCR", "--directory", "--file", "--format", "--pattern-file", "--owner")
		dirs := append(p.vals("-D"), p.vals("--directory")...)
		switch {
		case p.has("-p", "--pass-through"):
			// -l links each file it reads from its input instead of copying it.
			if p.has("-l", "--link") && (w.names() || w.cwdIn()) {
				return true
			}
			if len(p.ops) > 0 {
				dirs = append(dirs, p.ops[len(p.ops)-1])
			}
			return w.extractInto(dirs)
		case p.has("-i", "--extract"):
			if p.has("-t", "--list") {
				return false
			}
			if !p.has("--no-absolute-filenames") {
				return true // an absolute member lands where it names, -D or not
			}
			return w.extractInto(dirs)
		}
		return false
	case "dd":
		for _, a := range args {
			if f, ok := strings.CutPrefix(a, "of="); ok && w.file(f) {
				return true
			}
		}
	case "tee":
		p := parseArgs(args, "")
		return w.anyFile(p.ops)
	case "sed":
		p := parseArgs(args, "efl", "--expression", "--file", "--line-length")
		if !p.has("-i", "--in-place") {
			return false
		}
		ops := p.ops
		if !p.has("-e", "-f", "--expression", "--file") && len(ops) > 0 {
			ops = ops[1:] // the script
		}
		return w.anyFile(ops)
	case "perl":
		p := parseArgs(args, "eEIMm")
		if !p.has("-i") {
			return false
		}
		ops := p.ops
		if !p.has("-e", "-E") && len(ops) > 0 {
			ops = ops[1:] // the script's file
		}
		return w.anyFile(ops)
	}
	return false
}

// outputOption reports whether an -o, --output or --output-document option (curl, wget -O,
// go build, cc, sort; -o last in a bundle of short options too) names a file that may be
// the program, or the directory that holds it (`go build -o ~/go/bin/` writes a file of
// the package's name there).
func (w *writeCheck) outputOption(args []string) bool {
	out := func(f string) bool { return w.file(f) || w.dir(f) }
	for i, a := range args {
		short := len(a) > 1 && a[0] == '-' && a[1] != '-' && (strings.HasSuffix(a, "o") || strings.HasSuffix(a, "O"))
		if short || a == "--output" || a == "--output-document" { // -o FILE, curl -so FILE
			if i+1 < len(args) && out(args[i+1]) {
				return true
			}
		}
		for _, p := range []string{"--output=", "--output-document="} {
			if f, ok := strings.CutPrefix(a, p); ok && out(f) {
				return true
			}
		}
	}
	return false
}

// linksFrom reports whether a cp -l or -s with the parsed arguments p makes a new name for
// the program: a source may be it or a directory on its path (with -r, each file under it
// is linked).
func (w *writeCheck) linksFrom(p parsed) bool {
	srcs := p.ops
	if len(p.vals("-t")) == 0 && len(p.vals("--target-directory")) == 0 && len(srcs) > 1 {
		srcs = srcs[:len(srcs)-1]
	}
	for _, s := range srcs {
		if w.may(s) || w.over != nil && w.over.file(s) || w.over == nil && w.scope.mayUnder(s, w.dirs) {
			return true
		}
	}
	return false
}

func (w *writeCheck) anyFile(ops []string) bool {
	for _, op := range ops {
		if w.file(op) {
			return true
		}
	}
	return false
}

// extractInto reports whether an extraction into dirs (the working directory when none)
// may write into a directory on the program's path.
func (w *writeCheck) extractInto(dirs []string) bool {
	if len(dirs) == 0 {
		return w.cwdIn()
	}
	for _, d := range dirs {
		if w.may(d) {
			return true
		}
	}
	return false
}

// into reports whether writing anything under one of dirs ("." the working directory)
// may write into a directory on the program's path or over the program.
func (w *writeCheck) into(dirs []string) bool {
	for _, d := range dirs {
		if d == "." && w.cwdIn() || d != "." && w.extractInto([]string{d}) {
			return true
		}
	}
	return false
}

// copyInto reports whether a copy (cp, install, rsync) with the parsed arguments p may
// write over the program: its destination (-t DIR, or the last operand) may be the program,
// or a directory on its path into which a source lands under a name that may be on the
// path too (a glob or a variable, "dir/." or, for rsync, "dir/", a name on the path), or
// which it replaces whole (-T), or which does not exist and a recursive copy creates as a
// copy of a source directory (red team round 51).
func (w *writeCheck) copyInto(p parsed, whole, rsync bool) bool {
	srcs := p.ops
	tree := p.has("-r", "-R", "-a", "--recursive", "--archive") || rsync && p.has("-d", "--dirs")
	dests := append(p.vals("-t"), p.vals("--target-directory")...)
	if len(dests) == 0 {
		if len(srcs) < 2 {
			return false
		}
		dests, srcs = srcs[len(srcs)-1:], srcs[:len(srcs)-1]
	}
	for _, d := range dests {
		if rsync && strings.Contains(d, ":") && !strings.Contains(d, "/") {
			continue // host:path
		}
		if w.file(d) {
			return true
		}
		if !w.may(d) {
			continue
		}
		if whole || strings.ContainsAny(d, "$`*?[{") || len(srcs) == 0 {
			return true
		}
		if tree && w.absent(d) {
			return true // the copy of a directory becomes it (red team round 51: `cp -r /tmp/zz ~/.local/lib`)
		}
		for _, s := range srcs {
			if strings.ContainsAny(s, "$`*?[{") || rsync && strings.HasSuffix(s, "/") {
				return true
			}
			base := filepath.Base(s)
			if base == "." || base == ".." || base == "/" || w.may(strings.TrimSuffix(d, "/")+"/"+base) {
				return true
			}
		}
	}
	return false
}

// parsed is a command's arguments read the getopt way: flags (a short option bundle split
// into its letters, a long option without its =value) with their values, and operands.
type parsed struct {
	flags map[string][]string
	ops   []string
}

// has reports whether one of the options names was given: a long one also by an
// abbreviation (GNU getopt_long and argp take any unambiguous prefix: `cp --lin`), which
// errs toward yes when the prefix is ambiguous (the tool refuses it).
func (p parsed) has(names ...string) bool {
	for _, n := range names {
		if len(p.vals(n)) > 0 {
			return true
		}
	}
	return false
}

// vals returns the values the option name was given with, a long option's abbreviations'
// included (an option without a value gives "").
func (p parsed) vals(name string) []string {
	v := p.flags[name]
	if strings.HasPrefix(name, "--") {
		for k, kv := range p.flags {
			if k != name && longAbbrev(k, name) {
				v = append(v, kv...)
			}
		}
	}
	return v
}

// longAbbrev reports whether the long option arg, as written, may name known: a prefix of
// it with a byte after "--".
func longAbbrev(arg, known string) bool {
	return len(arg) > 2 && strings.HasPrefix(arg, "--") && strings.HasPrefix(known, arg)
}

// parseArgs reads args: the short options in shortArg and the long ones in longArg take a
// value (the rest of the word, or the next word); options may follow operands; "--" ends
// them.
func parseArgs(args []string, shortArg string, longArg ...string) parsed {
	p := parsed{flags: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.ops = append(p.ops, args[i+1:]...)
			return p
		case strings.HasPrefix(a, "--"):
			name, val, eq := strings.Cut(a, "=")
			if !eq {
				for _, l := range longArg {
					if (l == name || longAbbrev(name, l)) && i+1 < len(args) {
						i++
						val = args[i]
						break
					}
				}
			}
			p.flags[name] = append(p.flags[name], val)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				name := "-" + a[j:j+1]
				if !strings.ContainsRune(shortArg, rune(a[j])) {
					p.flags[name] = append(p.flags[name], "")
					continue
				}
				val := a[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				p.flags[name] = append(p.flags[name], val)
				break
			}
		default:
			p.ops = append(p.ops, a)
		}
	}
	return p
}

// redirectTarget returns the file a unit of package shell's Units writes when the unit is a
// write redirection ("> FILE", `2>> "$f"`, "&> x", ">| x"), its quotes removed.
func redirectTarget(u string) (string, bool) {
	i := 0
	for i < len(u) && u[i] >= '0' && u[i] <= '9' {
		i++
	}
	if i == 0 && strings.HasPrefix(u, "{") {
		if j := strings.IndexByte(u, '}'); j > 0 {
			i = j + 1
		}
	}
	rest := u[i:]
	var op string
	for _, o := range []string{"&>>", "&>", ">>", ">|", ">&", "<>", ">"} {
		if strings.HasPrefix(rest, o) {
			op = o
			break
		}
	}
	if op == "" {
		return "", false
	}
	fields := strings.Fields(rest[len(op):])
	if len(fields) == 0 {
		return "", false
	}
	t := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(fields[0])
	return t, t != ""
}

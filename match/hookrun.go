package match

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/shell"
)

// WithStartup sets the startup paths of the programs the user's hooks run and returns s:
// the files and directories a program reads when it starts, so that writing one (or
// anything under a directory) changes what a guard does before its first line runs (red
// team round 50: a zz.pth in Python's user site made every Python guard exit 0). Each is
// absolute and may have glob components (`python3.*`: any version). A `changes
// hook_program` clause holds for a write of one of them or of a path under one, and for a
// copy, move, link or extraction that may create the directories on the path to one. Call
// it before s is used. Without it only the hook program's paths (WithProgram) count.
func (s *Subject) WithStartup(paths []string) *Subject {
	s.startup = paths
	return s
}

// realPath is one result of filepath.EvalSymlinks.
type realPath struct {
	path string
	err  error
}

// evalSymlinks is filepath.EvalSymlinks of the clean absolute path p, memoized for the
// Subject: one tool call is judged against the file system as it is then, and protected
// and programFiles resolve every program path (the hook program's, and since red team
// round 50 the programs the hooks run and their shadow slots, many in the same
// directories) once per check, several checks per line. A path's directory is resolved
// first (memoized too), then one lstat of the path itself.
func (s *Subject) evalSymlinks(p string) (string, error) {
	s.realMu.Lock()
	defer s.realMu.Unlock()
	return s.evalLocked(filepath.Clean(p))
}

func (s *Subject) evalLocked(p string) (string, error) {
	if r, ok := s.real[p]; ok {
		return r.path, r.err
	}
	r, err := p, error(nil)
	if d := filepath.Dir(p); d != p && filepath.IsAbs(p) {
		if r, err = s.evalLocked(d); err == nil {
			r = filepath.Join(r, filepath.Base(p))
			var fi os.FileInfo
			if fi, err = os.Lstat(r); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				r, err = filepath.EvalSymlinks(r)
			}
		}
	} else if !filepath.IsAbs(p) {
		r, err = filepath.EvalSymlinks(p)
	}
	if err != nil {
		r = ""
	}
	if s.real == nil {
		s.real = map[string]realPath{}
	}
	s.real[p] = realPath{r, err}
	return r, err
}

// reach is how a path may stand to a startup path.
type reach int

const (
	reachNone     reach = iota
	reachAncestor       // a directory on the path to it
	reachUnder          // it, or a path under it
)

// maxCwds bounds the directories startupCwds keeps for one line (each relative cd doubles
// them); past it any directory counts.
const maxCwds = 64

// startupCheck answers, for one Bash line, how its words may stand to the startup paths.
type startupCheck struct {
	s     *Subject
	paths []string   // the protected paths (Subject.WithStartup, WithHookConfig, a clause's)
	comps [][]string // their components
	floor []string   // lineWrites' floor; nil: the home's rule
	// dotglob is set when the line may make a glob match names that start with a dot
	// (shopt -s dotglob, GLOBIGNORE, a shell option of unknown value): otherwise `*` does
	// not name .git or .claude.
	dotglob bool
	home    string
	cwds    []string // the directories the line may run in, as path patterns (startupCwds)
	// named is set when a word of the line with no expansion may name a startup path or a
	// directory below the home on the path to one: only then is a word with an expansion
	// of unknown value ("$f", $(…)) taken for one (as lineChanges takes a variable for the
	// program only on a line that names it).
	named bool
}

// lineStartup reports whether the Bash line cmd may write a startup path or a path under
// one, or create the directories on the path to one: package shell's commands as
// lineChanges reads them (changers, find, the writes writeCheck judges, with "the program"
// being any path under a startup path and "its directories" the startup path and the
// directories on the path to it); any other command, not known to only read, with a word
// that may name such a path or a directory below the home on the path to one, or run in a
// startup directory; a write redirection to such a path; and pip installing packages where
// a Python the hooks run finds them (pipInstall). A line package shell cannot analyse holds.
func (s *Subject) lineStartup(cmd string) bool {
	return s.lineWrites(cmd, s.startup, nil)
}

// lineWrites is lineStartup with the protected paths given (absolute, glob components
// allowed): the startup paths, hookcore's config paths (lineConfig) or a clause's own. With
// floor nil, a word of another command counts when it may name a directory on the path to
// one below the home (the startup paths' rule); with floor set, when it may name one
// below every directory of floor and not at the top of the file system: the home, the
// project root and the directories above them, which every project's ordinary commands
// name (`git add .`, `make -C /proj`), do not count then (red team round 53).
func (s *Subject) lineWrites(cmd string, paths, floor []string) bool {
	if len(paths) == 0 {
		return false
	}
	b := s.bashCommands()
	if b == nil {
		return false
	}
	if b.MatchesAll() {
		return true
	}
	home := s.homePath()
	fed := s.fedLines(b)
	links, hold := s.linkLines(cmd, b) // globs' and finds' links, xargs's split names (stop 32)
	if hold {
		return true
	}
	fed = append(fed[:len(fed):len(fed)], links...)
	texts, units := s.loopTexts(b.Texts()), s.loopTexts(b.Units()) // a for loop's values (loops.go)
	texts = append(texts[:len(texts):len(texts)], fed...)
	units = append(units[:len(units):len(units)], fed...)
	var comps [][]string
	for _, st := range paths {
		comps = append(comps, components(st))
	}
	if s.cwdUnknown && unknownDirNames(append(texts[:len(texts):len(texts)], units...), comps, floor) {
		return true
	}
	cwd := s.cwd
	if floor != nil {
		if d, ok := s.leadingCd(cmd); ok {
			cwd, floor = d, append(floor[:len(floor):len(floor)], d) // the rest runs there (leadingCd)
		} else if d, ok := leadingAbsCd(cmd); ok {
			probe := &startupCheck{s: s, paths: paths, comps: comps, home: home, cwds: []string{d}}
			if r, _ := probe.reach(d); r == reachNone {
				cwd = d // the rest runs there, on the path to no protected path (leadingAbsCd)
			}
		}
	}
	// A relative cd searches CDPATH only when the hook's environment sets it, or the line
	// may (programcd.go's reading; a false positive of red team round 56's, stop 32: `git
	// diff .github && cd docs && git checkout main -- .` took docs for any directory).
	cdpathLine := os.Getenv("CDPATH") != "" || cdpathMay(cmd, b.Units())
	cdpath := func(d string) bool { return cdpathLine || cdableMay(cmd, d) }
	ops := s.lineOperands(cmd)
	c := &startupCheck{s: s, paths: paths, comps: comps, floor: floor, home: home, cwds: startupCwds(ops.known(texts), cwd, home, cdpath), dotglob: mayDotglob(cmd)}
	c.named = c.lineNames(units)
	// An operand in a write position whose value the line does not make known (a command
	// substitution, a variable it does not assign a literal: programoperand.go) may be any
	// path, named line or not (red team round 57, findings 2 and 4: `cp /dev/null "$(ls -td
	// ~/.h*/st*/s* | head -1)"`).
	under := func(op string) bool { r, _ := c.reachWrite(op); return r == reachUnder }
	chain := func(op string) bool { r, _ := c.reachWrite(op); return r != reachNone }
	cwdUnder, cwdChain := false, false
	for _, d := range c.cwds {
		switch r, _ := c.reach(d); r {
		case reachUnder:
			cwdUnder, cwdChain = true, true
		case reachAncestor:
			cwdChain = true
		}
	}
	if s.cwdUnknown {
		cwdChain = true // the unknown directory may be on the path to one (WithCwdUnknown)
	}
	w := &writeCheck{over: &writeOver{may: chain, file: under, cwdIn: func() bool { return cwdChain }, absent: c.absent, projectFloor: c.projectFloor}}
	w.gitEnv.trees, w.gitEnv.template = gitLine(cmd)
	w.suffix = backupSuffix(cmd)
	w.gitEnv.hooks, w.gitEnv.own = hooksProtected(paths), c.ownTree
	if len(c.cwds) > 1 {
		w.gitEnv.cwds = c.cwds
	}
	venv := false // the line activates a virtual environment: pip by name is its pip
	for _, t := range texts {
		words := strings.Fields(t)
		if len(words) > 1 && (words[0] == "source" || words[0] == ".") && strings.HasSuffix(words[1], "/activate") {
			venv = true
		}
	}
	for _, t := range texts {
		words := ops.words(t) // a command substitution is one word (programoperand.go)
		if len(words) == 0 {
			continue
		}
		prog, args := words[0], words[1:]
		switch {
		case prog == "find":
			if !findActs(args) || findEmptyDirs(args) {
				continue
			}
			names, fold := findNames(args)
			for _, a := range args {
				if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
					break
				}
				if chain(a) && !c.findSpares(a, names, fold) {
					return true
				}
			}
			for _, a := range args {
				if !strings.HasPrefix(a, "-") && !findSyntax()[a] && under(a) {
					return true
				}
			}
		case changers()[prog] || recursiveMutator(prog, args):
			for _, a := range args {
				if !strings.HasPrefix(a, "-") && chain(a) {
					return true
				}
			}
		}
		if w.command(prog, args) {
			return true
		}
	}
	other := false                // the line runs a command that is none of the readers and the judged ones
	writer, query := false, false // it runs one that is no reader; it asks Python for its site's paths
	seen := map[string]bool{}     // the words of the readers and the judged ones
	for _, u := range units {
		if _, ok := redirectTarget(u); ok || wraps(u, units) {
			continue
		}
		words := shell.CommandWords(u)
		siteQuery := len(words) > 2 && pythonName(filepath.Base(words[0])) && words[1] == "-m" && words[2] == "site" // prints the site's paths
		query = query || siteQuery
		writer = writer || len(words) > 0 && !readsOnly(words) && !siteQuery
		if len(words) == 0 || readsOnly(words) || changers()[words[0]] || judged()[words[0]] || siteQuery {
			for _, w := range splitWords(u) {
				seen[w] = true
			}
			continue
		}
		other = true
		if cwdUnder || words[0] == "xargs" && c.named || c.pipInstall(words, venv, cwd) || c.configWrite(words) || c.versionSwitch(words) {
			return true
		}
		for _, a := range splitWords(strings.Join(words[1:], " ")) {
			if strings.HasPrefix(a, "-") {
				continue // an option's =VALUE is a word of its own
			}
			if r, deep := c.reach(a); r == reachUnder || r == reachAncestor && deep {
				return true
			}
		}
	}
	for _, u := range units {
		if t, ok := redirectTarget(u); ok && under(t) {
			return true
		}
	}
	// Such a command given the path, or Python's names for its site, in text that is no
	// word of it: an interpreter's here-document or string (`python3 - <<EOF ...
	// open("…/site-packages/zz.pth", "w")`, `site.getusersitepackages()`); and any writer on
	// a line that asks Python for its site's paths (`cp x.pth "$(python3 -m site
	// --user-site)"`).
	return other && (c.lineNamesUnder(cmd, seen) || c.python() && pythonSiteName(cmd)) || query && writer && c.python()
}

// ownTree reports whether the directory word d (a git's work tree) names only the project's
// root (the working directory when the root is not known): the project's own work tree,
// which its git commands write as they always do (`git -C .. pull` from a subdirectory).
func (c *startupCheck) ownTree(d string) bool {
	root := c.s.root
	if root == "" {
		root = c.s.cwd
	}
	if !filepath.IsAbs(root) {
		return false
	}
	root = filepath.Clean(root)
	for _, p := range startupCands(d, c.home, c.cwds) {
		if p != root {
			return false
		}
	}
	return true
}

// mayDotglob reports whether the line cmd may make bash's globs match names that start
// with a dot: it names dotglob or GLOBIGNORE (setting it turns dotglob on), or runs shopt
// or set with an option it does not spell (`shopt -s $o`).
func mayDotglob(cmd string) bool {
	return strings.Contains(cmd, "dotglob") || strings.Contains(cmd, "GLOBIGNORE") ||
		strings.Contains(cmd, "shopt") && strings.ContainsAny(cmd, "$`") || strings.Contains(cmd, "BASHOPTS")
}

// absent reports whether the operand word w may name a path that does not exist: one with
// an expansion, or a spelling of it (startupCands) that no file has.
func (c *startupCheck) absent(w string) bool {
	if t := strings.TrimRight(w, "/"); t == "." || t == ".." || t == "~+" {
		return false // the working directory, wherever a cd took it, and its parent exist
	}
	for _, p := range startupCands(w, c.home, c.cwds) {
		if strings.ContainsAny(p, "$`*?[{") {
			return true
		}
		if _, err := os.Lstat(p); err != nil {
			return true
		}
	}
	return false
}

// lineNamesUnder reports whether a word of the command line cmd with no expansion, split as
// lineNames splits, and not among the words of a command judged above (seen), may name a
// startup path or a path under one.
func (c *startupCheck) lineNamesUnder(cmd string, seen map[string]bool) bool {
	for _, w := range splitWords(cmd) {
		if !strings.ContainsAny(w, "$`") && !seen[w] {
			if r, _ := c.reachAs(w, false); r == reachUnder {
				return true
			}
		}
	}
	return false
}

// pythonSiteName reports whether cmd names the site module's directories or hooks
// (site.getusersitepackages(), USER_SITE, `python3 -m site --user-site`, usercustomize):
// a path a program builds from them is no word of the line.
func pythonSiteName(cmd string) bool {
	for _, n := range []string{"getusersitepackages", "getsitepackages", "USER_SITE", "USER_BASE", "--user-site", "--user-base", "usercustomize", "sitecustomize"} {
		if strings.Contains(cmd, n) {
			return true
		}
	}
	return false
}

// pathIsStartup reports whether the file path v is, in some spelling (pathForms), a startup
// path, a path under one, or a directory on the path to one: a view that writes or moves
// to it creates that directory (red team round 51: the filesystem server's move_file with
// the destination ~/.local/lib, a directory holding python3.11/site-packages/zz.pth).
func (s *Subject) pathIsStartup(v string) bool {
	return s.pathReaches(v, s.startup)
}

// pathReaches is pathIsStartup with the protected paths given (lineWrites).
func (s *Subject) pathReaches(v string, paths []string) bool {
	if v == "" || len(paths) == 0 {
		return false
	}
	for _, f := range s.forms(v, s.root).forms {
		for _, st := range paths {
			if r, hole := relate(f, st); r != reachNone && !hole {
				return true
			}
		}
	}
	return false
}

// lineNames reports whether a word of the line with no expansion (the text of package
// shell's units, assignments and redirections included, split at blanks, quotes, commas
// and the shell's ( ) ; | & = < > characters) may name a startup path, a path under one or
// a directory below the home on the path to one. It is called with c.named unset.
func (c *startupCheck) lineNames(units []string) bool {
	for _, text := range units {
		for _, w := range splitWords(text) {
			if strings.ContainsAny(w, "$`") {
				continue
			}
			if r, deep := c.reachAs(w, false); r == reachUnder || r == reachAncestor && deep {
				return true
			}
		}
	}
	return false
}

// reach returns how the operand word w may stand to the startup paths (reachUnder before
// reachAncestor), in any spelling (symlinks resolved), and for reachAncestor whether the
// directory it may name is below the home. A reach that an expansion of unknown value
// decides counts only on a named line.
func (c *startupCheck) reach(w string) (reach, bool) { return c.reachAs(w, true) }

// reachWrite is reach for an operand in a write position (a writer's destination, a
// changer's operand): an expansion of unknown value counts on any line.
func (c *startupCheck) reachWrite(w string) (reach, bool) {
	named := c.named
	c.named = true
	defer func() { c.named = named }()
	return c.reachAs(w, true)
}

// reachAs is reach, with symlinks resolved or (lineNames: the gate of expansions) not.
func (c *startupCheck) reachAs(w string, resolve bool) (reach, bool) {
	best, deep := reachNone, false
	for _, cand := range startupCands(w, c.home, c.cwds) {
		cands := []string{cand}
		if resolve {
			if r, ok := c.s.resolvedPath(cand); ok {
				cands = append(cands, r)
			}
		}
		for _, p := range cands {
			pc := components(p)
			for _, sc := range c.comps {
				r, hole := relateComponents(pc, sc, !c.dotglob)
				if hole && !c.named && !c.fedUnder(w) {
					continue
				}
				switch r {
				case reachUnder:
					return reachUnder, false
				case reachAncestor:
					best = reachAncestor
					deep = deep || c.deep(p)
				}
			}
		}
	}
	return best, deep
}

// fedUnder reports whether the operand word w is "anything under DIR" of a recursive
// producer of xargs's input (fedTexts: `grep -rl X ~ | xargs sed -i …`) with DIR on the path
// to a protected path: the line names that directory, so what is under it counts.
func (c *startupCheck) fedUnder(w string) bool {
	d, ok := strings.CutSuffix(w, "/"+fedInput)
	if !ok || strings.ContainsAny(d, "$`") {
		return false
	}
	r, _ := c.reach(d)
	return r != reachNone
}

// deep reports whether the directory p (a path pattern on the path to a protected path) is
// below the floor: below the home when c has none (the startup paths' rule), else neither
// a directory of c.floor nor above one, nor the root or a directory at the top (/etc).
func (c *startupCheck) deep(p string) bool {
	if c.floor == nil {
		return strings.HasPrefix(p, c.home+"/")
	}
	pc := components(p)
	if len(pc) < 2 {
		return false
	}
	for _, f := range c.floor {
		if f != "" && atOrAbove(pc, components(f)) {
			return false
		}
	}
	return true
}

// projectFloor reports whether the operand op names, links resolved, the project root or
// the project subdirectory of the floor (Subject.floor: the working directory when it is
// one), not the home nor "/": a literal path, relative to the line's one working directory,
// or starting with ~/. False for a check without a floor and for a word with an expansion.
func (c *startupCheck) projectFloor(op string) bool {
	if c.floor == nil || c.s.root == "" || op == "" || strings.ContainsAny(op, "$`*?[{\\") {
		return false
	}
	p := op
	switch {
	case p == "~" || strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "~/"):
		return false
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(c.home, p[2:])
	case !filepath.IsAbs(p):
		if len(c.cwds) != 1 {
			return false
		}
		p = filepath.Join(c.cwds[0], p)
	}
	rp, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	root, err := filepath.EvalSymlinks(c.s.root)
	if err != nil {
		return false
	}
	for _, f := range c.floor {
		if f == "" || f == "/" || f == c.home {
			continue
		}
		rf, err := filepath.EvalSymlinks(f)
		if err == nil && rf == rp && (rf == root || strings.HasPrefix(rf, root+"/")) {
			return true
		}
	}
	return false
}

// atOrAbove reports whether the path pattern of components pc may be the directory of
// components fc or one above it (a glob or an expansion may be any name).
func atOrAbove(pc, fc []string) bool {
	if len(pc) > len(fc) {
		return false
	}
	for i, c := range pc {
		if !strings.ContainsAny(c, "$`{") && !componentMay(c, fc[i]) {
			return false
		}
	}
	return true
}

// pipInstall reports whether the command words (as written) install Python packages where
// a Python of the hooks finds them at start: `pip install` (pip3, pip3.12, `python3 -m
// pip`, `uv pip install --system`) by name, unless the line activates a virtual
// environment, or by a path whose prefix holds one of the startup paths (~/.local/bin/pip,
// /usr/bin/pip3); with --target, --prefix or --root the other rules judge the directory
// named. A package may carry a .pth file, which the site module runs at every start (`pip
// install --user -e .` writes one itself).
func (c *startupCheck) pipInstall(words []string, venv bool, cwd string) bool {
	base := filepath.Base(words[0])
	args := words[1:]
	switch {
	case base == "uv":
		return len(args) > 1 && args[0] == "pip" && slicesHasAny(args, []string{"install"}) && slicesHasAny(args, []string{"--system"})
	case pythonName(base):
		i := 0
		for i < len(args) && args[i] != "-m" && args[i] != "-mpip" {
			i++
		}
		switch {
		case i+1 < len(args) && args[i] == "-m" && args[i+1] == "pip":
			args = args[i+2:]
		case i < len(args) && args[i] == "-mpip":
			args = args[i+1:]
		default:
			return false
		}
	case !pipName(base):
		return false
	}
	installs := false
	for _, a := range args {
		switch {
		case a == "install":
			installs = true
		case a == "-t" || strings.HasPrefix(a, "--target") || strings.HasPrefix(a, "--prefix") || strings.HasPrefix(a, "--root"):
			return false
		}
	}
	if !installs || !c.python() {
		return false
	}
	if !strings.Contains(words[0], "/") {
		return !venv
	}
	p := words[0]
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	prefix := filepath.Dir(filepath.Dir(filepath.Clean(p)))
	for _, st := range c.paths {
		if strings.HasPrefix(st, prefix+"/lib/python") {
			return true
		}
	}
	return false
}

// configWrite reports whether the command words (as written) write a program's startup
// file without naming it: `git config --global` or --system (a key and a value, --add,
// --unset, --edit, ..., or git 2.46's `git config set|unset|edit ...`), when git's global
// config is a startup path; `npm config set|delete|edit`, `npm set`, `npm login` when
// npm's user config is.
func (c *startupCheck) configWrite(words []string) bool {
	i := 1
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		if words[i] == "-c" || words[i] == "-C" {
			i++ // git -c k=v, git -C DIR
		}
		i++
	}
	if i+1 >= len(words) {
		return false
	}
	sub, args := words[i], words[i+1:]
	switch filepath.Base(words[0]) {
	case "git":
		if sub != "config" || !c.endsIn("/.gitconfig", "/git/config", "/gitconfig") {
			return false
		}
		scoped, write := false, false
		var ops []string
		for _, a := range args {
			switch {
			case a == "--global" || a == "--system":
				scoped = true
			case a == "-l" || a == "--list" || strings.HasPrefix(a, "--get"):
				return false
			case a == "--add" || a == "-e" || a == "--edit" || strings.HasPrefix(a, "--unset") ||
				strings.HasPrefix(a, "--replace") || strings.HasSuffix(a, "-section"):
				write = true
			case !strings.HasPrefix(a, "-"):
				ops = append(ops, a)
			}
		}
		if len(ops) > 0 {
			switch ops[0] {
			case "get", "list":
				return false
			case "set", "unset", "edit", "rename-section", "remove-section":
				write = true
			}
		}
		return scoped && (write || len(ops) > 1)
	case "npm":
		if !c.endsIn("/.npmrc", "/npmrc") {
			return false
		}
		switch sub {
		case "set", "login", "adduser", "add-user", "logout":
			return true
		case "config", "c":
			return args[0] == "set" || args[0] == "delete" || args[0] == "edit" || args[0] == "fix"
		}
	}
	return false
}

// endsIn reports whether a startup path ends in one of suffixes.
func (c *startupCheck) endsIn(suffixes ...string) bool {
	for _, st := range c.paths {
		for _, x := range suffixes {
			if strings.HasSuffix(st, x) {
				return true
			}
		}
	}
	return false
}

// python reports whether a startup path is a Python's (a directory under lib/pythonX.Y).
func (c *startupCheck) python() bool {
	for _, st := range c.paths {
		if strings.Contains(st, "/lib/python") {
			return true
		}
	}
	return false
}

// pythonName reports whether base names a Python interpreter: python, python3, python3.12.
func pythonName(base string) bool {
	v, ok := strings.CutPrefix(base, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// pipName reports whether base names pip: pip, pip3, pip3.12.
func pipName(base string) bool {
	v, ok := strings.CutPrefix(base, "pip")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// startupCwds returns the directories the line may run in, as path patterns: the call's
// ("$", any directory, when unknown) and each one a cd, pushd or popd moves to (or a
// wrapper's directory option: wrapperCd), in any
// order (a relative one joined to each directory before it, and any directory too when
// CDPATH may apply: the word does not start with "." and cdpath reports it may search one,
// or look up a variable of its name); a target that is not known is "$".
func startupCwds(texts []string, cwd, home string, cdpath func(d string) bool) []string {
	if cwd == "" {
		cwd = "$"
	}
	cwds := []string{cwd}
	for _, t := range texts {
		words := strings.Fields(t)
		chdir := false // chdir(2), not a shell's cd: no CDPATH
		if cd := wrapperCd(words); cd != nil {
			words, chdir = cd, true
		}
		if len(words) == 0 || !dirChangers()[words[0]] {
			continue
		}
		d := "$"
		switch last := words[len(words)-1]; {
		case len(words) == 1 && words[0] == "cd":
			d = home
		case len(words) == 1 || words[0] == "popd" || last == "-" || strings.HasPrefix(last, "+"):
		default:
			d = expandHome(last, home)
		}
		if filepath.IsAbs(d) || strings.HasPrefix(d, "$") || strings.HasPrefix(d, "`") || strings.HasPrefix(d, "~") {
			cwds = append(cwds, cleanPattern(tildeless(d, home)))
		} else {
			n := len(cwds)
			for _, c := range cwds[:n] {
				cwds = append(cwds, cleanPattern(c+"/"+d))
			}
			if !strings.HasPrefix(d, ".") && !chdir && cdpath(d) {
				cwds = append(cwds, "$")
			}
		}
		if len(cwds) > maxCwds {
			return append(cwds[:maxCwds], "$")
		}
	}
	return cwds
}

// startupCands returns the absolute path patterns the operand word w may name: ~, $HOME
// and ${HOME} are the home (so is ~NAME, taken for the user's own), ~+ each directory the
// line may run in; a relative word is taken in each of cwds.
func startupCands(w, home string, cwds []string) []string {
	w = expandHome(w, home)
	if rest, ok := strings.CutPrefix(w, "~+"); ok && (rest == "" || rest[0] == '/') {
		w = strings.TrimPrefix(rest, "/")
		if w == "" {
			w = "."
		}
	} else {
		w = tildeless(w, home)
	}
	if filepath.IsAbs(w) || strings.HasPrefix(w, "$") || strings.HasPrefix(w, "`") {
		return []string{cleanPattern(w)}
	}
	out := make([]string, 0, len(cwds))
	for _, c := range cwds {
		out = append(out, cleanPattern(c+"/"+w))
	}
	return out
}

// tildeless returns w with a leading ~NAME (a user's home: taken for the user's own), ~-
// or ~+ (the previous and the current directory: any) replaced.
func tildeless(w, home string) string {
	if !strings.HasPrefix(w, "~") {
		return w
	}
	name, rest, _ := strings.Cut(w[1:], "/")
	if name == "-" || name == "+" {
		return "$/" + rest
	}
	return strings.TrimSuffix(home+"/"+rest, "/")
}

// cleanPattern is filepath.Clean of the path pattern p up to its first component with an
// expansion, whose `..` may go anywhere; the rest is kept as written.
func cleanPattern(p string) string {
	i := strings.IndexAny(p, "$`")
	if i < 0 {
		return filepath.Clean(p)
	}
	j := strings.LastIndexByte(p[:i], '/')
	if j <= 0 {
		return p
	}
	return filepath.Clean(p[:j]) + "/" + p[j+1:]
}

// resolvedPath returns p with its symlinks resolved (p's own, else its directory's), when p
// has no expansion or glob and it or its directory exists, and that differs from p.
func (s *Subject) resolvedPath(p string) (string, bool) {
	if strings.ContainsAny(p, "$`{*?[") {
		return "", false
	}
	if r, err := s.evalSymlinks(p); err == nil {
		return r, r != p
	}
	if r, err := s.evalSymlinks(filepath.Dir(p)); err == nil {
		r = filepath.Join(r, filepath.Base(p))
		return r, r != p
	}
	return "", false
}

// relate reports how the path pattern p (absolute) may stand to the startup path st, and
// whether an expansion of p decided it: a component with an expansion ($x, `…`) may be any
// text, slashes included, so p may then be st or anything under it; a brace group is
// alternatives the line writes (any of them may be st's component); a glob component is
// file-name text, as is a glob component of st (path.Match either way; two globs may
// meet).
func relate(p, st string) (reach, bool) {
	return relateComponents(components(p), components(st), false)
}

// relateComponents is relate of paths split by components. With hidden set, a glob
// component of p does not match a name of st that starts with a dot unless it starts with
// one too, as bash expands a glob without dotglob (`rm -rf *` leaves .git).
func relateComponents(pc, sc []string, hidden bool) (reach, bool) {
	for i, s := range sc {
		if i == len(pc) {
			return reachAncestor, false
		}
		c := pc[i]
		if literalName(c) { // the common case, one scan
			if c == s {
				continue
			}
			if !componentMay(c, s) {
				return reachNone, false
			}
			continue
		}
		if strings.ContainsAny(c, "$`") {
			return reachUnder, true
		}
		if braceAlternatives(c) || strings.Contains(c, "(") {
			return reachUnder, false // alternatives, or an extglob's (`@(.git|x)`)
		}
		if !componentMay(c, s) || hidden && strings.HasPrefix(s, ".") && !strings.HasPrefix(c, ".") && strings.ContainsAny(c, "*?[") {
			return reachNone, false
		}
	}
	return reachUnder, false
}

// literalName reports whether the path component c has none of the bytes that make it an
// expansion, alternatives or a glob ($ ` { ( * ? [): strings.ContainsAny of them, faster on
// the short names relateComponents compares many times per line.
func literalName(c string) bool {
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '$', '`', '{', '(', '*', '?', '[':
			return false
		}
	}
	return true
}

// braceAlternatives reports whether the path component c has a brace expansion bash makes:
// a { with a comma or a .. sequence after it (`{a,b}`, `{1..3}`); `{}` (find's placeholder)
// and `{x}` are literal text.
func braceAlternatives(c string) bool {
	i := strings.IndexByte(c, '{')
	if i < 0 {
		return false
	}
	rest := c[i:]
	return strings.Contains(rest, ",") || strings.Contains(rest, "..")
}

// components splits an absolute path into its names ("." and empty ones dropped).
func components(p string) []string {
	out := make([]string, 0, 8)
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// unknownDirNames reports whether a word of texts (the line's commands and redirections),
// taken in a directory no one knows (Subject.WithCwdUnknown), may be one of the paths whose
// components are comps, a path under one or a directory on the path to one below floor
// (mayEndOrPass): a relative word, by its names after its last .. (`settings.json`,
// `.claude/settings.json`, `x/../trust.json`, `.hookcore/x`, `mv .claude x`). When a word
// is the directory itself or one above it (`.`, `..`, `./`), where a copy puts a file under
// its own name, any word's last name counts (`cp /tmp/x/settings.json .`). A word with an
// expansion is left to the clause's other readings (an operand the line does not make
// known).
func unknownDirNames(texts []string, comps [][]string, floor []string) bool {
	var words []string
	here := false
	for _, t := range texts {
		for _, w := range splitWords(t) {
			if strings.ContainsAny(w, "$`") {
				continue
			}
			words = append(words, w)
			if len(components(strings.ReplaceAll(w, "..", "."))) == 0 && !strings.HasPrefix(w, "/") {
				here = true // ., .., ./, ../.. : the unknown directory or one above it
			}
		}
	}
	for _, w := range words {
		var tail []string
		switch {
		case !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~"):
			tail = components(w)
		case here:
			if c := components(w); len(c) > 0 {
				tail = c[len(c)-1:]
			}
		}
		for i := len(tail) - 1; i >= 0; i-- {
			if tail[i] == ".." {
				tail = tail[i+1:]
				break
			}
		}
		if len(tail) > 0 && mayEndOrPass(tail, comps, floor) {
			return true
		}
	}
	return false
}

// mayEndOrPass reports whether the first k names of tail, for some k, may be k names of
// one of the paths whose components are comps (componentMay) that end at its last name or
// at a directory on the path to it below every directory of floor: the word may be that
// path, a path under it, or a directory holding it (`mv .claude x`). A path's last name
// that is a glob (`.github/hooks/*.json`) counts with its directory's name only: alone it
// would take every `package.json` for a hook file.
func mayEndOrPass(tail []string, comps [][]string, floor []string) bool {
	for _, x := range comps {
		for end := len(x); end > 0 && !atOrAboveDir("/"+strings.Join(x[:end], "/"), floor); end-- {
			for k := 1; k <= len(tail) && k <= end; k++ {
				if k == 1 && end == len(x) && strings.ContainsAny(x[end-1], "*?[") {
					continue
				}
				if namesMay(tail[:k], x[end-k:end]) {
					return true
				}
			}
		}
	}
	return false
}

// namesMay reports whether each name of a may be the name of b at its place.
func namesMay(a, b []string) bool {
	for j := range a {
		if !componentMay(a[j], b[j]) {
			return false
		}
	}
	return true
}

// atOrAboveDir reports whether the clean absolute path p is one of dirs or a directory
// above one.
func atOrAboveDir(p string, dirs []string) bool {
	for _, d := range dirs {
		if d == p || p == "/" || strings.HasPrefix(d, p+"/") {
			return true
		}
	}
	return false
}

// componentMay reports whether the path component c may be the component s, either of
// which may be a glob.
func componentMay(c, s string) bool {
	cg, sg := strings.ContainsAny(c, "*?["), strings.ContainsAny(s, "*?[")
	switch {
	case cg && sg:
		return true
	case cg:
		ok, err := path.Match(c, s)
		return ok || err != nil
	case sg:
		ok, err := path.Match(s, c)
		return ok || err != nil
	}
	return c == s
}

// splitWords splits text at blanks, quotes, commas and the shell's ( ) ; | & = < >
// characters: the words a path may be among (an option's =VALUE, an interpreter's
// open("PATH", "w")).
func splitWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return strings.ContainsRune(" \t\n()|;&=<>\"',", r)
	})
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

package match

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// A package manager installs a package's programs into a bin directory under names the
// package chooses (red team round 50: `cd /tmp/t && go install` of a module named
// example.com/hookcore-hook replaced ~/go/bin/hookcore-hook, and the line names neither).
// installs takes each such install as a write of any name into its directory: the
// directory from the manager's documented default, the environment variables and options
// that move it (the command's own leading assignments, else the hook's environment and the
// literal values the line assigns elsewhere), and its configuration files when they may
// move it; any directory when one of those cannot be read.

// installTarget is where one install may write programs: bins are directories it writes
// into, trees directories anywhere under which it may write (a Python prefix: its bin and
// its data files); any means any directory.
type installTarget struct {
	bins, trees []string
	any         bool
	names       []string // the programs' names when the line spells them all (go install pkg@v)
}

// installs reports whether a command of the line (units: package shell's Units) installs or
// removes programs of its packages' naming where the hook program may be.
func (w *writeCheck) installs(units []string) bool {
	var raw [][]string // the line's simple commands as written, for their leading assignments
	for _, u := range units {
		if _, ok := redirectTarget(u); ok {
			continue
		}
		pre := map[string]string{}
		words := assignments(strings.Fields(u), pre)
		if len(words) > 0 && words[0] == "env" {
			words = envCommand(words[1:], pre)
		}
		if len(words) == 0 || !isInstallHead(filepath.Base(words[0])) {
			continue
		}
		// Package shell's units leave a command's leading assignments apart (GOBIN=/x go
		// install is two units): take them from the line's text where it runs the same words.
		if raw == nil {
			raw = rawCommands(w.cmd)
		}
		pres := []map[string]string{pre}
		for _, r := range raw {
			rp := map[string]string{}
			rw := assignments(r, rp)
			if len(rw) > 0 && rw[0] == "env" {
				rw = envCommand(rw[1:], rp)
			}
			if len(rp) > 0 && slices.Equal(rw, words) {
				pres = append(pres, rp)
			}
		}
		if len(pres) > 1 && len(pre) == 0 {
			pres = pres[1:]
		}
		for _, pre := range pres {
			if w.installsInto(words, pre) {
				return true
			}
		}
	}
	return false
}

// installsInto reports whether the command words, run with the leading assignments pre,
// installs programs where the hook program may be.
func (w *writeCheck) installsInto(words []string, pre map[string]string) bool {
	t, ok := w.installTarget(words[0], words[1:], pre)
	if !ok {
		return false
	}
	if t.any {
		return true
	}
	for _, b := range t.bins {
		if len(t.names) == 0 && w.dir(b) {
			return true
		}
		for _, n := range t.names {
			if w.file(b + "/" + n) {
				return true
			}
		}
	}
	for _, tr := range t.trees {
		if w.under(tr) {
			return true
		}
	}
	return false
}

// installHeads are the programs installTarget knows.
var installHeads = map[string]bool{
	"go": true, "pip": true, "pip3": true, "pipx": true, "uv": true, "cargo": true, "npm": true,
	"pnpm": true, "yarn": true, "bun": true, "gem": true, "stack": true, "cabal": true, "deno": true,
	"dotnet": true, "composer": true, "brew": true, "luarocks": true, "opam": true, "nix": true,
	"nix-env": true, "conda": true, "mamba": true, "micromamba": true, "make": true, "gmake": true,
	"bmake": true, "ninja": true, "cmake": true, "meson": true, "dpkg": true, "rpm": true,
	"apt": true, "apt-get": true, "dnf": true, "yum": true, "zypper": true,
}

// isInstallHead reports whether installTarget knows the program name base.
func isInstallHead(base string) bool {
	return installHeads[base] || isPip(base) || strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy")
}

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
		for len(words) > 0 && reservedStart[words[0]] {
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
			for len(words) == 1 && reservedStart[words[0]] {
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
var reservedStart = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true,
	"!": true, "{": true, "time": true, "exec": true, "command": true, "nohup": true,
}

// assignments moves the leading assignments of words into pre and returns the rest; an
// append (P+=x) is recorded as a value of unknown text.
func assignments(words []string, pre map[string]string) []string {
	for len(words) > 0 && leadingAssignment(words[0]) {
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
		case leadingAssignment(a):
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

// installTarget returns where the command head args (with leading assignments pre) may
// install programs, and ok when it is a package manager's install or removal of them.
func (w *writeCheck) installTarget(head string, args []string, pre map[string]string) (t installTarget, ok bool) {
	base := filepath.Base(head)
	sub, rest := subcommand(args)
	switch {
	case base == "go":
		return w.goTarget(args, pre)
	case isPip(base):
		return w.pipTarget(head, args, pre, false)
	case strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy"):
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				switch args[i+1] {
				case "pip":
					return w.pipTarget(head, args[i+2:], pre, false)
				case "pipx":
					return w.pipxTarget(args[i+2:], pre)
				}
			}
		}
	case base == "pipx":
		return w.pipxTarget(args, pre)
	case base == "uv" && sub == "pip":
		return w.pipTarget(head, rest, pre, true)
	case base == "uv" && sub == "tool":
		if s, _ := subcommand(rest); s == "install" || s == "upgrade" {
			return w.envBins(pre, []string{"UV_TOOL_BIN_DIR", "XDG_BIN_HOME"}, nil, w.xdgData("../bin"), "~/.local/bin"), true
		}
	case base == "cargo":
		return w.cargoTarget(args, pre)
	case base == "npm" || base == "pnpm" || base == "yarn" || base == "bun":
		return w.nodeTarget(base, args, pre)
	case base == "gem":
		return w.gemTarget(args, pre)
	case base == "stack" && (sub == "install" || slicesHasAny(args, []string{"--copy-bins"})):
		return w.optionBins(args, "--local-bin-path", "~/.local/bin"), true
	case base == "cabal" && sub == "install":
		return w.optionBins(args, "--installdir", "~/.cabal/bin", "~/.local/bin"), true
	case base == "deno" && sub == "install" && slicesHasAny(args, []string{"-g", "--global", "--root"}):
		p := parseArgs(rest, "", "--root")
		t = w.envBins(pre, nil, []string{"DENO_INSTALL_ROOT"}, "~/.deno/bin")
		for _, r := range p.vals("--root") {
			t.bins = append(t.bins, r+"/bin")
		}
		return t, true
	case base == "dotnet" && sub == "tool":
		if s, r := subcommand(rest); s == "install" || s == "update" {
			p := parseArgs(r, "g", "--tool-path")
			switch {
			case len(p.vals("--tool-path")) > 0:
				return installTarget{bins: p.vals("--tool-path")}, true
			case p.has("-g", "--global"):
				return installTarget{bins: []string{"~/.dotnet/tools"}}, true
			}
		}
	case base == "composer" && sub == "global":
		t = w.envBins(pre, nil, nil, "~/.config/composer/vendor/bin", "~/.composer/vendor/bin")
		if v, unset, unk := w.lookup(pre, "COMPOSER_HOME"); unk {
			t.any = true
		} else if !unset || len(v) > 0 {
			for _, h := range v {
				t.bins = append(t.bins, h+"/vendor/bin")
			}
		}
		return t, true
	case base == "brew" && (sub == "install" || sub == "upgrade" || sub == "reinstall" || sub == "link"):
		return w.envBins(pre, nil, []string{"HOMEBREW_PREFIX"}, "/opt/homebrew/bin", "/usr/local/bin", "/home/linuxbrew/.linuxbrew/bin"), true
	case base == "luarocks" && sub == "install":
		t.bins = []string{"~/.luarocks/bin", "/usr/local/bin"}
		if trees := parseArgs(rest, "", "--tree").vals("--tree"); len(trees) > 0 {
			t.bins = nil
			for _, tr := range trees {
				t.bins = append(t.bins, tr+"/bin")
			}
		}
		return t, true
	case base == "opam" && sub == "install", base == "nix" && sub == "profile" && len(rest) > 0 && (rest[0] == "install" || rest[0] == "add" || rest[0] == "upgrade"),
		base == "nix-env" && parseArgs(args, "").has("-i", "--install", "-u", "--upgrade", "--set"),
		base == "conda" && sub == "install", base == "mamba" && sub == "install", base == "micromamba" && sub == "install":
		return installTarget{any: true}, true // a prefix of the tool's configuration
	case base == "make" || base == "gmake" || base == "bmake" || base == "ninja":
		for _, a := range args {
			if strings.HasPrefix(a, "install") {
				return installTarget{any: true}, true // the Makefile's PREFIX
			}
		}
	case base == "cmake" && slicesHasAny(args, []string{"--install"}), base == "meson" && sub == "install":
		return installTarget{any: true}, true
	case base == "dpkg" && parseArgs(args, "").has("-i", "--install", "--unpack"),
		base == "rpm" && parseArgs(args, "").has("-i", "-U", "-F", "--install", "--upgrade", "--freshen") && !parseArgs(args, "").has("-q", "--query"):
		return installTarget{any: true}, true // a package's files, where it names them
	case (base == "apt" || base == "apt-get" || base == "dnf" || base == "yum" || base == "zypper") && (sub == "install" || sub == "reinstall"):
		for _, a := range rest {
			if strings.Contains(a, "/") {
				return installTarget{any: true}, true // a local package file
			}
		}
	}
	return t, false
}

// optionBins returns the values of the option opt in args (--opt VALUE, --opt=VALUE) as
// the bin directories, else dflt.
func (w *writeCheck) optionBins(args []string, opt string, dflt ...string) installTarget {
	p := parseArgs(args, "", opt)
	if v := p.vals(opt); len(v) > 0 {
		return installTarget{bins: v}
	}
	return installTarget{bins: dflt}
}

// envBins returns the bin directories named by the first of binVars (the directory) or
// rootVars (its /bin) that may be set, else dflt.
func (w *writeCheck) envBins(pre map[string]string, binVars, rootVars []string, dflt ...string) installTarget {
	var t installTarget
	for i, name := range append(append([]string{}, binVars...), rootVars...) {
		vals, unset, unk := w.lookup(pre, name)
		if unk {
			return installTarget{any: true}
		}
		for _, v := range vals {
			if i >= len(binVars) {
				v += "/bin"
			}
			t.bins = append(t.bins, v)
		}
		if !unset {
			return t
		}
	}
	t.bins = append(t.bins, dflt...)
	return t
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

// goTarget is `go install` and `go clean -i` (and `go get` in GOPATH mode): GOBIN, else the
// first GOPATH entry's bin, else ~/go/bin; the environment over the go env file (GOENV,
// default $XDG_CONFIG_HOME/go/env).
func (w *writeCheck) goTarget(args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args, "-C")
	switch sub {
	case "install":
	case "clean":
		if !slicesHasAny(rest, []string{"-i"}) {
			return installTarget{}, false
		}
	case "get":
		if !strings.Contains(w.cmd, "GO111MODULE") && os.Getenv("GO111MODULE") != "off" {
			return installTarget{}, false
		}
	default:
		return installTarget{}, false
	}
	var t installTarget
	if sub == "install" {
		t.names = goNames(rest)
	}
	file := map[string]string{}
	envFile, unsetEnv, unk := w.lookup(pre, "GOENV")
	if unk {
		return installTarget{any: true}, true
	}
	if unsetEnv {
		cfg := os.Getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = "~/.config"
		}
		envFile = append(envFile, filepath.Join(cfg, "go", "env"))
	}
	for _, f := range envFile {
		if f == "off" {
			continue
		}
		b, _ := os.ReadFile(w.expand(f))
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				file[k] = v
			}
		}
	}
	gobin, unset, unk := w.lookup(pre, "GOBIN")
	if unk {
		return installTarget{any: true}, true
	}
	t.bins = gobin
	if !unset {
		return t, true
	}
	if v := file["GOBIN"]; v != "" {
		t.bins = append(t.bins, v)
		return t, true
	}
	gopath, unset, unk := w.lookup(pre, "GOPATH")
	if unk {
		return installTarget{any: true}, true
	}
	if unset {
		if v := file["GOPATH"]; v != "" {
			gopath = append(gopath, v)
		} else {
			gopath = append(gopath, "~/go")
		}
	}
	for _, p := range gopath {
		first, _, _ := strings.Cut(p, string(filepath.ListSeparator))
		t.bins = append(t.bins, filepath.Join(first, "bin"))
	}
	return t, true
}

// goBoolFlags are the go build flags that take no value.
var goBoolFlags = map[string]bool{
	"-a": true, "-n": true, "-race": true, "-msan": true, "-asan": true, "-cover": true, "-v": true,
	"-work": true, "-x": true, "-trimpath": true, "-linkshared": true, "-modcacherw": true, "-buildvcs": true,
	"-i": true,
}

// goNames returns the names of the programs `go install args` installs when each package
// is named with a version (pkg@v: the last element of its path, the one before a /vN major
// version suffix), nil when one is a package of the local module or GOPATH, whose import
// path and so its name come from a go.mod the line does not show, or a pattern (...).
func goNames(args []string) []string {
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !goBoolFlags[a] && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		pkg, _, ok := strings.Cut(a, "@")
		if !ok || strings.Contains(pkg, "...") || hasExpansion(pkg) {
			return nil
		}
		elems := strings.Split(strings.Trim(pkg, "/"), "/")
		n := elems[len(elems)-1]
		if len(elems) > 1 && len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
			n = elems[len(elems)-2]
		}
		names = append(names, n)
	}
	return names
}

// isPip reports whether the program name base is pip (pip, pip3, pip3.12).
func isPip(base string) bool {
	v, ok := strings.CutPrefix(base, "pip")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// pipTarget is `pip install` and `pip uninstall` (uv: `uv pip`): the prefix of --user
// (PYTHONUSERBASE, default ~/.local), --target, --prefix, --root or --home; else the
// environment's: the pip or python run by its path, an active or activated virtual
// environment (uv: .venv in the cwd or above), the python found on PATH, and the user base
// pip falls back to when that is not writable. pip's own settings (PIP_* and its
// configuration files) that name a location move it anywhere.
func (w *writeCheck) pipTarget(head string, args []string, pre map[string]string, uv bool) (installTarget, bool) {
	sub, rest := subcommand(args, "--python", "--log", "--proxy", "--cache-dir")
	if sub != "install" && sub != "uninstall" && sub != "sync" {
		return installTarget{}, false
	}
	var t installTarget
	p := parseArgs(rest, "tcrebifp", "--target", "--prefix", "--root", "--home", "--python",
		"--requirement", "--constraint", "--editable", "--index-url", "--extra-index-url", "--find-links")
	if strings.Contains(strings.ToLower(w.cmd), "pip.conf") || strings.Contains(w.cmd, "pip config") {
		return installTarget{any: true}, true
	}
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = w.expand("~/.config")
	}
	confs := []string{"/etc/pip.conf", "/etc/xdg/pip/pip.conf", w.expand("~/.pip/pip.conf"), filepath.Join(cfg, "pip", "pip.conf")}
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		confs = append(confs, filepath.Join(v, "pip.conf"))
	}
	files, _, unk := w.lookup(pre, "PIP_CONFIG_FILE")
	if unk {
		return installTarget{any: true}, true
	}
	for _, f := range files {
		confs = append(confs, w.expand(f))
	}
	if configHas(confs, "target", "prefix", "root", "user", "home") {
		return installTarget{any: true}, true
	}
	located := false
	for _, o := range []string{"-t", "--target", "--prefix", "--root", "--home"} {
		for _, v := range p.vals(o) {
			t.trees, located = append(t.trees, v), true
		}
	}
	for _, n := range []string{"PIP_TARGET", "PIP_PREFIX", "PIP_ROOT"} {
		vals, _, unk := w.lookup(pre, n)
		if unk {
			return installTarget{any: true}, true
		}
		t.trees = append(t.trees, vals...)
	}
	userVals, _, unk := w.lookup(pre, "PIP_USER")
	if unk {
		return installTarget{any: true}, true
	}
	user := p.has("--user") || len(userVals) > 0
	userBase := []string{"~/.local"}
	if runtime.GOOS == "darwin" {
		userBase = append(userBase, "~/Library/Python")
	}
	if vals, unset, unk := w.lookup(pre, "PYTHONUSERBASE"); unk {
		return installTarget{any: true}, true
	} else if !unset {
		userBase = vals
	} else {
		userBase = append(userBase, vals...)
	}
	if user {
		t.trees = append(t.trees, userBase...)
		return t, true
	}
	if located {
		return t, true
	}
	// The environment pip installs into.
	for _, py := range append(p.vals("--python"), p.vals("-p")...) {
		if !strings.Contains(py, "/") {
			py = lookPath(py)
		}
		t.trees = append(t.trees, filepath.Dir(filepath.Dir(py)))
	}
	if strings.Contains(head, "/") {
		t.trees = append(t.trees, filepath.Dir(filepath.Dir(head)))
	} else {
		venv, _, unk := w.lookup(pre, "VIRTUAL_ENV")
		if unk {
			return installTarget{any: true}, true
		}
		t.trees = append(t.trees, venv...)
		for _, a := range activated(w.cmd) {
			t.trees = append(t.trees, filepath.Dir(a))
		}
		name := head
		if uv || p.has("--system") {
			name = "python3"
		}
		// A directory the line puts on PATH that holds the pip (or python) it runs.
		paths, other := lineValues(w.cmd, "PATH")
		if v, ok := pre["PATH"]; ok {
			paths, other = []string{v}, false
		}
		if other {
			return installTarget{any: true}, true
		}
		for _, pv := range paths {
			for _, e := range filepath.SplitList(pv) {
				e = w.expand(e)
				switch {
				case e == "$PATH" || e == "${PATH}":
				case hasExpansion(e):
					return installTarget{any: true}, true
				default:
					if _, err := os.Stat(filepath.Join(e, name)); err == nil {
						t.trees = append(t.trees, filepath.Dir(e))
					}
				}
			}
		}
		if f := lookPath(name); f != "" {
			t.trees = append(t.trees, filepath.Dir(filepath.Dir(f)))
			if r, err := filepath.EvalSymlinks(f); err == nil {
				t.trees = append(t.trees, filepath.Dir(filepath.Dir(r)))
			}
		}
		if !uv {
			t.trees = append(t.trees, userBase...) // not writable: --user
			t.trees = append(t.trees, "/usr/local")
		}
	}
	if uv {
		for _, c := range w.scope.cwdForms() {
			for d := c; ; d = filepath.Dir(d) {
				t.trees = append(t.trees, filepath.Join(d, ".venv"))
				if configHas([]string{filepath.Join(d, "uv.toml"), filepath.Join(d, "pyproject.toml")}, "[pip]", "[tool.uv.pip]") {
					return installTarget{any: true}, true
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
		if w.scope.anywhere {
			return installTarget{any: true}, true
		}
	}
	return t, true
}

// activated returns the bin directories of the activate scripts the line cmd names
// (`source .venv/bin/activate`).
func activated(cmd string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(cmd, func(r rune) bool { return strings.ContainsRune(" \t\n;&|()'\"", r) }) {
		if strings.HasSuffix(f, "/bin/activate") {
			out = append(out, strings.TrimSuffix(f, "/activate"))
		}
	}
	return out
}

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

// pipxTarget is pipx's install, upgrade, reinstall and inject: PIPX_BIN_DIR, default
// ~/.local/bin (--global: PIPX_GLOBAL_BIN_DIR, default /usr/local/bin).
func (w *writeCheck) pipxTarget(args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args)
	switch sub {
	case "install", "install-all", "upgrade", "upgrade-all", "reinstall", "reinstall-all", "inject", "upgrade-shared":
	default:
		return installTarget{}, false
	}
	if slicesHasAny(rest, []string{"--global"}) || slicesHasAny(args, []string{"--global"}) {
		return w.envBins(pre, []string{"PIPX_GLOBAL_BIN_DIR"}, nil, "/usr/local/bin"), true
	}
	return w.envBins(pre, []string{"PIPX_BIN_DIR"}, nil, "~/.local/bin"), true
}

// cargoTarget is `cargo install` and `cargo uninstall`: --root, CARGO_INSTALL_ROOT, the
// install.root of a cargo configuration file (the cwd's .cargo and those above it, and
// CARGO_HOME's), else CARGO_HOME (default ~/.cargo), each with /bin.
func (w *writeCheck) cargoTarget(args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args, "--config", "-Z", "--color")
	if sub != "install" && sub != "uninstall" {
		return installTarget{}, false
	}
	p := parseArgs(rest, "", "--root", "--config")
	if len(p.vals("--config")) > 0 || slicesHasAny(args, []string{"--config"}) || strings.Contains(w.cmd, ".cargo/config") {
		return installTarget{any: true}, true
	}
	var t installTarget
	for _, r := range p.vals("--root") {
		t.bins = append(t.bins, r+"/bin")
	}
	if len(t.bins) > 0 {
		return t, true
	}
	roots, unset, unk := w.lookup(pre, "CARGO_INSTALL_ROOT")
	if unk {
		return installTarget{any: true}, true
	}
	for _, r := range roots {
		t.bins = append(t.bins, r+"/bin")
	}
	if !unset {
		return t, true
	}
	homes, unset, unk := w.lookup(pre, "CARGO_HOME")
	if unk {
		return installTarget{any: true}, true
	}
	if unset {
		homes = append(homes, "~/.cargo")
	}
	var confs []string
	for _, h := range homes {
		t.bins = append(t.bins, h+"/bin")
		confs = append(confs, filepath.Join(w.expand(h), "config.toml"), filepath.Join(w.expand(h), "config"))
	}
	for _, c := range w.scope.cwdForms() {
		for d := c; ; d = filepath.Dir(d) {
			confs = append(confs, filepath.Join(d, ".cargo", "config.toml"), filepath.Join(d, ".cargo", "config"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if w.scope.anywhere || configHas(confs, "root", "[install]") {
		return installTarget{any: true}, true
	}
	return t, true
}

// nodeTarget is a global install, update, removal or link of npm, pnpm, yarn (`yarn
// global`) or bun: npm's prefix (--prefix, npm_config_prefix, an npmrc's prefix, else the
// prefix node is installed in) with /bin; pnpm's PNPM_HOME (default
// $XDG_DATA_HOME/pnpm); yarn's ~/.yarn/bin and npm's; bun's BUN_INSTALL/bin (default
// ~/.bun/bin). A local install (node_modules/.bin) is not one.
func (w *writeCheck) nodeTarget(base string, args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args, "--prefix", "-C", "--location", "--cwd")
	global := slicesHasAny(args, []string{"-g", "--global", "--location=global"})
	for i, a := range args {
		global = global || a == "--location" && i+1 < len(args) && args[i+1] == "global"
	}
	switch base {
	case "npm":
		switch sub {
		case "link", "ln":
			global = true
		case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall",
			"add", "update", "up", "upgrade", "udpate", "uninstall", "unlink", "un", "remove", "rm", "r":
		default:
			return installTarget{}, false
		}
	case "pnpm":
		switch sub {
		case "add", "install", "i", "update", "up", "upgrade", "remove", "rm", "un", "uninstall", "link", "ln":
		default:
			return installTarget{}, false
		}
	case "yarn":
		if sub != "global" {
			return installTarget{}, false
		}
		global = true
	case "bun":
		switch sub {
		case "link":
			global = global || len(rest) == 0
		case "add", "a", "install", "i", "update", "remove", "rm", "uninstall":
		default:
			return installTarget{}, false
		}
	}
	for _, n := range []string{"npm_config_global", "NPM_CONFIG_GLOBAL"} {
		if v, _, unk := w.lookup(pre, n); unk || len(v) > 0 && v[0] != "false" && v[0] != "" {
			global = true
		}
	}
	if !global {
		return installTarget{}, false
	}
	lc := strings.ToLower(w.cmd)
	if strings.Contains(lc, "npmrc") || strings.Contains(lc, "yarnrc") || strings.Contains(lc, "bunfig") ||
		strings.Contains(lc, " config set") {
		return installTarget{any: true}, true
	}
	// npm reads any npm_config_* variable, its name in any case: one the lookups below do not
	// read may move the prefix.
	read := 0
	for _, n := range []string{"npm_config_prefix", "NPM_CONFIG_PREFIX", "npm_config_global", "NPM_CONFIG_GLOBAL"} {
		read += strings.Count(w.cmd, n)
	}
	if strings.Count(lc, "npm_config") > read {
		return installTarget{any: true}, true
	}
	var t installTarget
	switch base {
	case "bun":
		if configHas([]string{w.expand("~/.bunfig.toml"), "bunfig.toml"}, "globalBinDir") {
			return installTarget{any: true}, true
		}
		return w.envBins(pre, nil, []string{"BUN_INSTALL"}, "~/.bun/bin"), true
	case "pnpm":
		return w.envBins(pre, []string{"PNPM_HOME"}, nil, w.xdgData("pnpm"), "~/Library/pnpm"), true
	case "yarn":
		t.bins = append(t.bins, "~/.yarn/bin")
	}
	p := parseArgs(args, "C", "--prefix")
	prefixes := append(p.vals("--prefix"), p.vals("-C")...)
	if len(prefixes) == 0 {
		for _, n := range []string{"npm_config_prefix", "NPM_CONFIG_PREFIX"} {
			v, _, unk := w.lookup(pre, n)
			if unk {
				return installTarget{any: true}, true
			}
			prefixes = append(prefixes, v...)
		}
	}
	if len(prefixes) == 0 {
		node := lookPath("node")
		if node == "" {
			return installTarget{any: true}, true
		}
		roots := []string{filepath.Dir(filepath.Dir(node))}
		if r, err := filepath.EvalSymlinks(node); err == nil {
			roots = append(roots, filepath.Dir(filepath.Dir(r)))
		}
		user := os.Getenv("NPM_CONFIG_USERCONFIG")
		if user == "" {
			user = w.expand("~/.npmrc")
		}
		confs := []string{user, w.expand("~/.yarnrc")}
		for _, r := range roots {
			confs = append(confs, filepath.Join(r, "etc", "npmrc"), filepath.Join(r, "lib", "node_modules", "npm", "npmrc"))
		}
		if configHas(confs, "prefix", "global-bin-dir") {
			return installTarget{any: true}, true
		}
		prefixes = roots
	}
	for _, pr := range prefixes {
		t.bins = append(t.bins, pr+"/bin")
	}
	return t, true
}

// gemTarget is gem's install, update, pristine and uninstall of a gem's executables:
// --bindir (-n), --install-dir (-i) with /bin, --user-install's ~/.gem/ruby/*/bin and
// ~/.local/share/gem/ruby/*/bin, GEM_HOME/bin, else Ruby's bindir (where ruby and gem are);
// a gemrc (GEMRC, ~/.gemrc, /etc/gemrc) that names a directory moves it anywhere.
func (w *writeCheck) gemTarget(args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args)
	switch sub {
	case "install", "i", "update", "pristine", "uninstall":
	default:
		return installTarget{}, false
	}
	var t installTarget
	p := parseArgs(rest, "niv", "--bindir", "--install-dir", "--version")
	t.bins = append(p.vals("-n"), p.vals("--bindir")...)
	for _, d := range append(p.vals("-i"), p.vals("--install-dir")...) {
		t.bins = append(t.bins, d+"/bin")
	}
	if len(t.bins) > 0 {
		return t, true
	}
	rcs := []string{w.expand("~/.gemrc"), "/etc/gemrc"}
	if rc, _, unk := w.lookup(pre, "GEMRC"); unk || len(rc) > 0 || strings.Contains(w.cmd, "gemrc") {
		return installTarget{any: true}, true
	}
	if configHas(rcs, "bindir", "install-dir", "user-install") {
		return installTarget{any: true}, true
	}
	if p.has("--user-install") {
		return installTarget{bins: []string{"~/.gem/ruby/*/bin", "~/.local/share/gem/ruby/*/bin"}}, true
	}
	homes, unset, unk := w.lookup(pre, "GEM_HOME")
	if unk {
		return installTarget{any: true}, true
	}
	for _, h := range homes {
		t.bins = append(t.bins, h+"/bin")
	}
	if !unset {
		return t, true
	}
	for _, n := range []string{"ruby", "gem"} {
		if f := lookPath(n); f != "" {
			t.bins = append(t.bins, filepath.Dir(f))
			if r, err := filepath.EvalSymlinks(f); err == nil {
				t.bins = append(t.bins, filepath.Dir(r))
			}
		}
	}
	if len(t.bins) == len(homes) {
		t.any = true // no Ruby found: its bindir is not known
	}
	return t, true
}

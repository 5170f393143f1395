package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// runView is how guardPaths sees the machine: the home, the environment of the hooks, and
// whether it may look at the file system (the hook command does; a policy test file's
// hook_runs: does not, so that its cases do not depend on the machine they run on).
type runView struct {
	home   string
	cwd    string                   // the hooks' working directory; "" when unknown
	getenv func(name string) string // "" when unset
	// fs: resolve symlinks, list a Python's lib directory for its version, read git's
	// global config for the files it includes, and leave out a path the process cannot
	// write (nor create: its nearest existing directory is not writable), which the agent,
	// running as the same user, cannot change either. Nil: none of these.
	fs *fsMemo
}

// fsMemo answers guardPaths' questions about the file system once per path: every hook
// process (one event) asks them, for paths that share most of their directories.
type fsMemo struct {
	real     map[string]string // evalSymlinks: "" when the path does not resolve
	writable map[string]bool
}

func newFSMemo() *fsMemo {
	return &fsMemo{real: map[string]string{}, writable: map[string]bool{}}
}

// evalSymlinks is filepath.EvalSymlinks of the clean absolute path p: its directory first
// (memoized), then one lstat of p; ok is false when p does not resolve.
func (m *fsMemo) evalSymlinks(p string) (string, bool) {
	p = filepath.Clean(p)
	r, ok := m.real[p]
	if !ok {
		r = m.resolve(p)
		m.real[p] = r
	}
	return r, r != ""
}

func (m *fsMemo) resolve(p string) string {
	d := filepath.Dir(p)
	if d == p {
		return p
	}
	rd, ok := m.evalSymlinks(d)
	if !ok {
		return ""
	}
	r := filepath.Join(rd, filepath.Base(p))
	fi, err := os.Lstat(r)
	if err != nil {
		return ""
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if r, err = filepath.EvalSymlinks(r); err != nil {
			return ""
		}
	}
	return r
}

// mayWrite is the package's mayWrite, memoized by the nearest existing directory.
func (m *fsMemo) mayWrite(p string) bool {
	if _, ok := m.evalSymlinks(p); ok {
		if w, ok := m.writable[p]; ok {
			return w
		}
		w := mayWrite(p)
		m.writable[p] = w
		return w
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if _, ok := m.evalSymlinks(d); ok {
			w, ok := m.writable[d]
			if !ok {
				w = mayWrite(d)
				m.writable[d] = w
			}
			return w
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// guardPaths returns what `changes hook_program` protects of runs (hookcore.Options'
// HookProgram and HookStartup): the programs' files, the scripts interpreters are given
// and the shadow slots (DIR/NAME for each PATH directory searched before the program's);
// and the startup paths of startupOf's table.
func guardPaths(runs []hookRun, v runView) (programs, startup []string) {
	add := func(list *[]string, p string) {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(*list, p) && (v.fs == nil || v.fs.mayWrite(p)) {
			*list = append(*list, p)
		}
	}
	for _, r := range runs {
		add(&programs, r.file)
		add(&programs, r.script)
		for _, d := range r.before {
			add(&programs, filepath.Join(d, r.name))
		}
		for _, p := range startupOf(r, v) {
			add(&startup, p)
			if v.fs != nil {
				if rp, ok := v.fs.resolvedPrefix(p); ok {
					add(&startup, rp)
				}
			}
		}
	}
	return programs, startup
}

// startupOf returns the files and directories r's program reads when it starts, a write of
// which changes what it does before a guard's first line runs (docs/decisions.md, "Red team
// round 50", has the table and its sources):
//
//   - Python (python, python3, python3.X): its site directories, whose .pth files it runs
//     and where it finds sitecustomize and usercustomize (the user site
//     ~/.local/lib/pythonX.Y/site-packages or PYTHONUSERBASE's, unless -s, -I or
//     PYTHONNOUSERSITE; the prefix's lib/pythonX.Y with its site-packages, Debian's
//     lib/python3/dist-packages, local/lib/pythonX.Y/dist-packages and /etc/pythonX.Y),
//     pyvenv.cfg beside the interpreter and one directory up, PYTHONPATH and PYTHONHOME,
//     and the script's directory (sys.path[0], unless -I or -P); X.Y from the interpreter's
//     name or its lib directory, every version when unknown;
//   - jq: ~/.jq (a file is sourced into every program; a directory is the module path);
//   - git: the global config ($XDG_CONFIG_HOME/git/config, ~/.gitconfig, GIT_CONFIG_GLOBAL)
//     and the files it includes, the global attributes, the system config;
//   - node, npm, npx: the global module folders (~/.node_modules, ~/.node_libraries,
//     PREFIX/lib/node, NODE_PATH) and node_modules in each directory above the script;
//     npm and npx also ~/.npmrc, the global npmrc and npx's cache (~/.npm/_npx);
//   - uv, uvx, pipx: their configuration, interpreters and cached environments;
//   - curl: .curlrc (unless -q comes first); wget: .wgetrc; zsh: .zshenv;
//   - sh, bash, dash: none (a non-interactive shell reads BASH_ENV or ENV, which are
//     environment, not files);
//   - any program found: /etc/ld.so.preload, which glibc's loader reads for every
//     dynamically linked program;
//   - a version manager's shim (pyenv, rbenv, nodenv, goenv, jenv, asdf, mise, volta): the
//     manager's root and configuration, the version files of the working directory and
//     its ancestors, and the selected version's interpreter's own (shimStartup).
func startupOf(r hookRun, v runView) []string {
	home := v.home
	env := func(name, def string) string {
		if x := v.getenv(name); x != "" && filepath.IsAbs(x) {
			return x
		}
		return def
	}
	xdgConfig := env("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	xdgData := env("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	xdgCache := env("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	var out []string
	if r.file != "" {
		// glibc's dynamic loader loads the libraries this file lists into every dynamically
		// linked program (root's to write: the writability filter keeps it for root only).
		out = append(out, "/etc/ld.so.preload")
		out = append(out, shimStartup(r, v)...)
	}
	for _, base := range runNames(r, v) {
		switch {
		case pythonProgram(base):
			out = append(out, pythonStartup(r, v)...)
		case base == "jq":
			out = append(out, filepath.Join(home, ".jq"))
		case base == "git":
			global := []string{filepath.Join(xdgConfig, "git", "config"), filepath.Join(home, ".gitconfig")}
			if g := env("GIT_CONFIG_GLOBAL", ""); g != "" {
				global = append(global, g)
			}
			out = append(out, global...)
			out = append(out, filepath.Join(xdgConfig, "git", "attributes"),
				env("GIT_CONFIG_SYSTEM", "/etc/gitconfig"), "/etc/gitattributes")
			if v.fs != nil {
				for _, g := range global {
					out = append(out, gitIncludes(g, home)...)
				}
			}
		case base == "node" || base == "npm" || base == "npx":
			out = append(out, nodeStartup(r, v)...)
			if base != "node" {
				prefix := runPrefix(r, v)
				out = append(out, env("NPM_CONFIG_USERCONFIG", filepath.Join(home, ".npmrc")),
					filepath.Join(env("NPM_CONFIG_CACHE", filepath.Join(home, ".npm")), "_npx"))
				if prefix != "" {
					out = append(out, filepath.Join(prefix, "etc", "npmrc"), filepath.Join(prefix, "lib", "node_modules"))
				}
			}
		case base == "uv" || base == "uvx":
			out = append(out, filepath.Join(xdgConfig, "uv"), env("UV_CACHE_DIR", filepath.Join(xdgCache, "uv")),
				env("UV_PYTHON_INSTALL_DIR", filepath.Join(xdgData, "uv")), "/etc/uv")
		case base == "pipx":
			out = append(out, env("PIPX_HOME", filepath.Join(home, ".local", "pipx")),
				filepath.Join(xdgData, "pipx"), filepath.Join(xdgCache, "pipx"))
		case base == "curl":
			if len(r.args) == 0 || r.args[0] != "-q" && r.args[0] != "--disable" {
				if c := v.getenv("CURL_HOME"); c != "" {
					out = append(out, filepath.Join(c, ".curlrc"))
				}
				out = append(out, filepath.Join(xdgConfig, ".curlrc"), filepath.Join(home, ".curlrc"))
			}
		case base == "wget":
			out = append(out, env("WGETRC", filepath.Join(home, ".wgetrc")), "/etc/wgetrc")
		case base == "zsh":
			out = append(out, filepath.Join(env("ZDOTDIR", home), ".zshenv"), "/etc/zsh/zshenv", "/etc/zshenv")
		}
	}
	return out
}

// runNames returns the base names r's program goes by: as named, as found, and (fs) the
// file it resolves to (python3 -> python3.11).
func runNames(r hookRun, v runView) []string {
	names := []string{filepath.Base(r.name)}
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if r.file != "" {
		add(filepath.Base(r.file))
		if v.fs != nil {
			if real, ok := v.fs.evalSymlinks(r.file); ok {
				add(filepath.Base(real))
			}
		}
	}
	return names
}

// runPrefix returns the installation prefix of r's program (/usr for /usr/bin/node), from
// the file it resolves to; "" when it is not found.
func runPrefix(r hookRun, v runView) string {
	if r.file == "" {
		return ""
	}
	f := r.file
	if v.fs != nil {
		if real, ok := v.fs.evalSymlinks(f); ok {
			f = real
		}
	}
	return filepath.Dir(filepath.Dir(f))
}

// pythonStartup is startupOf for a Python interpreter.
func pythonStartup(r hookRun, v runView) []string {
	var flags string // the interpreter's one-letter options before its script
	for _, a := range r.args {
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || a == "-" {
			break
		}
		flags += a[1:]
		if strings.ContainsAny(a[len(a)-1:], "cmWXQ") {
			break // -c CODE, -m MOD, an option's value
		}
	}
	isolated := strings.Contains(flags, "I")
	noEnv := isolated || strings.Contains(flags, "E")
	getenv := func(name string) string {
		if noEnv {
			return ""
		}
		return v.getenv(name)
	}
	noUser := isolated || strings.Contains(flags, "s") || getenv("PYTHONNOUSERSITE") != ""
	var prefixes []string // the interpreter's prefixes: as found and as resolved (a venv's python links to the system's)
	var out []string
	if r.file != "" {
		prefixes = append(prefixes, filepath.Dir(filepath.Dir(r.file)))
		if p := runPrefix(r, v); !slices.Contains(prefixes, p) {
			prefixes = append(prefixes, p)
		}
		for _, d := range []string{filepath.Dir(r.file), filepath.Dir(filepath.Dir(r.file))} {
			out = append(out, filepath.Join(d, "pyvenv.cfg"))
		}
	}
	if h := getenv("PYTHONHOME"); h != "" {
		prefixes = append(prefixes, strings.Split(h, ":")...)
	}
	for _, ver := range pythonVersions(r, v, prefixes) {
		lib := "python" + ver
		for _, p := range prefixes {
			out = append(out, filepath.Join(p, "lib", lib), filepath.Join(p, "lib64", lib),
				filepath.Join(p, "local", "lib", lib, "dist-packages"))
			if strings.HasPrefix(ver, "3") {
				out = append(out, filepath.Join(p, "lib", "python3", "dist-packages"))
			}
		}
		out = append(out, filepath.Join("/etc", lib))
		if !noUser {
			base := getenv("PYTHONUSERBASE")
			if base == "" {
				base = filepath.Join(v.home, ".local")
			}
			out = append(out, filepath.Join(base, "lib", lib, "site-packages"))
			if runtime.GOOS == "darwin" {
				out = append(out, filepath.Join(v.home, "Library", "Python", ver, "lib", "python", "site-packages"))
			}
		}
	}
	out = append(out, filepath.SplitList(getenv("PYTHONPATH"))...)
	if r.script != "" && !isolated && !strings.Contains(flags, "P") {
		out = append(out, filepath.Dir(r.script))
	}
	return out
}

// pythonVersions returns the X.Y of a Python: from the name it is run by or resolves to
// (python3.11), else (fs) from the pythonX.Y directories of its prefixes' lib; "3.*" (any)
// when neither tells.
func pythonVersions(r hookRun, v runView, prefixes []string) []string {
	var out []string
	for _, n := range runNames(r, v) {
		if ver := strings.TrimPrefix(n, "python"); strings.Contains(ver, ".") && ver[0] != '.' {
			out = append(out, ver)
		}
	}
	if len(out) == 0 && v.fs != nil {
		for _, p := range prefixes {
			entries, _ := os.ReadDir(filepath.Join(p, "lib"))
			for _, e := range entries {
				if ver, ok := strings.CutPrefix(e.Name(), "python3."); ok && e.IsDir() && strings.Trim(ver, "0123456789") == "" && ver != "" {
					out = append(out, "3."+ver)
				}
			}
		}
	}
	if len(out) == 0 {
		return []string{"3.*"}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// nodeStartup is startupOf for node (and npm's and npx's node): the global folders
// require() searches after node_modules, and node_modules in each directory above the
// script.
func nodeStartup(r hookRun, v runView) []string {
	out := []string{filepath.Join(v.home, ".node_modules"), filepath.Join(v.home, ".node_libraries")}
	if p := runPrefix(r, v); p != "" {
		out = append(out, filepath.Join(p, "lib", "node"))
	}
	out = append(out, filepath.SplitList(v.getenv("NODE_PATH"))...)
	if r.script != "" {
		for d := filepath.Dir(r.script); ; d = filepath.Dir(d) {
			out = append(out, filepath.Join(d, "node_modules"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return out
}

// gitIncludes returns the files the git config file p includes ([include] and
// [includeIf ...] sections' path = ...), ~ the home, a relative one beside p.
func gitIncludes(p, home string) []string {
	text, ok := readCapped(p, maxScriptBytes)
	if !ok {
		return nil
	}
	var out []string
	include := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			s := strings.ToLower(l)
			include = strings.HasPrefix(s, "[include]") || strings.HasPrefix(s, "[includeif ")
			continue
		}
		k, val, ok := strings.Cut(l, "=")
		if !include || !ok || !strings.EqualFold(strings.TrimSpace(k), "path") {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"`)
		switch {
		case val == "":
		case strings.HasPrefix(val, "~/"):
			out = append(out, filepath.Join(home, val[2:]))
		case filepath.IsAbs(val):
			out = append(out, val)
		default:
			out = append(out, filepath.Join(filepath.Dir(p), val))
		}
	}
	return out
}

// resolvedPrefix returns p with the symlinks of its longest existing prefix (up to its
// first glob component) resolved, when that differs from p: both spellings name the same
// startup file.
func (m *fsMemo) resolvedPrefix(p string) (string, bool) {
	lit := p
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		lit = filepath.Dir(p[:i+1])
	}
	for d := lit; ; d = filepath.Dir(d) {
		if r, ok := m.evalSymlinks(d); ok {
			if r == d {
				return "", false
			}
			return r + strings.TrimPrefix(p, d), true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

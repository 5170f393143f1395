package match

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

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
		acts := activated(w.cmd)
		for _, a := range acts {
			t.trees = append(t.trees, filepath.Dir(a))
		}
		if len(acts) > 0 && !uv && !p.has("--system") && activatedBefore(w.cmd, head) {
			// The pip of the environment the line activated first (`source .venv/bin/activate
			// && pip install x`, what agents run): a sourced script that does not activate it
			// could as well do anything else, which no rule over the line sees, so reading
			// the PATH's pip here too would block the common case for no guard.
			return t, true
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

// activatedBefore reports whether the line cmd names an activate script before its last
// run of the program head.
func activatedBefore(cmd, head string) bool {
	a := strings.Index(cmd, "/bin/activate")
	return a >= 0 && a < strings.LastIndex(cmd, head)
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

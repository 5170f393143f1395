package match

import (
	"os"
	"path/filepath"
	"strings"
)

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

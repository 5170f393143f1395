package match

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
var installHeads = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"go": true, "pip": true, "pip3": true, "pipx": true, "uv": true, "cargo": true, "npm": true,
		"pnpm": true, "yarn": true, "bun": true, "gem": true, "stack": true, "cabal": true, "deno": true,
		"dotnet": true, "composer": true, "brew": true, "luarocks": true, "opam": true, "nix": true,
		"nix-env": true, "conda": true, "mamba": true, "micromamba": true, "make": true, "gmake": true,
		"bmake": true, "ninja": true, "cmake": true, "meson": true, "dpkg": true, "rpm": true,
		"apt": true, "apt-get": true, "dnf": true, "yum": true, "zypper": true,
	}
})

// destDir returns the staging directories of an install by make (DESTDIR=DIR among its
// arguments, which a Makefile's own assignment does not override) or ninja (DESTDIR=DIR
// before it: CMake's install rule reads the environment): the GNU convention puts every
// installed file under $(DESTDIR)$(prefix). nil when there is none, or one is empty, not
// absolute (~/ is) or has an expansion. A Makefile that ignores DESTDIR runs what it runs,
// as plain make does. Source: a false positive of red team round 50's reading (stop 32:
// `make install DESTDIR=/tmp/stage`).
func destDir(base string, args []string, pre map[string]string) []string {
	var vals []string
	if base == "ninja" {
		if v, ok := pre["DESTDIR"]; ok {
			vals = append(vals, v)
		}
	} else {
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "DESTDIR="); ok {
				vals = append(vals, v)
			}
		}
	}
	for _, v := range vals {
		if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~/") || hasExpansion(v) {
			return nil
		}
	}
	return vals
}

// isInstallHead reports whether installTarget knows the program name base.
func isInstallHead(base string) bool {
	return installHeads()[base] || isPip(base) || strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy")
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
				if trees := destDir(base, args, pre); trees != nil {
					return installTarget{trees: trees}, true
				}
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

package cli

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// versionFiles are the files in the working directory and its ancestors by which a version
// manager picks the version a shim runs, by manager.
var versionFiles = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"pyenv":  {".python-version"},
		"rbenv":  {".ruby-version"},
		"nodenv": {".node-version"},
		"goenv":  {".go-version"},
		"jenv":   {".java-version"},
		"asdf":   {".tool-versions"},
		"mise":   {"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".tool-versions", ".config/mise.toml", ".config/mise/config.toml", ".python-version", ".ruby-version", ".node-version", ".nvmrc"},
		"volta":  nil, // package.json's "volta" key: left (docs/decisions.md, red team round 51)
	}
})

// shimRootVar matches the line a pyenv-family shim exports its manager's root with:
// `export PYENV_ROOT="/root/.pyenv"`.
var shimRootVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^export ([A-Z]+)_ROOT="(/[^"$` + "`" + `]*)"`)
})

// shim returns the root of the version manager whose shim r's program is, and the
// manager's name ("" when the root does not tell): a file in a directory named shims (pyenv,
// its plugins' shims under ROOT/plugins/NAME/shims, rbenv, nodenv, goenv, jenv, asdf, mise),
// in ~/.volta/bin, a script that exports a NAME_ROOT (fs), or a link to mise or rtx (fs).
func shim(r hookRun, v runView) (root, manager string) {
	if r.file == "" {
		return "", ""
	}
	dir := filepath.Dir(r.file)
	switch {
	case filepath.Base(dir) == "shims":
		root = filepath.Dir(dir)
		if filepath.Base(filepath.Dir(root)) == "plugins" {
			root = filepath.Dir(filepath.Dir(root))
		}
	case filepath.Base(dir) == "bin" && filepath.Base(filepath.Dir(dir)) == ".volta":
		root = filepath.Dir(dir)
	case v.fs != nil:
		if real, ok := v.fs.evalSymlinks(r.file); ok && (filepath.Base(real) == "mise" || filepath.Base(real) == "rtx") {
			return "", "mise"
		}
		if text, ok := readCapped(r.file, 4<<10); ok {
			if m := shimRootVar().FindStringSubmatch(text); m != nil {
				return filepath.Clean(m[2]), strings.ToLower(m[1])
			}
		}
		return "", ""
	default:
		return "", ""
	}
	manager = strings.TrimPrefix(filepath.Base(root), ".")
	if manager == "rtx" {
		manager = "mise"
	}
	if _, known := versionFiles()[manager]; !known {
		manager = ""
	}
	return root, manager
}

// shimStartup is startupOf for a version manager's shim (red team round 51: the guard's
// python3 was ~/.pyenv/shims/python3, and a .pth file in the site-packages of the version it
// runs disabled the guard): the manager's whole root (its versions, hooks such as
// pyenv.d/exec/*.bash, libexec, the global version file), its data and config directories,
// the files by which the working directory and its ancestors select a version, and (fs)
// the startup paths of the interpreter the selected version runs, when it is a file
// ROOT/versions/V/bin/NAME.
func shimStartup(r hookRun, v runView) []string {
	root, manager := shim(r, v)
	if root == "" && manager == "" {
		return nil
	}
	env := func(name, def string) string {
		if x := v.getenv(name); x != "" && filepath.IsAbs(x) {
			return x
		}
		return def
	}
	xdgConfig := env("XDG_CONFIG_HOME", filepath.Join(v.home, ".config"))
	xdgData := env("XDG_DATA_HOME", filepath.Join(v.home, ".local", "share"))
	var out []string
	if root != "" {
		out = append(out, root)
	}
	names := versionFiles()[manager]
	switch manager {
	case "":
		for _, fs := range versionFiles() {
			names = append(names, fs...)
		}
		slices.Sort(names)
		names = slices.Compact(names)
	case "pyenv":
		if root != "" {
			out = append(out, filepath.Join(root, "version"))
		}
		out = append(out, env("PYENV_ROOT", filepath.Join(v.home, ".pyenv")), "/usr/etc/pyenv.d", "/usr/local/etc/pyenv.d", "/etc/pyenv.d", "/usr/lib/pyenv/hooks") // pyenv's default PYENV_HOOK_PATH (libexec/pyenv; red team round 52: /usr/etc/pyenv.d was left out)
		out = append(out, filepath.SplitList(v.getenv("PYENV_HOOK_PATH"))...)
	case "rbenv":
		out = append(out, "/usr/etc/rbenv.d", "/usr/local/etc/rbenv.d", "/etc/rbenv.d", "/usr/lib/rbenv/hooks")
	case "asdf":
		out = append(out, env("ASDF_DATA_DIR", filepath.Join(v.home, ".asdf")), env("ASDF_CONFIG_FILE", filepath.Join(v.home, ".asdfrc")),
			filepath.Join(v.home, env("ASDF_DEFAULT_TOOL_VERSIONS_FILENAME", ".tool-versions")))
	case "mise":
		out = append(out, env("MISE_DATA_DIR", filepath.Join(xdgData, "mise")), env("MISE_CONFIG_DIR", filepath.Join(xdgConfig, "mise")),
			filepath.Join(v.home, ".tool-versions"), "/etc/mise")
	case "volta":
		out = append(out, env("VOLTA_HOME", filepath.Join(v.home, ".volta")))
	}
	if v.cwd != "" {
		for d := v.cwd; ; d = filepath.Dir(d) {
			for _, n := range names {
				out = append(out, filepath.Join(d, n))
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if root != "" && v.fs != nil && (manager == "pyenv" || manager == "rbenv" || manager == "nodenv" || manager == "goenv") {
		for _, ver := range shimVersions(root, manager, names, v) {
			bin := filepath.Join(root, "versions", ver, "bin", filepath.Base(r.name))
			if strings.Contains(ver, "..") || !executableFile(bin) {
				continue
			}
			real := hookRun{name: filepath.Base(r.name), file: bin, args: r.args, script: r.script}
			out = append(out, startupOf(real, v)...)
		}
	}
	return out
}

// shimVersions returns the versions a pyenv-family manager selects: its NAME_VERSION
// variable, else the first version file (names) in the working directory or an ancestor,
// else ROOT/version; each file may list several, separated by blanks.
func shimVersions(root, manager string, names []string, v runView) []string {
	if x := v.getenv(strings.ToUpper(manager) + "_VERSION"); x != "" {
		return strings.FieldsFunc(x, func(r rune) bool { return r == ':' || r == ' ' })
	}
	files := []string{}
	if v.cwd != "" {
		for d := v.cwd; ; d = filepath.Dir(d) {
			for _, n := range names {
				files = append(files, filepath.Join(d, n))
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	files = append(files, filepath.Join(root, "version"))
	for _, f := range files {
		if text, ok := readCapped(f, 4<<10); ok {
			var out []string
			for _, l := range strings.Split(text, "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					out = append(out, strings.Fields(l)...)
				}
			}
			return out
		}
	}
	return nil
}

package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestShimStartup: red team round 51. The guard's python3 is a pyenv shim; what the shim
// runs (the manager's root: versions, pyenv.d hooks, libexec, the global version file),
// the project's .python-version and its ancestors', and the selected interpreter's own
// startup paths are startup paths. A fake pyenv tree, as on the red team's host.
func TestShimStartup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	root := filepath.Join(home, ".pyenv")
	proj := filepath.Join(dir, "proj")
	shimText := "#!/usr/bin/env bash\nset -e\nexport PYENV_ROOT=\"" + root + "\"\nexec \"" + root + "/libexec/pyenv\" exec \"$program\" \"$@\"\n"
	for p, text := range map[string]string{
		"home/.pyenv/shims/python3":                        shimText,
		"home/.pyenv/plugins/pyenv-virtualenv/shims/pip3":  shimText,
		"home/.pyenv/version":                              "3.11.7\n",
		"home/.pyenv/versions/3.11.7/bin/python3":          "\x7fELF",
		"home/.pyenv/versions/3.12.1/bin/python3":          "\x7fELF",
		"custom/shimdir/python3":                           "#!/usr/bin/env bash\nexport PYENV_ROOT=\"" + filepath.Join(dir, "opt/pyenv") + "\"\n",
		"proj/.keep":                                       "",
		"home/.pyenv/versions/3.11.7/lib/python3.11/os.py": "",
	} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	noEnv := func(string) string { return "" }
	v := runView{home: home, cwd: proj, getenv: noEnv, fs: newFSMemo()}
	for _, tc := range []struct {
		name string
		run  hookRun
		v    runView
		want []string
		not  []string
	}{
		{"the pyenv shim", hookRun{name: "python3", file: filepath.Join(root, "shims/python3"), args: []string{"g.py"}}, v,
			[]string{root, filepath.Join(root, "version"), filepath.Join(proj, ".python-version"), filepath.Join(dir, ".python-version"),
				"/.python-version", "/etc/pyenv.d", "/usr/etc/pyenv.d", filepath.Join(home, ".local/lib/python3.11/site-packages"),
				filepath.Join(root, "versions/3.11.7/lib/python3.11")},
			[]string{filepath.Join(home, ".local/lib/python3.12/site-packages")}},
		{"a plugin's shim", hookRun{name: "pip3", file: filepath.Join(root, "plugins/pyenv-virtualenv/shims/pip3")}, v,
			[]string{root, filepath.Join(proj, ".python-version")}, []string{filepath.Join(root, "plugins/pyenv-virtualenv")}},
		{"PYENV_VERSION selects", hookRun{name: "python3", file: filepath.Join(root, "shims/python3")},
			runView{home: home, cwd: proj, fs: newFSMemo(), getenv: func(k string) string {
				if k == "PYENV_VERSION" {
					return "3.12.1"
				}
				return ""
			}},
			[]string{filepath.Join(root, "versions/3.12.1/pyvenv.cfg")}, []string{filepath.Join(root, "versions/3.11.7/lib/python3.11")}},
		{"a shim elsewhere, by its PYENV_ROOT", hookRun{name: "python3", file: filepath.Join(dir, "custom/shimdir/python3")}, v,
			[]string{filepath.Join(dir, "opt/pyenv"), filepath.Join(proj, ".python-version")}, nil},
		{"an asdf shim, no file system", hookRun{name: "node", file: filepath.Join(home, ".asdf/shims/node")},
			runView{home: home, cwd: proj, getenv: noEnv},
			[]string{filepath.Join(home, ".asdf"), filepath.Join(home, ".tool-versions"), filepath.Join(proj, ".tool-versions")}, nil},
		{"a mise shim", hookRun{name: "python3", file: filepath.Join(home, ".local/share/mise/shims/python3")},
			runView{home: home, cwd: proj, getenv: noEnv},
			[]string{filepath.Join(home, ".local/share/mise"), filepath.Join(home, ".config/mise"), filepath.Join(proj, ".mise.toml"), filepath.Join(proj, "mise.toml"), filepath.Join(proj, ".python-version")}, nil},
		{"volta", hookRun{name: "node", file: filepath.Join(home, ".volta/bin/node")}, runView{home: home, getenv: noEnv},
			[]string{filepath.Join(home, ".volta")}, nil},
		{"no shim", hookRun{name: "python3", file: "/usr/bin/python3.11"}, v, nil, []string{filepath.Join(proj, ".python-version"), root}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := startupOf(tc.run, tc.v)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("lacks %s: %q", w, got)
				}
			}
			for _, w := range tc.not {
				if slices.Contains(got, w) {
					t.Errorf("has %s: %q", w, got)
				}
			}
		})
	}
}

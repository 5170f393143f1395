package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
)

// TestHookRuns is red team round 50: the programs the hooks run are found as the hook
// process will find them (the hook's PATH, the shadow slots before each), through the
// command line as package shell reads it, a script's #! line and what a shell script runs;
// builtins, functions and an untrusted project's hooks run no program.
func TestHookRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	first, bin := filepath.Join(home, "go", "bin"), filepath.Join(dir, "usr", "bin")
	cfgDir := filepath.Join(home, ".hookcore")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{first, bin, cfgDir, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"python3.12", "jq", "git", "bash", "node", "echo"} {
		write(filepath.Join(bin, n), "\x7fELF", 0o755)
	}
	if err := os.Symlink("python3.12", filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(cfgDir, "g.py"), "import sys\n", 0o644)
	write(filepath.Join(cfgDir, "guard.sh"), "#!/usr/bin/env bash\nf() { printf x; }\ngit diff --quiet || f\nprintf x\n", 0o755)
	write(filepath.Join(proj, "x.js"), "", 0o644)
	write(filepath.Join(cfgDir, "hooks.yaml"), `hooks:
  - {id: py, event: pre_tool_use, action: {type: command, command: 'python3 -I "$HOOKCORE_CONFIG_DIR/g.py"'}}
  - {id: jq, event: pre_tool_use, action: {type: command, command: "jq -r .tool_input.command | grep -q 'rm -rf'"}}
  - {id: script, event: pre_tool_use, action: {type: command, command: '"$HOOKCORE_CONFIG_DIR/guard.sh" --strict'}}
  - {id: exec, event: pre_tool_use, action: {type: command, args: [node, "${CLAUDE_PROJECT_DIR}/x.js"]}}
  - {id: direct, event: stop, action: {type: command, command: echo done}}
  - {id: quoted, event: stop, action: {type: command, command: "echo 'done' && cd /tmp && exit 0"}}
`, 0o644)
	write(filepath.Join(proj, "hooks.yaml"), "hooks:\n  - {id: repo, event: pre_tool_use, action: {type: command, command: repo-tool}}\n", 0o644)
	set, problems := config.Load([]config.LayerPath{
		{Path: filepath.Join(cfgDir, "hooks.yaml"), Layer: config.User},
		{Path: filepath.Join(proj, "hooks.yaml"), Layer: config.Project},
	})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	env := map[string]string{"PATH": first + ":" + bin, "HOME": home}
	runs := setRuns(set, false, proj, proj, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	got := map[string]hookRun{}
	for _, r := range runs {
		got[r.name] = r
	}
	for _, name := range []string{"repo-tool", "f", "printf", "cd", "exit", "--strict"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s taken for a program the hooks run", name)
		}
	}
	want := map[string]struct{ file, script string }{
		"/bin/sh":                         {"/bin/sh", ""},
		"python3":                         {filepath.Join(bin, "python3"), filepath.Join(cfgDir, "g.py")},
		"jq":                              {filepath.Join(bin, "jq"), ""},
		"grep":                            {"", ""},
		filepath.Join(cfgDir, "guard.sh"): {filepath.Join(cfgDir, "guard.sh"), ""},
		"/usr/bin/env":                    {"/usr/bin/env", ""},
		"bash":                            {filepath.Join(bin, "bash"), filepath.Join(cfgDir, "guard.sh")},
		"git":                             {filepath.Join(bin, "git"), ""},
		"node":                            {filepath.Join(bin, "node"), filepath.Join(proj, "x.js")},
		"echo":                            {filepath.Join(bin, "echo"), ""},
	}
	for name, w := range want {
		r, ok := got[name]
		if !ok {
			t.Errorf("%s: not found among %v", name, slices.Collect(func(yield func(string) bool) {
				for n := range got {
					if !yield(n) {
						return
					}
				}
			}))
			continue
		}
		if r.file != w.file || r.script != w.script {
			t.Errorf("%s: file %q script %q, want %q %q", name, r.file, r.script, w.file, w.script)
		}
		if !strings.Contains(name, "/") {
			wantBefore := []string{first}
			if w.file == "" {
				wantBefore = []string{first, bin}
			}
			if !slices.Equal(r.before, wantBefore) {
				t.Errorf("%s: before %q, want %q", name, r.before, wantBefore)
			}
		}
	}

	programs, startup := guardPaths(runs, runView{home: home, getenv: func(k string) string { return env[k] }, fs: newFSMemo()})
	for _, p := range []string{filepath.Join(first, "python3"), filepath.Join(first, "jq"), filepath.Join(first, "grep"), filepath.Join(bin, "grep"),
		filepath.Join(first, "bash"), filepath.Join(first, "echo"), filepath.Join(bin, "python3"), filepath.Join(cfgDir, "guard.sh"), filepath.Join(cfgDir, "g.py")} {
		if !slices.Contains(programs, p) {
			t.Errorf("programs lack %s: %q", p, programs)
		}
	}
	for _, p := range []string{filepath.Join(home, ".jq"), filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config/git/config"),
		filepath.Join(dir, "usr/lib/python3.12"), filepath.Join(bin, "pyvenv.cfg"), filepath.Join(home, ".node_modules"), filepath.Join(proj, "node_modules"), filepath.Join(dir, "node_modules")} {
		if !slices.Contains(startup, p) {
			t.Errorf("startup lacks %s: %q", p, startup)
		}
	}
	// python3 -I: no user site, no script directory.
	for _, p := range []string{filepath.Join(home, ".local/lib/python3.12/site-packages"), cfgDir} {
		if slices.Contains(startup, p) {
			t.Errorf("startup has %s under python3 -I", p)
		}
	}
}

// TestPythonStartup: the user site of the Python a hook runs, by its version (the name it
// resolves to, its lib directory, any when neither tells), PYTHONUSERBASE, -s, and the
// script's directory.
func TestPythonStartup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(dir, "opt", "lib", "python3.13"), 0o755); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		name   string
		run    hookRun
		getenv func(string) string
		want   []string
		not    []string
	}{
		{"the version from the name", hookRun{name: "python3", file: "/usr/bin/python3.11", script: "/srv/g/g.py"}, noEnv,
			[]string{home + "/.local/lib/python3.11/site-packages", "/usr/lib/python3.11", "/usr/lib/python3/dist-packages", "/usr/local/lib/python3.11/dist-packages", "/etc/python3.11", "/usr/bin/pyvenv.cfg", "/usr/pyvenv.cfg", "/srv/g"}, nil},
		{"the version from the lib directory", hookRun{name: "python3", file: filepath.Join(dir, "opt", "bin", "python3")}, noEnv,
			[]string{home + "/.local/lib/python3.13/site-packages", filepath.Join(dir, "opt/lib/python3.13")}, nil},
		{"any version", hookRun{name: "python3"}, noEnv, []string{home + "/.local/lib/python3.*/site-packages"}, nil},
		{"PYTHONUSERBASE", hookRun{name: "python3", file: "/usr/bin/python3.11"}, func(k string) string {
			if k == "PYTHONUSERBASE" {
				return "/pub"
			}
			return ""
		}, []string{"/pub/lib/python3.11/site-packages"}, []string{home + "/.local/lib/python3.11/site-packages"}},
		{"-s", hookRun{name: "python3", file: "/usr/bin/python3.11", args: []string{"-s", "g.py"}, script: "/srv/g/g.py"}, noEnv,
			[]string{"/srv/g"}, []string{home + "/.local/lib/python3.11/site-packages"}},
		{"-P", hookRun{name: "python3", file: "/usr/bin/python3.11", args: []string{"-P", "g.py"}, script: "/srv/g/g.py"}, noEnv,
			[]string{home + "/.local/lib/python3.11/site-packages"}, []string{"/srv/g"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := startupOf(tc.run, runView{home: home, getenv: tc.getenv, fs: newFSMemo()})
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

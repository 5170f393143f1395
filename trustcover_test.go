package hookcore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/trust"
)

// TestTrustCoversScripts (issue 11.1, regression): after a grant, changing a script that a
// project hook runs made the changed script run unreviewed (the grant bound only the config
// files). Now the grant binds each hook's scripts by content hash: the hook whose script
// changed is pending until the next grant; the others keep their trust.
func TestTrustCoversScripts(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	writeFile(t, project, ".hookcore/guard.sh", "echo guard >> ran.txt; exit 0\n")
	writeFile(t, project, "scripts/other.py", "open('ran.txt', 'a').write('other\\n')\n")
	set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project, `hooks:
  - {id: guard, event: pre_tool_use, action: {type: command, command: "bash .hookcore/guard.sh"}}
  - {id: other, event: pre_tool_use, action: {type: command, command: "python3 scripts/other.py"}}
`})
	fire := func() hook.Result {
		t.Helper()
		r := newRunner(t, project, set, hookcore.Options{Trust: store})
		return r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls"))
	}
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"guard=ok", "other=ok"}, outcomes(fire())); diff != "" {
		t.Fatalf("trusted (-want +got):\n%s", diff)
	}
	writeFile(t, project, ".hookcore/guard.sh", "echo changed >> ran.txt; exit 0\n")
	// The guard's definition is the trusted one and it matched: its changed script does not
	// run, and the call is blocked (a silent skip let the call through; stop 24).
	res := fire()
	if diff := cmp.Diff([]string{"guard=block"}, outcomes(res)); diff != "" {
		t.Fatalf("after the script changed (-want +got):\n%s", diff)
	}
	if why := res.Reason; !res.Blocked || !strings.Contains(why, "a script it runs changed") {
		t.Errorf("blocked %v, reason = %q", res.Blocked, why)
	}
	if got := readFile(t, project, "ran.txt"); strings.Contains(got, "changed") {
		t.Fatalf("the changed script ran: %q", got)
	}
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"guard=ok", "other=ok"}, outcomes(fire())); diff != "" {
		t.Fatalf("granted again (-want +got):\n%s", diff)
	}
}

// TestTrustOldGrantIsPending: an entry written before hooks were covered (no "hooks") trusts
// no project hook; the reason says to grant again.
func TestTrustOldGrantIsPending(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project,
		"hooks:\n  - {id: p, event: pre_tool_use, action: {type: command, command: \"true\"}}\n"})
	if err := store.Grant(project, hookcore.TrustDigest(set), time.Now()); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, project, set, hookcore.Options{Trust: store})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls"))
	if got := outcomes(res); len(got) != 1 || got[0] != "p=skipped" || !strings.Contains(res.Hooks[0].Error, "grant` again") {
		t.Fatalf("%v %q", got, res.Hooks[0].Error)
	}
}

// TestCoverHookResolution: the files a hook runs, resolved the way the command runs them.
func TestCoverHookResolution(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"x.sh", ".hookcore/x.sh", "scripts/y.py", "bin/tool", ".claude/hooks/guard.py", ".hookcore/lib.sh",
		"s/x.sh", "s/x.py", "s/x.awk", "s/x.sed", "s/x.ts", "scripts/h.sh", "scripts/n.sh", "scripts/r.sh", "node_modules/.bin/tsx", "s/x.rb"} {
		writeFile(t, root, f, "#!/bin/sh\n")
	}
	cfg := filepath.Join(root, ".hookcore", "hooks.yaml")
	tests := []struct {
		name       string
		action     config.Action
		files      []string
		notCovered bool
	}{
		{"dot slash", config.Action{Command: "./x.sh"}, []string{"x.sh"}, false},
		{"interpreter", config.Action{Command: "bash .hookcore/x.sh --flag"}, []string{".hookcore/x.sh"}, false},
		{"interpreter with options", config.Action{Command: "python3 -u scripts/y.py"}, []string{"scripts/y.py"}, false},
		{"project dir var", config.Action{Command: `"${CLAUDE_PROJECT_DIR}"/.claude/hooks/guard.py`}, []string{".claude/hooks/guard.py"}, false},
		{"project dir var with interpreter", config.Action{Command: `python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"`}, []string{".claude/hooks/guard.py"}, false},
		{"config dir var", config.Action{Command: `sh "$HOOKCORE_CONFIG_DIR/x.sh"`}, []string{".hookcore/x.sh"}, false},
		{"exec form", config.Action{Args: []string{"./bin/tool", "a"}}, []string{"bin/tool"}, false},
		{"exec form interpreter", config.Action{Args: []string{"python3", "scripts/y.py"}}, []string{"scripts/y.py"}, false},
		{"every simple command", config.Action{Command: "./x.sh && bash .hookcore/x.sh | ./bin/tool"}, []string{"x.sh", ".hookcore/x.sh", "bin/tool"}, false},
		{"wrappers", config.Action{Command: "FOO=1 env -i timeout 5 ./x.sh"}, []string{"x.sh"}, false},
		{"source", config.Action{Command: ". .hookcore/lib.sh; check"}, []string{".hookcore/lib.sh"}, false},
		{"a missing script is bound as missing", config.Action{Command: "./gone.sh"}, []string{"gone.sh"}, false},
		{"a PATH program is the user's", config.Action{Command: "jq -r .tool_name"}, nil, false},
		{"outside the project", config.Action{Command: "/usr/bin/env python3 -c 'print(1)'"}, nil, false},
		{"inline code", config.Action{Command: "python3 -c 'import sys'"}, nil, false},
		{"unknown variable", config.Action{Command: "$HOOKS/x.sh"}, nil, true},
		{"command substitution", config.Action{Command: "bash $(cat which)"}, nil, true},
		{"does not parse", config.Action{Command: "if then fi ("}, nil, true},
		// Red team, second round: what these run was neither hashed nor said to be uncovered.
		{"sh -c code", config.Action{Command: "sh -c ./x.sh"}, []string{"x.sh"}, false},
		{"script on stdin", config.Action{Command: "sh < .hookcore/x.sh"}, []string{".hookcore/x.sh"}, false},
		{"python -m", config.Action{Command: "python3 -m helper"}, nil, true},
		{"make", config.Action{Command: "make -s check"}, nil, true},
		{"npm run", config.Action{Command: "npm run lint"}, nil, true},
		// Red team, third round: after a grant the edited script ran unreviewed, and for
		// several `trust show` said nothing at all. Every word that is a file of the project
		// is bound, whatever option it follows; what cannot be known is said.
		{"bash -e", config.Action{Command: "bash -e s/x.sh"}, []string{"s/x.sh"}, false},
		{"sh -e", config.Action{Command: "sh -e s/x.sh"}, []string{"s/x.sh"}, false},
		{"timeout sh -e", config.Action{Command: "timeout 5 sh -e s/x.sh"}, []string{"s/x.sh"}, false},
		{"bash -o errexit", config.Action{Command: "bash -o errexit s/x.sh"}, []string{"s/x.sh"}, false},
		{"bash -eo pipefail", config.Action{Command: "bash -eo pipefail s/x.sh"}, []string{"s/x.sh"}, false},
		{"python3 -W ignore", config.Action{Command: "python3 -W ignore s/x.py"}, []string{"s/x.py"}, false},
		{"python3 -X dev", config.Action{Command: "python3 -X dev s/x.py"}, []string{"s/x.py"}, false},
		// After a cd, a relative path is bound both where the cd leads and in the root (a
		// subshell's cd does not last): the grant binds too much rather than too little.
		{"cd then sh", config.Action{Command: "cd s && sh x.sh"}, []string{"x.sh", "s/x.sh"}, false},
		{"cd then dot slash", config.Action{Command: "cd s; ./x.sh"}, []string{"x.sh", "s/x.sh"}, false},
		{"cd only where it leads", config.Action{Command: "cd s && python3 x.py"}, []string{"s/x.py"}, false},
		{"bash -lc", config.Action{Command: `bash -lc "sh s/x.sh"`}, []string{"s/x.sh"}, false},
		{"cat into sh", config.Action{Command: "cat scripts/h.sh | sh"}, []string{"scripts/h.sh"}, true},
		{"find -exec", config.Action{Command: `find s -name '*.sh' -exec sh {} \;`}, nil, true},
		{"glob", config.Action{Command: "sh scripts/n.s?"}, []string{"scripts/n.sh"}, true},
		{"env -S", config.Action{Command: "env -S 'sh scripts/r.sh'"}, []string{"scripts/r.sh"}, false},
		{"awk -f", config.Action{Command: "awk -f s/x.awk input"}, []string{"s/x.awk"}, false},
		{"sed -f", config.Action{Command: "sed -f s/x.sed -i f"}, []string{"s/x.sed"}, false},
		{"sudo -u", config.Action{Command: "sudo -u root ./s/x.sh"}, []string{"s/x.sh"}, false},
		{"npx tsx", config.Action{Command: "npx tsx s/x.ts"}, []string{"s/x.ts", "node_modules/.bin/tsx"}, false},
		{"exec form flags", config.Action{Args: []string{"bash", "-e", "s/x.sh"}}, []string{"s/x.sh"}, false},
		{"cd to a computed dir", config.Action{Command: `cd "$D" && ./x.sh`}, []string{"x.sh"}, true},
		{"xargs", config.Action{Command: "ls s | xargs sh"}, nil, true},
		{"python -m binds the module's files in the project", config.Action{Command: "python3 -m s.x"}, []string{"s/x.py"}, true},
		{"ruby -E is an encoding", config.Action{Command: "ruby -E UTF-8 s/x.rb"}, []string{"s/x.rb"}, false},
		{"an option word is not a missing script", config.Action{Command: "python3 -W ignore -X dev s/x.py"}, []string{"s/x.py"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &config.Hook{ID: "h", Action: tt.action}
			c := hookcore.CoverHook(h, &config.File{Path: cfg}, root)
			var got []string
			for _, f := range c.Files {
				rel, _ := filepath.Rel(root, f.Path)
				got = append(got, rel)
				if f.SHA256 == "" {
					t.Errorf("%s: no hash", rel)
				}
			}
			if diff := cmp.Diff(tt.files, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if (len(c.NotCovered) > 0) != tt.notCovered {
				t.Errorf("not covered = %q, want some: %v", c.NotCovered, tt.notCovered)
			}
		})
	}
	// A moved hook (another line) keeps its digest; a changed one does not.
	a := hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "./x.sh"}, Pos: config.Pos{Line: 3}}, &config.File{Path: cfg}, root)
	b := hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "./x.sh"}, Pos: config.Pos{Line: 9}}, &config.File{Path: cfg}, root)
	c := hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "./x.sh "}}, &config.File{Path: cfg}, root)
	if a.Digest != b.Digest || a.Digest == c.Digest {
		t.Errorf("digests: moved %v, changed %v", a.Digest == b.Digest, a.Digest != c.Digest)
	}
	if err := os.WriteFile(filepath.Join(root, "x.sh"), []byte("changed"), 0o755); err != nil {
		t.Fatal(err)
	}
	if d := hookcore.CoverHook(&config.Hook{ID: "h", Action: config.Action{Command: "./x.sh"}}, &config.File{Path: cfg}, root); d.Digest == a.Digest {
		t.Error("a changed script kept the digest")
	}
}

// TestTrustCoversPythonSiblings: a trusted Python guard's cover binds the modules beside it,
// which Python imports before the standard library's: a json.py the repository adds there
// makes the guard pending, and, as it matches, it blocks (red team round 21: the shadowing
// module switched the guard off with its trust intact).
func TestTrustCoversPythonSiblings(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	writeFile(t, project, ".hookcore/guard.py", "import json, sys\njson.load(sys.stdin)\nsys.exit(2)\n")
	set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project, `hooks:
  - {id: guard, event: pre_tool_use, action: {type: command, command: "python3 .hookcore/guard.py"}}
`})
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	writeFile(t, project, ".hookcore/json.py", "import sys\ndef load(f): sys.exit(0)\n")
	r := newRunner(t, project, set, hookcore.Options{Trust: store})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf x"))
	if !res.Blocked || !strings.Contains(res.Reason, "a script it runs changed") {
		t.Errorf("blocked %v, reason %q", res.Blocked, res.Reason)
	}
	c := hookcore.CoverHook(&set.Files[0].Hooks[0], set.Files[0], project)
	if !slices.ContainsFunc(c.Files, func(f hookcore.CoveredFile) bool { return filepath.Base(f.Path) == "json.py" }) {
		t.Errorf("cover %+v", c.Files)
	}
}

// TestTrustCoversPythonImportsAndRelativeCopies: the cover of a Python guard binds the
// compiled modules and bytecode cache beside it too, and a guard named relative to the
// working directory that, from a subdirectory, would run beside other modules is blocked, not
// skipped (red team round 22: a bare json.pyc, a forged __pycache__ entry, and the guard
// copied into sub/ beside a changed helper each switched the guard off, trust intact).
func TestTrustCoversPythonImportsAndRelativeCopies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, file, content string }{
		{"bare pyc", ".hookcore/json.pyc", "\x00"},
		{"bytecode cache", ".hookcore/__pycache__/helper.cpython-311.pyc", "forged"},
		{"extension module", ".hookcore/json.cpython-311-x86_64-linux-gnu.so", "\x7fELF"},
		{"package as an extension module", ".hookcore/json/__init__.so", "\x7fELF"}, // round 23
		{"package submodule", ".hookcore/helpers/check.py", "def ok(c): return True\n"},
		{"interpreter choice beside the guard", ".hookcore/.python-version", "3.8.18\n"},
		{"interpreter choice at the root", ".python-version", "3.8.18\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			project := t.TempDir()
			store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
			writeFile(t, project, ".hookcore/guard.py", "import helper\n")
			writeFile(t, project, ".hookcore/helper.py", "")
			writeFile(t, project, ".hookcore/__pycache__/helper.cpython-311.pyc", "real")
			set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project, `hooks:
  - {id: guard, event: pre_tool_use, action: {type: command, command: "python3 \"$CLAUDE_PROJECT_DIR/.hookcore/guard.py\""}}
`})
			if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
				t.Fatal(err)
			}
			writeFile(t, project, tc.file, tc.content)
			r := newRunner(t, project, set, hookcore.Options{Trust: store})
			if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf x")); !res.Blocked {
				t.Errorf("%s added: not blocked", tc.file)
			}
		})
	}
	t.Run("relative copy in a subdirectory", func(t *testing.T) {
		t.Parallel()
		project := t.TempDir()
		store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
		writeFile(t, project, ".hookcore/guard.py", "import helper\n")
		writeFile(t, project, ".hookcore/helper.py", "def ok(c): return False\n")
		set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project, `hooks:
  - {id: guard, event: pre_tool_use, action: {type: command, command: "python3 .hookcore/guard.py"}}
`})
		if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
			t.Fatal(err)
		}
		writeFile(t, project, "sub/.hookcore/guard.py", "import helper\n")
		writeFile(t, project, "sub/.hookcore/helper.py", "def ok(c): return True\n")
		r := newRunner(t, project, set, hookcore.Options{Trust: store})
		res := r.Fire(context.Background(), hook.PreToolUse, bashCall(filepath.Join(project, "sub"), "s1", "rm -rf x"))
		if !res.Blocked || !strings.Contains(res.Reason, `project hook "guard" is not run`) {
			t.Errorf("blocked %v, reason %q", res.Blocked, res.Reason)
		}
	})
}

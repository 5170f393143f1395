package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const hooksYAML = "hooks:\n  - event: session_start\n    action: {type: prompt, message: hi}\n"

func TestDiscoveryPaths(t *testing.T) {
	t.Parallel()
	t.Run("all layers in order", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		home := filepath.Join(dir, "home")
		work := filepath.Join(dir, "work")
		user := write(t, home, ".hookcore/hooks.yaml", hooksYAML)
		proj := write(t, work, ".hookcore/hooks.yaml", hooksYAML)
		local := write(t, work, ".hookcore/hooks.local.yaml", hooksYAML)
		got, err := Discovery{Cwd: work, Home: home}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		want := []LayerPath{{Path: user, Layer: User}, {Path: proj, Layer: Project}, {Path: local, Layer: Local}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s", diff)
		}
	})
	t.Run("missing files are skipped and Dir is a parameter", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		local := write(t, dir, ".minicode/hooks.local.yaml", hooksYAML)
		write(t, dir, ".hookcore/hooks.yaml", hooksYAML) // another harness's directory
		got, err := Discovery{Cwd: dir, Home: filepath.Join(dir, "nohome"), Dir: ".minicode"}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]LayerPath{{Path: local, Layer: Local}}, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s", diff)
		}
	})
	t.Run("cwd is home: the user file is found once", func(t *testing.T) {
		t.Parallel()
		home := t.TempDir()
		user := write(t, home, ".hookcore/hooks.yaml", hooksYAML)
		got, err := Discovery{Cwd: home, Home: home}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]LayerPath{{Path: user, Layer: User}}, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s", diff)
		}
	})
	t.Run("symlinked home reached through its real path", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		real := filepath.Join(dir, "real-home")
		user := write(t, real, ".hookcore/hooks.yaml", hooksYAML)
		link := filepath.Join(dir, "home")
		if err := os.Symlink(real, link); err != nil {
			t.Skip(err)
		}
		got, err := Discovery{Cwd: real, Home: link}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		want := []LayerPath{{Path: filepath.Join(link, ".hookcore/hooks.yaml"), Layer: User}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s (real %s)", diff, user)
		}
	})
	t.Run("project root is the git top-level", func(t *testing.T) {
		t.Parallel()
		repo := t.TempDir()
		if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		proj := write(t, repo, ".hookcore/hooks.yaml", hooksYAML)
		sub := filepath.Join(repo, "a", "b")
		write(t, sub, ".hookcore/hooks.yaml", hooksYAML) // not a layer: below the root
		got, err := Discovery{Cwd: sub, Home: filepath.Join(repo, "nohome")}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]LayerPath{{Path: proj, Layer: Project}}, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s", diff)
		}
	})
	t.Run("explicit project root", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		proj := write(t, dir, "root/.hookcore/hooks.yaml", hooksYAML)
		got, err := Discovery{Cwd: dir, Home: filepath.Join(dir, "nohome"), ProjectRoot: filepath.Join(dir, "root")}.Paths()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]LayerPath{{Path: proj, Layer: Project}}, got); diff != "" {
			t.Errorf("paths (-want +got):\n%s", diff)
		}
	})
}

func TestProjectRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	worktree := filepath.Join(dir, "wt")
	plain := filepath.Join(dir, "plain", "x")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "src", "pkg"), worktree, plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, worktree, ".git", "gitdir: /elsewhere\n") // a worktree's .git is a file
	write(t, worktree, "deep/er/f", "")
	tests := []struct{ cwd, want string }{
		{repo, repo},
		{filepath.Join(repo, "src", "pkg"), repo},
		{filepath.Join(worktree, "deep", "er"), worktree},
		{plain, plain},
	}
	for _, tt := range tests {
		if got := ProjectRoot(tt.cwd); got != tt.want {
			t.Errorf("ProjectRoot(%s) = %s, want %s", tt.cwd, got, tt.want)
		}
	}
}

// TestProjectRootWithin (red team round 65): outside a git work tree the agent's project
// directory is the root when it holds the working directory (a session that ran `cd sub`),
// not when it is elsewhere, relative, or a sibling whose name the directory's starts with;
// inside a work tree its top-level still is.
func TestProjectRootWithin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	repo := filepath.Join(proj, "repo")
	for _, d := range []string{filepath.Join(proj, "sub", "deeper"), filepath.Join(repo, ".git"), filepath.Join(repo, "src"), filepath.Join(dir, "projx")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ cwd, agent, want string }{
		{filepath.Join(proj, "sub"), proj, proj},
		{filepath.Join(proj, "sub", "deeper"), proj, proj},
		{proj, proj, proj},
		{filepath.Join(proj, "sub"), proj + "/", proj},
		{filepath.Join(proj, "sub"), "", filepath.Join(proj, "sub")},
		{filepath.Join(proj, "sub"), "proj", filepath.Join(proj, "sub")},                               // relative: not the agent's
		{filepath.Join(dir, "projx"), proj, filepath.Join(dir, "projx")},                               // a sibling, not below
		{filepath.Join(proj, "sub"), filepath.Join(proj, "sub", "deeper"), filepath.Join(proj, "sub")}, // below cwd
		{filepath.Join(repo, "src"), proj, repo},                                                       // a work tree's top-level first
	}
	for _, tt := range tests {
		if got := ProjectRootWithin(tt.cwd, tt.agent); got != tt.want {
			t.Errorf("ProjectRootWithin(%s, %q) = %s, want %s", tt.cwd, tt.agent, got, tt.want)
		}
	}
}

// TestLoadLayers is conformance cases 24 and 25: layers append in order, and
// disable_all_hooks in any layer turns every hook off.
func TestLoadLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	write(t, home, ".hookcore/hooks.yaml", case24user)
	write(t, work, ".hookcore/hooks.yaml", `hooks:
  - id: project
    event: session_start
    action: {type: prompt, message: "from the project layer"}
  - id: off
    event: session_start
    action: {type: prompt, message: "disabled"}
    enabled: false
`)
	write(t, work, ".hookcore/hooks.local.yaml", `hooks:
  - id: local
    event: session_start
    action: {type: prompt, message: "from the local layer"}
`)
	paths, err := Discovery{Cwd: work, Home: home}.Paths()
	if err != nil {
		t.Fatal(err)
	}
	set, errs := Load(paths)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, h := range set.Hooks() {
		got = append(got, h.ID+"/"+h.Layer.String())
	}
	if diff := cmp.Diff([]string{"user/user", "project/project", "local/local"}, got); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	if n := len(set.Files[1].Hooks); n != 2 {
		t.Errorf("the disabled hook is not kept in its File: %d hooks", n)
	}

	write(t, work, ".hookcore/hooks.local.yaml", "disable_all_hooks: true\n")
	set, errs = Load(paths)
	if len(errs) != 0 || !set.Disabled || len(set.Hooks()) != 0 || len(set.Files) != 3 {
		t.Errorf("disabled set: %+v, %v", set, errs)
	}
}

func TestLoadReportsEveryFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := write(t, dir, "b.yaml", "hooks:\n  - event: nope\n    action: {type: command, command: x}\n")
	b := write(t, dir, "a.json", `{"hooks": {"Stop": [{"type": "command", "command": "x"}]}}`)
	set, errs := Load([]LayerPath{{Path: a, Layer: Explicit}, {Path: b, Layer: Explicit}})
	if errs.Errors() != 1 || errs.Err() == nil || len(set.Files) != 2 || len(set.Hooks()) != 1 {
		t.Fatalf("set %+v, problems %v", set, errs)
	}
}

// TestDiscoveryRepositorySymlinkKeepsLayer: a project or local path that is a symlink to the
// managed settings or to a --settings file does not make that file project config (red team
// round 10: in an untrusted workspace its hooks, the administrator's, were switched off).
func TestDiscoveryRepositorySymlinkKeepsLayer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	managed := write(t, dir, "etc/managed-settings.json", `{"hooks":{}}`)
	named := write(t, dir, "policy.json", `{"hooks":{}}`)
	for _, l := range [][2]string{{".hookcore/hooks.yaml", managed}, {".claude/settings.local.json", named}} {
		p := filepath.Join(work, l[0])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l[1], p); err != nil {
			t.Skip(err)
		}
	}
	got, err := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Dir(managed), Settings: []string{named}}.Paths()
	if err != nil {
		t.Fatal(err)
	}
	want := []LayerPath{{Path: managed, Layer: Managed}, {Path: named, Layer: Explicit, Claude: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}

// TestLoadRepositoryPathYieldsToOtherLayers: when Load opens the same file through a project
// path and then a managed one (a repository swapped its path for a symlink after discovery
// looked, red team round 11), the file loads once, under the managed path and layer.
func TestLoadRepositoryPathYieldsToOtherLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	managed := write(t, dir, "etc/managed-settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"exit 2"}]}]}}`)
	user := write(t, dir, "home/.hookcore/hooks.yaml", hooksYAML)
	link := filepath.Join(dir, "work", ".hookcore", "hooks.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(managed, link); err != nil {
		t.Skip(err)
	}
	set, probs := Load([]LayerPath{{Path: user, Layer: User}, {Path: link, Layer: Project}, {Path: managed, Layer: Managed}})
	if probs.Err() != nil {
		t.Fatal(probs)
	}
	var got []LayerPath
	for _, f := range set.Files {
		got = append(got, LayerPath{Path: f.Path, Layer: f.Layer})
	}
	if diff := cmp.Diff([]LayerPath{{Path: user, Layer: User}, {Path: managed, Layer: Managed}}, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestSelectIsASecondLook: the files Select picks from one Look over every agent are those a
// second Look with the subset of agents returns, for every subset, over a tree where files
// are reached through several agents' paths and layers (symlinks: a project file to the
// managed settings, one agent's file to another's, the home's file from the project) and a
// named --settings file is also an agent's file. `hookcore hook AGENT` used to run that
// second Look at every event.
func TestSelectIsASecondLook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	managed := write(t, dir, "etc/managed-settings.json", `{"hooks":{}}`)
	write(t, dir, "etc/managed-settings.d/a.json", `{"hooks":{}}`)
	userClaude := write(t, home, ".claude/settings.json", `{"hooks":{}}`)
	write(t, home, ".hookcore/hooks.yaml", "hooks: []\n")
	write(t, home, ".gemini/settings.json", `{}`)
	write(t, home, ".copilot/hooks/a.json", `{}`)
	write(t, work, ".git/HEAD", "")
	codex := write(t, work, ".codex/hooks.json", `{}`)
	write(t, work, ".cursor/hooks.json", `{}`)
	write(t, work, ".github/hooks/a.json", `{}`)
	write(t, work, ".minicode/config.yaml", "hooks: []\n")
	for link, target := range map[string]string{
		".claude/settings.json":       managed,    // project path to the managed settings
		".gemini/settings.json":       codex,      // one agent's file to another's
		".codebot/settings.json":      userClaude, // the home's file from the project
		".claude/settings.local.json": filepath.Join(work, ".minicode/config.yaml"),
		".hookcore/hooks.local.yaml":  filepath.Join(work, ".cursor/hooks.json"),
	} {
		p := filepath.Join(work, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skip(err)
		}
	}
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Dir(managed), Settings: []string{userClaude, codex}}
	all, err := d.Look()
	if err != nil {
		t.Fatal(err)
	}
	for mask := 0; mask < 1<<len(DefaultAgents); mask++ {
		agents := []Agent{}
		for i, a := range DefaultAgents {
			if mask&(1<<i) != 0 {
				agents = append(agents, a)
			}
		}
		sub := d
		sub.Agents = agents
		want, err := sub.Paths()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, Select(all, agents)); diff != "" {
			t.Fatalf("agents %v (-second Look +Select):\n%s", agents, diff)
		}
	}
	if diff := cmp.Diff(Select(all, nil), Select(all, DefaultAgents)); diff != "" {
		t.Errorf("nil agents are not DefaultAgents:\n%s", diff)
	}
}

// TestDanglingSymlinkIsALoadError: ~/.hookcore/hooks.yaml, a symbolic link to a file that is
// not there (a dotfiles checkout missing), is a config that does not load, named as such;
// it counted as "not found", and the user ran without a guard (new-user trial, stop 24).
func TestDanglingSymlinkIsALoadError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	link := filepath.Join(home, ".hookcore", "hooks.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "dotfiles", "hooks.yaml"), link); err != nil {
		t.Skip(err)
	}
	d := Discovery{Cwd: work, Home: home, ManagedDir: filepath.Join(dir, "etc")}
	cands, err := d.Look()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cands, func(c Candidate) bool { return c.Path == link })
	if i < 0 || !cands[i].Loads() || cands[i].Err == nil || !strings.Contains(cands[i].Err.Error(), "symbolic link") {
		t.Fatalf("candidate %+v", cands[i])
	}
	set, probs := Load(Select(cands, nil))
	if len(set.Files) != 1 || !set.Files[0].Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "symbolic link to "+filepath.Join(dir, "dotfiles", "hooks.yaml")+", which does not exist") {
		t.Errorf("files %+v, problems %v", set.Files, probs)
	}
}

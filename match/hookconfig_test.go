package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configHome makes a home with some of hookcore's config files (user layers and a project
// HOME/proj with a .git) and returns the home and hookcore's config paths there, as the CLI
// computes them: every candidate, existing or not, and ~/.hookcore whole.
func configHome(t testing.TB) (home string, paths []string) {
	t.Helper()
	home = t.TempDir()
	proj := filepath.Join(home, "proj")
	for _, d := range []string{".claude", ".minicode", ".codex", ".hookcore", "proj/.claude", "proj/.github/hooks", "proj/.github/workflows", "proj/.git/hooks", "proj/src", "proj/build"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".hookcore", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"proj/.git/hooks/pre-commit.sample", ".hookcore/trust.json", ".claude/settings.json", ".minicode/config.yaml", "proj/.claude/settings.json", "proj/.github/hooks/a.json", "proj/a.txt"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths = []string{
		filepath.Join(home, ".hookcore"),
		filepath.Join(home, ".claude/settings.json"),
		filepath.Join(home, ".claude/settings.local.json"),
		filepath.Join(home, ".minicode/config.yaml"),
		filepath.Join(home, ".codex/hooks.json"),
		filepath.Join(home, ".copilot/hooks/*.json"),
		filepath.Join(proj, ".claude/settings.json"),
		filepath.Join(proj, ".claude/settings.local.json"),
		filepath.Join(proj, ".hookcore/hooks.yaml"),
		filepath.Join(proj, ".github/hooks/*.json"),
		"/etc/claude-code/managed-settings.json",
	}
	return home, paths
}

// matchConfig reports whether the condition expr holds for a PreToolUse call of tool with
// the one argument key: v, made in the project home/proj, with hookcore's config paths.
func matchConfig(t *testing.T, expr, tool, key, v, home string, config []string) bool {
	t.Helper()
	f, err := CompileIf(expr)
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	args, _ := json.Marshal(map[string]string{key: strings.ReplaceAll(v, "HOMEDIR", home)})
	return f.Match(NewSubjectAt(proj, "PreToolUse", tool, args).WithCwd(proj).WithHome(home).WithHookConfig(config))
}

// Red team round 53: a short glob on a config directory and a cd into one named without
// its trailing slash, then a relative write; and the false-positive floor (the home and the
// project root are on the path to a config file, and ordinary commands name them).
func TestChangesHookConfig(t *testing.T) {
	t.Parallel()
	home, config := configHome(t)
	for _, tc := range []struct {
		name, cmd string
		want      bool
	}{
		// Round 53's spellings.
		{"short glob on the directory", "cp x ~/.mi*/config.yaml", true},
		{"two-letter glob", "cp x ~/.m*/config.yaml", true},
		{"glob into a directory of globbed files", "cp x ~/.co*/hooks/a.json", true},
		{"glob of the directory", "cp -r /tmp/evil/. ~/.m*/", true},
		{"cd ~, cd a glob, relative write", "cd ~ && cd .m* && cp x config.yaml", true},
		{"cd without the slash", "cd ~/.claude && cp x settings.json", true},
		{"cd .github", "cd .github && cp x hooks/a.json", true},
		{"cd .claude in the project", "cd .claude && printf '{}' > settings.json", true},
		{"redirection", "echo '{}' > ~/.claude/settings.json", true},
		{"the state directory whole", "echo x > ~/.hookcore/trust.json", true},
		{"a new file in the state directory", "touch ~/.hookcore/hooks.local.yaml", true},
		{"a file that does not exist yet", "cp x ~/.claude/settings.local.json", true},
		{"tee", "echo x | tee .hookcore/hooks.yaml", true},
		{"sed -i", "sed -i s/true/false/ .claude/settings.json", true},
		{"an interpreter's word", "python3 -c 'open(\"HOMEDIR/.minicode/config.yaml\",\"w\")'", true},
		{"moved away", "mv ~/.claude ~/.c-old", true},
		{"the directory replaced", "ln -sfn /tmp/evil ~/.minicode", true},
		{"a directory copied into place", "cp -r /tmp/cfg ~/.copilot", true},
		{"a directory copied into an existing one", "cp -r /tmp/cfg ~/.codex", false},
		{"a directory on the path created", "mkdir -p ~/.copilot/hooks && cp x ~/.copilot/hooks/", true},
		{"extraction into the home", "tar -xf x.tar -C ~", true},
		{"extraction into the project", "tar -xf x -C HOMEDIR/proj", true},
		{"cp -rT over the project", "cp -rT /tmp/evil HOMEDIR/proj", true},
		{"the project moved", "mv HOMEDIR/proj /tmp/x", true},
		{"the home removed", "rm -rf ~", true},
		{"a relative removal", "rm -rf .claude", true},
		{"chmod of the file", "chmod 000 .github/hooks/a.json", true},
		{"the managed settings", "cp x /etc/claude-code/managed-settings.json", true},
		{"a command with a config directory", "node x.js ~/.claude", true},
		{"find -delete", "find ~/.claude -delete", true},

		// The floor: the home and the project root are ancestors of config files.
		{"git add .", "git add .", false},
		{"npm install .", "npm install .", false},
		{"make -C", "make -C HOMEDIR/proj", false},
		{"pip install -e .", "pip install -e .", false},
		{"code .", "code .", false},
		// A bind mount makes its directory writable by the container: the home's holds
		// config files (stop 32; read-only stays allowed). The project root's is a
		// container run over the project, as make runs there (the tripwire judges it).
		{"docker -v", "docker run -v HOMEDIR/proj:/src img", false},
		{"docker -v the project's .claude", "docker run -v HOMEDIR/proj/.claude:/src img", true},
		{"docker -v home", "docker run -v ~:/home img", true},
		{"docker -v :ro", "docker run -v HOMEDIR/proj:/src:ro img", false},
		{"docker -v a subdirectory", "docker run -v HOMEDIR/proj/build:/out img", false},
		{"go test", "go test ./...", false},
		{"rm -rf build", "rm -rf build", false},
		{"mv src lib", "mv src lib", false},
		{"cp a file", "cp a.txt b.txt", false},
		{"a recursive copy to . after a cd CDPATH may resolve", "cd build && cp -r ../src/a.txt .", false},
		{"cd and ls", "cd HOMEDIR/proj && ls", false},
		{"a read", "cat .claude/settings.json", false},
		{"a read from the home", "grep -r x ~/.claude", false},
		{"a workflow", "cp ci.yml .github/workflows/ci.yml", false},
		{"a cd elsewhere", "cd /tmp && rm -rf x", false},
		{"a command on the home", "du -sh ~ && ls ~", false},
		{"a build in the home", "cd ~ && make", false},
		{"a program of the top directory", "ls /etc && cat /etc/hosts", false},
		// Bash's globs: * names no dot file without dotglob; {} is find's placeholder, not
		// alternatives; an extglob is.
		{"a glob in the project root", "chmod -R u+w * && git add *", false},
		{"a glob with dotglob", "shopt -s dotglob; chmod -R u+w *", true},
		{"a glob with GLOBIGNORE", "GLOBIGNORE=x; rm -rf *", true},
		{"a dot glob", "rm -rf .c*", true},
		{"find's placeholder", "find build -type f -exec chmod 644 {} +", false},
		// find's -name tests: a conjunction acts only on names that match.
		{"find -name -delete in the project", "find . -name '*.pyc' -delete", false},
		{"find -name -exec chmod", "find . -type f -name '*.sh' -exec chmod +x {} +", false},
		{"find -iname -exec rm", "find . -iname '*.ORIG' -exec rm {} +", false},
		{"find -name of the config file", "find . -name 'settings*' -delete", true},
		{"find -iname of the config directory", "find . -iname '.CLAUDE' -exec rm -rf {} +", true},
		{"find -name of a drop-in file", "find . -name '*.json' -delete", true},
		{"find -name *", "find . -name '*' -delete", true},
		{"find -name with -o", "find . -name '*.pyc' -o -name x -delete", true},
		{"find without -name", "find . -type f -delete", true},
		{"find -name of no file in the state directory", "find ~ -name '*.pyc' -delete", false},
		{"find -name of a file in the state directory", "find ~ -name 'trust*' -delete", true},
		{"find -name of a directory in the state directory", "find ~ -name 'state' -exec rm -rf {} +", true},
		{"brace alternatives", "echo x | tee ~/.{minicode,x}/config.yaml", true},
		// Red team round 54: xargs given what grep -r finds under a directory on the path.
		{"grep -rl | xargs sed -i", "grep -rl PreToolUse ~ | xargs sed -i s/PreToolUse/X/", true},
		{"grep -rl in the config directory | xargs rm", "grep -rl x ~/.claude | xargs rm", true},
		{"grep -rl in a project directory | xargs sed -i", "grep -rl foo src | xargs sed -i s/foo/bar/", false},
		{"grep -rl | xargs wc", "grep -rl foo ~ | xargs wc -l", false},
		{"an extglob", "cp x ~/.@(minicode|x)/config.yaml", true},
	} {
		if got := matchConfig(t, `args.command changes hook_config`, "Bash", "command", tc.cmd, home, config); got != tc.want {
			t.Errorf("%s: changes hook_config on %q = %v, want %v", tc.name, tc.cmd, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name, path string
		want       bool
	}{
		{"the file", "HOMEDIR/.claude/settings.json", true},
		{"relative", ".claude/settings.json", true},
		{"tilde", "~/.minicode/config.yaml", true},
		{"under the state directory", "~/.hookcore/anything", true},
		{"a glob's file", ".github/hooks/new.json", true},
		{"a directory on the path (a move's destination)", "HOMEDIR/.codex", true},
		{"a dot-dot spelling", "src/../.claude/settings.json", true},
		{"a project file", "src/main.go", false},
		{"a workflow", ".github/workflows/ci.yml", false},
		{"beside the config", "HOMEDIR/.claude/notes.md", false},
	} {
		if got := matchConfig(t, `file_path changes hook_config`, "Write", "file_path", tc.path, home, config); got != tc.want {
			t.Errorf("%s: file_path changes hook_config on %q = %v, want %v", tc.name, tc.path, got, tc.want)
		}
	}
}

// The working directory is a floor too when it is a project subdirectory with no dot name
// on its path, and not when a previous call's cd left the shell in a config directory.
func TestChangesHookConfigCwdFloor(t *testing.T) {
	t.Parallel()
	home, config := configHome(t)
	proj := filepath.Join(home, "proj")
	f, err := CompileIf(`args.command changes hook_config`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cwd, cmd string
		want           bool
	}{
		{"make -C .. from a subdirectory", filepath.Join(proj, "src"), "make -C .. && code ..", false},
		{"a write up from a subdirectory", filepath.Join(proj, "src"), "cp x ../.claude/settings.json", true},
		{"in the config directory", filepath.Join(proj, ".claude"), "node x.js . && cp x s*", true},
		{"a command on the config directory from it", filepath.Join(home, ".claude"), "node x.js .", true},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		if got := f.Match(NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(tc.cwd).WithHome(home).WithHookConfig(config)); got != tc.want {
			t.Errorf("%s: %q in %s = %v, want %v", tc.name, tc.cmd, tc.cwd, got, tc.want)
		}
	}
}

// A subject with no config paths: the clause never holds.
func TestChangesHookConfigUnset(t *testing.T) {
	t.Parallel()
	f, err := CompileIf(`args.command changes hook_config || file_path changes hook_config`)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"command":"rm -rf /"}`, `{"file_path":"/x"}`} {
		if f.Match(NewSubjectAt("/proj", "PreToolUse", "Bash", json.RawMessage(args)).WithCwd("/proj")) {
			t.Errorf("%s matched without config paths", args)
		}
	}
}

// `changes "PATH"`: a policy's own paths, with the same reading (red team round 53: `cd .git
// && cp x hooks/pre-commit`).
func TestChangesPath(t *testing.T) {
	t.Parallel()
	home, _ := configHome(t)
	const git = `args.command changes ".git/hooks" || args.command changes ".git/config" || args.command changes ".github/hooks"`
	for _, tc := range []struct {
		name, expr, cmd string
		want            bool
	}{
		{"cd .git", git, "cd .git && cp x hooks/pre-commit", true},
		{"cd .git, config", git, "cd .git && printf '[core]\\n' > config", true},
		{"cd .github", git, "cd .github && cp x hooks/a.json", true},
		{"a glob", git, "cp x .gi*/hooks/pre-commit", true},
		{"the hooks directory replaced", git, "rm -rf .git/hooks && ln -s /tmp/h .git/hooks", true},
		{"absolute", git, "cp x HOMEDIR/proj/.git/hooks/post-checkout", true},
		{"git add", git, "git add . && git commit -m x", false},
		{"a read", git, "cat .git/config", false},
		{"a workflow", git, "cp ci.yml .github/workflows/ci.yml", false},
		{"find -name of no hook", git, "find . -name '*.pyc' -delete", false},
		{"find -name of a hook", git, "find . -name '*.sample' -exec chmod +x {} +", true},
		{"home path", `args.command changes "~/.npmrc"`, "cd ~ && echo x >> .npmrc", true},
		{"home path, elsewhere", `args.command changes "~/.npmrc"`, "echo x >> .npmrc", false},
		{"absolute path with a glob", `args.command changes "/etc/cron.*"`, "cp x /etc/cron.d/job", true},
		{"file_path", `file_path changes ".git/hooks"`, "Write:.git/hooks/pre-commit", true},
		{"file_path elsewhere", `file_path changes ".git/hooks"`, "Write:.git/HEAD", false},
		{"file_path home", `file_path changes "~/.npmrc"`, "Write:HOMEDIR/.npmrc", true},
	} {
		tool, key, v := "Bash", "command", tc.cmd
		if p, ok := strings.CutPrefix(tc.cmd, "Write:"); ok {
			tool, key, v = "Write", "file_path", p
		}
		if got := matchConfig(t, tc.expr, tool, key, v, home, nil); got != tc.want {
			t.Errorf("%s: %s on %q = %v, want %v", tc.name, tc.expr, tc.cmd, got, tc.want)
		}
	}
}

func TestChangesPathSyntax(t *testing.T) {
	t.Parallel()
	for expr, want := range map[string]string{
		`args.command changes usr_bin`:           `found "usr_bin"`,
		`args.command changes ""`:                "empty path",
		`args.command changes "$HOME/.x"`:        `changes "$HOME/.x": a path has no $`,
		`args.command changes "~bob/.x"`:         `changes "~bob/.x": only your own home`,
		`args.command changes "../x"`:            `changes "../x": a relative path`,
		`args.command changes "."`:               `changes ".": a path below`,
		`args.command changes "~"`:               `changes "~": a path below`,
		`args.command changes "/"`:               `changes "/": a path below`,
		`args.command changes "{a,b}"`:           `changes "{a,b}": a path has no {a,b}`,
		`file_path changes /x/`:                  "a quoted path",
		`args.command changes 'hook_configs'`:    "", // a relative path of that name
		`args.command changes "hook_config"`:     "",
		`args.command changes "/etc/x/*.json"`:   "",
		`args.command changes "~/.config/x.ini"`: "",
	} {
		_, err := CompileIf(expr)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", expr, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one with %q", expr, err, want)
		}
	}
}

// A relative `changes "PATH"` is taken from the project root and from the call's working
// directory; with neither known it holds for every line (fail closed).
func TestChangesPathAnchors(t *testing.T) {
	t.Parallel()
	f, err := CompileIf(`args.command changes ".git/hooks"`)
	if err != nil {
		t.Fatal(err)
	}
	r, wt := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(r, "vendor", "x", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root, cwd, cmd string
		want                 bool
	}{
		{"the root", "/r", "/r/sub", "cp x /r/.git/hooks/pre-commit", true},
		{"a nested repository in the cwd", r, r + "/vendor/x", "cd .git && cp x hooks/pre-commit", true},
		{"a cwd with no .git", r, r + "/vendor", "cd x && cd .. && chmod -R u+w *", false},
		{"the cwd's sibling", "/r", "/r/vendor/x", "cp x /r/vendor/y/.git/hooks/pre-commit", false},
		{"a cwd outside the project", "/r", "/tmp", "cd .git && cp x hooks/pre-commit", false},
		{"no root nor cwd", "", "", "ls", true},
		{"a worktree's .git is a file", wt, wt, "find . -name '*.pyc' -delete", false},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		if got := f.Match(NewSubjectAt(tc.root, "PreToolUse", "Bash", args).WithCwd(tc.cwd)); got != tc.want {
			t.Errorf("%s: %q = %v, want %v", tc.name, tc.cmd, got, tc.want)
		}
	}
}

// BenchmarkChangesHookConfig measures `changes hook_config` on a typical Bash line against
// the config paths the CLI computes for a home and a project (about 30; configHome has 11,
// repeated), a fresh Subject each time as in a hook process.
func BenchmarkChangesHookConfig(b *testing.B) {
	home := b.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(proj, "build"), 0o755); err != nil {
		b.Fatal(err)
	}
	var config []string
	for _, base := range []string{home, proj} {
		for _, rel := range []string{".hookcore/hooks.yaml", ".hookcore/hooks.local.yaml", ".claude/settings.json", ".claude/settings.local.json",
			".minicode/config.yaml", ".minicode/config.local.yaml", ".codebot/settings.json", ".gemini/settings.json", ".codex/hooks.json",
			".codex/config.toml", ".cursor/hooks.json", ".github/hooks/*.json", ".copilot/hooks/*.json"} {
			config = append(config, filepath.Join(base, rel))
		}
	}
	config = append(config, filepath.Join(home, ".hookcore"), "/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d/*.json", "/etc/gemini-cli/settings.json")
	f, err := CompileIf(`args.command changes hook_config`)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"cd build && rm -rf out && cp -r ../src/a.txt . && printf x > notes.txt && go test ./..."}`)
	b.ReportAllocs()
	for b.Loop() {
		if f.Match(NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home).WithHookConfig(config)) {
			b.Fatal("matched")
		}
	}
}

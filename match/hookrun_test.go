package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestChangesHookRuns is red team round 50: what the user's hooks run is part of the guard.
// The programs they run and the slots before them on PATH are program paths
// (WithProgram); the files those programs read at start are startup paths (WithStartup).
func TestChangesHookRuns(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, d := range []string{"go/bin", ".local/lib/python3.11/site-packages", ".config", "proj", "real/sp"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(home, "go", "bin", "hookcore-hook")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".local/lib/python3.11/site-packages"), filepath.Join(home, "sp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "real/sp"), filepath.Join(home, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	programs := []string{prog, filepath.Join(home, "go/bin/python3"), filepath.Join(home, ".local/bin/python3"), filepath.Join(home, "go/bin/jq")}
	startup := []string{
		filepath.Join(home, ".local/lib/python3.11/site-packages"),
		filepath.Join(home, ".local/lib/python3.*/site-packages"),
		filepath.Join(home, ".jq"),
		filepath.Join(home, ".gitconfig"),
		filepath.Join(home, ".config/git/config"),
		"/usr/lib/python3.11",
	}
	const line = `args.command changes hook_program`
	const file = `file_path changes hook_program`
	for _, tc := range []struct {
		name, expr, tool, cmd string
		want                  bool
	}{
		// Finding 1: a fake interpreter earlier on PATH (a slot: a program file that does
		// not exist yet).
		{"a fake python3 first on PATH", line, "Bash", `printf '#!/bin/sh\nexit 0\n' > ~/go/bin/python3 && chmod +x ~/go/bin/python3`, true},
		{"in ~/.local/bin", line, "Bash", `mkdir -p ~/.local/bin && cp /bin/true ~/.local/bin/python3`, true},
		{"a link", line, "Bash", `ln -s /bin/true ~/.local/bin/python3`, true},
		{"copied in under its name", line, "Bash", `cp /tmp/x/python3 ~/go/bin/`, true},
		{"a glob over the slot", line, "Bash", `cp /bin/true ~/go/bin/pyth*3`, true},
		{"tee", line, "Bash", `echo 'exit 0' | tee ~/go/bin/jq`, true},
		{"the slot by the Write tool", file, "Write", `~/.local/bin/python3`, true},
		{"another tool beside it", line, "Bash", `cp ./tool ~/go/bin/tool && chmod +x ~/go/bin/tool`, false},
		{"another file by the Write tool", file, "Write", `~/.local/bin/tool`, false},
		// Finding 2: Python's user site.
		{"a .pth in the user site", line, "Bash", `mkdir -p ~/.local/lib/python3.11/site-packages && printf 'import os; os._exit(0)\n' > ~/.local/lib/python3.11/site-packages/zz.pth`, true},
		{"the .pth by the Write tool", file, "Write", `~/.local/lib/python3.11/site-packages/zz.pth`, true},
		{"usercustomize by the Write tool", file, "Write", filepath.Join(home, ".local/lib/python3.11/site-packages/usercustomize.py"), true},
		{"a version the interpreter may be", file, "Write", `~/.local/lib/python3.13/site-packages/zz.pth`, true},
		{"through a symlink to the site", file, "Write", `~/sp/zz.pth`, true},
		{"through a symlink, from the shell", line, "Bash", `echo x > ~/sp/zz.pth`, true},
		{"relative after cd", line, "Bash", `cd ~/.local/lib/python3.11/site-packages && printf 'import os\n' > zz.pth`, true},
		{"cd by steps", line, "Bash", `cd ~/.local && cd lib/python3.11 && echo x >> site-packages/a.pth`, true},
		{"a variable holding the site", line, "Bash", `d=~/.local/lib/python3.11/site-packages; echo x > "$d/zz.pth"`, true},
		{"cd to a variable on a line naming the site", line, "Bash", `d=~/.local/lib/python3.11/site-packages; cd "$d" && echo x > zz.pth`, true},
		{"an interpreter's open()", line, "Bash", `python3 -c 'open("` + home + `/.local/lib/python3.11/site-packages/zz.pth", "w").write("import os")'`, true},
		{"touch", line, "Bash", `touch ~/.local/lib/python3.11/site-packages/usercustomize.py`, true},
		{"an interpreter's here-document", line, "Bash", "python3 - <<EOF\nopen('" + home + "/.local/lib/python3.11/site-packages/zz.pth', 'w').write('import os')\nEOF", true},
		{"the site module's name for it", line, "Bash", `python3 -c "import site; open(site.getusersitepackages() + '/zz.pth', 'w').write('import os')"`, true},
		{"the site module's answer", line, "Bash", `cp /tmp/x.pth "$(python3 -m site --user-site)/"`, true},
		{"the site's paths printed", line, "Bash", `python3 -m site --user-site && python3 -m site`, false},
		{"a here-document elsewhere", line, "Bash", "python3 - <<EOF\nprint(open('/tmp/x').read())\nEOF", false},
		{"a model's .pth", line, "Bash", `python3 train.py --out model.pth && cat ~/.local/lib/python3.11/site-packages/a.pth`, false},
		{"cp into the site", line, "Bash", `cp /tmp/zz.pth ~/.local/lib/python3.11/site-packages/`, true},
		{"the chain copied in", line, "Bash", `cp -r /tmp/evil/lib ~/.local/`, true},
		{"the chain moved in", line, "Bash", `mv /tmp/evil/python3.11 ~/.local/lib/`, true},
		{"a directory on the chain linked", line, "Bash", `ln -sfn /tmp/evil ~/.local/lib`, true},
		{"extracted into the chain", line, "Bash", `tar -xf /tmp/e.tar -C ~/.local`, true},
		{"cloned into the chain", line, "Bash", `git clone /tmp/evil ~/.local/lib/python3.11`, true},
		{"the site removed", line, "Bash", `rm -rf ~/.local/lib/python3.11/site-packages`, true},
		{"a glob version", line, "Bash", `echo x > ~/.local/lib/python3*/site-packages/zz.pth`, true},
		{"a brace", line, "Bash", `cp x.pth ~/.local/lib/python3.1{1,2}/site-packages/`, true},
		{"~NAME", line, "Bash", `echo x > ~root/.local/lib/python3.11/site-packages/zz.pth`, true},
		{"pip install --user", line, "Bash", `pip install --user ./evil`, true},
		{"pip install by name", line, "Bash", `python3 -m pip install -e .`, true},
		{"pip in a virtual environment", line, "Bash", `python3 -m venv .venv && .venv/bin/pip install requests && source .venv/bin/activate && pip install x`, false},
		{"pip --target elsewhere", line, "Bash", `pip install --target ./vendor requests`, false},
		{"pip --target the site", line, "Bash", `pip install --target ~/.local/lib/python3.11/site-packages evil`, true},
		{"the system stdlib", line, "Bash", `echo 'import os' > /usr/lib/python3.11/sitecustomize.py`, true},
		// jq's ~/.jq and git's global config.
		{"~/.jq", line, "Bash", `echo 'def test(re): false;' > ~/.jq`, true},
		{"~/.jq by the Write tool", file, "Write", `~/.jq`, true},
		{"a module in ~/.jq/", file, "Write", `~/.jq/x.jq`, true},
		{"git config --global", line, "Bash", `printf '[alias]\n' >> ~/.gitconfig`, true},
		{"git's XDG config", line, "Bash", `mkdir -p ~/.config/git && cp /tmp/c ~/.config/git/config`, true},
		{"git's config directory moved in", line, "Bash", `mv /tmp/git ~/.config/`, true},
		{"git config --global", line, "Bash", `git config --global alias.st '!rm -rf /tmp/x'`, true},
		{"git config set --global", line, "Bash", `git -C /tmp config set --global core.editor x`, true},
		{"git config --global reads", line, "Bash", `git config --global user.name && git config --global --get-all x && git config --global -l && git config user.name x`, false},
		// What stays allowed.
		{"reading the site", line, "Bash", `ls ~/.local/lib/python3.11/site-packages && cat ~/.local/lib/python3.11/site-packages/*.pth && cd ~/.local`, false},
		{"other files under ~/.local", line, "Bash", `mkdir -p ~/.local/share/x && echo x > ~/.local/share/x/f && cp a ~/.local/bin/tool`, false},
		{"a cd of unknown target elsewhere", line, "Bash", `cd "$(mktemp -d)" && git init && echo hi > f.txt && make PREFIX=$P`, false},
		{"a variable operand", line, "Bash", `go test ./... -run $T && kill $pid`, false},
		{"a Write elsewhere", file, "Write", `~/.local/share/notes.txt`, false},
		{"a Write of a file named like one elsewhere", file, "Write", filepath.Join(proj, ".jq"), false},
		{"a sibling of ~/.jq", line, "Bash", `echo x > ~/.jqrc && rm -rf ~/.cache/x && cp x ~/.config/other`, false},
		{"a real dir elsewhere through a symlink", line, "Bash", `echo x > ~/elsewhere/zz.pth`, false},
		{"the project", line, "Bash", `printf x > build/zz.pth && rm -rf build && pip download x`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := "command"
			if tc.tool != "Bash" {
				key = "file_path"
			}
			if got := matchChanges(t, tc.expr, tc.tool, key, tc.cmd, proj, home, programs, startup); got != tc.want {
				t.Errorf("%s on %q = %v, want %v", tc.expr, tc.cmd, got, tc.want)
			}
		})
	}
}

func TestRelate(t *testing.T) {
	t.Parallel()
	const st = "/h/.local/lib/python3.*/site-packages"
	for _, tc := range []struct {
		p    string
		want reach
		hole bool
	}{
		{"/h/.local/lib/python3.11/site-packages/zz.pth", reachUnder, false},
		{"/h/.local/lib/python3.11/site-packages", reachUnder, false},
		{"/h/.local/lib/python3.11", reachAncestor, false},
		{"/h/.local", reachAncestor, false},
		{"/", reachAncestor, false},
		{"/h/.local/lib/python2.7/site-packages/x", reachNone, false},
		{"/h/.local/share", reachNone, false},
		{"/h/.local/*/python*/site-packages/x", reachUnder, false},
		{"/h/.local/$x/y", reachUnder, true},
		{"/tmp/$x/y", reachNone, false},
		{"$d/zz.pth", reachUnder, true},
		{"/h/.local/lib/{a,python3.9}/site-packages/x", reachUnder, false},
	} {
		got, hole := relate(tc.p, st)
		if got != tc.want || hole != tc.hole {
			t.Errorf("relate(%q) = %v, %v; want %v, %v", tc.p, got, hole, tc.want, tc.hole)
		}
	}
}

// BenchmarkChangesHookRuns measures `changes hook_program` on a typical Bash line with the
// hook program alone, and with what a guardrails config runs beside it on a PATH of eight
// directories (red team round 50: a python3 and a bash found late on PATH, their shadow
// slots, and Python's startup paths).
func BenchmarkChangesHookRuns(b *testing.B) {
	home := b.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "go", "bin"), 0o755); err != nil {
		b.Fatal(err)
	}
	prog := filepath.Join(home, "go", "bin", "hookcore-hook")
	var slots []string
	for _, d := range []string{"go/bin", ".local/bin", ".cargo/bin", "bin", ".pyenv/shims", "x/bin", "y/bin"} {
		for _, n := range []string{"python3", "bash"} {
			slots = append(slots, filepath.Join(home, d, n))
		}
	}
	startup := []string{
		filepath.Join(home, ".local/lib/python3.11/site-packages"), "/usr/lib/python3.11", "/usr/lib/python3/dist-packages",
		"/usr/local/lib/python3.11/dist-packages", "/etc/python3.11", "/usr/bin/pyvenv.cfg", "/usr/pyvenv.cfg", filepath.Join(home, ".hookcore"),
	}
	f, err := CompileIf(`args.command changes hook_program`)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"cd build && rm -rf out && cp -r ../src/a.txt . && printf x > notes.txt && go test ./..."}`)
	for _, bc := range []struct {
		name              string
		programs, startup []string
	}{
		{"program", []string{prog}, nil},
		{"runs", append([]string{prog, "/usr/bin/python3", "/bin/sh", "/usr/bin/bash"}, slots...), startup},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewSubjectAt("/ws", "PreToolUse", "Bash", args).WithCwd("/ws").WithHome(home).WithProgram(bc.programs).WithStartup(bc.startup)
				if f.Match(s) {
					b.Fatal("unexpected match")
				}
			}
		})
	}
}

// TestEvalSymlinksMemo: the Subject's memoized evalSymlinks resolves as
// filepath.EvalSymlinks does (links to directories and files, relative and chained links,
// a dangling link, a loop, a missing path).
func TestEvalSymlinksMemo(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) string { return filepath.Join(dir, p) }
	if err := os.MkdirAll(mk("real/sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mk("real/sub/f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"ld": "real", "lrel": "real/sub", "chain": "ld/sub", "dang": "nowhere", "loop1": "loop2", "loop2": "loop1", "real/lf": "sub/f"} {
		if err := os.Symlink(target, mk(link)); err != nil {
			t.Fatal(err)
		}
	}
	s := NewSubject("PreToolUse", "Write", nil)
	for _, p := range []string{"ld/sub/f", "lrel/f", "chain/f", "dang", "dang/x", "loop1", "loop1/x", "real/lf", "nope/x", "ld", "real/sub/../sub/f"} {
		for range 2 { // the second answer comes from the memo
			want, werr := filepath.EvalSymlinks(mk(p))
			got, gerr := s.evalSymlinks(mk(p))
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("evalSymlinks(%s) = %q, %v; want %q, %v", p, got, gerr, want, werr)
			}
		}
	}
}

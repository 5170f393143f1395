package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// programHome makes a home with the hook program at home/rel and returns the home and the
// program's path.
func programHome(t *testing.T, rel string) (home, prog string) {
	t.Helper()
	home = t.TempDir()
	prog = filepath.Join(home, rel)
	for _, d := range []string{filepath.Dir(prog), filepath.Join(home, "go", "pkg"), filepath.Join(home, "proj", "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return home, prog
}

type changesCase struct {
	name, cmd string
	want      bool
}

// checkChanges runs `args.command changes hook_program` (or file_path for a case whose
// command starts with "Write:") on each case, in the project home/proj.
func checkChanges(t *testing.T, home, prog string, cases []changesCase) {
	t.Helper()
	checkChangesWith(t, home, []string{prog}, nil, cases)
}

// checkChangesWith is checkChanges with the given program paths and startup paths.
func checkChangesWith(t *testing.T, home string, programs, startup []string, cases []changesCase) {
	t.Helper()
	proj := filepath.Join(home, "proj")
	for _, tc := range cases {
		expr, tool, key, v := `args.command changes hook_program`, "Bash", "command", tc.cmd
		if p, ok := strings.CutPrefix(tc.cmd, "Write:"); ok {
			expr, tool, key, v = `file_path changes hook_program`, "Write", "file_path", p
		}
		if got := matchChanges(t, expr, tool, key, strings.ReplaceAll(v, "HOMEDIR", home), proj, home, programs, startup); got != tc.want {
			t.Errorf("%s: %s on %q = %v, want %v", tc.name, expr, tc.cmd, got, tc.want)
		}
	}
}

// matchChanges reports whether the condition expr holds for a PreToolUse call of tool with
// the one argument key: v, made in the project proj of home, with the given program paths
// and startup paths.
func matchChanges(t *testing.T, expr, tool, key, v, proj, home string, programs, startup []string) bool {
	t.Helper()
	f, err := CompileIf(expr)
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{key: v})
	return f.Match(NewSubjectAt(proj, "PreToolUse", tool, args).WithCwd(proj).WithHome(home).WithProgram(programs).WithStartup(startup))
}

// Red team round 50: the program's paths by other spellings, links and installers.
func TestChangesHookProgramSpellings(t *testing.T) {
	t.Parallel()
	home, prog := programHome(t, "go/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		// Every tilde prefix bash expands: ~+ is the cwd, the rest any text.
		{"~+ after cd", "cd ~/go && mv ~+/bin /tmp/gb", true},
		{"~user", "mv ~rtuser/go/bin /tmp/x", true},
		{"~+ alone", "cd ~/go/bin && chmod 000 ~+", true},
		{"~+ a directory", "cd ~/go && mv ~+ x", true},
		{"~- is OLDPWD", "cd ~/go; cd /tmp; mv ~-/bin x", true},
		{"~0", "cd ~/go && mv ~0/bin x", true},
		{"~+0", "cd ~/go && mv ~+0/bin x", true},
		{"~1 of the stack", "mv ~1/bin x", true},
		{"~+/ rsync --remove-source-files", "cd ~/go && rsync -a --remove-source-files ~+/ /tmp/b/", true},
		{"cd ~+/...", "cd ~ && cd ~+/go/bin && chmod 000 .", true},
		{"pushd ~-", "pushd ~- && chmod 000 .", true},
		{"~+ when the line sets PWD", "PWD=/; mv ~+/tmp x", true},
		{"~ when the line sets HOME", "HOME=~/go; mv ~/bin /tmp/x", true},
		{"$HOME when the line sets HOME", "export HOME=/x; cd $HOME && mv go y", true},
		// ., .., // and a trailing / in every kind of word.
		{"./ after an unknown cd", "cd $D && mv ./bin x", true},
		{". after an unknown cd", "cd $D && chmod 000 .", true},
		{".. after an unknown cd", "cd $D && mv ../bin x", true},
		{"a trailing / after an unknown cd", "cd $D && mv bin/ x", true},
		{"a glob with a trailing /", "rm -rf ~/go/b?n/", true},
		{"a glob with /./", "rm -rf ~/go/./b*", true},
		{"a glob before ..", "rm -rf ~/go/*/../bin", true},
		{".. after a symlink the line makes", "ln -s ~/go/pkg /tmp/l && mv /tmp/l/../bin /tmp/x", true},
		{"a leading .. glob", "cd ~/go/pkg && mv ../b?n x", true},
		{".. from a cd to a link the line makes", "ln -s ~/go/pkg /tmp/s && cd /tmp/s && chmod 000 ..", true},
		{"cd through .. of a link", "ln -s ~/go/pkg /tmp/s && cd /tmp/s/.. && mv bin x", true},
		{"cd .. from a link", "ln -s ~/go/pkg /tmp/s && cd /tmp/s && cd ../bin && chmod 000 .", true},
		{"a relative symlink target", "ln -s go ~/g", true},
		{"a link into the program's directory", "mkdir ~/go/bin/x && ln -s ~/go/bin/x /tmp/s", true},
		// CDPATH, and cd NAME as a variable's value.
		{"CDPATH=", "CDPATH=~/go; cd bin && cd .. && mv bin /tmp/x", true},
		{"export CDPATH", "export CDPATH=~/go; cd bin; chmod 000 .", true},
		{"zsh cdpath", "cdpath=(~/go); cd bin && chmod 000 .", true},
		{"a sourced file", ". /tmp/rc; cd bin && chmod 000 .", true},
		{"cdable_vars", "g=~/go/bin; shopt -s cdable_vars; cd g && chmod 000 .", true},
		{"zsh cd OLD NEW", "cd ~/go/pkg && cd pkg bin && chmod 000 .", true},
		{"zsh AUTO_CD", "~/go/bin; chmod 000 .", true},
		{"the unknown cwd of a command that names the directory", "d=~/go/bin; cd $d && git apply x.patch", true},
		// Ordinary commands.
		{"cmake ..", "mkdir -p build && cd build && cmake .. && make", false},
		{"cd back", "cd sub && make && cd ..", false},
		{"cd then a relative operand", "cd sub && rm -rf build && cp ../a.txt .", false},
		{"CDPATH without a relative move", "CDPATH= cd /tmp && rm -rf x", false},
		{"~+ elsewhere", "ls ~+ && cp ~+/a ~+/b && echo ~root", false},
		{"an unknown cd and a build", "cd $(git rev-parse --show-toplevel) && go build ./... && go test ./... -run $T", false},
		{"a symlink in the project", "ln -sf ../shared/config.yaml config.yaml", false},
		{"a variable", "kill $pid && cd ~/go && ls", false},
	})
}

func TestChangesHookProgramLinks(t *testing.T) {
	t.Parallel()
	home, prog := programHome(t, "go/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		// A new hard link (or symbolic link) to the program is a name a later write goes
		// through.
		{"cp -l then a write", "cp -l ~/go/bin/*k /tmp/zz && cat /bin/true > /tmp/zz", true},
		{"cp -al", "cp -al ~/go/bin /tmp/hl", true},
		{"cp --link", "cp --link ~/go/bin/hookcore-hook /tmp/x", true},
		{"cp -rl an ancestor", "cp -rl ~/go /tmp/g", true},
		{"cp -s", "cp -s ~/go/bin/*k /tmp/zz && cat /bin/true > /tmp/zz", true},
		{"rsync --link-dest", "rsync -a --link-dest=~/go/bin ~/go/bin/ /tmp/hl/", true},
		{"rsync a relative --link-dest", "rsync -a --link-dest=../../go/bin src/ /tmp/hl/", true},
		{"cpio -pl", "find ~/go/bin | cpio -pdl /tmp/hl", true},
		{"pax -rwl", "pax -rwl ~/go/bin /tmp/hl", true},
		{"ln", "ln ~/go/bin/*k /tmp/x", true},
		{"an abbreviated --link", "cp --lin ~/go/bin/*k /tmp/zz", true},
		{"an abbreviated --remove-files", "tar --remove-f -cf /tmp/a.tar ~/go/bin", true},
		{"an abbreviated --target-directory", "cp --target /tmp/x --symb ~/go/bin/hookcore-hook", true},
		{"cp -l elsewhere", "cp -l a b && cp -a src /tmp/backup && rsync -a --link-dest=../prev src/ dst/", false},
	})
	// A hard link made earlier: every write or change through it counts.
	link := filepath.Join(home, "hl")
	if err := os.Link(prog, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := os.WriteFile(filepath.Join(home, "other"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	checkChanges(t, home, prog, []changesCase{
		{"a redirection to the link", "cat /bin/true > HOMEDIR/hl", true},
		{"chmod the link", "chmod 000 ~/hl", true},
		{"sed -i the link", "cd ~ && sed -i s/a/b/ hl", true},
		{"tee a glob matching it", "echo x | tee ~/h?", true},
		{"a write to a variable", `cp /bin/true "$f"`, true},
		{"the Write tool at the link", "Write:HOMEDIR/hl", true},
		{"the Write tool elsewhere", "Write:HOMEDIR/other", false},
		{"reading the link", "cat ~/hl && cmp ~/hl ~/other", false},
		{"a write elsewhere", "echo x > ~/other && chmod 600 ~/other", false},
	})
}

// The hook's own environment: CDPATH.
func TestChangesHookProgramCDPATH(t *testing.T) {
	home, prog := programHome(t, "go/bin/hookcore-hook")
	t.Setenv("CDPATH", filepath.Join(home, "go"))
	checkChanges(t, home, prog, []changesCase{
		{"a cd through the environment's CDPATH", "cd bin && chmod 000 .", true},
		{"a cd CDPATH does not search", "cd ./bin && chmod 000 . && cd ../sub && rm -rf bin", false},
	})
}

// BenchmarkChangesHookProgram is the `changes hook_program` clause on ordinary lines (the
// self-protect example runs it on every Bash call), a fresh Subject each time as in a hook
// process.
func BenchmarkChangesHookProgram(b *testing.B) {
	home := b.TempDir()
	prog := filepath.Join(home, "go", "bin", "hookcore-hook")
	if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(prog, nil, 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := CompileIf(`args.command changes hook_program`)
	if err != nil {
		b.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	for _, line := range []string{
		"go test ./... -run TestX -count=1",
		"cd sub && rm -rf build && mkdir -p build && cd build && cmake .. && make -j8 && cd ..",
		"cd /tmp/t && GOBIN=/tmp/tools go install ./cmd/x && npm install && .venv/bin/pip install -r requirements.txt",
	} {
		args, _ := json.Marshal(map[string]string{"command": line})
		b.Run(strings.Fields(line)[0]+"_"+strings.Fields(line)[1], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home).WithProgram([]string{prog})
				f.Match(s)
			}
		})
	}
}

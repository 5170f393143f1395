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
		{"file tool at the directory", file, "Write", `~/go/bin`, true},
		{"file tool at the program", file, "Write", prog, true},
		{"file tool beside it", file, "Write", `~/go/bin/notes.txt`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, err := CompileIf(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			key := "command"
			if tc.tool != "Bash" {
				key = "file_path"
			}
			args, _ := json.Marshal(map[string]string{key: tc.cmd})
			s := NewSubjectAt(proj, "PreToolUse", tc.tool, args).WithCwd(proj).WithHome(home).WithProgram([]string{prog})
			if got := f.Match(s); got != tc.want {
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
		`args.command changes "/usr/bin"`,
		`args.command changes /hook_program/`,
		`tool changes hook_program`,
		`args.path changes hook_program`,
	} {
		if _, err := CompileIf(expr); err == nil {
			t.Errorf("%s compiled", expr)
		}
	}
}

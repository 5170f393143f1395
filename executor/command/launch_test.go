package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/hook"
)

func TestCommandLaunchFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		cmd    Command
		cwd    string // relative to the temp dir; "-" for a missing directory
		errHas string
	}{
		{name: "program not found", cmd: Command{Command: "no-such-program-hookcore --flag"}, errHas: `program "no-such-program-hookcore" not found`},
		{name: "program not found after assignments", cmd: Command{Command: "FOO=1 no-such-program-hookcore; exit 2"}, errHas: "not found"},
		{name: "python3 missing script would exit 2", cmd: Command{Command: "python3 missing.py"}, errHas: `python3 script "missing.py" not found`},
		{name: "python3 with flags and missing script", cmd: Command{Command: "python3 -u hooks/missing.py --x"}, errHas: "missing.py"},
		{name: "bash missing script", cmd: Command{Command: "bash ./missing.sh arg"}, errHas: "missing.sh"},
		{name: "node missing script", cmd: Command{Command: `node "my hooks/guard.js"`}, errHas: "guard.js"},
		{name: "missing relative program path", cmd: Command{Command: "./hooks/guard.sh"}, errHas: "guard.sh"},
		{name: "shell says 127", cmd: Command{Command: "true && no-such-program-hookcore"}, errHas: "exit code 127"},
		{name: "exec form program not found", cmd: Command{Args: []string{"no-such-program-hookcore"}}, errHas: "not found"},
		{name: "exec form missing script", cmd: Command{Args: []string{"python3", "missing.py"}}, errHas: "missing.py"},
		{name: "exec form builtin", cmd: Command{Args: []string{"exit", "2"}}, errHas: "builtin"},
		{name: "empty command", cmd: Command{}, errHas: "empty command"},
		{name: "missing working directory", cmd: Command{Command: "exit 2"}, cwd: "-", errHas: "working directory"},
		{name: "not executable", cmd: Command{Command: "./data.txt"}, errHas: "not executable"},
		// Issue 8 item 8: python3 exits 2 on a missing script whose path is built from a
		// variable; that is a launch failure, not a block (DESIGN.md section 6).
		{name: "python3 script under CLAUDE_PROJECT_DIR", cmd: Command{Command: `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py`}, errHas: "guard.py"},
		{name: "python3 script under braced variable", cmd: Command{Command: `python3 "${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.py" --strict`}, errHas: "guard.py"},
		{name: "perl script under HOOKCORE_PROJECT_DIR", cmd: Command{Command: `perl $HOOKCORE_PROJECT_DIR/guard.pl`}, errHas: "guard.pl"},
		{name: "sh script under a context variable", cmd: Command{Command: `sh "$CWD/guard.sh"`}, errHas: "guard.sh"},
		{name: "python3 script under ~", cmd: Command{Command: `python3 ~/guard.py`}, errHas: "guard.py"},
		{name: "python3 after cd", cmd: Command{Command: `cd "$CLAUDE_PROJECT_DIR" && python3 .claude/hooks/guard.py`}, errHas: "guard.py"},
		{name: "node script after cd", cmd: Command{Command: `cd /; node "$CLAUDE_PROJECT_DIR/guard.js"`}, errHas: "guard.js"},
		// The same, for its whole kind: behind a wrapper, after interpreter options that
		// take a value, inside sh -c. Each of these exited 2 from python3 (or perl) and
		// read as a block before.
		{name: "exec python3", cmd: Command{Command: `exec python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py`}, errHas: "guard.py"},
		{name: "env python3", cmd: Command{Command: `env PYTHONUTF8=1 python3 "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "absolute env", cmd: Command{Command: `/usr/bin/env python3 "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "timeout with options", cmd: Command{Command: `timeout -k 5 --foreground 10 python3 "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "command and nice", cmd: Command{Command: `command nice -n 5 python3 "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "nohup exec form", cmd: Command{Args: []string{"nohup", "python3", "missing.py"}}, errHas: "missing.py"},
		{name: "python3 -X value", cmd: Command{Command: `python3 -X utf8 "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "python3 -W value", cmd: Command{Command: `python3 -W ignore -u "$CLAUDE_PROJECT_DIR"/guard.py`}, errHas: "guard.py"},
		{name: "perl -I value", cmd: Command{Command: `perl -I lib "$CLAUDE_PROJECT_DIR"/guard.pl`}, errHas: "guard.pl"},
		{name: "bash -o value", cmd: Command{Command: `bash -eo pipefail "$CLAUDE_PROJECT_DIR"/guard.sh`}, errHas: "guard.sh"},
		{name: "bash -c", cmd: Command{Command: `bash -c 'python3 "$CLAUDE_PROJECT_DIR"/guard.py'`}, errHas: "guard.py"},
		{name: "sh -c with cd", cmd: Command{Command: `sh -c "cd $CLAUDE_PROJECT_DIR && exec python3 .claude/hooks/guard.py"`}, errHas: "guard.py"},
		{name: "wrapped program not found", cmd: Command{Command: `env no-such-program-hookcore x`}, errHas: `program "no-such-program-hookcore" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "data.txt"), []byte("x"), 0o644)
			if tt.cwd == "-" {
				dir = filepath.Join(dir, "missing")
			}
			c := tt.cmd
			c.Env = testEnv()
			d, err := c.Execute(context.Background(), mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`))
			if !errors.Is(err, hook.ErrNotStarted) {
				t.Fatalf("err = %v, want ErrNotStarted", err)
			}
			if d.Block {
				t.Error("a launch failure blocked")
			}
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("err = %v, want it to contain %q", err, tt.errHas)
			}
		})
	}
}

// TestCommandLaunchOK: commands the checks must let through.
func TestCommandLaunchOK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cmd string
	}{
		{"existing python script", "python3 ok.py"},
		{"python code flag", "python3 -c 'print(1)'"},
		{"python module", "python3 -m json.tool ok.json"},
		{"sh code flag", "sh -ec 'true'"},
		{"bash script without extension is not checked", "bash -o pipefail okscript"},
		{"builtin first", "exit 0"},
		{"cd then run", "cd . && sh ok.sh"},
		{"variable program", "$SHELL_X true; true"},
		{"function", "f() { :; }; f"},
		// A command that does not parse is a fault since issue 10.7: TestShellSyntaxErrorIsAFault.
		{"existing script in subdir via exec of relative path", "./ok.sh"},
		// Before issue 8 these were refused as missing scripts: the glob and ~ were taken
		// literally.
		{"glob script", "python3 *.py"},
		{"script under ~", "python3 ~/ok.py"},
		{"script under a variable", `python3 "$CLAUDE_PROJECT_DIR"/ok.py`},
		{"script after cd", `cd "$CLAUDE_PROJECT_DIR" && sh ./ok.sh`},
		{"script after cd to a subdir", `cd sub && python3 ../ok.py`},
		{"exec python3", `exec python3 "$CLAUDE_PROJECT_DIR"/ok.py`},
		{"env and timeout", `env A=1 timeout 5 python3 ok.py`},
		{"python3 -X value", "python3 -X utf8 ok.py"},
		// What a wrapper or an option does that is not modelled is not checked: these
		// run fine (or their script is not known here) and must not be refused.
		{"env -C", "env -C sub python3 ../ok.py"},
		{"env -S", `env -S "python3 ok.py"`},
		{"env -i", "env -i /bin/sh ok.sh"},
		{"command -v", "command -v no-such-program-hookcore || true"},
		{"sh -c with operands", `sh -c 'python3 "$1"/ok.py' sh "$CLAUDE_PROJECT_DIR"`},
		{"sh -c of a script that exists", `bash -c 'cd sub && python3 ../ok.py'`},
		{"perl -xDIR", "perl -xsub ../ok.pl"},
		{"bare wrapper", "nohup"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "ok.py"), []byte("print('ok')\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "ok.json"), []byte("{}\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "ok.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
			os.WriteFile(filepath.Join(dir, "okscript"), []byte("exit 0\n"), 0o644)
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			c := Command{Command: tt.cmd, Env: append(testEnv(), "HOME="+dir)}
			_, err := c.Execute(context.Background(), mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`))
			if errors.Is(err, hook.ErrNotStarted) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestDirectWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		want   []string
	}{
		{"/bin/true", []string{"/bin/true"}},
		{"  go  vet\t./... ", []string{"go", "vet", "./..."}},
		{"prettier --write src/a.tsx", []string{"prettier", "--write", "src/a.tsx"}},
		{"exit 2", nil},
		{"cd dir", nil},
		{"! true", nil},
		{"A=1 cmd", nil},
		{"cmd a=1", []string{"cmd", "a=1"}},
		{"echo $HOME", nil},
		{"echo 'a'", nil},
		{"ls *.go", nil},
		{"ls ~", nil},
		{"a; b", nil},
		{"a | b", nil},
		{"a > b", nil},
		{"a\nb", nil},
		{"a # comment", nil},
		{"a \\b", nil},
		{"", nil},
		{"   ", nil},
	}
	for _, tt := range tests {
		got, ok := directWords(tt.script)
		if ok != (tt.want != nil) {
			t.Errorf("directWords(%q) ok = %v", tt.script, ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("directWords(%q) (-want +got):\n%s", tt.script, diff)
		}
	}
}

func TestFirstCommand(t *testing.T) {
	t.Parallel()
	env := []string{"HOME=/home/u", "CLAUDE_PROJECT_DIR=/p r", "GLOB=*.py", "SPLIT=a b", "EMPTY="}
	tests := []struct {
		script string
		want   []string
		dir    string // "" for /work
	}{
		{script: "python3 hook.py --x; exit 2", want: []string{"python3", "hook.py", "--x"}},
		{script: `node "my dir/a.js" 'b c' d\ e`, want: []string{"node", "my dir/a.js", "b c", "d e"}},
		{script: `FOO=1 ruby x.rb > out`, want: []string{"ruby", "x.rb"}},
		// Issue 8 item 8: the script path built from a variable is the path python3 gets.
		{script: `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py`, want: []string{"python3", "/p r/.claude/hooks/guard.py"}},
		{script: `python3 ${CLAUDE_PROJECT_DIR}/h.py`, want: []string{"python3", "/p", "r/h.py"}},
		{script: `python3 "${MISSING:-/d}/h.py"`, want: []string{"python3", "/d/h.py"}},
		{script: `python3 "$X" y`, want: []string{"python3", "", "y"}},
		{script: `python3 $EMPTY y`, want: []string{"python3", "y"}},
		{script: `bash $SPLIT`, want: []string{"bash", "a", "b"}},
		{script: `python3 ~/.claude/h.py`, want: []string{"python3", "/home/u/.claude/h.py"}},
		// Words the shell would glob, or whose value needs running something, end the list.
		{script: `python3 hooks/*.py`, want: []string{"python3"}},
		{script: `python3 $GLOB`, want: []string{"python3"}},
		{script: `python3 "hooks/*.py"`, want: []string{"python3", "hooks/*.py"}},
		{script: `python3 "$(pwd)"/h.py`, want: []string{"python3"}},
		{script: `python3 <(echo x) h.py`, want: []string{"python3"}},
		{script: `bash <(curl -s x)`, want: []string{"bash"}},
		{script: `python3 "${X:=1}"`, want: []string{"python3"}},
		{script: `$(which python3) x.py`, want: nil},
		// Leading cd moves the directory.
		{script: `cd "$CLAUDE_PROJECT_DIR" && python3 h.py`, want: []string{"python3", "h.py"}, dir: "/p r"},
		{script: "cd sub; node a.js", want: []string{"node", "a.js"}, dir: "/work/sub"},
		{script: "cd && node a.js", want: nil},
		{script: "cd $(x) && node a.js", want: nil},
		{script: "true && node a.js", want: []string{"true"}},
		{script: `if true; then :; fi`, want: nil},
		{script: `echo 'unterminated`, want: nil},
	}
	for _, tt := range tests {
		got, dir, ok := firstCommand(tt.script, env, "/work")
		if ok != (tt.want != nil) {
			t.Errorf("firstCommand(%q) ok = %v", tt.script, ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("firstCommand(%q) (-want +got):\n%s", tt.script, diff)
		}
		wantDir := tt.dir
		if wantDir == "" {
			wantDir = "/work"
		}
		if ok && dir != wantDir {
			t.Errorf("firstCommand(%q) dir = %q, want %q", tt.script, dir, wantDir)
		}
	}
}

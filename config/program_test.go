package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLintProgram checks the warning for a command whose program is not in PATH, with a
// PATH of one directory holding an executable "tool", a non-executable "plain" and a
// directory "adir".
func TestLintProgram(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	write(t, bin, "tool", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(bin, "tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, bin, "plain", "")
	if err := os.Mkdir(filepath.Join(bin, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	long := "hookcore-no-such-long " + strings.Repeat("a ", 130<<10) // over shbound's 256 KiB, under the 512 KiB file cap
	path := write(t, dir, ".hookcore/hooks.yaml", `hooks:
  - id: missing
    event: stop
    action: {type: command, command: "hookcore-no-such-program-7f3a --fix $FILE_PATH"}
  - id: found
    event: stop
    action: {type: command, command: "tool -v; hookcore-not-first"}
  - id: wrapped
    event: stop
    action: {type: command, command: "FOO=1 env -i -u BAR BAZ=2 exec -a x hookcore-wrapped x"}
  - id: wrapped-found
    event: stop
    action: {type: command, command: "env FOO=1 tool"}
  - id: argv
    event: stop
    action: {type: command, args: [hookcore-argv, x]}
  - id: argv-found
    event: stop
    action: {type: command, args: [tool]}
  - id: not-executable
    event: stop
    action: {type: command, command: "plain"}
  - id: directory
    event: stop
    action: {type: command, command: "adir x"}
  - id: quoted
    event: stop
    action: {type: command, command: "'hookcore-quoted' x"}
  - id: long
    event: stop
    action: {type: command, command: "`+long+`"}
  - id: builtins
    event: stop
    action: {type: command, command: "exit 2"}
  - {id: echo, event: stop, action: {type: command, command: "echo hi >&2"}}
  - {id: "true", event: stop, action: {type: command, command: "true"}}
  - {id: block, event: stop, action: {type: command, command: "{ hookcore-in-block; }"}}
  - {id: subshell, event: stop, action: {type: command, command: "(hookcore-in-subshell)"}}
  - {id: if, event: stop, action: {type: command, command: "if hookcore-cond; then :; fi"}}
  - {id: test, event: stop, action: {type: command, command: "[[ -f x ]] || [ -f y ]"}}
  - {id: command, event: stop, action: {type: command, command: "command -v hookcore-cmd"}}
  - {id: source, event: stop, action: {type: command, command: ". ./env.sh; source x"}}
  - {id: variable, event: stop, action: {type: command, command: "$HOOK x"}}
  - {id: slash, event: stop, action: {type: command, command: "/bin/sh -c x"}}
  - {id: glob, event: stop, action: {type: command, command: "hook* x"}}
  - {id: home, event: stop, action: {type: command, command: "~/bin/x"}}
  - {id: script-name, event: stop, action: {type: command, command: "hook.py"}}
`)
	f, errs := ParseFile(path, Project)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, p := range Lint(f, LintOptions{Path: bin}) {
		if strings.Contains(p.Msg, "PATH") {
			got = append(got, strings.TrimPrefix(p.Error(), path))
		}
	}
	want := []string{
		`:2:5: missing: warning: program "hookcore-no-such-program-7f3a" not found in PATH`,
		`:8:5: wrapped: warning: program "hookcore-wrapped" not found in PATH`,
		`:14:5: argv: warning: program "hookcore-argv" not found in PATH`,
		`:20:5: not-executable: warning: program "plain" not found in PATH`,
		`:23:5: directory: warning: program "adir" not found in PATH`,
		`:26:5: quoted: warning: program "hookcore-quoted" not found in PATH`,
		`:29:5: long: warning: program "hookcore-no-such-long" not found in PATH`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
}

// TestLintProgramProcessPath checks the default PATH, the process's: sh is found.
func TestLintProgramProcessPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := write(t, dir, "hooks.yaml", `hooks:
  - {id: sh, event: stop, action: {type: command, command: "sh -c 'exit 2'"}}
  - {id: missing, event: stop, action: {type: command, command: "hookcore-no-such-program-7f3a"}}
`)
	f, errs := ParseFile(path, Project)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, p := range Lint(f, LintOptions{}) {
		got = append(got, p.HookID+": "+p.Msg)
	}
	want := []string{`missing: program "hookcore-no-such-program-7f3a" not found in PATH`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
}

package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Red team round 56: the attacks, each judged by the example's Bash conditions (changes
// hook_program with the program at ~/go/bin/hookcore, changes hook_config, changes
// ".git/hooks" and ".git/config"), and the lines that stay allowed.
func TestChangesRound56(t *testing.T) {
	t.Parallel()
	home, config := configHome(t)
	bin := filepath.Join(home, "go", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "hookcore")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	f, err := CompileIf(`args.command changes hook_program || args.command changes hook_config || args.command changes ".git/hooks" || args.command changes ".git/config"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cmd string
		want      bool
	}{
		// 1. A git after a cd takes the cd's directory as its work tree, as -C's.
		{"cd ~ && git checkout", "cd ~ && git init -q && git fetch -q /tmp/er && git checkout FETCH_HEAD -- .", true},
		{"cd ~ && git reset --hard", "cd ~ && git reset --hard evil", true},
		{"cd ~ && git pull", "cd ~ && git pull /tmp/er evil", true},
		{"cd ~ && git restore", "cd ~ && git restore --source evil .", true},
		{"cd ~ && git read-tree -u", "cd ~ && git read-tree -u -m evil", true},
		{"cd ~ && git checkout-index", "cd ~ && git checkout-index -a -f", true},
		{"cd ~/go && git checkout", "cd ~/go && git checkout evil -- .", true},
		{"cd HOMEDIR; git checkout", "cd HOMEDIR; git checkout evil -- .", true},
		{"env -C ~ git checkout", "env -C ~ git checkout evil -- .", true},
		{"cd ~ && git status", "cd ~ && git status && git log -1", false},
		{"cd /tmp && git checkout", "cd /tmp/x && git checkout main", false},
		{"git checkout in the project", "git checkout main && git pull", false},
		{"cd the project root && git pull", "cd HOMEDIR/proj && git pull", false},
		{"cd build && git checkout", "cd build && git checkout main -- .", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"command": strings.ReplaceAll(tc.cmd, "HOMEDIR", home)})
			s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home).WithHookConfig(config).WithProgram([]string{prog})
			if got := f.Match(s); got != tc.want {
				t.Errorf("%q = %v, want %v", tc.cmd, got, tc.want)
			}
		})
	}
}

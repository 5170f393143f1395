package command

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// TestShellSyntaxErrorIsAFault: a shell-form command that /bin/sh cannot parse exits 2,
// which the hook protocols read as a block; it is a hook fault instead (hook.ErrNotStarted,
// never a block), whatever the exit-code mapping (issue 10.7). A hook that prints "syntax
// error" and exits 2 on purpose, or that runs a nested shell that fails to parse, still
// blocks: only the command's own parse counts, as `sh -n` decides.
func TestShellSyntaxErrorIsAFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command string
		codes         map[int]ExitAction
		fault         bool
	}{
		{"unclosed if", `if [ -f x ]; then echo`, nil, true},
		{"unclosed paren", `echo $(ls`, nil, true},
		{"unclosed quote", `echo "rm -rf`, nil, true},
		{"unclosed arithmetic", `echo $((1+`, nil, true},
		{"dash only: process substitution", `cat <(ls)`, nil, true},
		{"s08 mapping", `fi`, map[int]ExitAction{1: ExitBlock, 2: ExitInject}, true},
		{"a real block that says syntax error", `echo "syntax error in your command" >&2; exit 2`, nil, false},
		{"nested shell fails to parse", `sh -c 'if' ; exit 2`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c := &Command{HookID: "g", Command: tt.command, Env: testEnv(), ExitCodes: tt.codes}
			d, err := c.Execute(context.Background(), mkInput(dir, "PreToolUse", "Bash", `{"command":"ls"}`))
			if tt.fault {
				if !errors.Is(err, hook.ErrNotStarted) || !strings.Contains(err.Error(), "the command does not parse") || d.Block {
					t.Errorf("decision %+v, err %v: want a does-not-parse fault, no block", d, err)
				}
				return
			}
			if err != nil || !d.Block {
				t.Errorf("decision %+v, err %v: want a block", d, err)
			}
		})
	}
}

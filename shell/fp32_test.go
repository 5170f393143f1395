package shell_test

import "testing"

// TestTmuxShellCommand: tmux's own -c runs its value with the default shell, as sh -c does
// (tmux(1)); it starts no terminal, so the line is analysed, not read as a program from
// stdin (a false positive, stop 32: `tmux -c ls` matched every rule). A -c after tmux's
// command is a start directory.
func TestTmuxShellCommand(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"tmux -c rm", `tmux -c 'rm -rf x'`, "rm"},
		{"tmux -uc rm", `tmux -uc 'rm -rf x'`, "rm"},
		{"tmux -L sock -c rm", `tmux -L sock -c 'rm -rf x'`, "rm"},
		{"tmux -c a shell on stdin", `tmux -c sh`, "all"},
		{"tmux -c a variable", `tmux -c "$X"`, "all"},
		{"tmux -c ls", `tmux -c ls`, "none"},
		{"tmux -c 'make test'", `tmux -c 'make test'`, "none"},
		{"tmux new -c DIR", `tmux new -d -c /tmp 'rm -rf x'`, "rm"},
		{"tmux alone", `tmux`, "all"},
		{"tmux -f conf", `tmux -f x.conf`, "all"},
	})
}

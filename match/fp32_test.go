package match

import "testing"

// Self-protect's false positives (stop 32): ordinary lines of a developer's agent that the
// stricter reading of red team rounds 54–56 blocked, each judged by the example's Bash
// conditions (checkRound), with the neighbouring attacks that stay blocked.
func TestChangesFalsePositives32(t *testing.T) {
	t.Parallel()
	checkRound(t, []roundRow{
		// 6. tmux's own -c is a shell command run here, not a start directory.
		{"tmux -c ls", "", "tmux -c ls", false},
		{`tmux -c "make test"`, "", `tmux -c "make test"`, false},
		{"tmux -c rm -rf the program", "", `tmux -c "rm -rf ~/go/bin"`, true},
		{"tmux -c cd && mv", "", `tmux -c "cd ~/go && mv bin x"`, true},
		{"tmux -L x new -c DIR", "", `tmux -L x new -d -c ~/go "mv bin x"`, true},
		{"tmux -u new -c DIR", "", `tmux -u new -c ~/go "mv bin x"`, true},
	})
}

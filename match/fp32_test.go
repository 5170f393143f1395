package match

import "testing"

// Self-protect's false positives (stop 32): ordinary lines of a developer's agent that the
// stricter reading of red team rounds 54–56 blocked, each judged by the example's Bash
// conditions (checkRound), with the neighbouring attacks that stay blocked.
func TestChangesFalsePositives32(t *testing.T) {
	t.Parallel()
	checkRound(t, []roundRow{
		// 4. A line that starts with `cd /ABS &&` runs the rest there when no protected path
		// is at, under or above it, as `tar -xf x -C /ABS` is judged.
		{"cd /var/tmp && tar xf", "", "cd /var/tmp && tar xf x.tar", false},
		{"cd /var/tmp && unzip", "", "cd /var/tmp && unzip -o x.zip", false},
		{"cd a directory above the home (the test home is in /tmp)", "", "cd /tmp && unzip -o x.zip", true},
		{"tar -C /var/tmp", "", "tar xf x.tar -C /var/tmp", false},
		{"cd HOME && tar xf", "", "cd HOMEDIR && tar xf x.tar", true},
		{"cd the project && tar xf", "", "cd HOMEDIR/proj && tar xf x.tar", true},
		{"cd ~/.claude && tar xf", "", "cd HOMEDIR/.claude && tar xf x.tar", true},
		{"cd / && tar xf", "", "cd / && tar xf x.tar", true},
		{"cd /var/tmp; tar xf (no &&)", "", "cd /var/tmp; tar xf x.tar", true},
		{"cd /var/tmp && cd back && tar", "", "cd /var/tmp && cd - && tar xf x.tar", true},
		{"cd /var/tmp/.. && tar xf", "", "cd /var/tmp/../.. && tar xf x.tar", true},
		{"cd a link to .claude by its absolute path", "", "cd HOMEDIR/proj/lnk && tar xf x.tar", true},
		{"cd /var/tmp && cp into the project", "", "cd /var/tmp && cp x HOMEDIR/proj/.claude/settings.json", true},

		// 6. tmux's own -c is a shell command run here, not a start directory.
		{"tmux -c ls", "", "tmux -c ls", false},
		{`tmux -c "make test"`, "", `tmux -c "make test"`, false},
		{"tmux -c rm -rf the program", "", `tmux -c "rm -rf ~/go/bin"`, true},
		{"tmux -c cd && mv", "", `tmux -c "cd ~/go && mv bin x"`, true},
		{"tmux -L x new -c DIR", "", `tmux -L x new -d -c ~/go "mv bin x"`, true},
		{"tmux -u new -c DIR", "", `tmux -u new -c ~/go "mv bin x"`, true},
	})
}

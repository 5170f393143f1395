package match

import (
	"testing"
)

// Red team round 55: the attacks, each judged by the example's Bash conditions (changes
// hook_program with the program at ~/go/bin/hookcore, changes hook_config, changes
// ".git/hooks" and ".git/config"), and the lines that stay allowed.
func TestChangesRound55(t *testing.T) {
	t.Parallel()
	checkRound(t, []roundRow{
		// 1. Wrappers that change the directory run their command as after a cd there.
		{"env -C ~ rm", "", "env -C ~ rm -rf go", true},
		{"env -C ~/go rm", "", "env -C ~/go rm -rf bin", true},
		{"env -C ~ mv", "", "env -C ~ mv go og", true},
		{"sudo -D ~ rm", "", "sudo -D ~ rm -rf go", true},
		{"timeout env -C ~ rm", "", "timeout 5 env -C ~ rm -rf go", true},
		{"cd build && env -C .. tar", "", "cd build && env -C .. tar -xf /tmp/c.tar", true},
		{"env --chdir=", "", "env --chdir=HOMEDIR rm -rf go", true},
		{"env --chdir DIR", "", "env --chdir HOMEDIR/go rm -rf bin", true},
		{"env --chd abbreviated", "", "env --chd ~ rm -rf go", true},
		{"env -iC", "", "env -iC ~ rm -rf go", true},
		{"env -S with -C", "", `env -S "-C HOMEDIR" rm -rf go`, true},
		{"sudo --chdir=", "", "sudo --chdir=HOMEDIR rm -rf go", true},
		{"sudo -u root -D", "", "sudo -u root -D ~ rm -rf go", true},
		{"nice env -C", "", "nice -n 5 env -C ~ rm -rf go", true},
		{"nohup sudo -D", "", "nohup sudo -D ~ rm -rf go", true},
		{"env -C into .claude and tar", "", "env -C .claude tar xf /tmp/x.tar", true},
		{"env -C ~ cp into .claude", "", "env -C ~ cp /tmp/x .claude/settings.json", true},
		{"unshare --wd", "", "unshare --wd ~ rm -rf go", true},
		{"unshare -w", "", "unshare -w ~ rm -rf go", true},
		{"chroot", "", "chroot / rm -rf HOMEDIR/go", true},
		{"chroot relative", "", "chroot /tmp/r rm -rf go", true},
		{"sudo -R", "", "sudo -R /tmp/r rm -rf go", true},
		{"systemd-run --working-directory=", "", "systemd-run --working-directory=HOMEDIR rm -rf go", true},
		{"systemd-run --working-directory DIR", "", "systemd-run -q --working-directory HOMEDIR rm -rf go", true},
		{"bwrap --chdir", "", "bwrap --bind / / --chdir HOMEDIR rm -rf go", true},
		{"systemd-run in /tmp", "", "systemd-run --working-directory=/tmp rm -rf go", false},
		{"sudo -i", "", "sudo -i -u USER rm -rf go", true},
		{"su - -c", "", `su - USER -c "rm -rf go"`, true},
		{"su -l -c", "", `su -l USER -c "rm -rf go"`, true},
		{"runuser -l", "", `runuser -l USER -c "rm -rf go"`, true},
		{"su -c", "", `su USER -c "rm -rf out"`, false},
		{"xargs -I env -C", "", "echo ~ | xargs -I% env -C % rm -rf go", true},
		{"xargs -I sudo -D", "", "echo ~ | xargs -I{} sudo -D {} rm -rf go", true},
		{"env -C a variable", "", "env -C $D rm -rf go", true},
		{"env -C .. from a subdirectory of the project", "", "env -C .. tar xf /tmp/x.tar", true},
		// The line's directories are one set (as `cd build; tar xf x`): the call's own too.
		{"env -C build tar", "", "env -C build tar -xf /tmp/x.tar", true},
		{"env -C build rm", "", "env -C build rm -rf out", false},
		{"sudo -D /tmp rm", "", "sudo -D /tmp rm -rf go", false},
		{"env -C /tmp mv", "", "env -C /tmp mv go og", false},
		{"env -u X rm", "", "env -u X rm -rf go", false},
		{"timeout rm", "", "timeout 5 rm -rf go", false},
		{"unshare -r rm", "", "unshare -r rm -rf out", false},

		// 2. More extractors: each extracts into the working directory or its -d/-o/--dir.
		{"jar xf", "", "jar xf /tmp/evil.zip", true},
		{"jar -x -f", "", "jar -x -f /tmp/evil.zip", true},
		{"jar --extract --file --dir", "", "jar --extract --file /tmp/evil.zip --dir HOMEDIR", true},
		{"jar -C", "", "jar -xf /tmp/evil.zip -C ~", true},
		{"jar xvf in the home", "", "jar xvf /tmp/evil.zip -C ~/.claude", true},
		{"7z x -o", "", "7z x /tmp/e.7z -oHOMEDIR", true},
		{"7za x in the project", "", "7za x /tmp/e.7z", true},
		{"7z with a switch first", "", "7z -y x /tmp/e.7z -o.claude", true},
		{"7zr x -spf", "", "7zr x -spf /tmp/e.7z -o/tmp/x", true},
		{"bsdtar -x", "", "bsdtar -xf /tmp/e.tar -C ~", true},
		{"unar", "", "unar /tmp/e.zip", true},
		{"unar -o", "", "unar -o ~ /tmp/e.zip", true},
		{"unrar x DIR", "", "unrar x /tmp/e.rar ~/", true},
		{"unrar x in the project", "", "unrar x /tmp/e.rar", true},
		{"ar x", "", "ar x /tmp/e.a", true},
		{"ar x --output", "", "ar x --output ~/go/bin /tmp/e.a", true},
		{"cabextract -d", "", "cabextract -d ~ /tmp/e.cab", true},
		{"gem unpack --target", "", "gem unpack x --target HOMEDIR", true},
		{"busybox unzip", "", "busybox unzip /tmp/e.zip -d ~", true},
		{"busybox tar", "", "busybox tar -xf /tmp/e.tar -C ~", true},
		{"busybox cpio", "", "busybox cpio -i --no-absolute-filenames < /tmp/e.cpio", true},
		{"jar xf in a subdirectory", "", "cd build && jar xf /tmp/x.jar", false},
		{"jar cf", "", "jar cf out.jar -C build .", false},
		{"jar tf", "", "jar tf /tmp/x.jar", false},
		{"7z l", "", "7z l /tmp/e.7z", false},
		{"7z x into /tmp", "", "7z x /tmp/e.7z -o/tmp/out", false},
		{"unar -o /tmp", "", "unar -o /tmp/out /tmp/e.zip", false},
		{"unrar l", "", "unrar l /tmp/e.rar", false},
		{"ar t", "", "ar t /tmp/e.a", false},
		{"ar rcs", "", "ar rcs libx.a a.o b.o", false},
		{"cabextract -l", "", "cabextract -l /tmp/e.cab", false},
		{"cabextract -d /tmp", "", "cabextract -d /tmp/out /tmp/e.cab", false},
		{"gem unpack into /tmp", "", "gem unpack x --target=/tmp/gems", false},

		// 3. git init --separate-git-dir moves the repository's .git where nothing protects it.
		{"git init --separate-git-dir", "", "git init --separate-git-dir /tmp/g", true},
		{"git init --separate-git-dir=", "", "git init --separate-git-dir=/tmp/g", true},
		{"git init --sep abbreviated", "", "git init --sep /tmp/g", true},
		{"git -C ~/proj init --separate-git-dir", "", "git -C HOMEDIR/proj init -q --separate-git-dir /tmp/g", true},
		{"git clone --separate-git-dir", "", "git clone --separate-git-dir=/tmp/g https://x/y z", true},
		{"git init", "", "git init -q", false},
		{"git worktree add", "", "git worktree add ../wt main", false},
		{"git init --shared", "", "git init --shared=group", false},
		{"git clone", "", "git clone --single-branch https://x/y z", false},

		// 4. printf and echo -e of literal words: judged by the text they print.
		{"cp to a printf's path", "", "cp x $(printf '%s/.%s/%s%s' ~ claude sett ings.json)", true},
		{"printf | xargs cp", "", `printf '%s/.%s/%s%s\n' ~ claude sett ings.json | xargs cp x`, true},
		{"cp to a printf's path, hex", "", `cp x "$(printf '%s/\x2ecl\x61ude/settings.json' ~)"`, true},
		{"cp to an echo -e's path, octal", "", "cp x `echo -e ~/'\\056claude/settings.json'`", true},
		{"printf -v", "", `printf -v d '%s/.claude' ~; echo "$d" | xargs rm -rf`, true},
		{"echo -e | xargs rm", "", `echo -e '\x2fHOMEDIR/g\0157' | xargs rm -rf`, true},
		{"printf %b", "", `printf '%b' 'HOMEDIR/\x67o' | xargs rm -rf`, true},
		{"printf %c", "", `printf '%s/%c%c' ~ g o | xargs rm -rf`, true},
		{"printf of a build path | xargs rm", "", "printf '%s\n' build/a build/b | xargs rm -f", false},
		{"cp to a printf's /tmp path", "", "cp x $(printf '/tmp/%s' out)", false},
	})
}

// TestPrinted evaluates printf and echo on words of known value (red team round 55).
func TestPrinted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		words []string
		want  string
		ok    bool
	}{
		{[]string{"printf", "%s/.%s/%s%s", "~", "claude", "sett", "ings.json"}, "~/.claude/settings.json", true},
		{[]string{"printf", `%s\n`, "a", "b"}, "a\nb\n", true},
		{[]string{"printf", `\x2e\0141\142%%`}, ".\f1b%", true}, // bash: \014, then 1
		{[]string{"printf", "%b|%c|%.2s", `x\0101\x42`, "yes", "abc"}, "xAB|y|ab", true},
		{[]string{"printf", "%5s-%d", "a", "7"}, "a-7", true},
		{[]string{"printf", `a\cb`}, "a", true},
		{[]string{"echo", "-e", `\x2fa\0142\143`}, `/ab\143`, true},
		{[]string{"echo", `\x2f`}, `\x2f`, true},
		{[]string{"echo", "-n", "a", "b"}, "a b", true},
		{[]string{"printf", "-v", "x", "%s", "a"}, "", false},
		{[]string{"printf", "%s", "$HOME"}, "~", true}, // red team round 56
		{[]string{"echo", "-e", `${PWD}/.mcp\x2ejson`}, "./.mcp.json", true},
		{[]string{"printf", "%s", "$HOMEDIR"}, "", false},
		{[]string{"printf", "%s", "$X/a"}, "", false},
		{[]string{"cat", "x"}, "", false},
	} {
		got, ok := printed(tc.words)
		if got != tc.want || ok != tc.ok {
			t.Errorf("printed(%q) = %q, %v, want %q, %v", tc.words, got, ok, tc.want, tc.ok)
		}
	}
	if got, ok := substPrinted(`cp x "$(printf '%s/.c%s' ~ laude)" y`); !ok || got != `cp x "~/.claude" y` {
		t.Errorf("substPrinted = %q, %v", got, ok)
	}
}

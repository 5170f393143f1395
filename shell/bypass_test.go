package shell_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/match"
)

// TestBashRuleBypass checks commands found to run rm while slipping past a Bash(rm *) guard:
// shell options around -c, shells reading their script from stdin, wrappers, trap actions
// and aliases. Each must match Bash(rm *), either because the rm is found ("rm": the
// unrelated rule Bash(git push *) does not match) or because the command can not be
// analysed ("all": every Bash rule matches, the hook runs and decides). "none" cases are
// near misses that must match neither rule.
func TestBashRuleBypass(t *testing.T) {
	t.Parallel()
	const (
		rm   = "rm"
		all  = "all"
		none = "none"
	)
	tests := []struct{ name, command, want string }{
		// 1. Shell options around -c.
		{"bash -o posix -c", `bash -o posix -c 'rm -rf X'`, rm},
		{"bash -O extglob -c", `bash -O extglob -c 'rm -rf X'`, rm},
		{"bash +O -c", `bash +O extglob -c 'rm -rf X'`, rm},
		{"bash --rcfile", `bash --rcfile /dev/null -c 'rm -rf X'`, rm},
		{"bash --init-file", `bash --init-file /dev/null -c 'rm -rf X'`, rm},
		{"bash --norc --noprofile", `bash --norc --noprofile -c 'rm -rf X'`, rm},
		{"bash -c --", `bash -c -- 'rm -rf X'`, rm},
		{"sh -c --", `sh -c -- 'rm -rf X'`, rm},
		{"sh -ec", `sh -ec 'rm -rf X'`, rm},
		{"bash -xc", `bash -xc 'rm -rf X'`, rm},
		{"bash -eo pipefail -c", `bash -eo pipefail -c 'rm -rf X'`, rm},
		{"zsh -o -c", `zsh -o shwordsplit -c 'rm -rf X'`, rm},
		{"ksh +o -c", `ksh +o emacs -c 'rm -rf X'`, rm},
		{"dash -c", `dash -c 'rm -rf X'`, rm},
		{"busybox sh -c", `busybox sh -c 'rm -rf X'`, rm},
		{"shell option not static", `bash $F 'rm -rf X'`, all},
		{"-c script not static", `bash -c "$(echo rm -rf X)"`, all},
		{"-c with no script", `bash -c`, none},
		{"script file", `bash -x script.sh rm`, none},
		{"-c mention", `bash -o posix -c 'echo rm'`, none},
		// 2. A shell reading its script from stdin.
		{"quoted heredoc", "bash <<'EOF'\nrm -rf X\nEOF", rm},
		{"heredoc", "bash <<EOF\nrm -rf X\nEOF", rm},
		{"heredoc escapes", "bash <<EOF\necho \\$HOME; r\\m -rf X\nEOF", rm},
		{"dash heredoc", "bash <<-EOF\n\trm -rf X\n\tEOF", rm},
		{"heredoc expansion", "bash <<EOF\nrm -rf $X\nEOF", all},
		{"heredoc mention", "bash <<'EOF'\necho rm\nEOF", none},
		{"here-string", `bash <<< 'rm -rf X'`, rm},
		{"here-string fd 0", `sh 0<<< 'rm -rf X'`, rm},
		{"here-string not static", `bash <<< "$S"`, all},
		{"sh -s file", `sh -s < script.sh`, all},
		{"pipe to sh", `echo 'rm -rf X' | sh`, all},
		{"pipe to bash -s", `cat s | bash -s -- arg`, all},
		{"bash -s", `bash -s`, all},
		{"bash alone", `bash`, all},
		{"stdin from process substitution", `bash < <(echo rm -rf X)`, all},
		{"last stdin redirection wins", `bash <<< 'ls' < script.sh`, all},
		{"source process substitution", `source <(echo rm -rf X)`, all},
		{"dot dev stdin here-string", `. /dev/stdin <<< 'rm -rf X'`, rm},
		{"dot dev stdin pipe", `echo 'rm -rf X' | . /dev/stdin`, all},
		{"bash dev stdin", `bash /dev/stdin <<< 'rm -rf X'`, rm},
		{"bash fd", `bash /dev/fd/3 3<<< 'rm -rf X'`, all},
		{"sudo -s here-string", `sudo -s <<< 'rm -rf X'`, rm},
		{"sudo -i here-string", `sudo -i <<< 'rm -rf X'`, rm},
		{"inner shell reads outer stdin", `bash -c 'sh' <<< 'rm -rf X'`, all},
		{"source file", `. ./env.sh && source ~/.bashrc`, none},
		// 3. Wrappers.
		{"env -S", `env -S 'rm -rf X'`, rm},
		{"env --split-string=", `env --split-string='rm -rf X'`, rm},
		{"env --split-string", `env --split-string 'rm -rf X'`, rm},
		{"env -S attached", `env -S"rm -rf X"`, rm},
		{"env -iS", `env -iS 'FOO=1 rm -rf X'`, rm},
		{"env -S quotes", `env -S "r'm' \"-rf\" X"`, rm},
		{"env -S then args", `env -S 'rm -rf' X`, rm},
		{"env -S variable", `env -S '${CMD} -rf X'`, all},
		{"env -S mention", `env -S 'echo rm -rf X'`, none},
		{"sudo -iu", `sudo -iu root rm -rf X`, rm},
		{"sudo -uroot", `sudo -uroot rm -rf X`, rm},
		{"sudo assignment", `sudo FOO=1 rm -rf X`, rm},
		{"sudo -s command", `sudo -s rm -rf X`, rm},
		{"sudo -l", `sudo -l`, none},
		{"doas", `doas -u root rm -rf X`, rm},
		{"pkexec", `pkexec --user root rm -rf X`, rm},
		{"su -c", `su -c 'rm -rf X'`, rm},
		{"su root -c", `su root -c 'rm -rf X'`, rm},
		{"su - root -c", `su - root -c 'rm -rf X'`, rm},
		{"su --command=", `su -l root --command='rm -rf X'`, rm},
		{"su here-string", `su root <<< 'rm -rf X'`, rm},
		{"su mention", `su -c 'echo rm' root`, none},
		{"runuser -c", `runuser -l root -c 'rm -rf X'`, rm},
		{"runuser -u", `runuser -u nobody -- rm -rf X`, rm},
		{"script -c", `script -c 'rm -rf X'`, rm},
		{"script -qc", `script -qc 'rm -rf X' /dev/null`, rm},
		{"script here-string", `script -q /dev/null <<< 'rm -rf X'`, rm},
		{"script mention", `script -qc 'echo rm' /dev/null`, none},
		{"flock", `flock /tmp/l rm -rf X`, rm},
		{"flock -w", `flock -w 5 /tmp/l rm -rf X`, rm},
		{"flock -c first", `flock -c 'rm -rf X' /tmp/l`, rm},
		{"flock FILE -c", `flock /tmp/l -c 'rm -rf X'`, rm},
		{"flock mention", `flock /tmp/l echo rm`, none},
		{"setsid", `setsid -f -w -c rm -rf X`, rm},
		{"ionice", `ionice -c 3 rm -rf X`, rm},
		{"ionice attached", `ionice -c2 -n7 -t rm -rf X`, rm},
		{"chrt", `chrt -f 10 rm -rf X`, rm},
		{"taskset", `taskset 0x1 rm -rf X`, rm},
		{"taskset -c", `taskset -c 0-3 rm -rf X`, rm},
		{"unshare", `unshare -r --propagation private -m rm -rf X`, rm},
		{"unshare shell", `unshare -r <<< 'rm -rf X'`, rm},
		{"strace", `strace -f -e trace=file -o /tmp/t -s 100 rm -rf X`, rm},
		{"nohup", `nohup rm -rf X &`, rm},
		{"nice", `nice rm -rf X`, rm},
		{"nice -n attached", `nice -n5 rm -rf X`, rm},
		{"timeout", `timeout --signal=KILL 5 rm -rf X`, rm},
		{"busybox", `busybox rm -rf X`, rm},
		{"watch string", `watch -n 1 'rm -rf X'`, rm},
		{"watch words", `watch rm -rf X`, rm},
		{"watch joins into a script", `watch echo 'a;' rm -rf X`, rm},
		{"watch -x", `watch -x rm -rf X`, rm},
		{"watch mention", `watch -n 1 'echo rm'`, none},
		{"chroot", `chroot --userspec=1:1 / rm -rf X`, rm},
		{"chroot shell", `chroot / <<< 'rm -rf X'`, rm},
		{"nsenter", `nsenter -t 1 -m rm -rf X`, rm},
		{"nsenter long", `nsenter --target 1 --mount -- rm -rf X`, rm},
		{"parallel", `parallel rm ::: X`, rm},
		{"parallel -j", `parallel -j 2 rm -rf ::: X Y`, rm},
		{"parallel commands as arguments", `parallel ::: 'rm -rf X'`, all},
		{"parallel commands on stdin", `echo 'rm -rf X' | parallel`, all},
		{"parallel mention", `parallel echo ::: rm`, none},
		{"xargs sh -c no script", `echo 'rm -rf X' | xargs sh -c`, all},
		{"xargs env", `echo rm -rf X | xargs env`, all},
		{"xargs sh -c script", `xargs -n1 sh -c 'echo "$0"'`, all},
		{"xargs -I name", `echo rm | xargs -I CMD CMD -rf X`, all},
		{"xargs rm", `xargs -0 rm -f`, rm},
		{"find -exec sh -c braces", `find . -exec sh -c 'echo {}' \;`, all},
		{"find -exec sh -c", `find . -exec sh -c 'rm "$1"' _ {} \;`, rm},
		{"wrapper chain", `sudo -iu root nice -n 5 ionice -c3 timeout 9 env -S 'rm -rf X'`, rm},
		{"unknown wrapper", `mywrap rm -rf X`, none},
		{"wrapper option not static", `sudo -$X ls bash -c 'git push'`, all},
		{"wrapper option argument not static", `sudo -u "$U" rm -rf X`, rm},
		// 4. Code strings.
		{"trap", `trap 'rm -rf X' EXIT`, rm},
		{"trap --", `trap -- 'rm -rf X' EXIT INT`, rm},
		{"trap not static", `trap "$A" EXIT`, all},
		{"trap reset", `trap - EXIT`, none},
		{"trap mention", `trap 'echo rm' EXIT`, none},
		{"alias", `alias x='rm -rf'; x X`, rm},
		{"alias newline", "alias x='rm -rf'\nx X", rm},
		{"alias eval", `alias e=eval; e 'rm -rf X'`, rm},
		{"alias sh", `alias x=bash; x -c 'rm -rf X'`, rm},
		{"alias trailing blank", `alias s='sudo ' r=rm; s r -rf X`, rm},
		{"alias used before definition", `trap 'x -rf X' EXIT; alias x=rm`, rm},
		{"alias defined twice", `alias x=ls; alias x=rm; x -rf X`, all},
		{"alias compound", `alias x='cd /; rm'; x -rf X`, all},
		{"alias not static", `alias x="$V"; x`, all},
		{"alias harmless", `alias ll='ls -l'; ll rm`, none},
		{"alias self", `alias ls='ls --color'; ls rm`, none},
		{"eval", `eval 'rm -rf X'`, rm},
	}
	rules := map[string]*match.If{}
	for _, r := range []string{"Bash(rm *)", "Bash(git push *)"} {
		f, err := match.CompileIf(r)
		if err != nil {
			t.Fatal(err)
		}
		rules[r] = f
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			s := match.NewSubject("PreToolUse", "Bash", args)
			want := map[string]bool{"Bash(rm *)": tt.want != none, "Bash(git push *)": tt.want == all}
			for r, f := range rules {
				if got := f.Match(s); got != want[r] {
					t.Errorf("%s on %q = %v, want %v (%s)", r, tt.command, got, want[r], tt.want)
				}
			}
			// Permit semantics: with every command allowed but rm (and git push), a line
			// that reaches rm, or cannot be analysed, is not allowed.
			if tt.want != none && match.AllowedBy(s, allowAllBut...) {
				t.Errorf("allow rules without rm permit %q (%s)", tt.command, tt.want)
			}
		})
	}
}

// allowAllBut allows, as a prefix rule, every command name of the bypass tables but rm.
var allowAllBut = func() []*match.If {
	var fs []*match.If
	for _, n := range strings.Fields("bash sh zsh ksh dash busybox sudo doas pkexec su runuser script flock setsid ionice " +
		"chrt taskset unshare strace nohup nice timeout watch chroot nsenter parallel xargs find env echo cat . source " +
		"trap alias eval x e s r mywrap ls git cd") {
		f, err := match.CompileIf("Bash(" + n + " *)")
		if err != nil {
			panic(err)
		}
		fs = append(fs, f)
	}
	return fs
}()

// TestBashRuleBypassPrecise checks rules more precise than Bash(rm *) on the expansions:
// the alias value is matched with the arguments that follow the alias.
func TestBashRuleBypassPrecise(t *testing.T) {
	t.Parallel()
	bash := func(name, expr, command string, want bool) ifCase {
		return ifCase{name, expr, "Bash", `{"command":` + jsonString(command) + `}`, want}
	}
	runIfCases(t, []ifCase{
		bash("alias args", "Bash(rm -rf *)", `alias x=rm; x -rf X`, true),
		bash("alias trailing blank args", "Bash(rm -rf *)", `alias s='sudo ' r=rm; s r -rf X`, true),
		bash("alias later", "Bash(rm -rf *)", `trap 'x -rf X' EXIT; alias x=rm`, true),
		bash("alias not used", "Bash(rm -rf *)", `alias x=rm; ls -rf X`, false),
		bash("env -S args", "Bash(rm -rf X)", `env -S 'rm -rf' X`, true),
		bash("watch joined", "Bash(rm -rf X)", `watch rm -rf X`, true),
		bash("heredoc second line", "Bash(git push *)", "bash <<'EOF'\ncd x\ngit push origin\nEOF", true),
	})
}

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
		{"unknown wrapper", `mywrap rm -rf X`, rm}, // red team, stop 20: bashtail.go
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
		{"alias harmless", `alias ll='ls -l'; ll src`, none},
		// With aliases off (bash -c), ll is a program that is not known to be inert.
		{"alias name as a program", `alias ll='ls -l'; ll rm`, rm},
		{"alias self", `alias ls='ls --color'; ls rm`, none},
		{"eval", `eval 'rm -rf X'`, rm},
		// 5. Single quotes inside a double-quoted ${...} or a here-document body are literal
		// characters in bash: what they hold is expanded (each form checked with bash 5.2).
		{"dq :- single quotes", `echo "${x:-'$(rm -rf X)'}"`, rm},
		{"dq - single quotes", `echo "${x-'$(rm -rf X)'}"`, rm},
		{"dq := single quotes", `echo "${x:='$(rm -rf X)'}"`, rm},
		{"dq = single quotes", `echo "${x='$(rm -rf X)'}"`, rm},
		{"dq :+ single quotes", `x=1; echo "${x:+'$(rm -rf X)'}"`, rm},
		{"dq + backquotes", "x=1; echo \"${x+'`rm -rf X`'}\"", rm},
		{"dq nested single quotes", `echo "${x:-${y:-'$(rm -rf X)'}}"`, rm},
		{"dq dollar single quotes", `echo "${x:-$'$(rm -rf X)'}"`, rm},
		{"dq single quotes around a double quote", `echo "${x:-'a"$(rm -rf X)"b'}"`, rm},
		{"dq single quotes in a list", `ls && echo "${x:-'$(rm -rf X)'}"`, rm},
		{"dq single quotes behind a wrapper", `sudo echo "${x:-'$(rm -rf X)'}"`, rm},
		{"dq single quotes in bash -c", `bash -c 'echo "${x:-'"'"'$(rm -rf X)'"'"'}"'`, rm},
		{"heredoc single quotes", "cat <<EOF\n${x:-'$(rm -rf X)'}\nEOF", rm},
		{"heredoc top-level single quotes", "cat <<EOF\n'$(rm -rf X)'\nEOF", rm},
		{"dq pattern operator", `x=a; echo "${x#'$(rm -rf X)'}"`, rm}, // bash 5.2 does not expand it: errs toward matching
		{"dq single quotes that do not parse", `echo "${x:-'$(rm -rf X'}"`, all},
		{"unquoted single quotes are quotes", `echo ${x:-'$(rm -rf X)'}`, none},
		{"dq single quotes inside a substitution are quotes", `echo "$(echo '$(rm -rf X)')"`, none},
		{"quoted heredoc", "cat <<'EOF'\n${x:-'$(rm -rf X)'}\nEOF", none},
		{"dq single quotes without expansion", `echo "${x:-'a b'}"`, none},
		// 7. Bytes the parser reads otherwise than bash (red team, round 2; checked with
		// bash 5.2): a comment ends at the newline even after a backslash, and a backslash
		// before CR keeps the CR, so the next line runs.
		{"comment ending in a backslash", "echo hi #\\\nrm -rf X", all},
		{"comment ending in a backslash after a word", "git status # \\\nrm -rf X", all},
		{"comment ending in a backslash in bash -c", "bash -c 'echo #\\\nrm -rf X'", all},
		{"backslash CR LF", "echo hi\\\r\nrm -rf X", all},
		{"backslash newline is a continuation", "echo hi \\\nrm -rf X", none},
		{"comment without a backslash", "echo hi # rm -rf X\nls", none},
		// git settings that a later git reads: from the environment, or written by git config.
		{"git config env parameters", `GIT_CONFIG_PARAMETERS="'alias.q=!rm -rf X'" git q`, all},
		{"git config env count", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='!rm -rf X' git q`, all},
		{"git config env export", `export GIT_CONFIG_COUNT=1; git q`, all},
		{"git config alias", `git config alias.st '!rm -rf X' && git st`, all},
		{"git config global alias", `git config --global alias.st '!rm -rf X'`, all},
		{"git config fsmonitor", `git config core.fsmonitor 'rm -rf X' && git status`, all},
		{"git config edit", `git config --edit`, all},
		{"git config not static", `git config $K v`, all},
		{"git config inert", `git config user.name rm`, none},
		{"git config read", `git config --get alias.st`, none},
		{"git config list", `git config --list`, none},
		// 6. A nameref without a literal target gets it from what the line assigns later,
		// and each use evaluates that name's subscript (each form checked with bash 5.2).
		{"nameref assigned", `declare -n r; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref -gn", `declare -gn r; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref --", `declare -n -- r; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref typeset", `typeset -n r; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref local", `f() { local -n r; r='a[$(rm -rf X)]'; : $r; }; f`, all},
		{"nameref second name", `declare -n r s; s='a[$(rm -rf X)]'; : $s`, all},
		{"nameref read", `declare -n r; read r <<< 'a[$(rm -rf X)]'; : $r`, all},
		{"nameref printf -v", `declare -n r; printf -v r %s 'a[$(rm -rf X)]'; : $r`, all},
		{"nameref for", `declare -n r; for r in 'a[$(rm -rf X)]'; do :; done; : $r`, all},
		{"nameref +=", `declare -n r; r+='a[$(rm -rf X)]'; : $r`, all},
		{"nameref export", `declare -n r; export r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref declare", `declare -n r; declare r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref :=", `declare -n r; : ${r:='a[$(rm -rf X)]'}; : $r`, all},
		{"nameref quoted name", `declare -n "r"; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref builtin", `builtin declare -n r; r='a[$(rm -rf X)]'; : $r`, all},
		{"nameref literal target", `declare -n r=x; x='a[$(rm -rf X)]'; : $r`, all}, // the value, read as code, does not parse: bash -c 'a[$(rm -rf X)]' runs rm (red team 6)
		{"nameref literal target, plain value", `declare -n r=x; x='a[1]'; : $r`, none},
		{"nameref listing", `declare -n`, none},
		{"export -n is no nameref", `export -n r`, none},
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
		"trap alias eval x e s r ls git cd") {
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
		// Literal-argument rules: a word whose value is not known may be what the rule names.
		bash("ansi-c quoted option", "Bash(rm -rf:*)", `rm $'-rf' build`, true),
		bash("ansi-c escapes", "Bash(rm -rf:*)", `rm $'\x2d\162f' build`, true),
		bash("locale quoted option", "Bash(rm -rf:*)", `rm $"-rf" x`, true),
		bash("brace expansion", "Bash(rm -rf:*)", `rm -r{f,} build`, true),
		bash("glob option", "Bash(rm -rf:*)", `rm -r? build`, true),
		bash("glob argument", "Bash(rm -rf:*)", `rm * build`, true),
		bash("variable option", "Bash(rm -rf:*)", `f=-rf; rm $f build`, true),
		bash("quoted variable option", "Bash(rm -rf:*)", `rm "$f" build`, true),
		bash("command substitution option", "Bash(rm -rf:*)", `rm $(printf -- -rf) build`, true),
		bash("positional parameters", "Bash(rm -rf:*)", `rm "$@"`, true),
		bash("vanishing word", "Bash(rm build)", `rm $f build`, true),
		bash("wrapper and ansi-c", "Bash(rm -rf:*)", `sudo rm $'-rf' x`, true),
		bash("ansi-c subcommand", "Bash(git push:*)", `git $'push' origin main`, true),
		bash("variable subcommand", "Bash(git push:*)", `p=push; git $p origin main`, true),
		bash("ansi-c command name", "Bash(rm -rf:*)", `$'\x72m' -rf x`, true),
		bash("xargs appends words", "Bash(rm -rf:*)", `echo -rf x | xargs rm`, true),
		bash("xargs behind an option", "Bash(rm -rf /:*)", `echo / | xargs rm -rf`, true),
		bash("find -exec file name", "Bash(rm -rf /tmp/x)", `find /tmp -name x -exec rm -rf {} \;`, true),
		bash("xargs -I marker", "Bash(rm -rf /:*)", `echo / | xargs -I R rm -rf R x`, true),
		bash("tilde", "Bash(rm -rf /home/*)", `rm -rf ~/important`, true),
		bash("tilde user", "Bash(rm -rf /root/*)", `rm -rf ~root/x`, true),
		bash("tilde as written", "Bash(rm -rf ~/*)", `rm -rf ~/important`, true),
		bash("quoted tilde is literal", "Bash(rm -rf /home/*)", `rm -rf '~/important'`, false),
		bash("known option stays known", "Bash(rm -rf:*)", `rm -i $f build`, false),
		bash("known subcommand stays known", "Bash(git push:*)", `git commit -m "$msg"`, false),
		bash("variable is no other command", "Bash(rm -rf:*)", `echo $f`, false),
		bash("variable does not extend the name", "Bash(lsof *)", `ls $f`, false),
		bash("escaped glob is literal", "Bash(rm -rf:*)", `rm -r\? build`, false),
		bash("quoted braces are literal", "Bash(rm -rf:*)", `rm '-r{f,}' build`, false),
		bash("plain option", "Bash(rm -rf:*)", `rm -r build`, false),
		// git's global options come before the subcommand.
		bash("git -C", "Bash(git push:*)", `git -C . push origin main`, true),
		bash("git -c", "Bash(git push:*)", `git -c user.email=a@b push`, true),
		bash("git --no-pager", "Bash(git push:*)", `git --no-pager push`, true),
		bash("git -P", "Bash(git push:*)", `git -P push`, true),
		bash("git --git-dir=", "Bash(git push:*)", `git --git-dir=.git push`, true),
		bash("git --git-dir", "Bash(git push:*)", `git --git-dir .git push`, true),
		bash("git --work-tree", "Bash(git push:*)", `git --work-tree=. --namespace ns push`, true),
		bash("git option chain", "Bash(git push:*)", `git -C a -c x=y --bare --literal-pathspecs -p push origin`, true),
		bash("git behind a wrapper", "Bash(git push:*)", `sudo git -C . push`, true),
		bash("git alias", "Bash(git push:*)", `git -c alias.p=push p`, true),
		bash("git alias runs a shell", "Bash(rm *)", `git -c alias.x='!rm -rf X' x`, true),
		bash("git pager runs a shell", "Bash(rm *)", `git -c core.pager='rm -rf X' log`, true),
		bash("git config-env", "Bash(rm *)", `git --config-env=core.editor=ED commit`, true),
		bash("git inert config", "Bash(rm *)", `git -c user.name=x -c color.ui=never log`, false),
		bash("git --exec-path=", "Bash(rm *)", `git --exec-path=/tmp/x status`, true),
		bash("git option value not static", "Bash(rm *)", `git -c "$kv" status`, true),
		bash("git -C other subcommand", "Bash(git push:*)", `git -C . status`, false),
		bash("git -c other subcommand", "Bash(git push:*)", `git -c user.name=x commit -m push`, false),
		bash("git --super-prefix with a word", "Bash(git push:*)", `git --super-prefix x push`, true),
		bash("git --super-prefix=", "Bash(git push:*)", `git --super-prefix=x push`, true),
		bash("git --shallow-file", "Bash(git push:*)", `git --shallow-file f push`, true),
		bash("git unknown option", "Bash(git push:*)", `git --frobnicate push`, false),
	})
}

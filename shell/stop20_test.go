package shell_test

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/match"
)

// denyCase is a command line and what deny rules must see in it: "rm" (Bash(rm *) and
// Bash(rm -rf *) match, Bash(git push *) does not), "all" (every rule matches) or "none"
// (no rule for rm matches: a near miss) or "any" (the rules for rm match; Bash(git push *)
// may or may not).
type denyCase struct{ name, command, want string }

// suffixAllow permits the commands the attack lines end in but not the programs that run
// them: no line of the tables may be permitted by it unless the line is a near miss.
var suffixAllow = func() []*match.If {
	var fs []*match.If
	for _, r := range []string{"Bash(rm *)", "Bash(git status)", "Bash(echo *)", "Bash(cat *)", "Bash(ls *)"} {
		f, err := match.CompileIf(r)
		if err != nil {
			panic(err)
		}
		fs = append(fs, f)
	}
	return fs
}()

func runDenyCases(t *testing.T, tests []denyCase) {
	t.Helper()
	rules := map[string]*match.If{}
	for _, r := range []string{"Bash(rm *)", "Bash(rm -rf *)", "Bash(git push *)"} {
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
			want := map[string]bool{
				"Bash(rm *)":       tt.want != "none",
				"Bash(rm -rf *)":   tt.want != "none",
				"Bash(git push *)": tt.want == "all",
			}
			for r, f := range rules {
				if tt.want == "any" && r == "Bash(git push *)" {
					continue
				}
				if got := f.Match(s); got != want[r] {
					t.Errorf("%s on %q = %v, want %v (%s)", r, tt.command, got, want[r], tt.want)
				}
			}
			if tt.want != "none" && match.AllowedBy(s, suffixAllow...) {
				t.Errorf("allow rules for what the program runs, not for the program, permit %q", tt.command)
			}
		})
	}
}

// TestBashUnknownWrappers: programs outside the wrapper table that run their arguments as
// a command (red team, stop 20, finding 1: the exact lines first), and options whose value
// is a command.
func TestBashUnknownWrappers(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"setpriv", `setpriv rm -rf x`, "rm"},
		{"prlimit", `prlimit rm -rf x`, "rm"},
		{"setarch", `setarch x86_64 rm -rf x`, "rm"},
		{"linux64", `linux64 rm -rf x`, "rm"},
		{"choom", `choom -n 0 -- rm -rf x`, "rm"},
		{"fakeroot", `fakeroot rm -rf x`, "rm"},
		{"valgrind", `valgrind -q rm -rf x`, "rm"},
		{"systemd-run", `systemd-run --user --wait rm -rf x`, "rm"},
		{"eatmydata", `eatmydata rm -rf x`, "rm"},
		{"rlwrap", `rlwrap rm -rf x`, "rm"},
		{"unbuffer", `unbuffer rm -rf x`, "rm"},
		{"firejail", `firejail --noprofile rm -rf x`, "rm"},
		{"bwrap", `bwrap --bind / / --dev /dev rm -rf x`, "rm"},
		{"numactl", `numactl --interleave=all rm -rf x`, "rm"},
		{"ssh-agent", `ssh-agent rm -rf x`, "rm"},
		{"dbus-run-session", `dbus-run-session -- rm -rf x`, "rm"},
		{"xvfb-run", `xvfb-run -a rm -rf x`, "rm"},
		{"chpst", `chpst -u nobody rm -rf x`, "rm"},
		{"ifne", `true | ifne rm -rf x`, "rm"},
		{"chronic", `chronic rm -rf x`, "rm"},
		{"lckdo", `lckdo /tmp/l rm -rf x`, "rm"},
		{"sem", `sem rm -rf x`, "rm"},
		{"dtach", `dtach -n /tmp/s rm -rf x`, "rm"},
		{"screen -dm", `screen -dm rm -rf x`, "rm"},
		{"tmux new -d string", `tmux new -d 'rm -rf x'`, "rm"},
		{"sg -c", `sg root -c 'rm -rf x'`, "rm"},
		{"pee", `echo | pee 'rm -rf x'`, "rm"},
		// Spellings around them.
		{"absolute rm", `setpriv /bin/rm -rf x`, "rm"},
		{"after a wrapper", `sudo setpriv rm -rf x`, "rm"},
		{"wrapper after it", `setpriv sudo -u root rm -rf x`, "rm"},
		{"shell after it", `setpriv bash -c 'rm -rf x'`, "rm"},
		{"two unknown programs", `fakeroot setpriv rm -rf x`, "rm"},
		{"in a list", `cd /tmp && prlimit --nofile=10 rm -rf x`, "rm"},
		{"in bash -c", `bash -c 'setpriv rm -rf x'`, "rm"},
		{"string with a list", `tmux new -d 'cd /; rm -rf x'`, "rm"},
		{"string with a nested wrapper", `pee 'setpriv rm -rf x'`, "rm"},
		{"double-quoted string with a variable", `tmux new -d "rm -rf $d"`, "rm"},
		{"unknown program under xargs", `echo rm -rf x | xargs setpriv`, "all"},
		{"variable set by the line", `c=rm; setpriv $c -rf x`, "rm"}, // its one value (stop 33, bashvalues.go)
		{"variable set by the line to a substitution", `c=$(printf rm); setpriv $c -rf x`, "all"},
		{"substitution", `setpriv $(printf rm) -rf x`, "all"},
		{"positional", `setpriv "$@"`, "all"},
		{"glob that may be rm", `setpriv /bin/r? -rf x`, "rm"},
		{"path from a variable, literal base", `setpriv "$HOME/bin/rm" -rf x`, "rm"},
		{"bash reading stdin", `echo 'rm -rf x' | setpriv bash`, "all"},
		{"too many words", `setpriv` + repeatWords(300) + ` rm -rf x`, "all"},
		// git subcommands that run a command.
		{"git rebase -x", `git rebase -x 'rm -rf x' HEAD~3`, "rm"},
		{"git rebase --exec=", `git rebase --exec='rm -rf x' HEAD~3`, "rm"},
		{"git bisect run", `git bisect run rm -rf x`, "rm"},
		{"git submodule foreach", `git submodule foreach 'rm -rf x'`, "rm"},
		{"git filter-branch", `git filter-branch --tree-filter 'rm -rf x' HEAD`, "rm"},
		{"git difftool -x", `git difftool -x 'rm -rf x'`, "rm"},
		{"git ls-remote --upload-pack", `git ls-remote --upload-pack='rm -rf x' h:x`, "rm"},
		{"git fetch --upload-pack", `git fetch --upload-pack 'rm -rf x' origin`, "rm"},
		{"git archive --exec", `git archive --remote=h:x --exec='rm -rf x' HEAD`, "rm"},
		{"git clone -u", `git clone -u 'rm -rf x' h:x`, "rm"},
		{"git grep -O", `git grep -O'rm -rf x' foo`, "rm"},
		{"git -C and bisect", `git -C . bisect run rm -rf x`, "rm"},
		// Options whose value is a command (docs/security.md: the cheap part of finding 6).
		{"tar --to-command=", `tar --to-command='rm -rf x' -xf a.tar`, "rm"},
		{"tar --checkpoint-action=exec=", `tar --checkpoint=1 --checkpoint-action=exec='rm -rf x' -cf a.tar .`, "rm"},
		{"tar -I", `tar -I 'rm -rf x' -cf a.tar .`, "rm"},
		{"rsync -e", `rsync -e 'rm -rf x' a h:b`, "rm"},
		{"rsync --rsh=", `rsync --rsh='rm -rf x' a h:b`, "rm"},
		{"ssh -o ProxyCommand=", `ssh -o ProxyCommand='rm -rf x' h`, "rm"},
		{"ssh -oProxyCommand=", `ssh '-oProxyCommand=rm -rf x' h`, "rm"},
		{"scp -S", `scp -S 'rm -rf x' a h:b`, "rm"},
		{"go test -exec", `go test -exec 'rm -rf x' ./...`, "rm"},
		{"make variable", `make CC='rm -rf x'`, "rm"},
		{"split --filter", `split --filter='rm -rf x' f`, "rm"},
		{"zip -TT", `zip -T -TT 'rm -rf x' a.zip f`, "rm"},
		{"sort --compress-program", `sort --compress-program='rm -rf x' f`, "rm"},
		{"rg --pre", `rg --pre 'rm -rf x' foo`, "rm"},
		{"man -P", `man -P 'rm -rf x' ls`, "rm"},
		{"vim -c bang", `vim -c '!rm -rf x' f`, "any"},
		{"gdb -ex shell", `gdb -batch -ex 'shell rm -rf x'`, "rm"},
		{"npm exec", `npm exec -- rm -rf x`, "rm"},
		{"npx", `npx rm -rf x`, "rm"},
		{"docker run", `docker run --rm -v /:/h img rm -rf /h/x`, "rm"},
		{"kubectl exec", `kubectl exec pod -- rm -rf x`, "rm"},
	})
}

// TestBashCommandsInVariables: commands passed in environment variables that a later
// program runs (red team, stop 20, finding 2: the exact lines first).
func TestBashCommandsInVariables(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"GIT_EDITOR", `GIT_EDITOR='rm -rf x' git commit`, "rm"},
		{"GIT_SSH_COMMAND", `GIT_SSH_COMMAND='rm -rf x' git ls-remote ssh://h/x`, "rm"},
		{"GIT_PAGER", `GIT_PAGER='rm -rf x' git log`, "rm"},
		{"PAGER", `PAGER='rm -rf x' man ls`, "rm"},
		{"MANPAGER", `MANPAGER='rm -rf x' man ls`, "rm"},
		{"EDITOR crontab", `EDITOR='rm -rf x' crontab -e`, "rm"},
		{"LESSOPEN pipe", `LESSOPEN='|rm -rf x %s' less f`, "rm"},
		{"LESSOPEN double pipe", `LESSOPEN='||rm -rf x %s' less f`, "rm"},
		{"VISUAL", `VISUAL='rm -rf x' git commit`, "rm"},
		{"SUDO_ASKPASS", `SUDO_ASKPASS='/bin/rm -rf x' sudo -A ls`, "rm"},
		{"a name no list has", `FROBNICATE_CMD='rm -rf x' frob`, "rm"},
		// Every way to assign.
		{"export", `export GIT_EDITOR='rm -rf x'; git commit`, "rm"},
		{"export later", `GIT_EDITOR='rm -rf x'; export GIT_EDITOR; git commit`, "rm"},
		{"declare -x", `declare -x GIT_PAGER='rm -rf x'; git log`, "rm"},
		{"declare", `declare GIT_PAGER='rm -rf x'`, "rm"},
		{"readonly", `readonly GIT_PAGER='rm -rf x'`, "rm"},
		{"local", `f() { local GIT_PAGER='rm -rf x'; git log; }; f`, "rm"},
		{"typeset", `typeset -x PAGER='rm -rf x'`, "rm"},
		{"builtin export", `builtin export PAGER='rm -rf x'`, "rm"},
		{"env", `env GIT_PAGER='rm -rf x' git log`, "rm"},
		{"env -i", `env -i GIT_PAGER='rm -rf x' git log`, "rm"},
		{"sudo", `sudo PAGER='rm -rf x' man ls`, "rm"},
		{"bare", `GIT_PAGER='rm -rf x'`, "rm"},
		{"append", `GIT_PAGER+='rm -rf x'`, "rm"},
		// Spellings of the value.
		{"ansi-c", `GIT_EDITOR=$'rm -rf x' git commit`, "rm"},
		{"split quotes", `GIT_EDITOR="r""m -rf x" git commit`, "rm"},
		{"variable in the value", `GIT_EDITOR="rm -rf $d" git commit`, "rm"},
		{"value with a list", `GIT_EDITOR='true; rm -rf x' git commit`, "rm"},
		{"value with a wrapper", `GIT_SSH_COMMAND='setpriv rm -rf x' git fetch`, "rm"},
		{"value with sh -c", `GIT_EDITOR="sh -c 'rm -rf x'" git commit`, "rm"},
		{"value in bash -c", `bash -c "GIT_EDITOR='rm -rf x' git commit"`, "rm"},
		{"value from a variable the line sets", `c=$(printf x); GIT_EDITOR=$c git commit`, "all"},
		{"value from a substitution", `GIT_EDITOR=$(printf x) git commit`, "all"},
		{"exported substitution", `x=$(printf x); export x; git commit`, "all"},
		{"set -a", `set -a; x=$(printf x); git commit`, "all"},
		{"set -o allexport", `set -o allexport; x=$(printf x); git commit`, "all"},
	})
}

// TestBashStop20NearMisses: what must match no rule for rm: inert programs given rm as
// data, quoted words that are not commands, and the common assignments.
func TestBashStop20NearMisses(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, c := range []string{
		`grep rm file`,
		`grep -r 'rm -rf' .`,
		`rg 'rm -rf' src`,
		`man rm`,
		`echo rm -rf x`,
		`printf '%s\n' 'rm -rf x'`,
		`git commit -m "rm -rf x"`,
		`git log --grep='rm -rf'`,
		`git show HEAD:rm`,
		`cat rm.txt`,
		`ls rm`,
		`sed -n '/rm -rf/p' f`,
		`awk '/rm -rf/ {print}' f`,
		`jq '.rm' f`,
		`which rm`,
		`find . -name rm`,
		`curl -d 'rm -rf x' http://h`,
		`tar czf a.tgz *.go`,
		`tar czf a.tgz --exclude=*.o src`,
		`python3 x.py "$f"`,
		`node x.js "$HOME/x"`,
		`make clean`,
		`npm test`,
		`go test ./... -run TestRm`,
		`docker rmi img`,
		`docker exec c ls`,
		`python3 -c 'print(1)'`,
		`FOO=1 make`,
		`CGO_ENABLED=0 go build ./...`,
		`export PATH="$HOME/go/bin:$PATH"; go version`,
		`GOFLAGS=-mod=mod go test ./...`,
		`NODE_ENV=production npm run build`,
		`x=$(git rev-parse HEAD); echo $x`,
		`GIT_EDITOR="$EDITOR" git commit`,
		`LANG=C sort f`,
		`export KUBECONFIG=$HOME/.kube/config`,
		`msg='remove the old files'; echo "$msg"`,
	} {
		tests = append(tests, denyCase{c, c, "none"})
	}
	runDenyCases(t, tests)
}

func repeatWords(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += " -v"
	}
	return s
}

// TestBashStop20Costs pins the false positives the fail-closed rules accept (docs/security.md,
// "Red team, stop 20"): the hook runs where a precise answer would not.
func TestBashStop20Costs(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"loop variable given to a program not known to be inert", `for f in *.c; do clang-format -i "$f"; done`, "all"},
		{"substitution in a prefix assignment", `VERSION=$(git describe) make release`, "all"},
		{"a shell reading stdin at the end", `docker exec -it c bash`, "all"},
		{"a glob that may name any file", `tar czf a.tgz *`, "all"}, // git, then push: any names
		{"prose in a string given to a program not known to be inert", `python3 notify.py 'please rm -rf the cache'`, "rm"},
		{"prose in a variable", `MSG='rm -rf is blocked'`, "rm"},
	})
}

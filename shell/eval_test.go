package shell_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/shell"
)

// generousAllow permits every command the cases below use except rm: an attack must still
// not be allowed (it reaches rm through an evaluating context), a near miss must be.
const generousAllow = "Bash(echo *) ; Bash(ls *) ; Bash(cat *) ; Bash(true *) ; Bash(printf *) ; Bash(read *) ; " +
	"Bash(declare *) ; Bash(typeset *) ; Bash(local *) ; Bash(export *) ; Bash(readonly *) ; Bash(test *) ; Bash([ *) ; " +
	"Bash(unset *) ; Bash(mapfile *) ; Bash(readarray *) ; Bash(complete *) ; Bash(compgen *) ; Bash(bind *) ; " +
	"Bash(hash *) ; Bash(alias *) ; Bash(enable *) ; Bash(fish *) ; Bash(csh *) ; Bash(tcsh *) ; Bash(yash *) ; " +
	"Bash(posh *) ; Bash(mksh *) ; Bash(ksh *) ; Bash(zsh *) ; Bash(busybox *) ; Bash(sh *) ; Bash(bash *) ; " +
	"Bash(env *) ; Bash(let *) ; Bash(builtin *) ; Bash(command *) ; Bash(getopts *) ; Bash(wait *) ; Bash(set *) ; " +
	"Bash(source *) ; Bash(. *) ; Bash(f *) ; Bash(fc *) ; Bash(sleep *) ; Bash(toybox *) ; Bash(sudo *) ; " +
	"Bash(x=*) ; Bash(a=*) ; Bash(n=*) ; Bash(i=*) ; Bash(r=*) ; Bash(PS0=*) ; Bash(PS1=*) ; Bash(PS2=*) ; " +
	"Bash(PS3=*) ; Bash(PS4=*) ; Bash(PROMPT_COMMAND=*) ; Bash(BASH_ENV=*) ; Bash(ENV=*) ; Bash(SHELLOPTS=*) ; " +
	"Bash(a[*) ; Bash(x) ; Bash(RANDOM=*) ; Bash(y=*) ; Bash(y+=*) ; Bash(SRANDOM=*) ; Bash(OPTIND=*) ; Bash(getopts *)"

// TestBashEvalContexts attacks Bash(rm *) through every context in which bash re-reads a
// string as code (issue 10 item 3), for deny semantics (the rule must match: "rm" found, or
// "all", the line cannot be analysed) and allow semantics (with every other command allowed,
// the line must not be). "none" cases are near misses: inert data, which deny must not match
// and allow must permit. docs/security.md counts these per surface.
func TestBashEvalContexts(t *testing.T) {
	t.Parallel()
	const (
		rm   = "rm"
		all  = "all"
		none = "none"
	)
	tests := []struct{ surface, command, want string }{
		// Arithmetic on a subscript.
		{"arith", `let 'a[$(rm -rf X)]=1'`, all},
		{"arith", `let "a[\$(rm -rf X)]=1"`, all},
		{"arith", "let 'a[`rm -rf X`]'", all},
		{"arith", `builtin let 'a[$(rm -rf X)]'`, all},
		{"arith", `command let 'a[$(rm -rf X)]'`, all},
		{"arith", `x='a[$(rm -rf X)]'; (( x ))`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo $(( x + 1 ))`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo $((x))`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo $(( $x ))`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo $[ x ]`, all},
		{"arith", `x='a[$(rm -rf X)]'; for ((i=0; i<x; i++)); do :; done`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo ${a[x]}`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo ${a[$x]}`, all},
		{"arith", `x='a[$(rm -rf X)]'; a[x]=1`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo ${s:x}`, all},
		{"arith", `x='a[$(rm -rf X)]'; echo ${s:0:x}`, all},
		{"arith", `x='a[$(rm -rf X)]'; [[ x -eq 1 ]]`, all},
		{"arith", `x='a[$(rm -rf X)]'; [[ 1 -lt $x ]]`, all},
		{"arith", `[[ 'a[$(rm -rf X)]' -eq 1 ]]`, all},
		{"arith", `x='a[$(rm -rf X)]'; declare -i y=x`, all},
		{"arith", `declare -i y='a[$(rm -rf X)]'`, all},
		{"arith", `read x; (( x ))`, all},
		{"arith", `read -r x < f; echo $((x))`, all},
		{"arith", `x=$(cat f); (( x ))`, all},
		{"arith", `mapfile a < f; (( a[0] ))`, all},
		{"arith", `for x in 'a[$(rm -rf X)]'; do (( x )); done`, all},
		{"arith", `f() { (( $1 )); }; f 'a[$(rm -rf X)]'`, all},
		{"arith", `set -- 'a[$(rm -rf X)]'; (( $1 ))`, all},
		{"arith", `bash -c '(( $1 ))' _ 'a[$(rm -rf X)]'`, all},
		{"arith", `: ${x:='a[$(rm -rf X)]'}; (( x ))`, all},
		{"arith", `x=(a 'a[$(rm -rf X)]'); (( x[1] ))`, all},
		{"arith", `(( $(cat f) ))`, all},
		{"arith", `echo $(( $(cat f) + 1 ))`, all},
		{"arith", `(( a[$(rm -rf X)] ))`, all},
		{"arith", `RANDOM='a[$(rm -rf X)]'`, all},
		{"arith", `x='a[$(rm -rf X)]'; SRANDOM=$x`, all},
		{"arith", `OPTIND='a[$(rm -rf X)]'; getopts a o`, all},
		{"arith", `export HISTCMD='a[$(rm -rf X)]'`, all},
		{"arith", `for RANDOM in 'a[$(rm -rf X)]'; do :; done`, all},
		{"arith", `declare -i y; read y`, all},
		{"arith", `x='a[$(rm -rf X)]'; y=1; declare -i y; y+=$x`, all},
		{"arith", `local -i y; for y in "$@"; do :; done; f() { :; }; f "$Q"`, all},
		{"arith", `RANDOM=42; declare -i n=5`, none},
		{"arith", `x=1; (( x + 1 ))`, none},
		{"arith", `for ((i=0; i<3; i++)); do echo $i; done`, none},
		{"arith", `echo $(( 1 + 2 ))`, none},
		{"arith", `let 'x = 1 + 2'`, none},
		{"arith", `x=5; echo ${a[x]} ${s:1:2}`, none},
		// Names: subscripts in names bash assigns or tests.
		{"name", `declare 'a[$(rm -rf X)]=1'`, all},
		{"name", `typeset 'a[$(rm -rf X)]=1'`, all},
		{"name", `local 'a[$(rm -rf X)]'`, all},
		{"name", `export 'a[$(rm -rf X)]=1'`, all},
		{"name", `readonly 'a[$(rm -rf X)]'`, all},
		{"name", `builtin declare 'a[$(rm -rf X)]=1'`, all},
		{"name", `declare "$N"`, all},
		{"name", `declare -n r='a[$(rm -rf X)]'; echo $r`, all},
		{"name", `declare -n r="$N"`, all},
		{"name", `printf -v 'a[$(rm -rf X)]' %s 1`, all},
		{"name", `printf -v "$N" %s 1`, all},
		{"name", `printf -v'a[$(rm -rf X)]' %s 1`, all},
		{"name", `printf -$O 'a[$(rm -rf X)]' %s 1`, all},
		{"name", `read -a'a[$(rm -rf X)]' <<< 1`, all},
		{"name", `wait -p'a[$(rm -rf X)]'`, all},
		{"name", `read 'a[$(rm -rf X)]' <<< 1`, all},
		{"name", `read -a "$N" <<< 1`, all},
		{"name", `mapfile 'a[$(rm -rf X)]' < f`, all},
		{"name", `test -v 'a[$(rm -rf X)]'`, all},
		{"name", `[ -v 'a[$(rm -rf X)]' ]`, all},
		{"name", `[[ -v 'a[$(rm -rf X)]' ]]`, all},
		{"name", `[[ -v $N ]]`, all},
		{"name", `unset 'a[$(rm -rf X)]'`, all},
		{"name", `unset -v "$N"`, all},
		{"name", `getopts ab 'a[$(rm -rf X)]'`, all},
		{"name", `wait -p 'a[$(rm -rf X)]'`, all},
		{"name", `x='a[$(rm -rf X)]'; echo ${!x}`, all},
		{"name", `read x; echo ${!x}`, all},
		{"name", `declare -a 'a=([$(rm -rf X)]=1)'`, all},
		{"name", `local -a 'a=([$(rm -rf X)]=1)'`, all},
		{"name", `declare -A 'm=([$(rm -rf X)]=1)'`, all},
		{"name", `a=1; declare -a a='([$(rm -rf X)]=1)'`, all},
		{"name", `declare -a a="$V"`, all},
		{"name", `declare x=1 y=2; export PATH`, none},
		{"name", `read -r line < f; echo "$line"`, none},
		{"name", `unset x y; test -v x`, none},
		{"name", `printf -v out %s hi; echo "$out"`, none},
		{"name", `echo ${!prefix*} ${!a[@]}`, none},
		// Startup and prompt code.
		{"startup", `BASH_ENV=/tmp/x bash -c ls`, all},
		{"startup", `BASH_ENV='$(rm -rf X)' bash -c true`, all},
		{"startup", `export BASH_ENV=./evil.sh; bash -c ls`, all},
		{"startup", `declare -x BASH_ENV=./evil.sh`, all},
		{"startup", `env BASH_ENV=./evil.sh bash -c ls`, all},
		{"startup", `ENV='$(rm -rf X)' sh -i`, all},
		{"startup", `env ENV=./evil.sh sh -i < /dev/null`, all},
		{"startup", `PROMPT_COMMAND='rm -rf X' bash -i`, all},
		{"startup", `PROMPT_COMMAND='rm -rf X' bash -i <<< ls`, rm},
		{"startup", `export PROMPT_COMMAND='rm -rf X'`, rm},
		{"startup", `PROMPT_COMMAND=(rm) bash -i`, all},
		{"startup", `PS4='$(rm -rf X)' bash -xc true`, all},
		{"startup", "PS4='`rm -rf X`' bash -xc true", all},
		{"startup", `PS1='\$(rm -rf X)' bash -i`, all},
		{"startup", `export PS0='$(rm -rf X)'`, all},
		{"startup", `PS2="$P" bash -i`, all},
		{"startup", `env PS4='$(rm -rf X)' SHELLOPTS=xtrace bash -c true`, all},
		{"startup", `env 'BASH_FUNC_ls%%=() { rm -rf X; }' bash -c ls`, all},
		{"startup", `env 'BASH_FUNC_ls%%=() ( rm -rf X )' bash -c ls`, all},
		{"startup", `bash --rcfile ./evil.sh -i`, all},
		{"startup", `bash --init-file ./evil.sh -i`, all},
		{"startup", `x='$(rm -rf X)'; echo ${x@P}`, all},
		{"startup", `read x; echo "${x@P}"`, all},
		{"startup", `read PS4 < f; set -x; ls`, all},
		{"startup", `read -r BASH_ENV < f; bash -c ls`, all},
		{"startup", `printf -v PROMPT_COMMAND %s "$C"`, all},
		{"startup", `mapfile -t PROMPT_COMMAND < f`, all},
		{"startup", `for PS4 in '$(rm -rf X)'; do set -x; ls; done`, all},
		{"startup", `PS4='+ ' bash -xc true`, none},
		{"startup", `unset BASH_ENV ENV; export PS4`, none},
		{"startup", `BASH_ENV= bash -c true`, none},
		{"startup", `bash --rcfile /dev/null -c true`, none},
		{"startup", `x=hi; echo ${x@Q} ${x@U}`, none},
		// Builtins that take code.
		{"builtin", `mapfile -C 'rm -rf X' -c 1 < f`, rm},
		{"builtin", `mapfile -C'rm -rf X' < f`, rm},
		{"builtin", `readarray -t -C 'rm -rf X' a < f`, rm},
		{"builtin", `mapfile -C "$CB" < f`, all},
		{"builtin", `compgen -C 'rm -rf X' x`, rm},
		{"builtin", `complete -C 'rm -rf X' ls`, rm},
		{"builtin", `complete -F rm ls`, rm},
		{"builtin", `compgen -W '$(rm -rf X)' x`, all},
		{"builtin", `bind -x '"\C-x": rm -rf X'`, all},
		{"builtin", `bind -m emacs -x '"\C-x": rm -rf X'`, all},
		{"builtin", `trap 'rm -rf X' EXIT`, rm},
		{"builtin", `fc -s ls`, all},
		{"builtin", `compgen -W 'a b c' a`, none},
		{"builtin", `mapfile -t a < f; echo "${a[@]}"`, none},
		// Name binding.
		{"binding", `hash -p /bin/rm ls; ls -rf X`, rm},
		{"binding", `hash -p /bin/rm ls; 'ls' -rf X`, rm},
		{"binding", `hash -p /bin/rm ls; command ls -rf X`, rm},
		{"binding", `hash -p "$P" ls; ls`, all},
		{"binding", `hash -rp /bin/rm ls; ls`, all},
		{"binding", `alias ls='rm -rf'; ls X`, rm},
		{"binding", `enable -f ./evil.so ls; ls`, all},
		{"binding", `enable -nf ./evil.so x`, all},
		{"binding", `hash -r; hash ls`, none},
		{"binding", `enable -n echo`, none},
		// Shells outside the table.
		{"shell", `fish -c 'rm -rf X'`, all},
		{"shell", `fish -c ls`, all},
		{"shell", `csh -c 'rm -rf X'`, all},
		{"shell", `tcsh -c 'rm -rf X'`, all},
		{"shell", `echo 'rm -rf X' | tcsh`, all},
		{"shell", `/usr/bin/fish`, all},
		{"shell", `yash -c 'rm -rf X'`, rm},
		{"shell", `posh -c 'rm -rf X'`, rm},
		{"shell", `mksh -c 'rm -rf X'`, rm},
		{"shell", `ksh93 -c 'rm -rf X'`, rm},
		{"shell", `lksh -c 'rm -rf X'`, rm},
		{"shell", `busybox sh -c 'rm -rf X'`, rm},
		{"shell", `busybox ash -c 'rm -rf X'`, rm},
		{"shell", `busybox hush -c 'rm -rf X'`, rm},
		{"shell", `toybox sh -c 'rm -rf X'`, rm},
		{"shell", `zsh -c 'rm -rf X'`, rm},
		{"shell", `sudo yash -c 'rm -rf X'`, rm},
		{"shell", `yash -c 'echo rm'`, none},
		{"shell", `posh -c ls`, none},
		// Red team, second round: values that reach an evaluating context without being
		// assigned — a parameter expansion's operand, or a variable bash fills itself.
		{"operand", `echo $((${x:-'a[$(rm -rf X)]'}))`, all},
		{"operand", `echo $((${x-'a[$(rm -rf X)]'}))`, all},
		{"operand", `echo $((${x='a[$(rm -rf X)]'}))`, all},
		{"operand", `x=1; echo $((${x:+'a[$(rm -rf X)]'}))`, all},
		{"operand", `x=1; echo $((${x/*/'a[$(rm -rf X)]'}))`, all},
		{"operand", `[[ ${x:-'a[$(rm -rf X)]'} -eq 0 ]]`, all},
		{"operand", `echo $((${x:-0} + 1))`, none},
		{"derived", `: 'a[$(rm -rf X)]'; echo $(($_))`, all},
		{"derived", `: '$(rm -rf X)'; echo ${_@P}`, all},
		{"derived", `echo ${x:-'$(rm -rf X)'} >/dev/null; echo ${_@P}`, all},
		{"derived", `[[ 'a[$(rm -rf X)]' =~ .* ]]; echo $((BASH_REMATCH))`, all},
		{"derived", `[[ 'a[$(rm -rf X)]' =~ .* ]]; echo ${BASH_REMATCH@P}`, all},
		{"derived", `alias v='a[$(rm -rf X)]'; echo $((BASH_ALIASES[v]))`, all},
		{"derived", `cd 'a[$(cd ..;rm -rf Y)]' && [[ ${PWD##*/} -eq 0 ]]`, all},
		{"derived", `echo ${PWD@P}`, all},
		{"derived", `cd '$(x)'; cd ..; echo ${OLDPWD@P}`, all},
		{"derived", `trap 'echo ${PWD@P}' EXIT; cd '$(rm -rf X)'`, all},
		{"derived", `echo $(( $1 + 1 ))`, all},
		{"derived", `echo $PWD $_`, none},
	}
	deny, err := match.CompileIf("Bash(rm *)")
	if err != nil {
		t.Fatal(err)
	}
	other, err := match.CompileIf("Bash(git push *)")
	if err != nil {
		t.Fatal(err)
	}
	var allow []*match.If
	for _, src := range strings.Split(generousAllow, " ; ") {
		f, err := match.CompileIf(src)
		if err != nil {
			t.Fatal(src, err)
		}
		allow = append(allow, f)
	}
	for _, tt := range tests {
		t.Run(tt.surface+"/"+tt.command, func(t *testing.T) {
			t.Parallel()
			args, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			s := match.NewSubject("PreToolUse", "Bash", args)
			if got, want := deny.Match(s), tt.want != none; got != want {
				t.Errorf("deny Bash(rm *) on %q = %v, want %v (%s)", tt.command, got, want, tt.want)
			}
			if got, want := other.Match(s), tt.want == all; got != want {
				t.Errorf("deny Bash(git push *) on %q = %v, want %v (%s)", tt.command, got, want, tt.want)
			}
			if got, want := match.AllowedBy(s, allow...), tt.want == none; got != want {
				t.Errorf("allow (every command but rm) on %q = %v, want %v (%s)", tt.command, got, want, tt.want)
			}
		})
	}
}

// TestBashAllowNeverPermitsDenied combines attack fragments at random (fixed seed) with
// list operators and nesting (bash -c, eval, $(...), sudo sh -c, { }), and checks the
// property of issue 10 item 1: whatever Bash(rm *) matches, an allow list naming every
// command but rm does not permit.
func TestBashAllowNeverPermitsDenied(t *testing.T) {
	t.Parallel()
	frags := []string{`rm -rf X`, `ls`, `echo hi`, `x='a[$(rm -rf X)]'`, `(( x ))`, `let y=1`,
		`declare -a 'a=([$(rm -rf X)]=1)'`, `read x`, `echo $((x))`, `alias l=rm`, `l -rf X`,
		`hash -p /bin/rm ls`, `ls -rf X`, `PS4='$(rm -rf X)'`, `set -x`, `bash -c 'rm -rf X'`,
		`env BASH_ENV=f bash -c ls`, `eval 'rm -rf X'`, `trap 'rm -rf X' EXIT`, `mapfile -C 'rm -rf X' a < f`,
		`f() { (( $1 )); }`, `f 'a[$(rm -rf X)]'`, `cat f | sh`, `fish -c ls`, `sudo rm -rf X`, `x=1`,
		`for i in 1 2; do echo $i; done`, `printf -v 'a[$(rm -rf X)]' 1`, `[[ -v x ]]`, `echo ${!x}`}
	seps := []string{"; ", " && ", " | ", " || ", "\n", " & "}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	wraps := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return "bash -c " + quote(s) },
		func(s string) string { return "eval " + quote(s) },
		func(s string) string { return "echo $(" + s + ")" },
		func(s string) string { return "sudo sh -c " + quote(s) },
		func(s string) string { return "{ " + s + "; }" },
	}
	deny, err := match.CompileIf("Bash(rm *)")
	if err != nil {
		t.Fatal(err)
	}
	var allow []*match.If
	for _, src := range strings.Split(generousAllow, " ; ") {
		f, err := match.CompileIf(src)
		if err != nil {
			t.Fatal(err)
		}
		allow = append(allow, f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		c := frags[r.IntN(len(frags))]
		for n := r.IntN(4); n > 0; n-- {
			c += seps[r.IntN(len(seps))] + frags[r.IntN(len(frags))]
		}
		c = wraps[r.IntN(len(wraps))](c)
		args, err := json.Marshal(map[string]string{"command": c})
		if err != nil {
			t.Fatal(err)
		}
		s := match.NewSubject("PreToolUse", "Bash", args)
		if p := shell.Parse(c); p.MatchesAll() && !p.Opaque() {
			// Only a deny-only analysis failed closed (a value or an operand read as code on a
			// guess that does not parse: x='a[$(rm -rf X)]'; red team 6): allow rules are left
			// as the shared analysis says, by design (package doc).
			continue
		}
		if deny.Match(s) && match.AllowedBy(s, allow...) {
			t.Errorf("Bash(rm *) matches %q, yet the allow list without rm permits it", c)
		}
	}
}

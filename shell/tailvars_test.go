package shell_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/match"
)

// TestLineVariableValues: a command name read from a variable the line sets, where an
// unknown program's suffix may start, is analysed once per value when every value the
// line can give it is a known static word (stop 33, bashvalues.go), and fails closed
// otherwise.
func TestLineVariableValues(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// The false positives of the tails' reading before: the values run nothing.
		{"go test -run Test$x", `x=1; go test -run "Test$x"`, "none"},
		{"unquoted", `x=1; go test -run Test$x`, "none"},
		{"braces", `x=1; go test -run "Test${x}"`, "none"},
		{"for loop", `for i in 1 2 3; do go test -run "Test$i"; done`, "none"},
		{"for loop of a brace expansion", `for i in {1..3}; do go test -run "Test$i"; done`, "none"},
		{"npm run build:$pkg", `for pkg in api web; do npm run "build:$pkg"; done`, "none"},
		{"make, cargo, pytest", `x=1; make "$x"; x=1; cargo test "$x"; x=1; pytest -k "$x"`, "none"},
		{"export", `export X=1; go test -run "Test$X"`, "none"},
		{"declare", `declare x=1; go test "$x"`, "none"},
		{"local", `f() { local x=1; go test "$x"; }; f`, "none"},
		{"two variables", `x=1 y=2; go test "$x$y"`, "none"},
		{"nested loops", `for a in x y; do for b in 1 2; do go test -run "$a$b"; done; done`, "none"},
		{"in a subshell", `(x=1; go test "$x")`, "none"},
		{"reassigned after use", `x=1; go test "$x"; x=2`, "none"},
		{"empty and unquoted", `x=; go test $x ./...`, "none"},
		{"a value with '='", `x=a=b; go test "$x"`, "none"},
		{"a value set by a wrapper", `env x=1 go test "$x"`, "none"},
		{"not set by the line", `go test -run "Test$i"`, "none"},
		{"cd does not make PWD a command", `cd rm; go build "$PWD" -rf /`, "none"},
		{"a coprocess's descriptors", `x=1; coproc x { :; }; go test "$x"`, "none"},
		// Red team round 62: a value holding an expansion is expanded again by the program
		// it is given to (make's ${RM} is "rm -f", npm's npm_config_*): not a known value.
		{"make's own variable in a value", `x='${RM}r'; make -E "all: ; $x /tmp/v"`, "all"},
		{"make's variable in a loop value", `for c in '${RM}r'; do make -E "all: ; $c /tmp/v"; done`, "all"},
		{"make's $$ in a value", `for s in '$${RM:-rm}'; do make -E "all: ; $s -r /tmp/v"; done`, "all"},
		{"npm's config in a value", `x='${npm_config_foo}m'; npm exec -c "$x -rf /tmp/v" --foo=r`, "all"},
		{"make's RM in a recipe", `make -E 'all: ; ${RM}r /tmp/v'`, "all"},
		{"make's variable set by its own argument", `make --eval='all: ; ${Y}m -rf /tmp/v' Y=r`, "all"},
		{"make's $$ in a recipe", `make -E 'all: ; $${RM:-rm} -r /tmp/v'`, "all"},
		{"npm's config in a script", `npm exec -c '${npm_config_foo}m -rf /tmp/v' --foo=r`, "all"},
		{"an environment variable alone as an operand's value", `make PREFIX=$HOME install`, "none"},
		// Red team round 63: make's variable alone, appended to by -E; two in one word.
		{"make's RM appended to, then alone", `make -E 'RM += -r /tmp/v' -E 'all: ; ${RM}'`, "all"},
		{"two of make's variables in one word", `make -E 'A = r' -E 'B = m -rf /tmp/v' -E 'all: ; ${A}${B}'`, "all"},
		{"two of npm's in one word", `npm exec -c '${npm_config_tag}${npm_config_preid}' --tag=r --preid='m -rf /tmp/v'`, "all"},
		{"a variable and a letter", `make -E '${RM}r'`, "all"},
		{"a directory in a variable", `make -C "$DIR" test`, "none"},
		{"a path under a variable", `go build -o "$OUT/bin" .`, "none"},
		{"a braced path under a variable", `go build -o "${OUT}/bin" .`, "none"},
		{"an environment variable in a word", `go test -run "Test$i" ./...`, "none"},
		{"a backquote in a value", "x='`echo rm`'; make -E \"all: ; $x -r /tmp/v\"", "all"},

		// A value that is itself dangerous.
		{"x=rm", `x=rm; go build "$x" -rf /`, "rm"},
		{"loop value rm, make", `for c in ls rm; do make "$c" -rf /; done`, "rm"},
		{"loop value rm, arguments", `for c in ls rm; do go build "$c" -rf /; done`, "rm"},
		{"a command line as value", `x='rm -rf /'; go run . "$x"`, "any"},
		{"a command line as value, go build", `x='rm -rf /'; go build "$x"`, "any"},
		{"assignment and command as value", `x='a=1 rm -rf /'; go build "$x"`, "any"},
		{"option value with '='", `x='--exec=rm -rf /'; go build "$x"`, "any"},
		{"-exec in the value", `x='-exec rm -rf / ;'; go build "$x"`, "any"},
		{"a substitution in a static value", `x='$(rm -rf /)'; go build "$x"`, "any"},
		{"an escaped substitution", `x="\$(rm -rf /)"; go build "$x"`, "any"},
		{"ANSI-C value", `x=$'rm'; go build "$x" -rf /`, "rm"},
		{"quoted pieces", `x="r"'m'; go build "$x" -rf /`, "rm"},
		{"two variables make rm", `x=r; y=m; go build "$x$y" -rf /`, "rm"},
		{"nested loops make rm", `for a in r; do for b in m; do go build "$a$b" -rf /; done; done`, "rm"},
		{"prefix and value", `x=m; go build "r$x" -rf /`, "rm"},
		{"reassigned to rm after use", `x=1; go test "$x" -rf /; x=rm`, "rm"},
		{"assigned in a subshell", `(x=rm); x=1; go build "$x" -rf /`, "rm"},
		{"assigned in a nested shell", `x=1; sh -c 'x=rm'; go build "$x" -rf /`, "rm"},
		{"export rm", `export x=rm; go build "$x" -rf /`, "rm"},
		{"declare rm", `declare x=rm; go build "$x" -rf /`, "rm"},
		{"local rm", `f() { local x=rm; go build "$x" -rf /; }; f`, "rm"},
		{"an array element", `x=(1 rm); go build "$x" -rf /`, "rm"},
		{"a subscript", `x[1]=rm; x=1; go build "$x" -rf /`, "rm"},
		{"eval assigns", `x=1; eval 'x=rm'; go build "$x" -rf /`, "rm"},
		{"env assigns", `env x=rm go build "$x" -rf /`, "rm"},
		{"value is xargs", `x=xargs; go build "$x" rm -rf /`, "rm"},
		{"value is a path", `x=/bin/rm; go build "$x" -rf /`, "rm"},
		{"in an operand's script", `go build 'x=rm; $x -rf /'`, "rm"},
		{"after '=' in an operand", `x=rm; go build "--exec=$x -rf /"`, "rm"},
		{"go run . \"$x\": a file sourced", `x=1; go run . "$x"`, "all"},
		{"setpriv", `c=rm; setpriv "$c" -rf x`, "rm"},
		{"a trap assigns", `trap 'x=rm' DEBUG; x=1; go build "$x" -rf /`, "rm"},
		{"brace expanded items", `for x in {r,}m; do go build "$x" -rf /; done`, "rm"},
		{"a function assigns", `f() { x=rm; }; x=1; f; go build "$x" -rf /`, "rm"},
		{"reassigned between uses", `x=1; go test "$x" && x=rm && go build "$x" -rf /`, "rm"},
		{"literal after braces", `x=r; go build "${x}m" -rf /`, "rm"},
		{"a newline in the value", `x=$'rm\n-rf /'; go build "$x"`, "any"},
		{"PWD set to rm", `PWD=/bin/rm; go build "$PWD" -rf /`, "rm"},
		{"env -i", `env -i x=rm go build "$x" -rf /`, "rm"},
		{"sudo assigns", `sudo x=rm go build "$x" -rf /`, "rm"},
		{"the value is an option", `x=-rf; go build rm "$x" /`, "rm"},
		{"the value is -exec", `x=-exec; go build find . "$x" rm -rf / \;`, "any"},
		{"empty, then rm", `x=; go build $x rm -rf /`, "rm"},
		{"select", `select x in ls rm; do go build "$x" -rf /; done`, "rm"},

		// Values that are not known, or words bash splits: every deny rule matches.
		{"a command substitution", `x=$(cat f); go test "$x"`, "all"},
		{"read", `read x; go test "$x"`, "all"},
		{"read after a static value", `x=1; read x; go test "$x"`, "all"},
		{"source", `x=1; source f; go test "$x"`, "all"},
		{"printf -v", `x=1; printf -v x rm; go build "$x" -rf /`, "all"},
		{"mapfile", `x=1; mapfile x < f; go test "$x"`, "all"},
		{"getopts", `x=1; getopts a: x; go test "$x"`, "all"},
		{"getopts OPTARG", `getopts a: o -a rm; go build "$OPTARG" -rf /`, "all"},
		{"${x:=rm}", `x=1; : ${x:=rm}; go build "$x" -rf /`, "all"},
		{"append", `x=r; x+=m; go build "$x" -rf /`, "all"},
		{"append by declare's words", `x=r; command declare x+=m; go build "$x" -rf /`, "all"},
		{"subscript by declare's words", `x=1; command declare 'x[0]=rm'; go build "$x" -rf /`, "all"},
		{"declare -l", `declare -l x=RM; go build "$x" -rf /`, "all"},
		{"declare -l before", `declare -l x; x=RM; go build "$x" -rf /`, "all"},
		{"declare -u elsewhere", `typeset -u y; x=1; go build "$x"`, "all"},
		{"a nameref", `declare -n r=x; x=1; r=rm; go build "$x" -rf /`, "all"},
		{"arithmetic", `x=1; (( x = 5 )); go build "$x"`, "all"},
		{"let", `x=1; let x++; go build "$x"`, "all"},
		{"a tilde", `x=~/rm; go build "$x" -rf /`, "all"},
		{"a glob item", `for c in r?; do go build "$c" -rf /; done`, "all"},
		{"unquoted blank", `x='rm -rf /'; go build $x`, "any"},
		{"quoted glob value", `x='r*'; go build "$x"`, "all"}, // the operand's text "$x" read as code
		{"unquoted glob", `x='r*'; go build $x -rf /`, "all"},
		{"unquoted glob beside", `x=r; go build $x* -rf /`, "all"},
		{"IFS", `x=1; IFS=:; go build $x`, "all"},
		{"a variable of the environment beside", `x=1; go test "$x$y"`, "all"},
		{"here-string", `x=1; go test "$x" <<< 'rm -rf /'`, "all"},
		{"xargs", `x=1; echo a | xargs go test "$x"`, "all"},
		{"positional", `set -- rm; go build "$1" -rf /`, "all"},
		{"bash fills it", `go build "$_" -rf /`, "all"},
		{"IFS, quoted", `x=rm; IFS=:; go build "$x" -rf /`, "all"}, // the operand's text $x read as code
		{"a nested shell reads it", `x=rm; sh -c '$x -rf /'`, "all"},
		{"exported to a nested shell", `export x=rm; bash -c '"$x" -rf /'`, "all"},
		{"an alias assigns", `alias g='x=rm; go'; x=1; g build "$x" -rf /`, "all"},
		{"declare append", `x=r; declare x+=m; go build "$x" -rf /`, "all"},
		{"an element appended", `x=r; x[0]+=m; go build "$x" -rf /`, "all"},
		{"local -n in a function", `f() { local -n r=x; r=rm; }; x=1; f; go build "$x" -rf /`, "all"},
		{"command declare -n", `command declare -n r=x; x=1; r=rm; go build "$x" -rf /`, "all"},
		{"typeset -c", `typeset -c x=rM; go build "$x" -rf /`, "all"},
		{"while read", `while read -r x; do go build "$x" -rf /; done < f`, "all"},
		{"from another variable", `y=rm; x=$y; go build "$x" -rf /`, "all"},
		{"a tilde after ':'", `x=a:~/bin/rm; go build "$x" -rf /`, "all"},
		{"a tilde in a loop item", `for x in a ~rm; do go build "$x" -rf /; done`, "all"},
		{"piped to bash", `x=1; go test "$x" | bash`, "all"},

		// Red team: the value is a builtin that binds or defines (the settling then fails
		// closed), and more ways to set or change the variable.
		{"enable -f", `x=1; enable -f ./e.so e; e; go build "$x" -rf /`, "all"},
		{"${x=rm} in a word", `x=1; echo "${x=rm}"; go build "$x" -rf /`, "all"},
		{"value eval", `x=eval; go build "$x" 'rm -rf /'`, "rm"},
		{"value source, a stream", `x=source; go build "$x" /dev/stdin`, "all"}, // a file: TestTailSource
		{"value alias", `x=alias; go build "$x" ls=rm; ls -rf /`, "all"},
		{"value declare -n", `x=declare; go build "$x" -n r=y`, "all"},
		{"value read", `x=read; go build "$x" y`, "all"},
		{"value export", `x=export; go build "$x" y`, "all"},
		{"value set -a", `x=set; go build "$x" -a`, "all"},
		{"value hash", `x=hash; go build "$x" -p /bin/rm ls`, "all"},
		{"value trap", `x=trap; go build "$x" 'rm -rf /' EXIT`, "rm"},
		{"value sh -c", `x=sh; go build "$x" -c 'rm -rf /'`, "any"},
		{"value sudo", `x=sudo; go build "$x" rm -rf /`, "rm"},
		{"value find", `x=find; go build "$x" . -exec rm -rf / ';'`, "any"},
		{"unquoted index", `x=r; go build $x[m] -rf /`, "all"},
		{"dollar-single in the word", `x=r; go build "$x"$'m' -rf /`, "rm"},
		{"case conversion", `x=RM; go build "${x,,}" -rf /`, "all"},
		{"positional in value", `x='$1'; set -- rm; go build "$x" -rf /`, "any"},
		{"mapfile callback", `x=1; mapfile -C 'x=rm' -c 1 a < f; go build "$x" -rf /`, "rm"},
		{"printf -v attached", `x=1; printf -vx rm; go build "$x" -rf /`, "all"},
		{"wait -p", `x=1; wait -p x; go build "$x" -rf /`, "all"},
		{"read -a", `x=1; read -a x; go build "$x" -rf /`, "all"},
		{"declare -I", `x=1; f() { local -I x; }; go build "$x"`, "none"},
		{"more bytes than substituted", `x=` + strings.Repeat("a", 200<<10) + `; go test "$x" "$x" "$x" "$x" "$x" "$x"`, "all"},
		{"more values than kept", `for i in ` + seqWords(70) + `; do go test "$i"; done`, "all"},
		{"more combinations than tried", `for a in ` + seqWords(17) + `; do for b in ` + seqWords(17) + `; do go test "$a$b"; done; done`, "all"},
	})
}

// seqWords returns the words v1 to vN separated by blanks.
func seqWords(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			sb.WriteByte(' ')
		}
		sb.WriteString("v" + strconv.Itoa(i))
	}
	return sb.String()
}

// FuzzLineValues checks that a value a line assigns and an unknown program runs from a
// variable matches the rm guard whenever the same value written literally does: `x='V';
// go run . "$x" ARGS` against `go run . 'V' ARGS`, and the loop form.
func FuzzLineValues(f *testing.F) {
	for _, s := range [][2]string{{"rm", "-rf /"}, {"rm -rf /", ""}, {"$(rm -rf /)", ""}, {"a=1 rm", "x"},
		{"--exec=rm", ""}, {"@rm", "-rf x"}, {"1", "./..."}, {"xargs", "rm"}, {"/bin/rm", "-rf x"}} {
		f.Add(s[0], s[1])
	}
	rule, err := match.CompileIf("Bash(rm *)")
	if err != nil {
		f.Fatal(err)
	}
	matches := func(line string) bool {
		args, err := json.Marshal(map[string]string{"command": line})
		if err != nil {
			panic(err)
		}
		return rule.Match(match.NewSubject("PreToolUse", "Bash", args))
	}
	f.Fuzz(func(t *testing.T, value, args string) {
		if strings.ContainsAny(value, "'\x00") || strings.ContainsAny(args, "\x00") || len(value)+len(args) > 200 {
			return
		}
		literal := `go run . '` + value + `' ` + args
		if !matches(literal) {
			return
		}
		for _, line := range []string{
			`x='` + value + `'; go run . "$x" ` + args,
			`for x in a '` + value + `'; do go run . "$x" ` + args + `; done`,
		} {
			if !matches(line) {
				t.Errorf("%q matches Bash(rm *), %q does not", literal, line)
			}
		}
	})
}

package match

import (
	"strings"
	"testing"
)

// TestNamesRedTeam6: red team round 6, items 3 and 4, each line checked with bash 5.2 in a
// scratch directory holding .env, package-lock.json and npm-shrinkwrap.json (it read or
// wrote the file): a name taken from a value bash sets without an assignment (positional
// parameters, $_, BASH_REMATCH, OPTARG, FUNCNAME, $0 of bash -c, a read target), then
// trimmed; and the ordinary lines near them that must still pass.
func TestNamesRedTeam6(t *testing.T) {
	t.Parallel()
	const env, lock, shrink = ".env", "package-lock.json", "npm-shrinkwrap.json"
	cases := []nameCase{
		// 3: .env.
		{"set -- .envy; cat ${1%y}", env, true},
		{"set .envy; cat ${1%y}", env, true},
		{": .envy; cat ${_%y}", env, true},
		{"[[ .envy =~ (....). ]]; cat ${BASH_REMATCH[1]}", env, true},
		{"getopts a: o -a .envy; cat ${OPTARG%y}", env, true},
		{"f() { cat ${1%y}; }; f .envy", env, true},
		{"function .envy { cat ${FUNCNAME%y}; }; .envy", env, true},
		{"bash -c 'cat ${0%y}' .envy", env, true},
		{"read x < <(echo .envy); cat ${x%y}", env, true},
		{"set -- .envy; echo PWNED=1 >> ${1%y}", env, true},
		// 4: lock files.
		{": xpackage-lock.jsonx; truncate -s0 ${_:1:17}", lock, true},
		{"set -- xpackage-lock.jsonx; : > ${1:1:17}", lock, true},
		{"[[ xnpm-shrinkwrap.jsonx =~ x(n.*)x ]]; : > ${BASH_REMATCH[1]}", shrink, true},
		// The same class, other spellings.
		{"set -- X.env; cat ${1#X}", env, true},
		{"set -- .envy; x=${1%y}; cat $x", env, true},
		{"for f in .envy; do cat ${f%y}; done", env, true},
		{"getopts a: o -a.envy; cat ${OPTARG:0:4}", env, true},
		{"read -n 4 x < <(echo .envy); cat $x", env, true},
		{"mapfile -t < <(echo .envy); cat ${MAPFILE%y}", env, true},
		{"set -- .e nv; IFS=; cat \"$*\"", env, true},
		{"cd x.env && cat ${PWD##*/x}", env, true},
		{"f() { cat \"$1$2\"; }; IFS=; f .e nv", env, true},
		// Ordinary lines.
		{"cat README.md", env, false},
		{"set -- a b; echo $1", env, false},
		{"f() { echo $1; }; f x", env, false},
		{"for f in *.go; do gofmt -l \"$f\"; done", env, false},
		{"for f in src/*.go; do gofmt -l \"$f\"; done", env, false},
		{": ${HOME}", env, false},
		{"git add . && git commit -m env; echo $1", env, false},
		{"while read -r f; do echo \"$f\"; done < files.txt", env, false},
		{"[[ $v =~ ^v([0-9]+) ]] && echo ${BASH_REMATCH[1]}", env, false},
		{"set -- a b; npm install; echo $1", lock, false},
		{"for f in package.json tsconfig.json; do cat $f; done", lock, false},
	}
	checkNames(t, cases)
}

// TestNamesRedTeam6Budget: a line with many expansions of values bash sets costs each
// state once per line, not once per expansion: a long line stays within the budget.
func TestNamesRedTeam6Budget(t *testing.T) {
	t.Parallel()
	ns, err := compileName(".env")
	if err != nil {
		t.Fatal(err)
	}
	line := "set -- " + strings.Repeat("abc ", 500) + "; echo" + strings.Repeat(" ${1%x} $1 $_ ${@:2}", 500)
	if ns.in(line, false) {
		t.Error("a long line of positional expansions holds")
	}
}

package match

import (
	"strings"
	"testing"
)

// TestNamesRedTeam5: red team round 5, items 15 to 21, each line checked with bash 5.2 in
// a scratch directory holding .env and package-lock.json (it read or wrote the file), and
// the ordinary lines near them that must still pass.
func TestNamesRedTeam5(t *testing.T) {
	t.Parallel()
	const env, lock, dot = ".env", "package-lock.json", "dotglob"
	cases := []nameCase{
		// 15: decoding expansions and printf -v.
		{`x='\056env'; cat "${x@P}"`, env, true},
		{`x='\x2eenv'; cat "${x@E}"`, env, true},
		{`printf -v f '\x2eenv'; cat $f`, env, true},
		{`x='package-lock\056json'; : > "${x@P}"`, lock, true},
		{`x='package-lock\x2ejson'; : > "${x@E}"`, lock, true},
		{`printf -v f 'package-lock\x2ejson'; : > $f`, lock, true},
		{`read -r x <<< 'X.env'; cat ${x:1}`, env, true},
		{`a=b; cat ${!a}`, env, true},
		// 16: a value holding the name after a prefix, trimmed.
		{"x=X.env; cat ${x:1}", env, true},
		{"x=X.env; cat ${x#X}", env, true},
		{"x=X.env; cat ${x/X/}", env, true},
		{"x=.eXnv; cat ${x//X/}", env, true},
		{"IFS=X; x=X.env; cat $x", env, true},
		{"x=Xpackage-lock.json; : > ${x:1}", lock, true},
		{"x=X.env; y=$x; cat ${y:1}", env, true},
		{"declare x=X.env; cat ${x:1}", env, true},
		{"x=packXge-lock.json; : > ${x/X/a}", lock, true},
		// 17: dotglob with fewer than four bytes written.
		{"x=glob; shopt -s dot$x; cat *env", dot, true},
		{"x=Xdotglob; shopt -s ${x:1}; cat *env", dot, true},
		{`printf -v o "\x64otglob"; shopt -s $o; cat *env`, dot, true},
		{"shopt -s $(cat opts); cat *env", dot, true},
		{"shopt -s $(cat opts); cat *env", env, true},
		{"BASHOPTS=$o bash -c 'cat *env'", dot, true},
		// 18: an alias whose value ends in a backslash joins the next line.
		{"shopt -s expand_aliases\nalias x=\"cat .\\\\\"\nx\nenv", env, true},
		{"shopt -s expand_aliases\nalias x=\"truncate -s0 packa\\\\\"\nx\nge-lock.json", lock, true},
		// 19: history expansion.
		{"set -o history -H\n: X.env\ncat !$:s/X//", env, true},
		{"set -H\n: Xpackage-lock.json\ntruncate -s0 !$:s/X//", lock, true},
		// 20: $"..." translated by a catalog the line selects.
		{`LC_ALL=C.UTF-8 TEXTDOMAINDIR=loc TEXTDOMAIN=x; cat $"bar"`, env, true},
		// 21: a name split across variables or array elements.
		{"x=.en; y=v; cat $x$y", env, true},
		{`a=(. env); IFS=; cat "${a[*]}"`, env, true},
		{`a=(.e v); IFS=n; cat "${a[*]}"`, env, true},
		{"x=.e; x+=nv; cat $x", env, true},
		{"IFS=or; x=foo.envrc; cat $x", env, true},
		{"x=package-lo; y=ck.json; : > $x$y", lock, true},
		// Ordinary lines.
		{"cat README.md", env, false},
		{"x=1; echo $x", env, false},
		{"f=src/main.go; cat $f", env, false},
		{"f=src/main.go; cat ${f%.go}.o", env, false},
		{"f=src/main.go; cat ${f/src/lib}", env, false},
		{"f=src/main.go; cat ${f:4}", env, false},
		{"shopt -s extglob", dot, false},
		{"shopt -s nullglob; for f in *.go; do cat \"$f\"; done", env, false},
		{`echo $"hello"`, env, false},
		{"git commit -m 'fix {x}'", env, false},
		{"npm install", lock, false},
		{"npm install", env, false},
		{"alias ll='ls -l'; ll", env, false},
		{"set -e; echo done!", env, false},
		{"printf '%s\\n' \"$f\"", env, false},
		{"for f in src/*.go; do gofmt -l \"$f\"; done", env, false},
		{`a=(src/a.go src/b.go); cat "${a[@]}"`, env, false},
		{"x=$HOME/app; cd $x && cat package.json", lock, false},
		{"x=foo.envrc; cat $x", env, false},
		{"VERSION=$(git describe); echo $VERSION", env, false},
		{"ENV=prod; echo $ENV", env, false},
		{"dir=src; ls ${dir}/*.go", env, false},
	}
	checkNames(t, cases)
}

// TestNamesRedTeam5Budget: the items a line's variables make and visit are bounded by its
// length (workBudget); a line past it holds (fail closed) rather than costing more.
func TestNamesRedTeam5Budget(t *testing.T) {
	t.Parallel()
	ns, err := compileName(".env")
	if err != nil {
		t.Fatal(err)
	}
	long := "x=" + strings.Repeat("ab", 2000) + "; y=$x$x$x$x; z=$y$y$y$y; w=$z$z$z$z; echo"
	if !ns.in(long+strings.Repeat(" ${w:1}", 200), false) {
		t.Error("a line past the budget does not hold")
	}
	if ns.in("x="+strings.Repeat("ab", 2000)+"; echo ${x:1} $x ${x/a/b}", false) {
		t.Error("a line within the budget holds")
	}
}

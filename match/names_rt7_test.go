package match

import (
	"strings"
	"testing"
)

// TestNamesRedTeam7: red team round 7, a name made of values bash sets joined in an order
// other than the one the line writes them in (positional parameters, loop variables, a
// variable assigned from one of them); and the ordinary lines near them that must pass.
func TestNamesRedTeam7(t *testing.T) {
	t.Parallel()
	const env, lock = ".env", "package-lock.json"
	cases := []nameCase{
		{"set -- nv .e; echo pwned >> $2$1", env, true},
		{`set -- nv .e; cat "$2$1"`, env, true},
		{"set -- lock.json package-; truncate -s0 $2$1", lock, true},
		{"set -- nv .e; x=$2; cat $x$1", env, true},
		{"for a in nv; do for b in .e; do cat $b$a; done; done", env, true},
		{"set -- nv x .e; cat ${3}${1}", env, true},
		{"f() { cat $2$1; }; f nv .e", env, true},
		{"set -- nv .e; IFS=; cat \"${*}\"", env, true},
		{"IFS=.; set -- '' env; cat \"$*\"", env, true},
		// Ordinary lines.
		{"set -- a b; echo $2$1", env, false},
		{"for f in *.go; do echo $f; done", env, false},
		{"for a in x y; do for b in z; do echo $b$a; done; done", env, false},
		{"set -- json lock; echo $2.$1", lock, false},
	}
	checkNames(t, cases)
}

// TestNamesRedTeam7Budget: many concatenated expansions of values bash sets over a long
// pool stay within the work budget.
func TestNamesRedTeam7Budget(t *testing.T) {
	t.Parallel()
	ns, err := compileName(".env")
	if err != nil {
		t.Fatal(err)
	}
	line := "set -- " + strings.Repeat("abc ", 500) + "; echo" + strings.Repeat(" $2$1 ${3}$_", 500)
	if ns.in(line, false) {
		t.Error("a long line of concatenated positional expansions holds")
	}
}

// BenchmarkNamesSetParams: a long line of concatenated expansions of positional
// parameters over a pool of 500 words.
func BenchmarkNamesSetParams(b *testing.B) {
	ns, err := compileName(".env")
	if err != nil {
		b.Fatal(err)
	}
	line := "set -- " + strings.Repeat("abc ", 500) + "; echo" + strings.Repeat(" $2$1 ${3}$_", 500)
	b.ReportAllocs()
	for b.Loop() {
		if ns.in(line, false) {
			b.Fatal("match")
		}
	}
}

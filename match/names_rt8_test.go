package match

import (
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/shbound"
)

// TestNamesRedTeam8: red team round 8, variables bound by a default-value expansion
// (${x:=v}, ${x=v}) and IFS bound by such an expansion or as a for, select or read target;
// and the ordinary lines near them that must pass.
func TestNamesRedTeam8(t *testing.T) {
	t.Parallel()
	const env, lock, shrink = ".env", "package-lock.json", "npm-shrinkwrap.json"
	cases := []nameCase{
		{": ${x:=x.env}; cat ${x:1}", env, true},
		{": ${x:=x.env}; echo PWNED >> ${x:1}", env, true},
		{": ${p:=xpackage-lock.json}; echo > ${p:1}", lock, true},
		{": ${p:=xnpm-shrinkwrap.json}; : > ${p#x}", shrink, true},
		{": ${x=x.env}; cat ${x:1}", env, true},
		{"cat ${x:=X.env} 2>/dev/null; cat ${x#X}", env, true},
		{`cat "${x:=x.env}" 2>/dev/null; cat "${x#x}"`, env, true},
		{"x=x.env; : ${y:=$x}; cat ${y:1}", env, true},
		{"unset IFS; : ${IFS:=X}; x=X.env; cat $x", env, true},
		{"unset IFS; : ${IFS=X}; x=X.env; cat $x", env, true},
		{"for IFS in X; do x=X.env; cat $x; done", env, true},
		{"x=X.env; for IFS in X; do cat $x; done", env, true},
		{"x=Xpackage-lock.json; for IFS in X; do echo hi | tee $x; done", lock, true},
		{"x=X.env; select IFS in X; do cat $x; done", env, true},
		{"x=X.env; read IFS; cat $x", env, true},
		{"x=X.env; getopts X IFS; cat $x", env, true},
		// Ordinary lines.
		{": ${HOME:=/tmp}; ls", env, false},
		{"for f in a b; do echo $f; done", env, false},
		{": ${x:?unset}; echo ${x:1}", env, false},
		{": ${x:=abc}; echo ${x:1}", env, false},
	}
	checkNames(t, cases)
}

// TestNamesLongTextHolds: a text past the Bash parse limit holds without being read (the
// analysis's memory grew with the text: a 10 MB command took 2 GB, and a guard killed for
// its memory lets the call through under Claude Code). Allocation counts, not time.
func TestNamesLongTextHolds(t *testing.T) {
	ns, err := compileName(".env")
	if err != nil {
		t.Fatal(err)
	}
	long := "echo " + strings.Repeat("a", shbound.MaxLen)
	if !ns.in(long, false) {
		t.Fatal("a text past the parse limit does not hold")
	}
	if n := testing.AllocsPerRun(5, func() { ns.in(long, false) }); n > 0 {
		t.Errorf("%v allocations for a text past the limit, want none (it is not read)", n)
	}
	if ns.in("echo "+strings.Repeat("a", shbound.MaxLen-10), false) {
		t.Error("a plain text under the limit holds")
	}
}

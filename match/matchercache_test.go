package match

import (
	"fmt"
	"strings"
	"testing"
)

// TestMatcherCompiledOnce: a matcher source is compiled once per process (the same Matcher
// comes back, its error too), and a name list of more than maxLiterals names is not reduced
// to names for the index. 10 000 hooks under one 3 500-name matcher compiled it 20 000
// times and indexed each hook under every name: seconds and a gigabyte per hook event
// (stop 23, red team round 18).
func TestMatcherCompiledOnce(t *testing.T) {
	t.Parallel()
	var names []string
	for i := range maxLiterals + 1 {
		names = append(names, fmt.Sprintf("Tool%d", i))
	}
	src := strings.Join(names, "|")
	a, err := CompileMatcher(src)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompileMatcher(src)
	if a != b {
		t.Error("compiled twice")
	}
	if !a.Match("Tool64") || a.Match("Tool65") {
		t.Error("the cached matcher does not match as compiled")
	}
	if lits := a.Literals(); lits != nil {
		t.Errorf("%d literals for %d names, want none (not indexed)", len(lits), len(names))
	}
	if few, _ := CompileMatcher("Bash|Edit"); len(few.Literals()) != 2 {
		t.Errorf("Bash|Edit: literals %q", few.Literals())
	}
	_, e1 := CompileMatcher("/(/")
	_, e2 := CompileMatcher("/(/")
	if e1 == nil || e1 != e2 {
		t.Errorf("errors %v, %v: want the same error twice", e1, e2)
	}
}

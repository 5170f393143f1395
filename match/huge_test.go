package match

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// hugeDeadline bounds each huge-input match below. The bound is generous (the fixed code
// takes milliseconds): it turns a quadratic or exponential regression into a failure
// instead of a hung test run.
const hugeDeadline = 20 * time.Second

// matchWithin runs f.Match(s) and fails the test when it takes longer than hugeDeadline.
func matchWithin(t *testing.T, f *If, s *Subject) bool {
	t.Helper()
	done := make(chan bool, 1)
	go func() { done <- f.Match(s) }()
	select {
	case got := <-done:
		return got
	case <-time.After(hugeDeadline):
		t.Fatalf("%s: Match did not return within %v", f, hugeDeadline)
		return false
	}
}

func nest(open, mid, close string, n int) string {
	return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
}

// TestBashHugeCommand checks that commands the shell parser can not take safely (too deep,
// too long; they crashed the process with a fatal stack overflow) are not parsed and so
// match every Bash rule, and that huge chains the parser can take do not overflow the
// walk or grow quadratically.
func TestBashHugeCommand(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, command string }{
		{"200k parens", nest("(", "rm -rf /", ")", 200000)},
		{"200k command substitutions", "echo " + nest("$(", "rm -rf /", ")", 200000)},
		{"200k blocks", nest("{ ", "rm -rf /", "; }", 200000)},
		{"200k parameter expansions", "echo " + nest("${a:-", "x", "}", 200000)},
		{"deep if", nest("if ", "rm -rf /", "; then a; fi", 50000)},
		{"deep while", nest("while ", "rm -rf /", "; do a; done", 50000)},
		{"deep time", strings.Repeat("time ", 100000) + "rm -rf /"},
		{"deep test", "[[ " + strings.Repeat("a && ", 100000) + "a ]]; rm -rf /"},
		{"deep function", strings.Repeat("f() ", 100000) + "{ rm -rf /; }"},
		{"split keywords", nest("i\\\nf ", "rm -rf /", "; then a; fi", 50000)},
		{"too long", "rm -rf /; " + strings.Repeat("a ", 200<<10)},
		{"long pipeline", strings.Repeat("a|", 100000) + "rm -rf /"},
		{"long and list", strings.Repeat("a&&", 80000) + "rm -rf /"},
		{"long arithmetic", "echo $((" + strings.Repeat("1+", 100000) + "1)); rm -rf /"},
		{"many wrappers", strings.Repeat("sudo ", 40000) + "rm -rf /"},
		{"nested find -exec", strings.Repeat("find . -exec ", 15000) + "rm -rf / " + strings.Repeat(`\; `, 15000)},
	}
	rules := []string{"Bash(rm *)", "Bash(git push *)"} // the second matches only as "every rule"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			s := NewSubject("PreToolUse", "Bash", args)
			for _, r := range rules {
				f, err := CompileIf(r)
				if err != nil {
					t.Fatal(err)
				}
				if !matchWithin(t, f, s) {
					t.Errorf("%s did not match a command of %d bytes it can not analyse", r, len(tt.command))
				}
			}
		})
	}
}

// TestBashNestedWithinBound checks that the bound does not make ordinary nesting
// unanalysable: 50 nested subshells are still parsed.
func TestBashNestedWithinBound(t *testing.T) {
	t.Parallel()
	bash := func(name, expr, command string, want bool) ifCase {
		return ifCase{name, expr, "Bash", `{"command":` + jsonString(command) + `}`, want}
	}
	runIfCases(t, []ifCase{
		bash("50 subshells", "Bash(rm *)", nest("( ", "rm -rf /", " )", 50), true),
		bash("50 subshells other rule", "Bash(git push *)", nest("( ", "rm -rf /", " )", 50), false),
		bash("3 wrappers", "Bash(rm *)", "sudo nice -n 1 env A=1 rm x", true),
		bash("sh -c 4 deep", "Bash(rm *)", `sh -c "sh -c 'sh -c \"sh -c rm\"'"`, true),
		bash("sh -c 4 deep other rule", "Bash(git push *)", `sh -c "sh -c 'sh -c \"sh -c rm\"'"`, false),
		bash("find -exec 2 deep", "Bash(git push *)", `find . -exec find . -exec rm {} \; \;`, false),
		bash("find -exec 2 deep rm", "Bash(rm *)", `find . -exec find . -exec rm {} \; \;`, true),
	})
}

// TestPathRuleHugePath checks that a path rule stays linear in the path's length: it used
// to try the glob on every trailing part of the path, one match per '/'.
func TestPathRuleHugePath(t *testing.T) {
	t.Parallel()
	path := strings.Repeat("/a", 512<<10) + "/x.go"
	args, err := json.Marshal(map[string]string{"file_path": path})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSubject("PreToolUse", "Write", args)
	for _, tt := range []struct {
		rule string
		want bool
	}{
		{"Write(**/a/**/b/**/c/**/d)", false},
		{"Write(src/**/*.go)", false},
		{"Write(a/x.go)", true},
		{"Write(*.go)", true},
	} {
		f, err := CompileIf(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := matchWithin(t, f, s); got != tt.want {
			t.Errorf("%s on a %d-byte path = %v, want %v", tt.rule, len(path), got, tt.want)
		}
	}
}

package match

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// matchWithin runs f.Match(s).
func matchWithin(t *testing.T, f *If, s *Subject) bool {
	t.Helper()
	// No wall-clock bound (a loaded 2-core machine under -race took 20 s for the alias
	// copies): a hang fails at go test's -timeout, and the work is bounded by the parser's
	// and the walk's step limits, which the cases below reach.
	return f.Match(s)
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
		{"alias copies", "alias x='" + strings.Repeat("a ", 60000) + "'\n" + strings.Repeat("x;", 60000)},
		{"alias chain", "alias x='x '\n" + strings.Repeat("x ", 100000)},
		{"many env -S", "env" + strings.Repeat(" -S -i", 20000) + " rm -rf /"},
		{"many watch", strings.Repeat("watch ", 20000) + "rm -rf /"},
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
		bash("watch 4 deep", "Bash(git push *)", "watch watch watch watch rm", false),
		bash("watch 5 deep", "Bash(git push *)", "watch watch watch watch watch rm", true),
		bash("here-document 4 deep", "Bash(git push *)", nestHeredocs(4, "rm -rf /"), false),
		bash("here-document 4 deep rm", "Bash(rm *)", nestHeredocs(4, "rm -rf /"), true),
		bash("here-document 5 deep", "Bash(git push *)", nestHeredocs(5, "rm -rf /"), true),
		bash("trap 5 deep", "Bash(git push *)", "trap 'trap \"trap \\\"trap \\\\\\\"trap rm 0\\\\\\\" 0\\\" 0\" 0' 0", true),
		bash("alias 5 deep", "Bash(git push *)", "alias a=b b=c c=d d=e e=rm; a", true),
		bash("alias 4 deep", "Bash(git push *)", "alias a=b b=c c=rm; a", false),
	})
}

// nestHeredocs returns n bash commands each reading the next from a here-document, the
// innermost reading script.
func nestHeredocs(n int, script string) string {
	for i := 0; i < n; i++ {
		d := fmt.Sprintf("E%d", i)
		script = "bash <<'" + d + "'\n" + script + "\n" + d
	}
	return script
}

// TestBashLinear checks that huge commands the new nestings can analyse stay linear: a
// here-document read by many shells of one command (find's -exec actions) is parsed once,
// not once per shell; many here-string scripts; many trap actions.
func TestBashLinear(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command string
		rm            bool // Bash(rm *) matches; Bash(git push *) does not
	}{
		{"shared here-document", "find . " + strings.Repeat("-exec bash \\; ", 4000) + "<<'EOF'\n" + strings.Repeat("rm -rf /\n", 20000) + "EOF", true},
		{"many here-strings", strings.Repeat("bash <<< 'bash <<< x'\n", 10000), false},
		{"many traps", strings.Repeat("trap 'ls' 0\n", 20000) + "rm x", true},
		{"many aliases", strings.Repeat("alias a=ls\n", 20000) + "a x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			s := NewSubject("PreToolUse", "Bash", args)
			for rule, want := range map[string]bool{"Bash(rm *)": tt.rm, "Bash(git push *)": false} {
				f, err := CompileIf(rule)
				if err != nil {
					t.Fatal(err)
				}
				if got := matchWithin(t, f, s); got != want {
					t.Errorf("%s on %d bytes = %v, want %v", rule, len(tt.command), got, want)
				}
			}
		})
	}
}

package shbound

import (
	"errors"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func nest(open, mid, close string, n int) string {
	return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
}

// constructs are the ways to make the mvdan.cc/sh parser recurse once per level (each was
// seen to overflow a 16 MB stack at 50 000 levels), as functions of the level count.
var constructs = map[string]func(n int) string{
	"subshell":        func(n int) string { return nest("(", "a", ")", n) },
	"block":           func(n int) string { return nest("{ ", "a", "; }", n) },
	"command subst":   func(n int) string { return nest("$(", "a", ")", n) },
	"quoted subst":    func(n int) string { return nest(`"$(`, "a", `)"`, n) },
	"process subst":   func(n int) string { return "cat " + nest("<(cat ", "a", ")", n) },
	"parameter":       func(n int) string { return "echo " + nest("${a:-", "a", "}", n) },
	"slice":           func(n int) string { return "echo " + nest("${a:", "1", "}", n) },
	"array index":     func(n int) string { return "echo " + nest("${a[", "1", "]}", n) },
	"old arithmetic":  func(n int) string { return "echo " + nest("$[", "1", "]", n) },
	"arithmetic":      func(n int) string { return nest("((", "1", "))", n) },
	"arith parens":    func(n int) string { return "echo $((" + nest("(", "1", ")", n) + "))" },
	"array":           func(n int) string { return "a=(" + nest("$(", "a", ")", n) + ")" },
	"if":              func(n int) string { return nest("if ", "a", "; then a; fi", n) },
	"if body":         func(n int) string { return nest("if a; then ", "a", "; fi", n) },
	"while":           func(n int) string { return nest("while ", "a", "; do a; done", n) },
	"until":           func(n int) string { return nest("until ", "a", "; do a; done", n) },
	"for":             func(n int) string { return nest("for a in b; do ", "a", "; done", n) },
	"select":          func(n int) string { return nest("select a in b; do ", "a", "; done", n) },
	"case":            func(n int) string { return nest("case a in a) ", "a", ";; esac", n) },
	"time":            func(n int) string { return strings.Repeat("time ", n) + "a" },
	"coproc":          func(n int) string { return strings.Repeat("coproc ", n) + "a" },
	"function":        func(n int) string { return strings.Repeat("f() ", n) + "{ a; }" },
	"bash function":   func(n int) string { return nest("function f { ", "a", "; }", n) },
	"negated block":   func(n int) string { return nest("! { ", "a", "; }", n) },
	"test and":        func(n int) string { return "[[ " + strings.Repeat("a && ", n) + "a ]]" },
	"test or":         func(n int) string { return "[[ " + strings.Repeat("a || ", n) + "a ]]" },
	"test not":        func(n int) string { return "[[ " + strings.Repeat("! ", n) + "a ]]" },
	"test group":      func(n int) string { return "[[ " + nest("( ", "a", " )", n) + " ]]" },
	"continued if":    func(n int) string { return nest("i\\\nf ", "a", "; then a; fi", n) },
	"continued test":  func(n int) string { return "[\\\n[ " + strings.Repeat("a && ", n) + "a ]]" },
	"heredoc subst":   func(n int) string { return "cat <<E\n" + nest("$(", "a", ")", n) + "\nE" },
	"quoted keywords": func(n int) string { return "echo '" + strings.Repeat("if ", n) + "'" }, // over-estimated
}

// TestNestingOverEstimates checks that Nesting counts at least one per level of every
// construct, so that Check refuses each of them before the parser goes deeper than
// MaxNesting levels.
func TestNestingOverEstimates(t *testing.T) {
	t.Parallel()
	for name, gen := range constructs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, n := range []int{1, 7, MaxNesting + 1} {
				if got := Nesting(gen(n)); got < n {
					t.Errorf("Nesting(%d levels) = %d, want at least %d", n, got, n)
				}
			}
			if src := gen(MaxNesting + 1); !errors.Is(Check(src), ErrTooNested) {
				t.Errorf("Check(%d levels) = %v, want ErrTooNested", MaxNesting+1, Check(src))
			}
			// What Check lets through parses (it may be a syntax error, never a crash).
			for n := MaxNesting + 1; n > 0; n /= 2 {
				if src := gen(n); Check(src) == nil {
					_, _ = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
					break
				}
			}
		})
	}
}

// TestCheck checks the length bound and ordinary commands.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want error
	}{
		{"empty", "", nil},
		{"simple", "rm -rf out", nil},
		{"busy one-liner", `for f in $(git ls-files '*.go'); do [[ -f "$f" ]] && gofmt -l "${f}" || echo "bad: $f"; done | sort | uniq -c`, nil},
		{"at the length limit", strings.Repeat("a", MaxLen), nil},
		{"over the length limit", strings.Repeat("a", MaxLen+1), ErrTooLong},
		{"200k parens", nest("(", "rm -rf /", ")", 200000), ErrTooLong},
		{"deep but short", nest("(", "a", ")", MaxNesting+1), ErrTooNested},
		{"long flat pipeline", strings.Repeat("a | ", 10000) + "a", nil}, // the parser loops; walkers bound their own depth
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Check(tt.src); !errors.Is(got, tt.want) {
				t.Errorf("Check = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNesting(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]int{
		"":                         0,
		"rm -rf /":                 0,
		"a && b || c":              0, // no [[: && and || do not nest in the parser
		"[[ a && b ]] || ! c":      5, // [ [ && || !
		"echo $(date) ${HOME} `x`": 4,
		"if for fi elif":           3,
		"iffy form fortune":        0,
		"x_if if1 if":              1,
		"i\\\nf a; then b; fi":     1,
	} {
		if got := Nesting(src); got != want {
			t.Errorf("Nesting(%q) = %d, want %d", src, got, want)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	src := strings.Repeat(`for f in $(ls); do [[ -n "$f" ]] && echo "${f}"; done; `, 1000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Check(src)
	}
}

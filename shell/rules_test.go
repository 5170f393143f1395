package shell_test

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/match"
)

// The tests of this package that check the engine the way hooks see it compile Bash(...)
// rules with package match (an import of the tests only: package shell imports nothing of
// match). The helpers below are match's own test helpers of the same names.

// ifCase is one `if` expression applied to one tool call.
type ifCase struct {
	name string
	expr string
	tool string
	args string
	want bool
}

// runIfCases compiles and matches each case on a PreToolUse subject.
func runIfCases(t *testing.T, tests []ifCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := match.CompileIf(tt.expr)
			if err != nil {
				t.Fatalf("CompileIf(%q): %v", tt.expr, err)
			}
			s := match.NewSubject("PreToolUse", tt.tool, json.RawMessage(tt.args))
			if got := f.Match(s); got != tt.want {
				t.Errorf("CompileIf(%q).Match(%s %s) = %v, want %v", tt.expr, tt.tool, tt.args, got, tt.want)
			}
		})
	}
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

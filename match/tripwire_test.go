package match

import (
	"strings"
	"testing"
)

// TestConfigChangedClause: `tool changed hook_config` compiles, holds when the caller found
// the hook config changed during the call (WithConfigChanged) and not otherwise, never as a
// permit; any other field or value is an error (stop 32).
func TestConfigChangedClause(t *testing.T) {
	t.Parallel()
	f, err := CompileIf("tool changed hook_config")
	if err != nil {
		t.Fatal(err)
	}
	if !f.ConfigChanged() {
		t.Fatal("ConfigChanged() = false")
	}
	both, err := CompileIf(`tool == "Bash" && tool changed hook_config`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		f       *If
		tool    string
		changed []string
		want    bool
	}{
		{"changed", f, "Bash", []string{"/h/.claude/settings.json: content changed"}, true},
		{"unchanged", f, "Bash", nil, false},
		{"and, changed", both, "Bash", []string{"x: created"}, true},
		{"and, other tool", both, "Write", []string{"x: created"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := NewSubject("PostToolUse", tc.tool, []byte(`{}`)).WithConfigChanged(tc.changed)
			if got := tc.f.Match(s); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
	if AllowedBy(NewSubject("PostToolUse", "Bash", []byte(`{}`)).WithConfigChanged([]string{"x: created"}), f) {
		t.Error("a permit of `tool changed hook_config` allowed")
	}
	for _, other := range []string{"tool == \"Bash\"", "args.command changes hook_config"} {
		if g, _ := CompileIf(other); g.ConfigChanged() {
			t.Errorf("%s: ConfigChanged() = true", other)
		}
	}
}

func TestConfigChangedErrors(t *testing.T) {
	t.Parallel()
	for expr, want := range map[string]string{
		"args.command changed hook_config": "changed reads tool",
		"file_path changed hook_config":    "changed reads tool",
		`tool changed "hook_config"`:       "changed takes hook_config",
		"tool changed hook_program":        "changed takes hook_config",
		"tool changed /hook_config/":       "changed takes hook_config",
		"tool changed":                     "expected an operator",
	} {
		_, err := CompileIf(expr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", expr, err, want)
		}
	}
}

package config

import (
	"testing"
)

// TestCopilotMatcherNamesClaudeTools (red team round 65): a Copilot CLI matcher on a tool
// event is read over the Claude Code names hookcore gives Copilot's tools, an anchored plain
// name ("^bash$", as hookcore convert writes Bash for Copilot CLI) or alternation of them as
// a plain name is: before, "^bash$" was a case-sensitive regex that no Bash call matched
// (`hookcore fire PermissionRequest --config .github/hooks/h.json` ran no hook).
func TestCopilotMatcherNamesClaudeTools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		matcher     string
		match, miss []string
	}{
		{"^bash$", []string{"Bash"}, []string{"Write", "bash2"}},
		{"bash", []string{"Bash"}, []string{"Write"}},
		{"^(?:bash|view)$", []string{"Bash", "Read"}, []string{"Write"}},
		{"^(bash|create)$", []string{"Bash", "Write"}, []string{"Read"}},
		{"^ba.h$", []string{"Bash"}, []string{"Write"}},
		{"^mcp__github__.*$", []string{"mcp__github__push"}, []string{"Bash"}},
	} {
		src := `{"version": 1, "hooks": {"permissionRequest": [{"type": "command", "bash": "./g.sh", "matcher": "` + tc.matcher + `"}]}}`
		f, probs := ParseDialect("p/.github/hooks/h.json", []byte(src), Explicit, Copilot)
		if f == nil || probs.Err() != nil || len(f.Hooks) != 1 {
			t.Fatalf("%q: does not load: %v", tc.matcher, probs)
		}
		m, err := f.Hooks[0].CompileMatcher()
		if err != nil {
			t.Fatalf("%q: %v", tc.matcher, err)
		}
		for _, v := range tc.match {
			if !m.Match(v) {
				t.Errorf("copilot matcher %q (read as %q) does not match %s", tc.matcher, f.Hooks[0].Matcher, v)
			}
		}
		for _, v := range tc.miss {
			if m.Match(v) {
				t.Errorf("copilot matcher %q (read as %q) matches %s", tc.matcher, f.Hooks[0].Matcher, v)
			}
		}
	}
}

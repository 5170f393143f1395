package config

import (
	"strings"
	"testing"
)

// TestDuplicateIDFromYAMLAlias: a YAML alias repeats an anchored hook, id and all; the
// message says so instead of pointing at the first hook as its own duplicate.
func TestDuplicateIDFromYAMLAlias(t *testing.T) {
	t.Parallel()
	_, probs := Parse("a.yaml", []byte("hooks:\n  - &h {id: x, event: stop, action: {type: command, command: \"true\"}}\n  - *h\n"), Explicit)
	if probs.Errors() != 1 || !strings.Contains(probs[0].Msg, "a YAML alias?") {
		t.Fatalf("got %v", probs)
	}
}

// TestLintMatcherWarnedOncePerGroup: a Claude Code matcher group's matcher that matches no
// declared tool is warned about once, not once per hook in the group.
func TestLintMatcherWarnedOncePerGroup(t *testing.T) {
	t.Parallel()
	f, probs := Parse("s.json", []byte(`{"hooks": {"PreToolUse": [{"matcher": "Nope", "hooks": [
  {"type": "command", "command": "true"}, {"type": "command", "command": "false"}]}]}}`), Explicit)
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if l := Lint(f, LintOptions{Tools: []string{"Bash", "Edit"}}); len(l) != 1 {
		t.Fatalf("want one warning, got %v", l)
	}
}

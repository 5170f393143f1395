package config

import (
	"strings"
	"testing"
)

// TestStrictJSONWarning: a .json config that only the lenient YAML parser accepts (a trailing
// comma) loads, with a warning at the offending byte, because Claude Code would refuse it.
func TestStrictJSONWarning(t *testing.T) {
	t.Parallel()
	f, probs := Parse("s.json", []byte("{\"hooks\": {\"PreToolUse\": [\n  {\"type\": \"command\", \"command\": \"x\",}\n]}}\n"), Explicit)
	if probs.Errors() != 0 || probs.Warnings() != 1 || len(f.Hooks) != 1 {
		t.Fatalf("want the hook and one warning, got %d hooks and %v", len(f.Hooks), probs)
	}
	if got := probs[0].Error(); !strings.HasPrefix(got, "s.json:2:38: warning: not strict JSON") {
		t.Fatalf("warning = %q", got)
	}
	if _, probs := Parse("ok.json", []byte(`{"hooks": {}}`), Explicit); len(probs) != 0 {
		t.Fatalf("strict JSON drew %v", probs)
	}
	if _, probs := Parse("y.yaml", []byte("hooks: []\n"), Explicit); len(probs) != 0 {
		t.Fatalf("YAML drew %v", probs)
	}
}

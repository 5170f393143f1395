package harness_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/hook"
)

// TestDescribeCutsOnARune: Describe caps each hook's reason at 300 characters without
// splitting a multi-byte rune at the cut (regression: it cut at 300 bytes, and 日, three
// bytes from byte 299, came out as an invalid byte sequence).
func TestDescribeCutsOnARune(t *testing.T) {
	t.Parallel()
	reason := strings.Repeat("a", 299) + strings.Repeat("日", 10)
	res := &hook.Result{Event: hook.PreToolUse, Blocked: true, Reason: reason,
		Hooks: []hook.Record{{ID: "guard", Outcome: hook.OutcomeBlock, Reason: reason}}}
	got := harness.Describe(&hook.Input{ToolName: "Bash"}, res)
	if !utf8.ValidString(got) {
		t.Fatalf("Describe split a rune: %q", got)
	}
	if want := strings.Repeat("a", 299) + "日…"; !strings.Contains(got, want) {
		t.Errorf("Describe = %q, want the reason cut to %q", got, want)
	}
}

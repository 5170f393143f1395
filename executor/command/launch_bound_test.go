package command

import (
	"strings"
	"testing"
)

// TestFirstCommandBounded checks that a command too deep or too long for the shell parser
// is not parsed (200 000 nested parentheses crashed it with a fatal stack overflow): the
// launch check is skipped and sh runs the command.
func TestFirstCommandBounded(t *testing.T) {
	t.Parallel()
	for name, script := range map[string]string{
		"deep":       "python3 hook.py; " + strings.Repeat("(", 200000) + "x" + strings.Repeat(")", 200000),
		"deep subst": "python3 hook.py $(" + strings.Repeat("$(", 60000) + "x" + strings.Repeat(")", 60000) + ")",
		"long":       "python3 hook.py " + strings.Repeat("a ", 512<<10),
	} {
		if words, _, ok := firstCommand(script, nil, "/"); ok {
			t.Errorf("%s: firstCommand of a %d-byte script = %q, want not ok", name, len(script), words)
		}
	}
	if words, _, ok := firstCommand("python3 hook.py; "+strings.Repeat("(", 50)+"x"+strings.Repeat(")", 50), nil, "/"); !ok || words[0] != "python3" {
		t.Errorf("firstCommand with 50 nested subshells = %q, %v; want python3 first", words, ok)
	}
}

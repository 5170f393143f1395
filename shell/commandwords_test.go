package shell_test

import (
	"strings"
	"testing"

	"github.com/hookcore/hookcore/shell"
)

// TestCommandWords: a unit's words after its leading assignments, in every form bash takes.
func TestCommandWords(t *testing.T) {
	t.Parallel()
	for unit, want := range map[string]string{
		"A=1 B+=2 c[0]=x make install": "make install",
		"make A=1":                     "make A=1",
		"A=1":                          "",
		"":                             "",
	} {
		if got := strings.Join(shell.CommandWords(unit), " "); got != want {
			t.Errorf("CommandWords(%q) = %q, want %q", unit, got, want)
		}
	}
}

package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/tools"
)

// TestAmbiguousToolInputRefused: the model's {"command":"ls","Command":"touch victim"} passes
// a deny rule Bash(touch *) that reads "command", and encoding/json hands the Bash tool the
// touch (case-insensitive keys, last one wins). The Session refuses such an input before the
// middleware, the rules and the tool see it (issue 10.4), for every spelling of the twin.
func TestAmbiguousToolInputRefused(t *testing.T) {
	t.Parallel()
	for _, input := range []string{
		`{"command":"ls","Command":"touch victim"}`,
		`{"command":"ls","COMMAND":"touch victim"}`,
		`{"command":"ls","command":"touch victim"}`,
		`{"command":"ls","comm\u0061nd":"touch victim"}`,
		`{"Command":"touch victim"}`,
	} {
		ws := t.TempDir()
		rec := &recorder{}
		s := newSession(t, rec, `[{"tool": "Bash", "input": `+input+`}, {"text": "done"}]`, func(o *agent.Options) {
			o.Workspace = ws
			o.Tools = []agent.Tool{&tools.Bash{Dir: ws}}
			o.Deny = []string{"Bash(touch *)"}
			o.PermissionMode = agent.ModeBypassPermissions
		})
		if _, err := s.Prompt(context.Background(), "go"); err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		if _, err := os.Stat(filepath.Join(ws, "victim")); err == nil {
			t.Errorf("%s: the tool ran the hidden command", input)
		}
		var result string
		for _, m := range s.Messages() {
			if m.Role == agent.RoleTool {
				result = m.Text
			}
		}
		if !strings.Contains(result, "ambiguous tool input") {
			t.Errorf("%s: tool result %q, want the ambiguous input refused", input, result)
		}
	}
}

//go:build unix && !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestExamplesGuardrailsNpmrc is red team round 65: the guardrails' npm rewrite answers
// "allow" only when the npm configuration the install reads holds no setting that can run a
// program. What the committed fixtures (examples/guardrails/testdata) cannot hold is made
// here: a .npmrc that is a FIFO (which must not hang the hook) or too large to read, and an
// npm_config_* variable in the hook's environment. Each is answered "ask", still rewritten.
func TestExamplesGuardrailsNpmrc(t *testing.T) {
	config := filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
	tests := []struct {
		name, reason string
		setup        func(t *testing.T, dir string)
	}{
		{"fifo", "is not a regular file", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, ".npmrc"), 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
		}},
		{"huge", "is larger than", func(t *testing.T, dir string) {
			big := strings.Repeat("fund=false\n", 10000)
			if err := os.WriteFile(filepath.Join(dir, ".npmrc"), []byte(big), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"environment", `npm's git`, func(t *testing.T, dir string) {
			t.Setenv("NPM_CONFIG_GIT", filepath.Join(dir, "evil.sh"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x","version":"1.0.0"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, dir)
			stdin, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "tool_name": "Bash",
				"tool_input": map[string]any{"command": "npm i lodash"}})
			var out, errb bytes.Buffer
			code := cli.Main([]string{"fire", "PreToolUse", "--config", config}, bytes.NewReader(stdin), &out, &errb)
			res := out.String()
			if code != 0 || !strings.Contains(res, `"permission": "ask"`) || !strings.Contains(res, tt.reason) ||
				!strings.Contains(res, `"command": "npm i --ignore-scripts lodash"`) {
				t.Errorf("exit %d, want 0 with ask, %q and the rewrite\nstdout: %s\nstderr: %s", code, tt.reason, res, errb.String())
			}
		})
	}
}

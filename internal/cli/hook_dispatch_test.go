//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestHookDispatchSameAsFullTree: `hookcore hook ...` builds a command tree holding the hook
// command alone (its cold start), and must answer exactly as the full tree does, which
// `hookcore -v=false hook ...` still builds (the first argument is not "hook"): the same
// exit code, stdout and stderr for help, usage errors, blocks, allows and fail-closed
// answers.
func TestHookDispatchSameAsFullTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(`hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: command, command: "echo 'dangerous delete blocked'"}
    reject: true
  - id: context
    event: user_prompt_submit
    action: {type: inject, message: "be careful"}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("hooks: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pre := func(cmd string) string {
		return `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
	}
	state := []string{"--state-dir", filepath.Join(dir, "state")}
	tests := []struct {
		name  string
		args  []string
		input string
	}{
		{"help", []string{"--help"}, ""},
		{"help short", []string{"-h"}, ""},
		{"no agent", nil, ""},
		{"too many args", []string{"claude", "PreToolUse", "extra"}, ""},
		{"unknown flag", []string{"claude", "--nope"}, ""},
		{"version flag", []string{"claude", "--version"}, ""},
		{"unknown agent", []string{"nobody"}, ""},
		{"bad on-error", []string{"claude", "--on-error", "maybe"}, ""},
		{"block", append([]string{"claude", "--config", policy}, state...), pre("rm -rf /")},
		{"allow", append([]string{"claude", "--config", policy}, state...), pre("ls -la")},
		{"verbose allow", append([]string{"claude", "-v", "--config", policy}, state...), pre("ls -la")},
		{"context", append([]string{"claude", "--config", policy}, state...), `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"UserPromptSubmit","prompt":"hi"}`},
		{"codex", append([]string{"codex", "--config", policy}, state...), pre("rm -rf /")},
		{"broken config fails closed", append([]string{"claude", "--config", broken}, state...), pre("ls -la")},
		{"bad input fails closed", append([]string{"claude", "--config", policy}, state...), "{"},
		{"event override", append([]string{"claude", "PreToolUse", "--config", policy}, state...), `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(args ...string) []string {
				var out, errb bytes.Buffer
				code := cli.Main(args, strings.NewReader(tt.input), &out, &errb)
				return []string{string(rune('0' + code)), out.String(), errb.String()}
			}
			fast := run(append([]string{"hook"}, tt.args...)...)
			full := run(append([]string{"-v=false", "hook"}, tt.args...)...)
			if diff := cmp.Diff(full, fast); diff != "" {
				t.Errorf("hook %s: exit, stdout, stderr differ from the full tree's (-full +hook):\n%s", strings.Join(tt.args, " "), diff)
			}
		})
	}
}

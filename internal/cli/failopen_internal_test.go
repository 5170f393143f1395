//go:build !hookcore_lean

package cli

import (
	"testing"

	"github.com/hookcore/hookcore/config"
)

// TestOnErrorAllow (red team round 59): an entry that runs hookcore with --on-error allow,
// in any spelling the hook command reads, fails open; other flags and values do not.
func TestOnErrorAllow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a    config.Action
		want bool
	}{
		{"exec two words", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore-hook", "hook", "claude", "--on-error", "allow"}}, true},
		{"exec equals", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "hook", "--on-error=allow", "claude"}}, true},
		{"global flag first", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "-v", "hook", "claude", "--on-error=allow"}}, true},
		{"lean without hook", config.Action{Type: config.TypeCommand, Command: "/bin/hookcore-hook claude --on-error allow"}, true},
		{"quoted", config.Action{Type: config.TypeCommand, Command: `/bin/hookcore hook claude --on-error "allow"`}, true},
		{"quoted equals", config.Action{Type: config.TypeCommand, Command: `/bin/hookcore hook claude '--on-error=allow'`}, true},
		{"after env", config.Action{Type: config.TypeCommand, Command: `env A=1 /bin/hookcore hook claude --on-error allow`}, true},
		{"unknown flag beside it", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "hook", "claude", "--later-flag", "--on-error", "allow"}}, true},
		{"block", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "hook", "claude", "--on-error", "block"}}, false},
		{"last one counts", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "hook", "claude", "--on-error=allow", "--on-error=block"}}, false},
		{"a value, not the flag", config.Action{Type: config.TypeCommand, Args: []string{"/bin/hookcore", "hook", "claude", "--config", "--on-error=allow"}}, false},
		{"default", config.Action{Type: config.TypeCommand, Command: "/bin/hookcore hook claude"}, false},
		{"not the hook command", config.Action{Type: config.TypeCommand, Command: "/bin/hookcore fire PreToolUse --on-error allow"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := onErrorAllow(tc.a); got != tc.want {
				t.Errorf("onErrorAllow(%q %q) = %v, want %v", tc.a.Command, tc.a.Args, got, tc.want)
			}
		})
	}
}

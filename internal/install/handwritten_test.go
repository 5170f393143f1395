package install

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInstallReplacesHandWrittenEntry (new-user trial, stop 30): a hookcore entry written by
// hand with nothing of the user's in it (`hookcore-hook claude`, a bare name, shell form) is
// replaced with the entry install writes, also out of a group narrower than install's (matcher
// Bash: Write and Edit never reached hookcore, and install left it "as it is"); the group's
// other hooks stay. Uninstall leaves such an entry. One with something of the user's in it (a
// flag) is kept, and a narrow group of it is reported (Narrow).
func TestInstallReplacesHandWrittenEntry(t *testing.T) {
	t.Parallel()
	const prog = "/opt/bin/hookcore-hook"
	mine := `{"type": "command", "command": "/opt/bin/hookcore-hook", "args": ["hook", "claude"]}`
	for name, tc := range map[string]struct {
		text, after string
		hand, bare  bool
		widened     []string
		narrow      []string
	}{
		"bare and narrow, alone": {
			text:    `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookcore-hook claude"}]}]}}`,
			after:   `[{"matcher": "*", "hooks": [` + mine + `]}]`,
			hand:    true,
			bare:    true,
			widened: []string{`PreToolUse (matcher "Bash")`},
		},
		"narrow, beside the user's own hook": {
			text:    `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}, {"type": "command", "command": "hookcore-hook hook claude"}]}]}}`,
			after:   `[{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}, {"matcher": "*", "hooks": [` + mine + `]}]`,
			hand:    true,
			bare:    true,
			widened: []string{`PreToolUse (matcher "Bash")`},
		},
		"wide, another spelling": {
			text:  `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/usr/local/bin/hookcore-hook claude"}]}]}}`,
			after: `[{"matcher": "*", "hooks": [` + mine + `]}]`,
			hand:  true,
		},
		"a flag of the user's: kept, narrow said": {
			text:   `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookcore-hook hook claude --config /etc/team.yaml"}]}]}}`,
			after:  `[{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookcore-hook hook claude --config /etc/team.yaml"}]}]`,
			narrow: []string{`PreToolUse (matcher "Bash")`},
		},
		"a timeout of the user's: kept, wide": {
			text:  `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "hookcore-hook claude", "timeout": 5}]}]}}`,
			after: `[{"matcher": "*", "hooks": [{"type": "command", "command": "hookcore-hook claude", "timeout": 5}]}]`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write(t, filepath.Join(dir, ".claude", "settings.json"), tc.text)
			u, err := Uninstall(Options{Agent: "claude", ProjectDir: dir, Command: prog})
			if err != nil {
				t.Fatal(err)
			}
			if u.Changed || !slices.Contains(u.Kept, "PreToolUse") {
				t.Errorf("uninstall: changed %v, kept %q", u.Changed, u.Kept)
			}
			p, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: prog})
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(p.ReplacedHand, "PreToolUse"); got != tc.hand {
				t.Errorf("replaced by hand: %q", p.ReplacedHand)
			}
			if got := slices.Contains(p.Kept, "PreToolUse"); got == tc.hand {
				t.Errorf("kept: %q", p.Kept)
			}
			if diff := cmp.Diff(tc.widened, p.Widened); diff != "" {
				t.Errorf("widened (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.narrow, p.Narrow); diff != "" {
				t.Errorf("narrow (-want +got):\n%s", diff)
			}
			var want any
			if err := json.Unmarshal([]byte(tc.after), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, decode(t, p.New)["hooks"].(map[string]any)["PreToolUse"]); diff != "" {
				t.Errorf("PreToolUse (-want +got):\n%s", diff)
			}
			if got := slices.Contains(p.ReplacedBare, "PreToolUse"); got != tc.bare {
				t.Errorf("replaced a bare name: %q", p.ReplacedBare)
			}
		})
	}
}

//go:build !hookcore_lean

package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/bridge"
)

// TestServeTripwireRecordOutlivesRestart (red team round 66): serve kept the workspace's
// tripwire record in memory; after a session ended, ~/.bashrc changed and serve restarted,
// the next session's SessionStart said nothing. The records are kept in serve's state
// directory; the sessions stay in memory.
func TestServeTripwireRecordOutlivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"hooks.yaml": `hooks:
  - {id: tripwire, event: post_tool_use, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
`,
		"home/.bashrc":   "# bashrc\n",
		"proj/.git/HEAD": "ref: refs/heads/main\n",
	})
	stateDir := filepath.Join(dir, "home", ".hookcore", "state")
	cf := &configFlags{files: []string{filepath.Join(dir, "hooks.yaml")}, dir: ".hookcore"}
	proj := filepath.Join(dir, "proj")
	ctx := context.Background()
	answer := func(srv *server, session, event string) string {
		t.Helper()
		in := `{"session_id":"` + session + `","cwd":"` + proj + `","hook_event_name":"` + event + `","source":"startup","reason":"exit"}`
		a, _ := srv.answer(ctx, bridge.Claude{}, "", []byte(in), true)
		return string(a.Stdout) + string(a.Stderr)
	}
	srv := newServerAt(testEnv(t, dir, nil), cf, "tok", stateDir)
	for _, ev := range []string{"SessionStart", "Stop", "SessionEnd"} {
		if out := answer(srv, "s1", ev); strings.Contains(out, "changed") {
			t.Fatalf("first session's %s: %s", ev, out)
		}
	}
	writeFiles(t, dir, map[string]string{"home/.bashrc": "# bashrc\nexport CLAUDE_CONFIG_DIR=/tmp/cc\n"})
	srv = newServerAt(testEnv(t, dir, nil), cf, "tok", stateDir) // restarted
	out := answer(srv, "s2", "SessionStart")
	if !strings.Contains(out, "changed between sessions") || !strings.Contains(out, ".bashrc: content changed") {
		t.Errorf("next SessionStart after a restart: %s; want the change told", out)
	}
}

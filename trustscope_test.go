package hookcore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
)

// TestTrustScope: the scope of a grant lists the project and local files (not the user's),
// with every hook entry and what it runs, broken entries marked; its digest is the one the
// trust store records (issue 10.10).
func TestTrustScope(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := writeFile(t, dir, "home/.hookcore/hooks.yaml", "hooks:\n  - {id: mine, event: stop, action: {type: command, command: x}}\n")
	proj := writeFile(t, dir, "w/.hookcore/hooks.yaml", `hooks:
  - {id: guard, event: pre_tool_use, action: {type: command, command: "./guard.sh $FILE_PATH"}}
  - {id: hook, event: stop, action: {type: http, url: "https://example.com/h"}}
  - {id: typo, event: stopp, action: {type: command, args: [a, b]}}
`)
	set, _ := config.Load([]config.LayerPath{{Path: user, Layer: config.User}, {Path: proj, Layer: config.Project}})
	s := hookcore.TrustScopeOf(set)
	want := hookcore.TrustScope{Files: []hookcore.TrustedFile{{
		Path: proj, Layer: config.Project, Hash: set.Files[1].Hash,
		Hooks: []hookcore.TrustedHook{
			{ID: "guard", Event: "PreToolUse", Source: proj + ":2", Type: "command", Target: "./guard.sh $FILE_PATH", Enabled: true},
			{ID: "hook", Event: "Stop", Source: proj + ":3", Type: "http", Target: "https://example.com/h", Enabled: true},
			{ID: "typo", Source: proj + ":4", Type: "command", Target: "a b", Broken: true, Enabled: true},
		},
	}}}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
	if s.Digest() != hookcore.TrustDigest(set) || s.Hooks() != 3 {
		t.Errorf("digest %s, TrustDigest %s, hooks %d", s.Digest(), hookcore.TrustDigest(set), s.Hooks())
	}
}

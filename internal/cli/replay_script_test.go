//go:build !hookcore_lean

package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// repoRoot is the module root, for the recorded sessions and the examples.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReplayScripts runs testdata/script/replay/*.txtar: `hookcore replay` and `hookcore
// coverage` end to end (flags, exit status, output). They live in a folder of their own
// because they read the recorded sessions and the examples of the repository, which the
// scripts of testdata/script can not reach: this runner sets $ROOT (the module root) and
// $SESSIONS (the recorded sessions) besides HOME=$WORK/home. The scripts run hookcore with
// `exec hookcore ...` (registered by TestMain). The replay engine's own tests are in
// internal/replay.
func TestReplayScripts(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script", "replay"),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("ROOT", root)
			env.Setenv("SESSIONS", filepath.Join(root, "sessions"))
			if env.Getenv("GORACE") == "" {
				env.Setenv("GORACE", "atexit_sleep_ms=0")
			}
			return nil
		},
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

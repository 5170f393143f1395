package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestSessionRoots (red team round 44, with the real Claude Code): `hookcore serve` answers
// sessions of any project with one config, and its path rules were anchored at serve's own
// workspace: a user rule `Write(**/.env)` missed the .env of a session in another project,
// and the write went through. With Options.SessionRoots the rules are anchored at the
// project root of each input's cwd, as `hookcore hook` run in that project anchors them.
func TestSessionRoots(t *testing.T) {
	t.Parallel()
	serveWS, other := t.TempDir(), t.TempDir()
	for _, d := range []string{serveWS, other} {
		if err := os.Mkdir(filepath.Join(d, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	set := loadConfig(t, t.TempDir(), "hooks.yaml", `hooks:
  - {id: no-env, event: pre_tool_use, matcher: "Write|Edit", if: 'Write(**/.env)', reject: true, action: {type: inject, message: "no .env"}}
`)
	write := func(r *hookcore.Runner, cwd, file string) bool {
		args, _ := json.Marshal(map[string]string{"file_path": file, "content": "x"})
		return r.Fire(context.Background(), hook.PreToolUse, &hook.Input{SessionID: "s", Cwd: cwd, ToolName: "Write", ToolInput: args}).Blocked
	}
	fixed := newRunner(t, serveWS, set, hookcore.Options{ProjectDir: serveWS})
	per := newRunner(t, serveWS, set, hookcore.Options{ProjectDir: serveWS, SessionRoots: true})
	if !write(per, other, filepath.Join(other, ".env")) {
		t.Error("SessionRoots: a session in another project wrote its .env")
	}
	if !write(per, serveWS, filepath.Join(serveWS, "sub", ".env")) || !write(fixed, serveWS, filepath.Join(serveWS, ".env")) {
		t.Error("a session in the Runner's own project wrote its .env")
	}
	if write(per, other, filepath.Join(other, "notes.md")) {
		t.Error("SessionRoots: another file was blocked")
	}
	if write(fixed, other, filepath.Join(other, ".env")) {
		t.Log("without SessionRoots the rule is anchored at ProjectDir (the hook command's case): the other project's .env is outside it")
	}
}

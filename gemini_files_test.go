package hookcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// geminiSettings is a Gemini CLI .gemini/settings.json in the shape of Gemini's
// docs/hooks/reference.md (../shared/research/other-agents-hooks.md section 1.1): a
// BeforeTool definition on run_shell_command whose hook exits 2 on rm -rf (stderr the
// reason), one on write_file that answers Gemini's JSON decision "deny", a BeforeAgent hook,
// timeouts in milliseconds, and a BeforeToolSelection definition hookcore cannot map.
const geminiSettings = `{
  "theme": "GitHub",
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command", "hooks": [
        {"type": "command", "name": "no-rm", "timeout": 5000,
         "command": "grep -q 'rm -rf' && { echo 'rm -rf is not allowed' >&2; exit 2; }; exit 0"}
      ]},
      {"matcher": "write_file|replace", "sequential": true, "hooks": [
        {"type": "command", "name": "no-write", "description": "read-only session",
         "command": "echo '{\"decision\": \"deny\", \"reason\": \"this session is read-only\"}'"}
      ]}
    ],
    "BeforeToolSelection": [{"hooks": [{"type": "command", "command": "true"}]}],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]
  }
}`

// TestGeminiSettingsFire: a Gemini CLI settings file loads (by its path .gemini/settings.json)
// and its hooks decide as Gemini CLI would: the BeforeTool hook on run_shell_command blocks
// the Bash PreToolUse by exiting 2 with its stderr as the reason, the write_file|replace
// hook's JSON "decision": "deny" blocks Write and Edit, and neither runs for other tools.
func TestGeminiSettingsFire(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".gemini/settings.json", 0, geminiSettings})
	f := set.Files[0]
	if f.Dialect.String() != "gemini" {
		t.Fatalf("dialect %s, want gemini", f.Dialect)
	}
	var got []string
	for _, h := range f.Hooks {
		got = append(got, h.ID+" "+string(h.Event)+" "+h.Matcher+" "+h.EffectiveTimeout().String())
	}
	want := []string{"no-rm PreToolUse Bash 5s", "no-write PreToolUse Write|Edit 0s", "SessionStart#1 SessionStart startup 0s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("hooks (-want +got):\n%s", diff)
	}
	r := newRunner(t, dir, set, hookcore.Options{})
	ctx := context.Background()

	res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "rm -rf /tmp/x"))
	if !res.Blocked || res.Reason != "rm -rf is not allowed" {
		t.Errorf("rm -rf: blocked %v reason %q, want the hook's stderr", res.Blocked, res.Reason)
	}
	res = r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if res.Blocked {
		t.Errorf("ls blocked: %q", res.Reason)
	}
	for _, tool := range []string{"Write", "Edit"} {
		args, _ := json.Marshal(map[string]string{"file_path": "a.txt"})
		res = r.Fire(ctx, hook.PreToolUse, &hook.Input{SessionID: "s1", Cwd: dir, ToolName: tool, ToolInput: args})
		if !res.Blocked || res.Reason != "this session is read-only" {
			t.Errorf("%s: blocked %v reason %q, want Gemini's deny", tool, res.Blocked, res.Reason)
		}
	}
	args, _ := json.Marshal(map[string]string{"file_path": "a.txt"})
	res = r.Fire(ctx, hook.PreToolUse, &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Read", ToolInput: args})
	if res.Blocked || len(res.Hooks) != 0 {
		t.Errorf("Read: blocked %v, hooks %v; want no hook to match", res.Blocked, outcomes(res))
	}
}

// codexHooks is a Codex ~/.codex/hooks.json in the shape of developers.openai.com/codex/hooks
// (../shared/research/other-agents-hooks.md section 1.2): Claude Code's nested shape, a
// PreToolUse hook on Bash answering hookSpecificOutput.permissionDecision "deny".
const codexHooks = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "timeout": 30,
   "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no shell in CI\"}}'"}
]}]}}`

// TestCodexHooksFire: a Codex hooks.json loads by its path (.codex/hooks.json) as the Codex
// dialect and its hook's Claude-shaped deny blocks the Bash call with its reason; a codebot
// (flat) entry in a Codex file fails the file.
func TestCodexHooksFire(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".codex/hooks.json", 0, codexHooks})
	if d := set.Files[0].Dialect.String(); d != "codex" {
		t.Fatalf("dialect %s, want codex", d)
	}
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if !res.Blocked || res.Reason != "no shell in CI" {
		t.Errorf("blocked %v reason %q, want the Codex hook's deny", res.Blocked, res.Reason)
	}
	f, probs := config.ParseDialect("hooks.json", []byte(`{"hooks": {"PreToolUse": [{"type": "command", "command": "true"}]}}`), config.User, config.Codex)
	if !f.Failed || probs.Err() == nil {
		t.Errorf("flat entries in a Codex file: failed %v, problems %v", f.Failed, probs)
	}
}

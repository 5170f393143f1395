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

// codexTOML is a Codex ~/.codex/config.toml with [hooks] tables, in the shape of the
// NVIDIA NeMo Guardrails Codex guide and developers.openai.com/codex/hooks
// ([[hooks.PreToolUse]] a group, [[hooks.PreToolUse.hooks]] a handler), among Codex's other
// settings and its [hooks.state] table.
const codexTOML = `model = "o3"

[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "grep -q 'git push' && { echo 'pushing is for humans' >&2; exit 2; }; exit 0"
timeout = 10

[hooks.state]
"PreToolUse:0:0" = { trusted = true }
`

// TestCodexConfigTOMLFire: the [hooks] tables of a Codex config.toml load (by the path
// .codex/config.toml) and the handler's exit 2 blocks the Bash call with its stderr, as
// Codex would; [hooks.state] is not an event.
func TestCodexConfigTOMLFire(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".codex/config.toml", 0, codexTOML})
	f := set.Files[0]
	if f.Dialect.String() != "codex" || len(f.Hooks) != 1 || f.Hooks[0].Pos.Line != 9 || f.Hooks[0].EffectiveTimeout().String() != "10s" {
		t.Fatalf("dialect %s, hooks %+v; want one codex hook at line 9 with 10s", f.Dialect, f.Hooks)
	}
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "git push origin main"))
	if !res.Blocked || res.Reason != "pushing is for humans" {
		t.Errorf("blocked %v reason %q", res.Blocked, res.Reason)
	}
	if res = r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "git status")); res.Blocked {
		t.Errorf("git status blocked: %q", res.Reason)
	}
}

// cursorHooks is a Cursor .cursor/hooks.json in the shape of cursor.com/docs/agent/hooks
// (../shared/research/other-agents-hooks.md section 1.3): version 1, a beforeShellExecution
// hook whose matcher searches the command text (curl|wget) and that denies in Cursor's
// reply format, a fail-closed beforeReadFile hook, and a stop hook's followup_message.
const cursorHooks = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      {"command": "cat > \"$CLAUDE_PROJECT_DIR/cursor-in.json\"; echo '{\"permission\": \"deny\", \"user_message\": \"blocked\", \"agent_message\": \"no network tools here\"}'", "matcher": "curl|wget", "timeout": 10}
    ],
    "beforeReadFile": [{"command": "exit 3", "failClosed": true}],
    "stop": [{"command": "echo '{\"followup_message\": \"run the tests first\"}'", "loop_limit": 3}]
  }
}`

// TestCursorHooksFire: a Cursor hooks.json loads by its path (.cursor/hooks.json) and its
// hooks decide as Cursor would: {"permission": "deny"} from beforeShellExecution blocks
// the Bash call with agent_message; the hook got Cursor's top-level fields (hook_event_name
// beforeShellExecution, command); its matcher searched the command (ls does not match);
// failClosed blocks Read when the hook fails; stop's followup_message blocks Stop.
func TestCursorHooksFire(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".cursor/hooks.json", 0, cursorHooks})
	if d := set.Files[0].Dialect.String(); d != "cursor" {
		t.Fatalf("dialect %s, want cursor", d)
	}
	r := newRunner(t, dir, set, hookcore.Options{})
	ctx := context.Background()
	res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "curl http://example.com"))
	if !res.Blocked || res.Reason != "no network tools here" {
		t.Errorf("curl: blocked %v reason %q, want Cursor's deny", res.Blocked, res.Reason)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(readFile(t, dir, "cursor-in.json")), &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "beforeShellExecution" || in["command"] != "curl http://example.com" || in["conversation_id"] != "s1" {
		t.Errorf("stdin %v: want Cursor's fields", in)
	}
	if res = r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "ls")); res.Blocked || len(res.Hooks) != 0 {
		t.Errorf("ls: blocked %v hooks %v", res.Blocked, outcomes(res))
	}
	args, _ := json.Marshal(map[string]string{"file_path": "a.txt"})
	if res = r.Fire(ctx, hook.PreToolUse, &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Read", ToolInput: args}); !res.Blocked {
		t.Errorf("Read with a failing failClosed hook: not blocked (%v)", outcomes(res))
	}
	if res = r.Fire(ctx, hook.Stop, &hook.Input{SessionID: "s1", Cwd: dir}); !res.Blocked || res.Reason != "run the tests first" {
		t.Errorf("stop: blocked %v reason %q", res.Blocked, res.Reason)
	}
}

// copilotHooks is a Copilot CLI .github/hooks/guard.json in the shape of docs.github.com
// "GitHub Copilot CLI hooks reference": version 1, bash / powershell commands, timeoutSec;
// the preToolUse hook answers permissionDecision "deny" for rm, an agentStop hook blocks.
const copilotHooks = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "cat > \"$CLAUDE_PROJECT_DIR/copilot-in.json\"; grep -q 'rm x' \"$CLAUDE_PROJECT_DIR/copilot-in.json\" && echo '{\"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"rm needs review\"}'; exit 0",
       "powershell": "./guard.ps1", "timeoutSec": 10}
    ],
    "agentStop": [{"type": "command", "bash": "echo '{\"decision\": \"block\", \"reason\": \"update the changelog\"}'"}]
  }
}`

// TestCopilotHooksFire: a Copilot CLI hook file loads by its path (.github/hooks/*.json);
// its preToolUse hook gets Copilot's camelCase input (toolName "bash", toolArgs a JSON
// string) and its permissionDecision "deny" blocks the Bash call; agentStop's decision
// "block" blocks Stop; preToolUse fails closed.
func TestCopilotHooksFire(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".github/hooks/guard.json", 0, copilotHooks})
	f := set.Files[0]
	if f.Dialect.String() != "copilot" || len(f.Hooks) != 2 || f.Hooks[0].OnError != "block" || f.Hooks[0].EffectiveTimeout().String() != "10s" || f.Hooks[1].EffectiveTimeout().String() != "30s" {
		t.Fatalf("dialect %s hooks %+v", f.Dialect, f.Hooks)
	}
	r := newRunner(t, dir, set, hookcore.Options{})
	ctx := context.Background()
	res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "rm x"))
	if !res.Blocked || res.Reason != "rm needs review" {
		t.Errorf("rm: blocked %v reason %q", res.Blocked, res.Reason)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(readFile(t, dir, "copilot-in.json")), &in); err != nil {
		t.Fatal(err)
	}
	if in["toolName"] != "bash" || in["toolArgs"] != `{"command":"rm x"}` || in["sessionId"] != "s1" || in["hookEventName"] != "preToolUse" {
		t.Errorf("stdin %v: want Copilot's camelCase fields", in)
	}
	if res = r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "ls")); res.Blocked {
		t.Errorf("ls blocked: %q", res.Reason)
	}
	if res = r.Fire(ctx, hook.Stop, &hook.Input{SessionID: "s1", Cwd: dir}); !res.Blocked || res.Reason != "update the changelog" {
		t.Errorf("agentStop: blocked %v reason %q", res.Blocked, res.Reason)
	}
}

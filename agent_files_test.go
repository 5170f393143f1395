package hookcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// cursorBoth is a Cursor hooks.json with a hook on each of the two events Cursor fires for
// one shell command: preToolUse (every tool, Cursor's tool name "Shell") and
// beforeShellExecution; and the same pair after the call.
const cursorBoth = `{"version": 1, "hooks": {
  "preToolUse": [{"command": "echo preToolUse >> runs.txt"}],
  "beforeShellExecution": [{"command": "echo beforeShellExecution >> runs.txt"}],
  "postToolUse": [{"command": "echo postToolUse >> runs.txt"}],
  "afterShellExecution": [{"command": "echo afterShellExecution >> runs.txt"}]
}}`

// TestCursorHookRunsOncePerCall: Cursor sends one shell call as two events (preToolUse
// with tool_name "Shell", then beforeShellExecution; research note 1.3, "preToolUse and
// beforeShellExecution both fire for the same call"), which hookcore both reads as
// PreToolUse; each hook of a Cursor file runs for its own Cursor event only, so once per
// call, as in Cursor. Regression: the preToolUse hook (no matcher) ran on both, twice.
// Under another agent (no Cursor event in the input) each hook runs on its hookcore event.
func TestCursorHookRunsOncePerCall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".cursor/hooks.json", 0, cursorBoth})
	r := newRunner(t, dir, set, hookcore.Options{})
	ctx := context.Background()
	cursor := bridge.Cursor{}
	for _, payload := range []string{
		`{"conversation_id": "c1", "hook_event_name": "preToolUse", "workspace_roots": ["` + dir + `"], "tool_name": "Shell", "tool_input": {"command": "ls"}}`,
		`{"conversation_id": "c1", "hook_event_name": "beforeShellExecution", "workspace_roots": ["` + dir + `"], "command": "ls", "cwd": "` + dir + `"}`,
		`{"conversation_id": "c1", "hook_event_name": "postToolUse", "workspace_roots": ["` + dir + `"], "tool_name": "Shell", "tool_input": {"command": "ls"}, "tool_output": "a"}`,
		`{"conversation_id": "c1", "hook_event_name": "afterShellExecution", "workspace_roots": ["` + dir + `"], "command": "ls", "output": "a"}`,
	} {
		ev, in, err := cursor.Decode([]byte(payload), "")
		if err != nil {
			t.Fatal(err)
		}
		r.Fire(ctx, ev, in)
	}
	want := []string{"preToolUse", "beforeShellExecution", "postToolUse", "afterShellExecution"}
	if diff := cmp.Diff(want, strings.Fields(readFile(t, dir, "runs.txt"))); diff != "" {
		t.Errorf("runs under Cursor (-want +got):\n%s", diff)
	}

	dir2 := t.TempDir()
	set = loadLayers(t, dir2, layerFile{".cursor/hooks.json", 0, cursorBoth})
	r = newRunner(t, dir2, set, hookcore.Options{})
	r.Fire(ctx, hook.PreToolUse, bashCall(dir2, "s1", "ls"))
	want = []string{"preToolUse", "beforeShellExecution"}
	if diff := cmp.Diff(want, strings.Fields(readFile(t, dir2, "runs.txt"))); diff != "" {
		t.Errorf("runs under Claude Code (-want +got):\n%s", diff)
	}
}

// TestCodexHookGetsStringResponse: a hook of a Codex hooks.json gets tool_response as the
// string Codex sends (../shared/peer-codex), also when the call came from Claude Code, whose
// Bash response is an object: an unchanged Codex script that reads it as text works.
func TestCodexHookGetsStringResponse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	codex := `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "python3 -c 'import json,sys; open(\"resp.txt\",\"w\").write(json.load(sys.stdin)[\"tool_response\"].upper())'"}]}]}}`
	set := loadLayers(t, dir, layerFile{".codex/hooks.json", 0, codex})
	r := newRunner(t, dir, set, hookcore.Options{})
	in := bashCall(dir, "s1", "echo hi")
	in.ToolResponse = []byte(`{"stdout":"hi\n","stderr":"","interrupted":false,"isImage":false}`)
	res := r.Fire(context.Background(), hook.PostToolUse, in)
	if got := readFile(t, dir, "resp.txt"); got != "HI\n" {
		t.Errorf("resp.txt = %q (hooks %v), want the Bash output as text", got, outcomes(res))
	}
}

//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestHookClaudeTripwire: with the self-protect example, `hookcore hook claude` run at a
// tool call's PreToolUse and then at its PostToolUse stops Claude Code (continue false, a
// stopReason for the user, decision block with a reason for the model) when the call
// changed a hook config file in between, naming the file and saying the change was not
// undone; a call that changed nothing gets no answer (stop 32: `git checkout BRANCH -- .`,
// `python3 -c` joining a name, `cmake -E copy`: calls no rule read before them could see).
// HOME is set: not parallel.
func TestHookClaudeTripwire(t *testing.T) {
	policy := filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml")
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	t.Setenv("HOME", home)
	t.Setenv("HOOKCORE_STATE_DIR", "")
	settings := filepath.Join(proj, ".claude", "settings.json")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Dir(settings), filepath.Join(home, ".hookcore")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(settings, []byte(`{"hooks": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	run := func(event, id string) (int, string, string) {
		t.Helper()
		in := map[string]any{"session_id": "s1", "cwd": proj, "hook_event_name": event, "tool_name": "Bash",
			"tool_use_id": id, "tool_input": map[string]any{"command": "python3 -c 'import x'"}}
		if event == "PostToolUse" {
			in["tool_response"] = map[string]any{"stdout": ""}
		}
		stdin, _ := json.Marshal(in)
		var out, errb bytes.Buffer
		code := cli.Main([]string{"hook", "claude", "--config", policy}, bytes.NewReader(stdin), &out, &errb)
		return code, out.String(), errb.String()
	}
	// A call that changes nothing: no answer (the state directory under ~/.hookcore, written
	// by both events, is not compared).
	if code, out, errs := run("PreToolUse", "toolu_1"); code != 0 || out != "" {
		t.Fatalf("PreToolUse: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, errs := run("PostToolUse", "toolu_1"); code != 0 || out != "" {
		t.Fatalf("PostToolUse of a call that changed nothing: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A call that rewrites the project's Claude Code settings.
	if code, out, errs := run("PreToolUse", "toolu_2"); code != 0 || out != "" {
		t.Fatalf("PreToolUse: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if err := os.WriteFile(settings, []byte(`{"hooks": {"PreToolUse": []}, "disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("PostToolUse", "toolu_2")
	if code != 0 {
		t.Fatalf("PostToolUse: exit %d, stderr %q", code, errs)
	}
	var got struct {
		Continue   *bool  `json:"continue"`
		StopReason string `json:"stopReason"`
		Decision   string `json:"decision"`
		Reason     string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if got.Continue == nil || *got.Continue || got.Decision != "block" {
		t.Errorf("continue %v, decision %q; want false and block: %s", got.Continue, got.Decision, out)
	}
	for name, text := range map[string]string{"stopReason": got.StopReason, "reason": got.Reason} {
		if !strings.Contains(text, settings+": content changed") || !strings.Contains(text, "NOT undone") {
			t.Errorf("%s %q: want the changed file and that it was not undone", name, text)
		}
	}
	// The record is gone: the file stays as the call left it, and the next call of the same
	// id (none should come) judges nothing.
	if code, out, _ := run("PostToolUse", "toolu_2"); code != 0 || out != "" {
		t.Errorf("second PostToolUse: exit %d, stdout %q", code, out)
	}
}

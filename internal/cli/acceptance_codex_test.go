//go:build !hookcore_lean

package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAcceptanceCodex runs the real Codex CLI (../shared/peer-codex, offline against a
// scripted Responses API) with hookcore installed by `hookcore install codex --scope
// project` and the acceptance policy in the user layer: the block's reason reaches the model
// verbatim (as Codex delivers a hook's block: "Command blocked by PreToolUse hook: REASON.
// Command: CMD"), the rewrite runs the rewritten command, and the prompt's additional
// context reaches the model.
func TestAcceptanceCodex(t *testing.T) {
	run, bin := requirePeer(t, "codex", "Codex")
	policy, err := os.ReadFile(filepath.Join("testdata", "acceptance-policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	scen := t.TempDir()
	proj := filepath.Join(scen, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "install", "codex", "--scope", "project", "--command", bin)
	cmd.Dir = proj
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hookcore install codex: %v\n%s", err, out)
	}
	hooks, err := os.ReadFile(filepath.Join(proj, ".codex", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"hooks.json":  string(hooks),
		"policy.yaml": string(policy),
		"prompt.txt":  "exercise hookcore\n",
		"tools.json": `[{"tool": "$shell", "arguments": {"command": "rm -rf /tmp/hookcore-canary"}},
 {"tool": "$shell", "arguments": {"command": "echo REWRITE-ME > original.txt"}},
 {"text": "done"}]`,
		"env":      "HOOKCORE_STATE_DIR=$PEER_OUT/state\n",
		"setup.sh": "#!/bin/sh\nmkdir -p \"$PEER_OUT/home/.hookcore\" && cp \"$(dirname \"$0\")/policy.yaml\" \"$PEER_OUT/home/.hookcore/hooks.yaml\"\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(scen, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(scen, "out")
	if b, err := exec.Command("bash", filepath.Join(run, "run-scenario.sh"), scen, out).CombinedOutput(); err != nil {
		t.Fatalf("run-scenario: %v\n%s", err, b)
	}
	var sum struct {
		Requests []struct {
			ToolOutputs []struct {
				CallID string `json:"call_id"`
				Output string `json:"output"`
			} `json:"tool_outputs"`
		} `json:"requests"`
		WorkspaceFiles []string `json:"workspace_files"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{}
	for _, r := range sum.Requests {
		for _, o := range r.ToolOutputs {
			outputs[o.CallID] = o.Output
		}
	}
	const wantBlock = "Command blocked by PreToolUse hook: HOOKCORE-BLOCK: rm -rf is not allowed here. Command: rm -rf /tmp/hookcore-canary"
	if outputs["call_fake_0_0"] != wantBlock {
		t.Errorf("block: the model saw %q, want %q", outputs["call_fake_0_0"], wantBlock)
	}
	ws := strings.Join(sum.WorkspaceFiles, " ")
	if !strings.Contains(ws, "rewritten.txt") || strings.Contains(ws, "original.txt") {
		t.Errorf("rewrite: the workspace holds %v, want rewritten.txt and no original.txt", sum.WorkspaceFiles)
	}
	requests, _ := os.ReadFile(filepath.Join(out, "requests.jsonl"))
	if !strings.Contains(string(requests), "HOOKCORE-CTX: the branch is main") {
		t.Error("the UserPromptSubmit additional context did not reach the model")
	}
}

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

// TestAcceptanceGemini runs the real Gemini CLI (../shared/peer-gemini, offline against a
// scripted Gemini API) with hookcore installed by `hookcore install gemini` and the
// acceptance policy in the user layer: the block's reason reaches the model verbatim (as
// Gemini delivers a hook's deny: "Tool execution blocked: REASON"), the rewrite runs the
// rewritten command, and the prompt's additional context reaches the model.
func TestAcceptanceGemini(t *testing.T) {
	run, bin := requirePeer(t, "gemini", "Gemini")
	policy, err := os.ReadFile(filepath.Join("testdata", "acceptance-policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	scen := t.TempDir()
	proj := filepath.Join(scen, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "install", "gemini", "--command", bin)
	cmd.Dir = proj
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hookcore install gemini: %v\n%s", err, out)
	}
	hooks, err := os.ReadFile(filepath.Join(proj, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"settings.json": string(hooks),
		"policy.yaml":   string(policy),
		"prompt.txt":    "exercise hookcore\n",
		"tools.json": `[{"tool": "run_shell_command", "args": {"command": "rm -rf /tmp/hookcore-canary", "description": "blocked"}},
 {"tool": "run_shell_command", "args": {"command": "echo REWRITE-ME > original.txt", "description": "rewritten"}},
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
		WorkspaceFiles []string `json:"workspace_files"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	requests, _ := os.ReadFile(filepath.Join(out, "requests.jsonl"))
	if !strings.Contains(string(requests), "Tool execution blocked: HOOKCORE-BLOCK: rm -rf is not allowed here") {
		t.Error("block: the reason did not reach the model as Gemini delivers a hook's deny")
	}
	ws := strings.Join(sum.WorkspaceFiles, " ")
	if !strings.Contains(ws, "rewritten.txt") || strings.Contains(ws, "original.txt") {
		t.Errorf("rewrite: the workspace holds %v, want rewritten.txt and no original.txt", sum.WorkspaceFiles)
	}
	if !strings.Contains(string(requests), "HOOKCORE-CTX: the branch is main") {
		t.Error("the UserPromptSubmit additional context did not reach the model")
	}
}

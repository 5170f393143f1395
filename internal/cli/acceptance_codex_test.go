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
	out := runCodexScenario(t, run, bin, map[string]string{
		"policy.yaml": string(policy),
		"prompt.txt":  "exercise hookcore\n",
		"tools.json": `[{"tool": "$shell", "arguments": {"command": "rm -rf /tmp/hookcore-canary"}},
 {"tool": "$shell", "arguments": {"command": "echo REWRITE-ME > original.txt"}},
 {"text": "done"}]`,
	})
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

// runCodexScenario installs hookcore with `hookcore install codex --scope project`, puts
// files["policy.yaml"] in the user layer (~/.hookcore/hooks.yaml) and runs the scenario made
// of files (prompt.txt, tools.json, args, ...) with the peer runner; it returns the output
// directory.
func runCodexScenario(t *testing.T, run, bin string, files map[string]string) string {
	t.Helper()
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
	files["hooks.json"] = string(hooks)
	files["env"] = "HOOKCORE_STATE_DIR=$PEER_OUT/state\n"
	files["setup.sh"] = "#!/bin/sh\nmkdir -p \"$PEER_OUT/home/.hookcore\" && cp \"$(dirname \"$0\")/policy.yaml\" \"$PEER_OUT/home/.hookcore/hooks.yaml\"\n"
	return runScenarioFiles(t, run, scen, files)
}

// TestAcceptanceCodexEscalated runs the real Codex CLI in its sandbox (workspace-write, /tmp
// not writable) with approval on request, approvals put to its automatic reviewer (the
// scripted API cannot answer it, so every review fails: a denial), and a hookcore rewrite
// whose command writes outside the workspace (stop 29). The model asks to run the call
// outside the sandbox (sandbox_permissions "require_escalated"), which the PreToolUse input
// does not show; hookcore answers the rewrite with permissionDecision "allow". Codex must
// still put the rewritten command to its approval, and not run it when that is refused; the
// same rewrite without the escalation runs in the sandbox, which refuses the write.
func TestAcceptanceCodexEscalated(t *testing.T) {
	run, bin := requirePeer(t, "codex", "Codex")
	out := runCodexScenario(t, run, bin, map[string]string{
		"policy.yaml": `hooks:
  - id: rewrite
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /ESCAPE-ME/'
    action:
      type: command
      command: |
        printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten > ../outside.txt"}}}'
`,
		"prompt.txt": "exercise hookcore\n",
		"args": "-s\nworkspace-write\n-c\napproval_policy=\"on-request\"\n-c\napprovals_reviewer=\"auto_review\"\n" +
			"-c\nsandbox_workspace_write.exclude_slash_tmp=true\n-c\nsandbox_workspace_write.exclude_tmpdir_env_var=true\n",
		"tools.json": `[{"tool": "exec_command", "arguments": {"cmd": "echo ESCAPE-ME > ../outside.txt", "sandbox_permissions": "require_escalated", "justification": "HOOKCORE-ESCALATE"}},
 {"tool": "exec_command", "arguments": {"cmd": "echo ESCAPE-ME > ../outside.txt"}},
 {"text": "done"}]`,
	})
	f, err := os.Open(filepath.Join(out, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outputs := map[string]string{} // the agent's own requests: the model saw these
	reviewed := false              // a review request for the rewritten, escalated command
	dec := json.NewDecoder(f)
	for dec.More() {
		var r struct {
			Body struct {
				Input []struct {
					Type   string          `json:"type"`
					CallID string          `json:"call_id"`
					Output json.RawMessage `json:"output"`
				} `json:"input"`
			} `json:"body"`
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), "APPROVAL REQUEST START") {
			if strings.Contains(string(raw), `echo rewritten > ../outside.txt`) && strings.Contains(string(raw), "require_escalated") {
				reviewed = true
			}
			continue
		}
		for _, it := range r.Body.Input {
			if it.Type == "function_call_output" {
				var s string
				if json.Unmarshal(it.Output, &s) != nil {
					s = string(it.Output)
				}
				outputs[it.CallID] = s
			}
		}
	}
	if !strings.Contains(outputs["call_fake_1_0"], "Read-only file system") {
		t.Skipf("skipped: Codex's sandbox did not refuse a write outside the workspace here: %q", outputs["call_fake_1_0"])
	}
	if b, err := os.ReadFile(filepath.Join(out, "outside.txt")); err == nil {
		t.Errorf("the escalated call ran without approval: outside.txt holds %q", b)
	}
	if !reviewed {
		t.Error("Codex put no approval request for the rewritten, escalated command to its reviewer")
	}
	if got := outputs["call_fake_0_0"]; !strings.Contains(got, "Rejected") || strings.Contains(got, "Process exited") {
		t.Errorf("the escalated call: the model saw %q, want Codex's refusal", got)
	}
}

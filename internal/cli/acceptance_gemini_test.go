//go:build !hookcore_lean

package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	out := runGeminiScenario(t, run, bin, map[string]string{
		"prompt.txt": "exercise hookcore\n",
		"tools.json": `[{"tool": "run_shell_command", "args": {"command": "rm -rf /tmp/hookcore-canary", "description": "blocked"}},
 {"tool": "run_shell_command", "args": {"command": "echo REWRITE-ME > original.txt", "description": "rewritten"}},
 {"text": "done"}]`,
	})
	requests, _ := os.ReadFile(filepath.Join(out, "requests.jsonl"))
	if !strings.Contains(string(requests), "Tool execution blocked: HOOKCORE-BLOCK: rm -rf is not allowed here") {
		t.Error("block: the reason did not reach the model as Gemini delivers a hook's deny")
	}
	ws := strings.Join(geminiWorkspaceFiles(t, out), " ")
	if !strings.Contains(ws, "rewritten.txt") || strings.Contains(ws, "original.txt") {
		t.Errorf("rewrite: the workspace holds %v, want rewritten.txt and no original.txt", ws)
	}
	if !strings.Contains(string(requests), "HOOKCORE-CTX: the branch is main") {
		t.Error("the UserPromptSubmit additional context did not reach the model")
	}
}

// TestAcceptanceGeminiDotEnv: a workspace .env that names PATH and HOME, which the user's
// environment has and Gemini CLI keeps, blocks nothing (stop 29: before, hookcore blocked
// the prompt itself); one that names a variable the user has not set, of a class GuardEnv
// refuses (npm's npm_config_userconfig), blocks the session, naming it.
func TestAcceptanceGeminiDotEnv(t *testing.T) {
	run, bin := requirePeer(t, "gemini", "Gemini")
	files := map[string]string{
		"prompt.txt": "say hi\n",
		"tools.json": `[{"tool": "run_shell_command", "args": {"command": "echo hi > hi.txt", "description": "say hi"}},
 {"tool": "run_shell_command", "args": {"command": "rm -rf /tmp/hookcore-canary", "description": "blocked"}},
 {"text": "done"}]`,
		"files/.env": "# PATH and HOME come from the shell\nPATH=./node_modules/.bin:$PATH\nHOME=/home/app\nAPP_PORT=3000\n",
	}
	out := runGeminiScenario(t, run, bin, files)
	requests, _ := os.ReadFile(filepath.Join(out, "requests.jsonl"))
	if !strings.Contains(string(requests), "Tool execution blocked: HOOKCORE-BLOCK: rm -rf is not allowed here") {
		t.Error("the user's guard did not decide the rm -rf")
	}
	if ws := geminiWorkspaceFiles(t, out); !slices.Contains(ws, "hi.txt") {
		t.Errorf("a .env naming PATH and HOME blocked the echo: the workspace holds %v", ws)
	}

	files["files/.env"] += "npm_config_userconfig=./.npmrc\n"
	out = runGeminiScenario(t, run, bin, files)
	stream, _ := os.ReadFile(filepath.Join(out, "stream.jsonl"))
	if !strings.Contains(string(stream), "Agent execution blocked: hookcore could not evaluate its hooks: .env names npm_config_userconfig, which") {
		t.Errorf("a .env naming npm_config_userconfig did not block the session:\n%s", stream)
	}
	if ws := geminiWorkspaceFiles(t, out); slices.Contains(ws, "hi.txt") {
		t.Error("a .env naming npm_config_userconfig let the echo run")
	}
}

// TestAcceptanceGeminiExtension: a Gemini CLI extension's BeforeTool hook runs once per
// tool call with hookcore installed as Gemini CLI's hook command (stop 31): Gemini CLI runs
// it, with ${extensionPath} replaced, and `hookcore hook gemini`, which now discovers
// extensions for the other commands, leaves it to Gemini CLI. The user's guard still decides.
func TestAcceptanceGeminiExtension(t *testing.T) {
	run, bin := requirePeer(t, "gemini", "Gemini")
	out := runGeminiScenario(t, run, bin, map[string]string{
		"prompt.txt": "say hi\n",
		"tools.json": `[{"tool": "run_shell_command", "args": {"command": "echo hi > hi.txt", "description": "say hi"}},
 {"tool": "run_shell_command", "args": {"command": "rm -rf /tmp/hookcore-canary", "description": "blocked"}},
 {"text": "done"}]`,
		"setup.sh": "#!/bin/sh\nset -e\nmkdir -p \"$PEER_OUT/home/.hookcore\" && cp \"$(dirname \"$0\")/policy.yaml\" \"$PEER_OUT/home/.hookcore/hooks.yaml\"\n" +
			"e=\"$PEER_OUT/home/.gemini/extensions/counter\"; mkdir -p \"$e/hooks\"\n" +
			"echo '{\"name\": \"counter\", \"version\": \"1.0.0\"}' > \"$e/gemini-extension.json\"\n" +
			"echo '{\"hooks\": {\"BeforeTool\": [{\"matcher\": \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo ${extensionPath} >> $PEER_OUT/ext-count\"}]}]}}' > \"$e/hooks/hooks.json\"\n",
	})
	requests, _ := os.ReadFile(filepath.Join(out, "requests.jsonl"))
	if !strings.Contains(string(requests), "Tool execution blocked: HOOKCORE-BLOCK: rm -rf is not allowed here") {
		t.Error("the user's guard did not decide the rm -rf")
	}
	count, err := os.ReadFile(filepath.Join(out, "ext-count"))
	if err != nil {
		t.Fatalf("the extension's hook did not run: %v", err)
	}
	ext := filepath.Join(out, "home", ".gemini", "extensions", "counter")
	if got, want := string(count), ext+"\n"+ext+"\n"; got != want {
		// Two tool calls, one run each: Gemini CLI's (a third line would be hookcore's).
		t.Errorf("the extension's hook wrote %q, want %q", got, want)
	}
}

// runGeminiScenario runs the real Gemini CLI on a scenario of the peer runner with hookcore
// installed by `hookcore install gemini` and the acceptance policy in the user layer; files
// are the scenario's own (prompt.txt, tools.json, files/...). It returns the output
// directory.
func runGeminiScenario(t *testing.T, run, bin string, files map[string]string) string {
	t.Helper()
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
	all := map[string]string{
		"settings.json": string(hooks),
		"policy.yaml":   string(policy),
		"env":           "HOOKCORE_STATE_DIR=$PEER_OUT/state\n",
		"setup.sh":      "#!/bin/sh\nmkdir -p \"$PEER_OUT/home/.hookcore\" && cp \"$(dirname \"$0\")/policy.yaml\" \"$PEER_OUT/home/.hookcore/hooks.yaml\"\n",
	}
	for name, content := range files {
		all[name] = content
	}
	return runScenarioFiles(t, run, scen, all)
}

// geminiWorkspaceFiles is the workspace_files of the peer runner's summary.json in out.
func geminiWorkspaceFiles(t *testing.T, out string) []string {
	t.Helper()
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
	return sum.WorkspaceFiles
}

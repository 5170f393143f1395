package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// installedPolicy is bench/hookbridge.sh's policy: one rule, decided in-process for `ls -la`.
const installedPolicy = `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: command, command: "echo 'dangerous delete blocked'"}
    reject: true
`

// installedSetup writes bench/hookbridge.sh's "installed" case under dir: a home with
// ~/.hookcore/hooks.yaml (installedPolicy) and a ~/.claude/settings.json of about 6 KB (160
// permission rules, env, a status line, the hook entries `hookcore install claude` writes),
// a project with a .git directory, and the PreToolUse input of `ls -la` in that project. It
// returns the home, the project and the input.
func installedSetup(tb testing.TB, dir string) (home, proj string, input []byte) {
	tb.Helper()
	home, proj = filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	entry := []map[string]any{{"matcher": "*", "hooks": []map[string]any{{"type": "command", "command": filepath.Join(dir, "hookcore-hook"), "args": []string{"hook", "claude"}}}}}
	var allow []string
	for i := range 120 {
		allow = append(allow, fmt.Sprintf("Bash(npm run test:%d*)", i))
	}
	for i := range 40 {
		allow = append(allow, fmt.Sprintf("Read(/home/u/proj%d/**)", i))
	}
	settings, err := json.MarshalIndent(map[string]any{
		"permissions": map[string]any{"allow": allow, "deny": []string{"Bash(rm -rf *)"}},
		"env":         map[string]string{"FOO": "bar", "CLAUDE_CODE_ENABLE_TELEMETRY": "0"},
		"model":       "opus",
		"statusLine":  map[string]string{"type": "command", "command": "~/.claude/statusline.sh"},
		"hooks":       map[string]any{"PreToolUse": entry, "PostToolUse": entry, "Stop": []map[string]any{{"hooks": entry[0]["hooks"]}}},
	}, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	for name, content := range map[string][]byte{
		filepath.Join(home, ".hookcore", "hooks.yaml"):  []byte(installedPolicy),
		filepath.Join(home, ".claude", "settings.json"): settings,
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, content, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		tb.Fatal(err)
	}
	input, err = json.Marshal(map[string]any{"session_id": "bench", "cwd": proj, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "ls -la"}})
	if err != nil {
		tb.Fatal(err)
	}
	return home, proj, input
}

// BenchmarkHookInstalled is one event of the hook command as `hookcore install claude`
// leaves it (bench/hookbridge.sh's "installed" case), in-process and warm: Main with `hook
// claude`, no --config, so the config is discovered from the project directory, the trust
// store looked up, ~/.hookcore/hooks.yaml and the 6 KB ~/.claude/settings.json read and
// the rule decided (ls -la: allowed, no child process). Built with -tags hookcore_lean it is
// the lean hook binary's Main (cmd/hookcore-hook). The process's cold start is not in it:
// bench/hookbridge.sh times that (issue 9).
func BenchmarkHookInstalled(b *testing.B) {
	dir := b.TempDir()
	home, proj, input := installedSetup(b, dir)
	b.Setenv("HOME", home)
	b.Setenv("HOOKCORE_STATE_DIR", filepath.Join(dir, "state"))
	b.Chdir(proj)
	var stderr bytes.Buffer
	if code := Main([]string{"hook", "claude"}, bytes.NewReader(input), io.Discard, &stderr); code != 0 {
		b.Fatalf("exit %d: %s", code, stderr.Bytes())
	}
	b.ReportAllocs()
	for b.Loop() {
		Main([]string{"hook", "claude"}, bytes.NewReader(input), io.Discard, io.Discard)
	}
}

// BenchmarkHookConfig is bench/hookbridge.sh's "hookcore-hook" case in-process and warm:
// Main with `hook claude --config policy.yaml` (installedPolicy), the PreToolUse input of
// `ls -la`, decided in-process. The process's cold start is not in it (issue 9).
func BenchmarkHookConfig(b *testing.B) {
	dir := b.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(installedPolicy), 0o644); err != nil {
		b.Fatal(err)
	}
	input, err := json.Marshal(map[string]any{"session_id": "bench", "cwd": dir, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "ls -la"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", dir)
	b.Setenv("HOOKCORE_STATE_DIR", filepath.Join(dir, "state"))
	args := []string{"hook", "claude", "--config", policy}
	var stderr bytes.Buffer
	if code := Main(args, bytes.NewReader(input), io.Discard, &stderr); code != 0 {
		b.Fatalf("exit %d: %s", code, stderr.Bytes())
	}
	b.ReportAllocs()
	for b.Loop() {
		Main(args, bytes.NewReader(input), io.Discard, io.Discard)
	}
}

//go:build !hookcore_lean

package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/trust"
)

// startServe starts srv on loopback, its requests marked as this user's.
func startServe(t *testing.T, srv *server) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(srv.handler())
	ts.Config.ConnContext = srv.connContext
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hookAndServe answers one input as `hookcore hook AGENT [EVENT]` and as `hookcore hook
// AGENT [EVENT] --server` to srv, with the agent's own files left out as runHook does.
func hookAndServe(t *testing.T, dir string, cf *configFlags, url, agent, event, input string) (direct, served bridge.Answer) {
	t.Helper()
	p, _ := bridge.Lookup(agent)
	acf := *cf
	setAgents(&acf, p)
	stateDir := filepath.Join(dir, "state")
	direct, wait := testEnv(t, dir, strings.NewReader(input)).hook(context.Background(), p, event, &acf, &hookFlags{onError: "block", stateDir: stateDir})
	wait()
	served, wait = testEnv(t, dir, strings.NewReader(input)).hook(context.Background(), p, event, &acf, &hookFlags{onError: "block", server: url, stateDir: stateDir})
	wait()
	return direct, served
}

// agreeStep returns a check of one step of a test: `hook claude` and `hook claude --server
// url` answer input alike, and block it or not as wantBlock says.
func agreeStep(t *testing.T, dir string, cf *configFlags, url, input string) func(name string, wantBlock bool) {
	return func(name string, wantBlock bool) {
		t.Helper()
		direct, served := hookAndServe(t, dir, cf, url, "claude", "", input)
		if diff := cmp.Diff(direct, served); diff != "" {
			t.Errorf("%s: hook and serve differ (-hook +serve):\n%s", name, diff)
		}
		if blocked := direct.Code != 0 || strings.Contains(string(direct.Stdout), "deny"); blocked != wantBlock {
			t.Errorf("%s: hook blocked=%v, want %v: %+v", name, blocked, wantBlock, direct)
		}
	}
}

// TestServeLoadsPerAgent (red team round 33): serve left Claude Code's settings out for
// every agent, so under `hook gemini --server` the user's ~/.claude/settings.json guard did
// not run (rm -rf went through), and Gemini's own hooks ran a second time. Each agent's
// events are decided with the config `hookcore hook AGENT` loads.
func TestServeLoadsPerAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"home/.claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"if grep -q 'rm -rf'; then echo 'claude guard: no rm -rf' >&2; exit 2; fi"}]}]}}`,
		"home/.gemini/settings.json": `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"echo 'gemini own hook ran' >&2; exit 2"}]}]}}`,
	})
	cf := &configFlags{dir: ".hookcore", system: systemFlags{managedDir: filepath.Join(dir, "managed"), geminiSystem: filepath.Join(dir, "gemini-cli", "settings.json")}}
	ts := startServe(t, newServer(testEnv(t, dir, nil), cf, "tok"))
	cases := []struct{ agent, event, input string }{
		{"gemini", "", `{"session_id":"g","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`},
		{"gemini", "", `{"session_id":"g","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`},
		{"codex", "", `{"session_id":"x","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		{"codex", "", `{"session_id":"x","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
		{"cursor", "", `{"conversation_id":"c","hook_event_name":"beforeShellExecution","workspace_roots":["/"],"command":"rm -rf /"}`},
		{"copilot", "preToolUse", `{"timestamp":1,"cwd":"/","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`},
		{"claude", "", `{"session_id":"c","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		{"claude", "", `{"session_id":"c","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
	}
	for i, c := range cases {
		direct, served := hookAndServe(t, dir, cf, ts.URL, c.agent, c.event, c.input)
		if diff := cmp.Diff(direct, served); diff != "" {
			t.Errorf("case %d (%s %s): hook and serve differ (-hook +serve):\n%s", i, c.agent, c.input, diff)
		}
		if strings.Contains(c.input, "rm -rf") && direct.Code == 0 && len(direct.Stdout) == 0 {
			t.Errorf("case %d (%s): hook let rm -rf through: %+v", i, c.agent, direct)
		}
	}
}

// TestServeChecksEventPath (red team round 33): POST /hook/claude/Stop with a PreToolUse
// input, or /hook/claude/PreTool (no such event), was answered allow, while `hookcore hook
// claude Stop` and `hook claude PreTool` block. serve checks EVENT as the hook command does.
func TestServeChecksEventPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hooks.yaml": servePolicy})
	ts := startServe(t, newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok"))
	in := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"pwd"}}`
	for _, event := range []string{"Stop", "PreTool"} {
		resp, err := http.Post(ts.URL+"/hook/claude/"+event, "application/json", strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), `"permissionDecision":"deny"`) {
			t.Errorf("/hook/claude/%s: got %d %s, want a deny", event, resp.StatusCode, body)
		}
		// The same through /v1/answer, which `hook --server` calls after its own check.
		p := bridge.Claude{}
		srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
		if a, _ := srv.answer(context.Background(), p, event, []byte(in), true); a.Code == 0 && len(a.Stdout) == 0 {
			t.Errorf("answer with EVENT %s: %+v, want a block", event, a)
		}
	}
}

// TestServeRechecksTrust (red team round 33): serve compiled a trusted project hook once and
// ran its script after the script changed, while `hookcore hook claude` blocks ("a script
// it runs changed since the workspace was trusted"). At every event serve decides as the
// hook command does at that moment: no reload or poll happens between the steps below.
func TestServeRechecksTrust(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".hookcore/hooks.yaml": "hooks:\n  - id: guard\n    event: pre_tool_use\n    matcher: Bash\n    action: {type: command, command: \"sh $HOOKCORE_PROJECT_DIR/.hookcore/guard.sh\"}\n",
		".hookcore/guard.sh":   "if grep -q 'rm -rf'; then echo 'project guard: no rm -rf' >&2; exit 2; fi\n",
	})
	cf := &configFlags{dir: ".hookcore", system: systemFlags{managedDir: filepath.Join(dir, "managed"), geminiSystem: filepath.Join(dir, "gemini-cli", "settings.json")}}
	grant := func() {
		t.Helper()
		g := *cf
		g.trust = true
		if _, err := testEnv(t, dir, nil).load(&g); err != nil {
			t.Fatal(err)
		}
	}
	grant()
	ts := startServe(t, newServer(testEnv(t, dir, nil), cf, "tok"))
	rm := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	step := agreeStep(t, dir, cf, ts.URL, rm)
	step("trusted guard", true)
	// The same size and a new content: a stat of the script would not tell.
	writeFiles(t, dir, map[string]string{".hookcore/guard.sh": "exit 0\n" + strings.Repeat("#", len("if grep -q 'rm -rf'; then echo 'project guard: no rm -rf' >&2; exit 2; fi\n")-len("exit 0\n"))})
	step("script changed", true)
	grant()
	step("changed script trusted", false)
	writeFiles(t, dir, map[string]string{".hookcore/guard.sh": "if grep -q 'rm -rf'; then echo 'guard again' >&2; exit 2; fi\n"})
	step("script changed again", true)
	if _, err := trust.DefaultStore(filepath.Join(dir, "home")).Revoke(dir); err != nil {
		t.Fatal(err)
	}
	step("trust revoked", false)
	grant()
	step("trusted again", true)
	writeFiles(t, dir, map[string]string{"home/.hookcore/trust.json": "not json"})
	step("trust store unreadable", true)
}

// TestServeNoticesNewFiles: serve keeps what discovery found between events and stats the
// files it found and the directories of all it looked at (BenchmarkServeDecisionDiscovered);
// a file created where none was, or added to a directory a pattern reads, is noticed at the
// next event, and so is a later edit in place of that new file.
func TestServeNoticesNewFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"home/.copilot/hooks/README": "hook files go here\n"})
	cf := &configFlags{dir: ".hookcore", system: systemFlags{managedDir: filepath.Join(dir, "managed"), geminiSystem: filepath.Join(dir, "gemini-cli", "settings.json")}}
	ts := startServe(t, newServer(testEnv(t, dir, nil), cf, "tok"))
	rm := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	step := agreeStep(t, dir, cf, ts.URL, rm)
	step("no config", false)
	guard := "hooks:\n  - id: guard\n    event: pre_tool_use\n    matcher: Bash\n    action: {type: command, command: \"echo no >&2; exit 2\"}\n"
	writeFiles(t, dir, map[string]string{"home/.hookcore/hooks.yaml": guard}) // a new directory in the home
	step("new policy", true)
	// An edit in place (same inode, the directory unchanged) of the file found since.
	writeFiles(t, dir, map[string]string{"home/.hookcore/hooks.yaml": "hooks: []\n" + strings.Repeat("#", 20) + "\n"})
	step("policy emptied in place", false)
	writeFiles(t, dir, map[string]string{"home/.copilot/hooks/guard.json": `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "exit 1"}]}}`})
	step("new file in a pattern's directory", true)
	writeFiles(t, dir, map[string]string{"home/.copilot/hooks/guard.json": `{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "exit 1"}]}}`})
	step("that file edited in place", false)
}

// TestServeNoticesRestoredMtime (red team round 34): a new settings file beside the trusted
// one, its directory's mtime put back with touch, went unnoticed by serve (the directory's
// size and mtime were the same), while `hook claude` refused the changed project config.
// The inode change time, which no program sets back, is part of the stamp.
func TestServeNoticesRestoredMtime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".claude/settings.json": `{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}`,
	})
	cf := &configFlags{dir: ".hookcore", system: systemFlags{managedDir: filepath.Join(dir, "managed"), geminiSystem: filepath.Join(dir, "gemini-cli", "settings.json")}}
	g := *cf
	g.trust = true
	if _, err := testEnv(t, dir, nil).load(&g); err != nil {
		t.Fatal(err)
	}
	ts := startServe(t, newServer(testEnv(t, dir, nil), cf, "tok"))
	ls := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	step := agreeStep(t, dir, cf, ts.URL, ls)
	step("trusted", false)
	claudeDir := filepath.Join(dir, ".claude")
	fi, err := os.Stat(claudeDir)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{".claude/settings.local.json": `{"hooks":{}}`})
	if err := os.Chtimes(claudeDir, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	step("a new project file, the directory's mtime put back", true)
}

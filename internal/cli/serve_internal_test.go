//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/trust"
)

const servePolicy = `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf/'
    action: {type: command, command: "echo 'dangerous delete blocked'"}
    reject: true
  - id: ls-long
    event: pre_tool_use
    if: 'tool == "Bash" && args.command == "ls"'
    action:
      type: command
      command: |
        printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"}}}'
  - id: intro
    event: session_start
    once: true
    action: {type: prompt, message: "read CONTRIBUTING.md"}
  - id: more
    event: stop
    action: {type: prompt, message: "tests?"}
`

// serveInputs are the events both paths decide, in order (the once hook spends itself on
// the first SessionStart in each).
var serveInputs = []struct{ agent, event, input string }{
	{"claude", "", `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
	{"claude", "", `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
	{"claude", "", `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"pwd"}}`},
	{"claude", "", `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`},
	{"claude", "", `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`},
	{"claude", "", `not json`},
	{"codex", "", `{"session_id":"s2","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`},
	{"gemini", "", `{"session_id":"s3","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`},
	{"cursor", "", `{"conversation_id":"c1","hook_event_name":"beforeShellExecution","workspace_roots":["/"],"command":"rm -rf /"}`},
	{"copilot", "preToolUse", `{"timestamp":1,"cwd":"/","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`},
}

func testEnv(t *testing.T, dir string, stdin io.Reader) *env {
	t.Helper()
	return &env{stdin: stdin, stdout: io.Discard, stderr: io.Discard, cwd: dir, home: filepath.Join(dir, "home")}
}

// ownUIDEnv is testEnv where every TCP peer is this user's: on Linux the real lookup
// (/proc/net/tcp, this process being both ends), elsewhere a stand-in for it.
func ownUIDEnv(t *testing.T, dir string, stdin io.Reader) *env {
	t.Helper()
	e := testEnv(t, dir, stdin)
	if runtime.GOOS != "linux" {
		e.transport.peerUID = func(net.Conn) (int, error) { return os.Getuid(), nil }
	}
	return e
}

// TestServeDecidesAsHook: every decision of `hookcore serve` (through `hook --server` and
// its /v1/answer endpoint) is the one `hookcore hook` gives for the same input (issue 9.4),
// with a good config and with a broken one (both fail closed).
func TestServeDecidesAsHook(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{servePolicy, "hooks:\n  - id: x\n    evnt: stop\n"} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
		cf := &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}
		srv := newServer(ownUIDEnv(t, dir, nil), cf, "tok")
		ts := httptest.NewUnstartedServer(nil)
		ts.Config = srv.httpServer()
		ts.Start()
		stateDir := filepath.Join(dir, "state")
		for i, in := range serveInputs {
			p, _ := bridge.Lookup(in.agent)
			direct, wait := testEnv(t, dir, strings.NewReader(in.input)).hook(context.Background(), p, in.event, cf, &hookFlags{onError: "block", stateDir: stateDir})
			wait()
			served, wait := ownUIDEnv(t, dir, strings.NewReader(in.input)).hook(context.Background(), p, in.event, cf, &hookFlags{onError: "block", server: ts.URL, stateDir: stateDir})
			wait()
			if diff := cmp.Diff(direct, served); diff != "" {
				t.Errorf("input %d (%s %s): hook and serve differ (-hook +serve):\n%s", i, in.agent, in.input, diff)
			}
		}
		ts.Close()
	}
}

// TestServeClaudeHTTP: Claude Code's http hooks get the block as JSON (no exit status).
func TestServeClaudeHTTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(servePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	ts := httptest.NewServer(srv.handler())
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/hook/claude", strings.NewReader(serveInputs[0].input))
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"dangerous delete blocked"}}` + "\n"
	if resp.StatusCode != 200 || string(body) != want {
		t.Errorf("got %d %s, want 200 %s", resp.StatusCode, body, want)
	}
}

// TestServeAuth: without the same-user mark a request needs the token; a browser's request
// (Origin, Sec-Fetch-Site) and, without --allow-remote, a Host that is not loopback are
// refused even from this same user (red team: a web page's text/plain POST fired the hooks).
func TestServeAuth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := &server{e: testEnv(t, dir, nil), token: "secret"}
	remote := &server{e: srv.e, token: "secret", remote: true}
	in := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "in") }) //nolint:errcheck
	for _, tt := range []struct {
		srv     *server
		same    bool
		host    string
		headers map[string]string
		want    int
	}{
		{srv, true, "127.0.0.1:7878", nil, 200},
		{srv, false, "127.0.0.1:7878", nil, 401},
		{srv, false, "127.0.0.1:7878", map[string]string{"Authorization": "Bearer wrong"}, 401},
		{srv, false, "127.0.0.1:7878", map[string]string{"Authorization": "Bearer secret"}, 200},
		{srv, true, "[::1]:7878", nil, 200},
		{srv, true, "localhost:7878", nil, 200},
		{srv, true, "LOCALHOST.:7878", nil, 200},
		{srv, true, "127.1.2.3", nil, 200},
		{srv, true, "[::ffff:127.0.0.1]:7878", nil, 200},
		// A browser, whoever it runs as and whatever it sends.
		{srv, true, "127.0.0.1:7878", map[string]string{"Origin": "https://evil.example"}, 403},
		{srv, true, "127.0.0.1:7878", map[string]string{"Origin": "null"}, 403},
		{srv, true, "127.0.0.1:7878", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{srv, false, "127.0.0.1:7878", map[string]string{"Origin": "http://127.0.0.1:7878", "Authorization": "Bearer secret"}, 403},
		// DNS rebinding: the page's own name in Host.
		{srv, true, "evil.example:7878", nil, 403},
		{srv, true, "localhost.evil.example", nil, 403},
		{srv, true, "10.0.0.1:7878", nil, 403},
		{srv, true, "", nil, 403},
		// --allow-remote: any Host, the token still needed from others.
		{remote, false, "hooks.internal:7878", map[string]string{"Authorization": "Bearer secret"}, 200},
		{remote, false, "hooks.internal:7878", nil, 401},
		{remote, true, "hooks.internal:7878", map[string]string{"Origin": "https://evil.example"}, 403},
	} {
		req := httptest.NewRequest("POST", "/v1/answer/claude", bytes.NewReader(nil))
		req.Host = tt.host
		p := &peer{}
		p.once.Do(func() { p.same = tt.same })
		req = req.WithContext(context.WithValue(req.Context(), peerKey{}, p))
		for k, v := range tt.headers {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		tt.srv.auth(in).ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("remote=%v same=%v host=%q headers=%v: %d, want %d", tt.srv.remote, tt.same, tt.host, tt.headers, rec.Code, tt.want)
		}
	}
}

// TestServeReloads: an edit of the config file is picked up by the next poll; the once hook
// stays spent across the reload (per-session state is the server's, not the config's).
func TestServeReloads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(path, []byte(servePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	p := bridge.Claude{}
	start := []byte(`{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`)
	if a, _ := srv.answer(context.Background(), p, "", start, true); !strings.Contains(string(a.Stdout), "CONTRIBUTING") {
		t.Fatalf("first SessionStart: %+v", a)
	}
	edited := strings.Replace(servePolicy, "dangerous delete blocked", "no rm here", 1) + "\n# edited\n"
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.reload()
	if a, _ := srv.answer(context.Background(), p, "", []byte(serveInputs[0].input), true); a.Stderr != "no rm here" {
		t.Errorf("after the edit: %+v", a)
	}
	if a, _ := srv.answer(context.Background(), p, "", start, true); len(a.Stdout) != 0 {
		t.Errorf("once hook ran again after a reload: %+v", a)
	}
}

// TestServeOversizeBodyFailsClosed (red-team finding): a body over the input cap got a 413,
// which Claude Code reads as a non-blocking error, letting the call through. It gets
// Claude's fail-closed deny instead.
func TestServeOversizeBodyFailsClosed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(servePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	ts := httptest.NewServer(srv.handler())
	defer ts.Close()
	big := io.MultiReader(strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf / `), strings.NewReader(strings.Repeat("x", maxInput+10)), strings.NewReader(`"}}`))
	req, _ := http.NewRequest("POST", ts.URL+"/hook/claude", big)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"permissionDecision":"deny"`) {
		t.Fatalf("got %d %s, want 200 and a deny", resp.StatusCode, body)
	}
}

// TestServeAnchorsPathRulesAtTheSession (red team round 44, with the real Claude Code): a
// serve started in one project answered a session in another, and its path rules were
// anchored at its own workspace, so `Write(**/.env)` missed the other project's .env and
// the write went through; `hookcore hook` run there blocks it. serve now anchors them at
// the session's project.
func TestServeAnchorsPathRulesAtTheSession(t *testing.T) {
	t.Parallel()
	dir, other := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, other} {
		if err := os.Mkdir(filepath.Join(d, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy := "hooks:\n  - {id: no-env, event: pre_tool_use, matcher: \"Write|Edit\", if: 'Write(**/.env)', reject: true, action: {type: command, command: \"echo no env\"}}\n"
	if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	cf := &configFlags{files: []string{filepath.Join(dir, "hooks.yaml")}, dir: ".hookcore"}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = newServer(ownUIDEnv(t, dir, nil), cf, "tok").httpServer()
	ts.Start()
	defer ts.Close()
	in := `{"session_id":"s1","cwd":"` + other + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(other, ".env") + `","content":"x"}}`
	got, wait := ownUIDEnv(t, other, strings.NewReader(in)).hook(context.Background(), bridge.Claude{}, "", cf, &hookFlags{onError: "block", server: ts.URL, stateDir: filepath.Join(dir, "state")})
	wait()
	if got.Code != 2 || !strings.Contains(got.Stderr, "no env") {
		t.Errorf("a Write to the other project's .env through serve: exit %d, stderr %q; want the block", got.Code, got.Stderr)
	}
}

// TestServeReloadsDotEnv: serve judges the workspace's Gemini CLI .env again when it
// changes, as the hook command does at every event: a .env a trust grant accepted, then
// changed (the agent can write it), is refused again (stop 29). Not parallel: the .env's
// variable must be set in this process, as Gemini CLI sets it in the hook's.
func TestServeReloadsDotEnv(t *testing.T) {
	t.Setenv("JAVA_HOME", "/usr/lib/jvm/17")
	dir := t.TempDir()
	for p, content := range map[string]string{
		".git/HEAD":  "ref: refs/heads/main\n",
		".env":       "JAVA_HOME=/usr/lib/jvm/17\n",
		"hooks.yaml": servePolicy,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := testEnv(t, dir, nil)
	set, _, err := e.workspaceConfig(dir, ".hookcore", systemFlags{})
	if err != nil {
		t.Fatal(err)
	}
	envs, _ := e.projectEnvs(dir)
	if err := hookcore.GrantTrustEnv(trust.DefaultStore(e.home), set, dir, envs, time.Now()); err != nil {
		t.Fatal(err)
	}
	srv := newServer(e, &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	p, _ := bridge.Lookup("gemini")
	ls := []byte(`{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`)
	if a, _ := srv.answer(context.Background(), p, "", ls, true); strings.Contains(string(a.Stdout)+a.Stderr, "JAVA_HOME") {
		t.Fatalf("granted .env refused: %+v", a)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("JAVA_HOME=/usr/lib/jvm/17\nMORE=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a, _ := srv.answer(context.Background(), p, "", ls, true); !strings.Contains(string(a.Stdout)+a.Stderr, "does not accept it as it is now") {
		t.Errorf("changed .env: %+v", a)
	}
}

// TestServeStampsGeminiExtensions: serve's config stamp changes when a Gemini CLI extension
// is installed, when extension-enablement.json changes and when an extension's manifest
// does (stop 31): they decide which extension hooks load, and serve reloads on the stamp.
func TestServeStampsGeminiExtensions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := testEnv(t, dir, nil)
	cf := &configFlags{dir: ".hookcore"}
	exts := filepath.Join(e.home, ".gemini", "extensions")
	stamp := func() string { return e.configStamp(cf, &stampCache{}, "h") }
	cached := &stampCache{}
	first := e.configStamp(cf, cached, "h")
	steps := []struct{ name, path, content string }{
		{"a new extension", "x/gemini-extension.json", `{"name": "x", "version": "1"}`},
		{"its hooks", "x/hooks/hooks.json", `{"hooks": {}}`},
		{"the enablement file", "extension-enablement.json", `{"x": {"overrides": ["!/*"]}}`},
		{"the enablement file edited", "extension-enablement.json", `{"x": {"overrides": ["/*"]}}  `},
		{"the manifest edited", "x/gemini-extension.json", `{"name": "y", "version": "1"}`},
	}
	prev := first
	for _, s := range steps {
		p := filepath.Join(exts, s.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := e.configStamp(cf, cached, "h"); got == prev {
			t.Errorf("%s: the cached stamp did not change", s.name)
		}
		prev = stamp()
		cached = &stampCache{}
		e.configStamp(cf, cached, "h")
	}
}

// TestServeClaudeHTTPInputErrorBlockForm (red team round 65): an input serve could not
// decode was answered in PreToolUse's form (permissionDecision deny), which Claude Code
// does not take as a block on UserPromptSubmit, Stop, PermissionRequest, PostToolUse or
// SubagentStop. The block now comes in the form of the event the input names, when its
// hook_event_name alone can be read (once); the path's event wins over it.
func TestServeClaudeHTTPInputErrorBlockForm(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(servePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	ts := httptest.NewServer(srv.handler())
	defer ts.Close()
	const deny = `"hookEventName":"PreToolUse","permissionDecision":"deny"`
	for _, tt := range []struct {
		path, input string
		want        []string
	}{
		{"", `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":5}`, []string{`"decision":"block"`}},
		{"", `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":"yes"}`, []string{`"decision":"block"`}},
		{"", `{"session_id":"s","hook_event_name":"PermissionRequest","tool_name":"Bash"}`, []string{`"hookEventName":"PermissionRequest"`, `"behavior":"deny"`}},
		{"", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_name":"Bash","tool_input":{},"tool_response":{}}`, []string{`"decision":"block"`}},
		{"", `{"session_id":"s","session_id":"s","hook_event_name":"SubagentStop","stop_hook_active":false}`, []string{`"decision":"block"`}},
		// The event cannot be told: PreToolUse's deny, as before.
		{"", `{"session_id":"s","hook_event_name":"Stop","hook_event_name":"Stop","stop_hook_active":"yes"}`, []string{deny}},
		{"", `{"session_id":"s","hook_event_name":"Stop","Hook_Event_Name":"PreToolUse"}`, []string{deny}},
		{"", `{"session_id":"s","hook_event_name":5}`, []string{deny}},
		{"", `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":"yes"`, []string{deny}},
		// The path's event wins.
		{"/PreToolUse", `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":"yes"}`, []string{deny}},
		{"/Stop", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":5}`, []string{`"decision":"block"`}},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/hook/claude"+tt.path, strings.NewReader(tt.input))
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range tt.want {
			if resp.StatusCode != 200 || !strings.Contains(string(body), w) {
				t.Errorf("%s %s: got %d %s, want 200 with %s", tt.path, tt.input, resp.StatusCode, body, w)
			}
		}
	}
}

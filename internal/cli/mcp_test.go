//go:build !hookcore_lean

package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/mcptool"
	"github.com/hookcore/hookcore/trust"
)

// mcpSettings is a Claude Code settings file with mcp_tool hooks (research note §2.5,
// "MCP tool handler"): a PreToolUse guard on Bash whose input takes the command from the
// event input, an isError tool on Edit, a server no file declares on Write, a server that
// dies on Read, and an echo on UserPromptSubmit whose text result is context.
const mcpSettings = `{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "mcp_tool", "server": "guard", "tool": "guard", "input": {"command": "${tool_input.command}"}}]},
    {"matcher": "Edit", "hooks": [{"type": "mcp_tool", "server": "guard", "tool": "fail"}]},
    {"matcher": "Write", "hooks": [{"type": "mcp_tool", "server": "nowhere", "tool": "guard"}]},
    {"matcher": "Read", "hooks": [{"type": "mcp_tool", "server": "guard", "tool": "die"}]}
  ],
  "UserPromptSubmit": [{"hooks": [{"type": "mcp_tool", "server": "guard", "tool": "echo",
    "input": {"prompt": "${prompt}", "n": 2, "text": "session ${session_id}, $HOME kept"}}]}]
}}`

// mcpProject writes a project with .claude/settings.json (mcpSettings) and a .mcp.json that
// declares "guard" as the stdio test server (mcpserver, logging its starts to log), and a
// home; it returns the project, the home and the log path.
func mcpProject(t *testing.T) (project, home, log string) {
	t.Helper()
	dir := t.TempDir()
	project, home = filepath.Join(dir, "project"), filepath.Join(dir, "home")
	log = filepath.Join(dir, "mcp.log")
	for _, d := range []string{filepath.Join(project, ".claude"), filepath.Join(project, ".git"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(project, ".claude", "settings.json"), mcpSettings)
	write(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"guard": {"command": "mcpserver", "env": {"MCP_LOG": "`+log+`"}}}}`)
	return project, home, log
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mcpRunner loads the project's settings as discovery would (Project layer, with the
// project's and the user's MCP sources) into a Runner with the CLI's mcp_tool factory and
// the trust store of home; grant trusts the workspace first.
func mcpRunner(t *testing.T, project, home string, grant bool) *hookcore.Runner {
	t.Helper()
	set, errs := config.Load([]config.LayerPath{{Path: filepath.Join(project, ".claude", "settings.json"), Layer: config.Project}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	set.MCP = config.MCPSources(project, home, nil)
	store := trust.DefaultStore(home)
	if grant {
		if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: project, Trust: store,
		Executors: map[string]hookcore.ExecutorFactory{config.TypeMCPTool: mcptool.Factory}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// toolCall is a PreToolUse input of tool with the arguments Claude Code sends: a Bash call
// has the command, a file tool's call a file_path (with a `command` too, it would also be a
// Bash call to the guards: README, "Events").
func toolCall(project, tool, command string) *hook.Input {
	call := map[string]string{"file_path": "a.txt"}
	if tool == "Bash" {
		call = map[string]string{"command": command}
	}
	args, _ := json.Marshal(call)
	return &hook.Input{SessionID: "s1", Cwd: project, HookEventName: "PreToolUse", ToolName: tool, ToolInput: args}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// TestMCPToolStdio runs mcp_tool hooks end to end through the Runner against a real MCP
// server over stdio (the test binary as mcpserver, built with the official SDK), in a
// trusted workspace: the tool's text result is read like command stdout, so its JSON
// decides (a deny blocks, an allow allows); an isError result, a server no file declares
// and a server that dies in the call are non-blocking errors; plain text on
// UserPromptSubmit is context, with ${path} filled from the event input. One server
// process serves every call, and Close stops it.
func TestMCPToolStdio(t *testing.T) {
	t.Parallel()
	project, home, log := mcpProject(t)
	r := mcpRunner(t, project, home, true)
	ctx := context.Background()
	fire := func(tool, command string) hook.Result {
		return r.Fire(ctx, hook.PreToolUse, toolCall(project, tool, command))
	}

	if res := fire("Bash", "rm -rf /"); !res.Blocked || res.Permission != hook.Deny || res.Reason != "mcp guard: rm -rf refused" {
		t.Errorf("rm -rf: %+v", res)
	}
	if res := fire("Bash", "ls"); res.Blocked || res.Permission != hook.Allow {
		t.Errorf("ls: %+v", res)
	}
	for _, tc := range []struct{ tool, err string }{
		{"Edit", "tool error: guard crashed"},
		{"Write", `no MCP server "nowhere"`},
		{"Read", "mcp_tool hook"},
	} {
		res := fire(tc.tool, "x")
		if res.Blocked || res.Errors != 1 || len(res.Hooks) != 1 || res.Hooks[0].Outcome != hook.OutcomeError || !strings.Contains(res.Hooks[0].Error, tc.err) {
			t.Errorf("%s: want a non-blocking error with %q, got %+v", tc.tool, tc.err, res)
		}
	}
	// The server that died is restarted by the next call.
	if res := fire("Bash", "rm -rf ~"); !res.Blocked {
		t.Errorf("after the server died: %+v", res)
	}
	res := r.Fire(ctx, hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Cwd: project, HookEventName: "UserPromptSubmit", Prompt: "hi there"})
	if want := `echo: {"n":2,"prompt":"hi there","text":"session s1, $HOME kept"}`; res.AdditionalContext != want {
		t.Errorf("context = %q, want %q (%+v)", res.AdditionalContext, want, res)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"start", "die", "start", "exit"}
	if got := lines(t, log); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("server log = %v, want %v (one process until it died, one after, stopped by Close)", got, want)
	}
}

// TestMCPToolUntrustedProject: the project's .mcp.json server is a command from the
// repository: in a workspace that is not trusted, or whose .mcp.json changed since it was,
// an mcp_tool hook naming it is a non-blocking error saying so, and no process starts.
// Claude Code likewise asks before it starts a project's .mcp.json servers.
func TestMCPToolUntrustedProject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		grant  bool
		change bool
		why    string
	}{
		{"never trusted", false, false, "workspace not trusted"},
		{".mcp.json changed after the grant", true, true, ".mcp.json changed since the workspace was trusted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			project, home, log := mcpProject(t)
			set, _ := config.Load([]config.LayerPath{{Path: filepath.Join(project, ".claude", "settings.json"), Layer: config.User}})
			set.MCP = config.MCPSources(project, home, nil)
			store := trust.DefaultStore(home)
			if tc.grant {
				if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			if tc.change {
				write(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"guard": {"command": "mcpserver", "args": ["x"], "env": {"MCP_LOG": "`+log+`"}}}}`)
				set.MCP = config.MCPSources(project, home, nil)
			}
			// The hooks are the user's own (User layer): only the server is the project's.
			r, err := hookcore.New(set, hookcore.Options{ProjectDir: project, Trust: store,
				Executors: map[string]hookcore.ExecutorFactory{config.TypeMCPTool: mcptool.Factory}})
			if err != nil {
				t.Fatal(err)
			}
			res := r.Fire(context.Background(), hook.PreToolUse, toolCall(project, "Bash", "rm -rf /"))
			if res.Blocked || len(res.Hooks) != 1 || res.Hooks[0].Outcome != hook.OutcomeError ||
				!strings.Contains(res.Hooks[0].Error, "untrusted project .mcp.json") || !strings.Contains(res.Hooks[0].Error, tc.why) {
				t.Errorf("want a non-blocking error saying %q, got %+v", tc.why, res)
			}
			if err := r.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := lines(t, log); len(got) != 0 {
				t.Errorf("an untrusted project server started: %v", got)
			}
		})
	}
}

// TestMCPToolUntrustedCannotShadowUser: a repository cannot switch off the user's mcp_tool
// guard by declaring a server of the same name in its .mcp.json: while the workspace is not
// trusted, the user's server (~/.claude.json) is the one called; once it is trusted, the
// project's wins, as in Claude Code (project scope over user scope).
func TestMCPToolUntrustedCannotShadowUser(t *testing.T) {
	t.Parallel()
	project, home, log := mcpProject(t)
	userLog := log + ".user"
	write(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"guard": {"command": "mcpserver", "env": {"MCP_LOG": "`+userLog+`"}}}}`)
	set, _ := config.Load([]config.LayerPath{{Path: filepath.Join(project, ".claude", "settings.json"), Layer: config.User}})
	set.MCP = config.MCPSources(project, home, nil)
	store := trust.DefaultStore(home)
	run := func() hook.Result {
		r, err := hookcore.New(set, hookcore.Options{ProjectDir: project, Trust: store,
			Executors: map[string]hookcore.ExecutorFactory{config.TypeMCPTool: mcptool.Factory}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		return r.Fire(context.Background(), hook.PreToolUse, toolCall(project, "Bash", "rm -rf /"))
	}
	if res := run(); !res.Blocked || len(lines(t, userLog)) == 0 || len(lines(t, log)) != 0 {
		t.Errorf("untrusted: the user's guard must decide: %+v, user log %v, project log %v", res, lines(t, userLog), lines(t, log))
	}
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := run(); !res.Blocked || len(lines(t, log)) == 0 {
		t.Errorf("trusted: the project's server must be called: %+v, project log %v", res, lines(t, log))
	}
}

// TestMCPServersNamesAndPrecedence: a plugin's servers are "plugin:<plugin>:<server>"
// (research note §2.5); a name in several scopes resolves local over project over user
// (Claude Code's precedence); a source that does not parse is reported and left out.
func TestMCPServersNamesAndPrecedence(t *testing.T) {
	t.Parallel()
	src := func(scope string, layer config.Layer, plugin, data string) config.MCPSource {
		return config.MCPSource{Path: scope + ".json", Scope: scope, Layer: layer, Plugin: plugin, Data: []byte(data)}
	}
	set := &config.Set{MCP: []config.MCPSource{
		src("local", config.User, "", `{"mcpServers": {"a": {"command": "local-a"}}}`),
		src("project", config.Project, "", `{"mcpServers": {"a": {"command": "project-a"}, "b": {"command": "project-b"}}}`),
		src("user", config.User, "", `{"mcpServers": {"a": {"command": "user-a"}, "b": {"command": "user-b"}, "c": {"command": "user-c"}}}`),
		src("plugin", config.User, "fmt", `{"mcpServers": {"a": {"command": "plugin-a"}}}`),
		src("plugin", config.User, "broken", `{nope`),
	}}
	got, errs := mcptool.Servers(set, true)
	want := map[string]string{"a": "local-a", "b": "project-b", "c": "user-c", "plugin:fmt:a": "plugin-a"}
	if len(got) != len(want) {
		t.Errorf("servers = %v, want %v", got, want)
	}
	for name, cmd := range want {
		if got[name].Command != cmd {
			t.Errorf("%s = %q, want %q", name, got[name].Command, cmd)
		}
	}
	if !got["b"].Project || got["c"].Project {
		t.Errorf("Project marks: b %v, c %v", got["b"].Project, got["c"].Project)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "plugin.json (plugin scope)") {
		t.Errorf("errors = %v", errs)
	}
	// Untrusted, the project's b does not shadow the user's.
	got, _ = mcptool.Servers(set, false)
	if got["b"].Command != "user-b" || got["a"].Command != "local-a" {
		t.Errorf("untrusted: b = %q, a = %q", got["b"].Command, got["a"].Command)
	}
}

// TestMCPToolClaudeDifferential fires the cases that the real Claude Code 2.1.332 ran in
// peer-claude scenario testdata/claude/mcp-tool (its settings.json, the same stdio server)
// through hookcore, and checks hookcore did what Claude Code did: the arguments the server
// received (every ${path} as text), the deny, the non-blocking errors of an isError result
// and of an undeclared server, one server process for all calls.
func TestMCPToolClaudeDifferential(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "claude", "mcp-tool")
	var obs struct {
		RecordArgs   map[string]any `json:"record_args"`
		ServerStarts int            `json:"server_starts"`
		Cases        []struct {
			Tool  string          `json:"tool"`
			Input json.RawMessage `json:"input"`
			Want  struct {
				Blocked       bool   `json:"blocked"`
				Permission    string `json:"permission"`
				Outcome       string `json:"outcome"`
				ErrorContains string `json:"error_contains"`
			} `json:"want"`
		} `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "observed-mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &obs); err != nil {
		t.Fatal(err)
	}
	settings, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	project, home, log := mcpProject(t)
	write(t, filepath.Join(project, ".claude", "settings.json"), string(settings))
	r := mcpRunner(t, project, home, true)
	for _, c := range obs.Cases {
		res := r.Fire(context.Background(), hook.PreToolUse, &hook.Input{SessionID: "s1", Cwd: project, HookEventName: "PreToolUse", ToolName: c.Tool, ToolInput: c.Input})
		if res.Blocked != c.Want.Blocked || (c.Want.Permission != "" && res.Permission.String() != c.Want.Permission) {
			t.Errorf("%s: blocked %v permission %v, want %+v", c.Tool, res.Blocked, res.Permission, c.Want)
		}
		if c.Want.Outcome != "" && (len(res.Hooks) != 1 || res.Hooks[0].Outcome.String() != c.Want.Outcome || !strings.Contains(res.Hooks[0].Error, c.Want.ErrorContains)) {
			t.Errorf("%s: hooks %+v, want %+v", c.Tool, res.Hooks, c.Want)
		}
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	starts, records := 0, 0
	data, _ := os.ReadFile(log)
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "start":
			starts++
		case strings.HasPrefix(line, "record "):
			records++
			var got map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "record ")), &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(obs.RecordArgs, got); d != "" {
				t.Errorf("arguments the server received (-claude +hookcore):\n%s", d)
			}
		}
	}
	if starts != obs.ServerStarts || records != 1 {
		t.Errorf("server starts %d (Claude Code: %d), record calls %d", starts, obs.ServerStarts, records)
	}
}

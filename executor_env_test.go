package hookcore_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/trust"
)

type countCloser struct{ closed *atomic.Int32 }

func (c countCloser) Close() error { c.closed.Add(1); return nil }

// TestExecutorEnvShared: what a registered factory is given (ExecutorEnv): the hook's
// timeout with Claude Code's defaults applied (600 s for an mcp_tool hook of a settings
// file, 30 s on UserPromptSubmit), the set, and Shared, which opens one value per key for
// the whole hook set and closes it once, when Reload replaces the set and on Close; and
// ProjectUntrusted, the verdict on the project's .mcp.json: untrusted until a grant binds
// the file.
func TestExecutorEnvShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, dir, "settings.json", `{"hooks": {
  "PreToolUse": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "a"}, {"type": "mcp_tool", "server": "s", "tool": "b", "timeout": 7}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "c"}]}]
}}`)
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"s": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.User}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	set.MCP = config.MCPSources(dir, "", nil)
	var opened, closed atomic.Int32
	timeouts := map[string]time.Duration{}
	var untrusted []string
	factory := func(_ context.Context, h *config.Hook, env hookcore.ExecutorEnv) (hook.Executor, error) {
		timeouts[h.Action.Tool] = env.Timeout
		untrusted = append(untrusted, env.ProjectUntrusted)
		if env.Set != set {
			t.Error("env.Set is not the set being compiled")
		}
		if _, err := env.Shared("pool", func() (io.Closer, error) { opened.Add(1); return countCloser{&closed}, nil }); err != nil {
			return nil, err
		}
		return hook.ExecutorFunc(func(context.Context, *hook.Input) (hook.Decision, error) { return hook.Decision{}, nil }), nil
	}
	store := trust.NewStore(filepath.Join(dir, "trust.json"))
	opts := hookcore.Options{ProjectDir: dir, Trust: store, Executors: map[string]hookcore.ExecutorFactory{config.TypeMCPTool: factory}}
	r, err := hookcore.New(set, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]time.Duration{"a": 600 * time.Second, "b": 7 * time.Second, "c": 30 * time.Second}; len(timeouts) != 3 || timeouts["a"] != want["a"] || timeouts["b"] != want["b"] || timeouts["c"] != want["c"] {
		t.Errorf("timeouts = %v, want %v", timeouts, want)
	}
	if opened.Load() != 1 || closed.Load() != 0 {
		t.Errorf("after New: opened %d, closed %d; want 1, 0", opened.Load(), closed.Load())
	}
	for _, u := range untrusted {
		if !strings.Contains(u, "workspace not trusted") {
			t.Errorf("ProjectUntrusted before the grant = %q", u)
		}
	}
	if err := hookcore.GrantTrust(store, set, dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	untrusted = nil
	if err := r.Reload(set); err != nil {
		t.Fatal(err)
	}
	if opened.Load() != 2 || closed.Load() != 1 {
		t.Errorf("after Reload: opened %d, closed %d; want 2, 1", opened.Load(), closed.Load())
	}
	for _, u := range untrusted {
		if u != "" {
			t.Errorf("ProjectUntrusted after the grant = %q", u)
		}
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if closed.Load() != 2 {
		t.Errorf("after Close: closed %d, want 2", closed.Load())
	}
}

// TestMCPToolWithoutExecutor: a Runner whose program registered no mcp_tool executor fails
// such a hook when it runs (non-blocking), saying so; the load does not fail.
func TestMCPToolWithoutExecutor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, dir, "settings.json", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "a"}]}]}}`)
	r, err := hookcore.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}, hookcore.Options{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if res.Blocked || len(res.Hooks) != 1 || !strings.Contains(res.Hooks[0].Error, "does not link the mcp_tool executor") {
		t.Errorf("%+v", res)
	}
}

package rego

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

func loadRunner(t *testing.T, dir, yaml string, executors map[string]hookcore.ExecutorFactory) *hookcore.Runner {
	t.Helper()
	p := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := config.Load([]config.LayerPath{{Path: p, Layer: config.Explicit}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir, Executors: executors})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

// TestRunnerRegoHooks: a rego hook through the Runner, with its policy relative to the
// config file; a policy error blocks under on_error: block and only logs without it; a
// program that registers no rego executor says so in the hook's error.
func TestRunnerRegoHooks(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pol"), 0o755)
	os.WriteFile(filepath.Join(dir, "pol", "p.rego"), []byte("package hookcore\ndeny contains \"no\" if input.tool_input.command == \"rm\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.rego"), []byte("package hookcore\nx := 1 if true\nx := 2 if true\n"), 0o644)
	cfg := `hooks:
  - {id: pol, event: pre_tool_use, action: {type: rego, policy: pol/}}
  - {id: broken-guard, event: pre_tool_use, matcher: Edit, action: {type: rego, policy: broken.rego}, on_error: block}
  - {id: broken-soft, event: pre_tool_use, matcher: Write, action: {type: rego, policy: broken.rego}}
`
	r := loadRunner(t, dir, cfg, map[string]hookcore.ExecutorFactory{config.TypeRego: Factory})
	res := r.Fire(context.Background(), hook.PreToolUse, bashInput("rm"))
	if !res.Blocked || res.Reason != "no" {
		t.Fatalf("%+v", res)
	}
	if res := r.Fire(context.Background(), hook.PreToolUse, bashInput("ls")); res.Blocked {
		t.Fatalf("ls blocked: %+v", res)
	}
	edit := &hook.Input{ToolName: "Edit", ToolInput: []byte(`{"file_path":"a"}`)}
	if res := r.Fire(context.Background(), hook.PreToolUse, edit); !res.Blocked || res.Errors != 1 {
		t.Fatalf("a policy error of an on_error: block guard did not block: %+v", res)
	}
	write := &hook.Input{ToolName: "Write", ToolInput: []byte(`{"file_path":"a"}`)}
	if res := r.Fire(context.Background(), hook.PreToolUse, write); res.Blocked || res.Errors != 1 {
		t.Fatalf("a policy error without on_error: block: %+v", res)
	}

	plain := loadRunner(t, dir, cfg, nil)
	res = plain.Fire(context.Background(), hook.PreToolUse, bashInput("rm"))
	if len(res.Hooks) == 0 || !strings.Contains(res.Hooks[0].Error, "does not link the rego executor") {
		t.Fatalf("%+v", res.Hooks)
	}
}

// TestReloadClosesPollers: Reload and Close stop the bundle pollers of the replaced set
// (goleak in TestMain would report a poller left running).
func TestReloadClosesPollers(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "r1", map[string]string{"/p.rego": v1}, ""), `"r1"`)
	ts := newLoopbackServer(t, srv)
	dir := t.TempDir()
	cfg := "hooks:\n  - {id: b, event: pre_tool_use, action: {type: rego, bundle_url: \"" + ts + "\", bundle_poll: 10ms, allowed_hosts: [127.0.0.1]}}\n"
	r := loadRunner(t, dir, cfg, map[string]hookcore.ExecutorFactory{config.TypeRego: Factory})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashInput("ls")); res.Reason != "v1 says no" {
		t.Fatalf("%+v", res)
	}
	p := filepath.Join(dir, "hooks.yaml")
	set, _ := config.Load([]config.LayerPath{{Path: p, Layer: config.Explicit}})
	if err := r.Reload(set); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

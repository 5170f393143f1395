package hookcore_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/trust"
)

// TestUntrustedDisableAllHooksIgnored: an untrusted workspace's `disable_all_hooks: true`
// must not switch off the user's own guard; once the workspace is trusted, it does.
// Regression: the Runner honoured Set.Disabled whatever layer said it.
func TestUntrustedDisableAllHooksIgnored(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	set := loadLayers(t, project,
		layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User,
			"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"echo no >&2; exit 2\"}}\n"},
		layerFile{".hookcore/hooks.yaml", config.Project, "disable_all_hooks: true\n"},
	)
	r := newRunner(t, project, set, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf /")); !res.Blocked {
		t.Fatalf("untrusted disable_all_hooks turned off the user's guard: %+v", summarize(res))
	}
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	r = newRunner(t, project, set, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf /")); res.Blocked || len(res.Hooks) != 0 {
		t.Fatalf("trusted disable_all_hooks must turn hooks off: %+v", summarize(res))
	}
}

// TestLoadIgnoresUntrustedProjectErrors: hookcore.Load, like the CLI, ignores a file that
// cannot load when it lies in an untrusted workspace's project layer, so the user's own
// guard still loads; the same in a trusted workspace, or in a user layer, fails the load.
func TestLoadIgnoresUntrustedProjectErrors(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	user := writeFile(t, home, ".hookcore/hooks.yaml",
		"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"echo no >&2; exit 2\"}}\n")
	proj := writeFile(t, project, ".hookcore/hooks.yaml", "hooks: [ {id: broken, event: pre_tool_use\n")
	paths := []config.LayerPath{{Path: user, Layer: config.User}, {Path: proj, Layer: config.Project}}
	r, err := hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project})
	if err != nil {
		t.Fatalf("untrusted project errors stopped the load: %v", err)
	}
	defer r.Close(context.Background())
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls")); !res.Blocked {
		t.Fatalf("the user's guard did not run: %+v", summarize(res))
	}
	if _, err := hookcore.Load(paths, hookcore.Options{ProjectDir: project}); err == nil {
		t.Fatal("without a trust gate, a file that cannot load must fail the load")
	}
	set, _ := config.Load(paths)
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project}); err == nil {
		t.Fatal("a trusted workspace's errors must fail the load")
	}
}

// TestLoadSkipsBrokenEntries: a hook entry with an error is skipped and the file's other
// hooks run (issue 8.2); a broken gate guard that says on_error: block blocks its event,
// with a reason saying it is misconfigured, and only the calls its matcher selects.
func TestLoadSkipsBrokenEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, dir, "settings.json", `{"hooks": {
  "WorktreeCreate": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "mcp_tool", "server": "s"}]},
    {"matcher": "Write", "hooks": [{"type": "command", "command": "echo no-write >&2; exit 2"}]},
    {"matcher": "Edit", "hooks": [{"type": "command", "command": "exit 0", "onError": "block", "if": "tool == && x"}]}
  ]
}}`)
	r, err := hookcore.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}, hookcore.Options{ProjectDir: dir})
	if err != nil {
		t.Fatalf("a broken entry failed the load: %v", err)
	}
	defer r.Close(context.Background())
	call := func(tool string) hook.Result {
		in := bashCall(dir, "s1", "ls")
		in.ToolName = tool
		return r.Fire(context.Background(), hook.PreToolUse, in)
	}
	if res := call("Write"); !res.Blocked || res.Reason != "no-write" {
		t.Errorf("the valid guard did not run: %+v", summarize(res))
	}
	if res := call("Bash"); res.Blocked {
		t.Errorf("a skipped entry blocked: %+v", summarize(res))
	}
	res := call("Edit")
	if !res.Blocked || !strings.Contains(res.Reason, "guard is misconfigured: ") || !strings.Contains(res.Reason, "bad if condition") {
		t.Errorf("the misconfigured on_error: block guard did not block with its reason: %+v", summarize(res))
	}
}

// TestFatalProblemsBrokenExtension: a discovered Gemini CLI extension's hooks file that
// does not parse is skipped, as Gemini CLI skips it, and the user's own guard loads; the
// same file named on the command line (Explicit), or a user's file of its own that does
// not parse, still fails the load (docs/decisions.md, "Broken files: what each command does
// (stop 31)").
func TestFatalProblemsBrokenExtension(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	user := writeFile(t, home, ".hookcore/hooks.yaml",
		"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"echo no >&2; exit 2\"}}\n")
	writeFile(t, home, ".gemini/extensions/broken/gemini-extension.json", `{"name": "broken", "version": "1.0.0"}`)
	ext := writeFile(t, home, ".gemini/extensions/broken/hooks/hooks.json", "{\"hooks\": {\"BeforeTool\": [\n}}\n")
	bad := writeFile(t, home, "bad.yaml", "hooks: [ {id: x\n")
	extension := config.LayerPath{Path: ext, Layer: config.User,
		Extension: &config.GeminiExtension{Name: "broken", Path: filepath.Dir(filepath.Dir(ext)), Workspace: home}}
	tests := []struct {
		name  string
		paths []config.LayerPath
		fatal bool
	}{
		{"discovered extension", []config.LayerPath{{Path: user, Layer: config.User}, extension}, false},
		{"named extension", []config.LayerPath{{Path: user, Layer: config.User}, {Path: ext, Layer: config.Explicit}}, true},
		{"user's own file", []config.LayerPath{{Path: bad, Layer: config.User}, extension}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set, problems := config.Load(tt.paths)
			if problems.Err() == nil {
				t.Fatal("config.Load reported no error")
			}
			fatal := hookcore.FatalProblems(set, problems, nil, home)
			if got := len(fatal) > 0; got != tt.fatal {
				t.Fatalf("fatal = %v, want %v (%v)", fatal, tt.fatal, problems)
			}
			if tt.fatal {
				return
			}
			r, err := hookcore.Load(tt.paths, hookcore.Options{ProjectDir: home})
			if err != nil {
				t.Fatalf("a broken extension failed the load: %v", err)
			}
			defer r.Close(context.Background())
			if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(home, "s1", "ls")); !res.Blocked {
				t.Fatalf("the user's guard did not run: %+v", summarize(res))
			}
		})
	}
}

// TestLoadLogsUntrustedProject (new-user trial, stop 34): Load with a logger says that an
// untrusted workspace's project hooks do not run, and how to trust it; a trusted one says
// nothing.
func TestLoadLogsUntrustedProject(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	proj := writeFile(t, project, ".hookcore/hooks.yaml",
		"hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"exit 2\"}}\n")
	paths := []config.LayerPath{{Path: proj, Layer: config.Project}}
	var logged strings.Builder
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	r, err := hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	r.Close(context.Background())
	if !strings.Contains(logged.String(), "this workspace is not trusted") || !strings.Contains(logged.String(), "hookcore trust grant") {
		t.Errorf("untrusted: logged %q, want the project's hooks said not to run and how to trust them", logged.String())
	}
	set, _ := config.Load(paths)
	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	logged.Reset()
	r, err = hookcore.Load(paths, hookcore.Options{Trust: store, ProjectDir: project, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	r.Close(context.Background())
	if logged.Len() != 0 {
		t.Errorf("trusted: logged %q, want nothing", logged.String())
	}
}

package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestHookConfigOption: Options.HookConfig reaches a `changes hook_config` condition (red
// team round 53: `cp x ~/.mi*/config.yaml` named no config file a rule could see), and a
// Runner without it never holds the clause.
func TestHookConfigOption(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: config, event: pre_tool_use, matcher: Bash|Write, if: 'args.command changes hook_config || file_path changes hook_config', action: {type: command, command: /bin/true}, reject: true}
`)
	cfg := filepath.Join(dir, "home", ".minicode", "config.yaml")
	for _, tc := range []struct {
		name, tool, input string
		config            []string
		want              bool
	}{
		{"glob", "Bash", `{"command":"cp x ` + filepath.Join(dir, "home") + `/.mi*/config.yaml"}`, []string{cfg}, true},
		{"Write", "Write", `{"file_path":"` + cfg + `","content":"x"}`, []string{cfg}, true},
		{"project file", "Bash", `{"command":"git add . && cp a.txt b.txt"}`, []string{cfg}, false},
		{"unset", "Bash", `{"command":"cp x ` + cfg + `"}`, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, dir, set, hookcore.Options{HookConfig: tc.config})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tc.tool, ToolInput: json.RawMessage(tc.input)}
			if res := r.Fire(context.Background(), hook.PreToolUse, in); res.Blocked != tc.want {
				t.Errorf("blocked %v, want %v: %+v", res.Blocked, tc.want, res)
			}
		})
	}
}

// TestHookConfigSessionRoots: with SessionRoots, the config paths under ProjectDir are taken
// in each event's own project too.
func TestHookConfigSessionRoots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj, other := filepath.Join(dir, "proj"), filepath.Join(dir, "other")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(other, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: config, event: pre_tool_use, matcher: Bash, if: 'args.command changes hook_config', action: {type: command, command: /bin/true}, reject: true}
`)
	r := newRunner(t, dir, set, hookcore.Options{ProjectDir: proj, SessionRoots: true, HookConfig: []string{filepath.Join(proj, ".claude", "settings.json")}})
	for _, tc := range []struct {
		cwd, cmd string
		want     bool
	}{
		{proj, "cp x .c*/s*", true},
		{other, "cp x .c*/s*", true},
		{other, "cp x src/s*", false},
	} {
		in := &hook.Input{SessionID: "s1", Cwd: tc.cwd, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"` + tc.cmd + `"}`)}
		if res := r.Fire(context.Background(), hook.PreToolUse, in); res.Blocked != tc.want {
			t.Errorf("%q in %s: blocked %v, want %v", tc.cmd, tc.cwd, res.Blocked, tc.want)
		}
	}
}

// TestHookConfigEventCwd: without SessionRoots (the hook command), the config paths of the
// event's project count too, found from the input's cwd, not only those of ProjectDir (the
// process's project): a hook process started outside the project saw another project's
// paths (stop 32).
func TestHookConfigEventCwd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj, other := filepath.Join(dir, "proj"), filepath.Join(dir, "other")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(other, ".git"), filepath.Join(other, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: config, event: pre_tool_use, matcher: Bash, if: 'args.command changes hook_config', action: {type: command, command: /bin/true}, reject: true}
`)
	r := newRunner(t, dir, set, hookcore.Options{ProjectDir: proj, HookConfig: []string{filepath.Join(proj, ".claude", "settings.json")}})
	// serve started in / (SessionRoots): /.claude/settings.json is the project's path, taken
	// under the event's project; the home's paths are not.
	fromRoot := newRunner(t, dir, set, hookcore.Options{ProjectDir: "/", SessionRoots: true, HookConfig: []string{"/.claude/settings.json", filepath.Join(dir, "home", ".claude", "settings.json")}})
	for _, tc := range []struct {
		cwd, cmd string
		want     bool
	}{
		{proj, "cp x .c*/s*", true},
		{other, "cp x .c*/s*", true},
		{filepath.Join(other, "src"), "cp x ../.c*/s*", true},
		{other, "cp x " + proj + "/.claude/settings.json", true},
		{other, "cp x src/s*", false},
		{other, "git add .", false},
		{proj, "git add .", false},
	} {
		in := &hook.Input{SessionID: "s1", Cwd: tc.cwd, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"` + tc.cmd + `"}`)}
		if res := r.Fire(context.Background(), hook.PreToolUse, in); res.Blocked != tc.want {
			t.Errorf("%q in %s: blocked %v, want %v", tc.cmd, tc.cwd, res.Blocked, tc.want)
		}
		if tc.cwd == proj || strings.Contains(tc.cmd, proj) {
			continue // ProjectDir's own paths: not fromRoot's
		}
		if res := fromRoot.Fire(context.Background(), hook.PreToolUse, in); res.Blocked != tc.want {
			t.Errorf("serve from /: %q in %s: blocked %v, want %v", tc.cmd, tc.cwd, res.Blocked, tc.want)
		}
	}
	in := &hook.Input{SessionID: "s1", Cwd: other, HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"cp x home/.c*/s*"}`)}
	if res := fromRoot.Fire(context.Background(), hook.PreToolUse, in); res.Blocked {
		t.Errorf("serve from /: the home's path was taken under the event's project: %s", res.Reason)
	}
}

// TestHookConfigAgentProjectDir: with the agent's project directory inside a git work tree
// (Options.AgentProjectDir under the top level, the root), `changes hook_config` protects
// the project paths under it too: Claude Code reads its settings from there (red team round
// 66).
func TestHookConfigAgentProjectDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	top := filepath.Join(dir, "par9")
	w := filepath.Join(top, "w")
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w, 0o755); err != nil {
		t.Fatal(err)
	}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: config, event: pre_tool_use, matcher: Write, if: 'file_path changes hook_config', action: {type: command, command: /bin/true}, reject: true}
`)
	r := newRunner(t, dir, set, hookcore.Options{ProjectDir: top, AgentProjectDir: w, HookConfig: []string{filepath.Join(top, ".claude", "settings.json")}})
	for _, tc := range []struct {
		path string
		want bool
	}{
		{filepath.Join(w, ".claude", "settings.json"), true},
		{filepath.Join(top, ".claude", "settings.json"), true},
		{filepath.Join(w, "src", "settings.json"), false},
	} {
		in := &hook.Input{SessionID: "s1", Cwd: w, HookEventName: "PreToolUse", ToolName: "Write", ToolInput: json.RawMessage(`{"file_path":"` + tc.path + `","content":"x"}`)}
		if res := r.Fire(context.Background(), hook.PreToolUse, in); res.Blocked != tc.want {
			t.Errorf("Write %s: blocked %v, want %v", tc.path, res.Blocked, tc.want)
		}
	}
}

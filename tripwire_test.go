package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// tripwirePolicy blocks a PostToolUse when the tool call changed the hook config, with
// what changed as the reason (HOOKCORE_CONFIG_CHANGED).
const tripwirePolicy = `hooks:
  - id: tripwire
    event: post_tool_use
    if: 'tool changed hook_config'
    action: {type: command, command: 'printf ''{"decision": "block", "reason": "changed: %s"}'' "$HOOKCORE_CONFIG_CHANGED"'}
  - id: tripwire-failure
    event: post_tool_use_failure
    if: 'tool changed hook_config'
    action: {type: command, command: 'printf ''{"decision": "block", "reason": "changed: %s"}'' "$HOOKCORE_CONFIG_CHANGED"'}
  - id: deny-rm
    event: pre_tool_use
    matcher: Bash
    if: 'args.command =~ /^rm /'
    action: {type: command, command: /bin/true}
    reject: true
`

// tripwireFixture is a home and a project with hook config files, and the config paths
// that name them: an existing file, a missing one, a symbolic link, a directory walked
// whole (with the state directory inside it), and a glob.
type tripwireFixture struct {
	dir, proj, settings, missing, link, hookcoreDir, stateDir, globDir string
	paths                                                              []string
}

func newTripwireFixture(t *testing.T) *tripwireFixture {
	t.Helper()
	dir := t.TempDir()
	f := &tripwireFixture{dir: dir, proj: filepath.Join(dir, "proj")}
	f.settings = filepath.Join(f.proj, ".claude", "settings.json")
	f.missing = filepath.Join(f.proj, ".claude", "settings.local.json")
	f.link = filepath.Join(dir, "home", ".codex", "hooks.json")
	f.hookcoreDir = filepath.Join(dir, "home", ".hookcore")
	f.stateDir = filepath.Join(f.hookcoreDir, "state")
	f.globDir = filepath.Join(f.proj, ".github", "hooks")
	for _, d := range []string{filepath.Join(f.proj, ".git"), filepath.Dir(f.settings), filepath.Dir(f.link), f.stateDir, f.globDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, f.settings, `{"hooks": {}}`)
	write(t, filepath.Join(f.hookcoreDir, "hooks.yaml"), "hooks: []\n")
	write(t, filepath.Join(dir, "a.json"), `{"a": 1}`)
	write(t, filepath.Join(dir, "b.json"), `{"b": 1}`)
	if err := os.Symlink(filepath.Join(dir, "a.json"), f.link); err != nil {
		t.Fatal(err)
	}
	f.paths = []string{f.settings, f.missing, f.link, f.hookcoreDir, filepath.Join(f.globDir, "*.json")}
	return f
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *tripwireFixture) runner(t *testing.T, st state.Store) *hookcore.Runner {
	t.Helper()
	set := loadConfig(t, f.dir, "policy.yaml", tripwirePolicy)
	return newRunner(t, f.proj, set, hookcore.Options{HookConfig: f.paths, State: st})
}

func toolEvent(event hook.Event, id, command string) *hook.Input {
	in, _ := json.Marshal(map[string]string{"command": command})
	return &hook.Input{SessionID: "s1", HookEventName: string(event), ToolName: "Bash", ToolUseID: id, ToolInput: in}
}

// TestTripwire: `tool changed hook_config` holds at a call's PostToolUse when a file of the
// hook config differs from what its PreToolUse recorded, and says which and how (stop 32).
func TestTripwire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, f *tripwireFixture)
		want   string // "" nothing changed; else a part of the reason
	}{
		{"unchanged", func(*testing.T, *tripwireFixture) {}, ""},
		{"rewritten with the same content", func(t *testing.T, f *tripwireFixture) { write(t, f.settings, `{"hooks": {}}`) }, ""},
		{"state directory", func(t *testing.T, f *tripwireFixture) { write(t, filepath.Join(f.stateDir, "x.json"), "{}") }, ""},
		{"content", func(t *testing.T, f *tripwireFixture) { write(t, f.settings, `{"hooks": {"x": 1}}`) }, "settings.json: content changed"},
		{"same size content", func(t *testing.T, f *tripwireFixture) { write(t, f.settings, `{"hooks": []}`) }, "settings.json: content changed"},
		{"mode", func(t *testing.T, f *tripwireFixture) {
			if err := os.Chmod(f.settings, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "settings.json: mode changed (0600, was 0644)"},
		{"symlink swapped", func(t *testing.T, f *tripwireFixture) {
			os.Remove(f.link)
			if err := os.Symlink(filepath.Join(f.dir, "b.json"), f.link); err != nil {
				t.Fatal(err)
			}
		}, "hooks.json: link target changed"},
		{"written through the symlink", func(t *testing.T, f *tripwireFixture) { write(t, filepath.Join(f.dir, "a.json"), `{"a": 2}`) }, ".codex/hooks.json: content changed"},
		{"file replaced by a symlink", func(t *testing.T, f *tripwireFixture) {
			os.Remove(f.settings)
			if err := os.Symlink(filepath.Join(f.dir, "a.json"), f.settings); err != nil {
				t.Fatal(err)
			}
		}, "settings.json: replaced (symbolic link, was file)"},
		{"created where none was", func(t *testing.T, f *tripwireFixture) { write(t, f.missing, `{}`) }, "settings.local.json: created"},
		{"created under a directory", func(t *testing.T, f *tripwireFixture) {
			write(t, filepath.Join(f.hookcoreDir, "hooks.local.yaml"), "hooks: []\n")
		}, ".hookcore/hooks.local.yaml: created"},
		{"created by a glob", func(t *testing.T, f *tripwireFixture) { write(t, filepath.Join(f.globDir, "a.json"), "{}") }, ".github/hooks/a.json: created"},
		{"removed", func(t *testing.T, f *tripwireFixture) { os.Remove(f.settings) }, "settings.json: removed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			r := f.runner(t, &state.Dir{Path: f.stateDir})
			ctx := context.Background()
			if res := r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "python3 -c x")); res.Blocked {
				t.Fatalf("PreToolUse blocked: %s", res.Reason)
			}
			tc.change(t, f)
			res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu1", "python3 -c x"))
			if tc.want == "" {
				if res.Blocked {
					t.Fatalf("blocked, want nothing changed: %s", res.Reason)
				}
				return
			}
			if !res.Blocked || !strings.Contains(res.Reason, tc.want) {
				t.Fatalf("got blocked %v, reason %q; want a block saying %q", res.Blocked, res.Reason, tc.want)
			}
			// The record is gone: the same call's PostToolUse again judges nothing.
			if res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu1", "python3 -c x")); res.Blocked {
				t.Errorf("second PostToolUse blocked: %s", res.Reason)
			}
		})
	}
}

// TestTripwireFailureEvent: a tool that failed may still have written: PostToolUseFailure
// compares too.
func TestTripwireFailureEvent(t *testing.T) {
	t.Parallel()
	f := newTripwireFixture(t)
	r := f.runner(t, nil)
	ctx := context.Background()
	r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "x"))
	write(t, f.missing, "{}")
	in := toolEvent(hook.PostToolUseFailure, "tu1", "x")
	in.Error = "exit status 1"
	if res := r.Fire(ctx, hook.PostToolUseFailure, in); !res.Blocked || !strings.Contains(res.Reason, "created") {
		t.Fatalf("got %+v, want a block", res)
	}
}

// TestTripwireNoRecord: a PostToolUse with no record of its call judges nothing: none
// recorded (another tool_use_id, none at all), or the PreToolUse was blocked (the call did
// not run); and a "hookcore_config_changed" the agent sent is not believed.
func TestTripwireNoRecord(t *testing.T) {
	t.Parallel()
	f := newTripwireFixture(t)
	r := f.runner(t, &state.Memory{})
	ctx := context.Background()
	r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "x"))
	r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu2", "rm -rf x")) // blocked
	write(t, f.settings, "{}")
	sent := toolEvent(hook.PostToolUse, "", "x")
	sent.Extra = map[string]json.RawMessage{"hookcore_config_changed": json.RawMessage(`["/etc/passwd: content changed"]`)}
	for name, in := range map[string]*hook.Input{
		"other id":      toolEvent(hook.PostToolUse, "tu9", "x"),
		"no id":         toolEvent(hook.PostToolUse, "", "x"),
		"blocked pre":   toolEvent(hook.PostToolUse, "tu2", "rm -rf x"),
		"agent sent it": sent,
	} {
		if res := r.Fire(ctx, hook.PostToolUse, in); res.Blocked {
			t.Errorf("%s: blocked: %s", name, res.Reason)
		}
	}
	if res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu1", "x")); !res.Blocked {
		t.Errorf("tu1: not blocked")
	}
}

// TestTripwireConcurrentCalls: tool calls of one session that run at once each compare
// with their own record, kept apart by tool_use_id, across hook processes (state.Dir).
func TestTripwireConcurrentCalls(t *testing.T) {
	t.Parallel()
	f := newTripwireFixture(t)
	st := &state.Dir{Path: f.stateDir}
	r := f.runner(t, st)
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu"+string(rune('a'+i)), "x"))
		}()
	}
	wg.Wait()
	// Half the calls end before the change, half after.
	for i := range n / 2 {
		if res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu"+string(rune('a'+i)), "x")); res.Blocked {
			t.Errorf("call %d, ended before the change: blocked", i)
		}
	}
	write(t, f.settings, `{"hooks": {"PreToolUse": []}}`)
	blocked := make([]bool, n)
	for i := n / 2; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			blocked[i] = r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu"+string(rune('a'+i)), "x")).Blocked
		}()
	}
	wg.Wait()
	for i := n / 2; i < n; i++ {
		if !blocked[i] {
			t.Errorf("call %d, ended after the change: not blocked", i)
		}
	}
	// Every record was taken.
	if err := st.Update(ctx, "s1", func(s *state.Session) {
		if len(s.Calls) != 0 {
			t.Errorf("records left: %v", s.Calls)
		}
	}); err != nil {
		t.Fatal(err)
	}
}

// TestTripwireOnlyAfterTheCall: the clause is an error on any other event than
// PostToolUse and PostToolUseFailure (it is known only after the tool ran).
func TestTripwireOnlyAfterTheCall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.yaml")
	write(t, path, `hooks:
  - {id: early, event: pre_tool_use, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
`)
	_, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}})
	if errs == nil || !strings.Contains(errs.Error(), "known only after the tool ran") {
		t.Fatalf("errors: %v", errs)
	}
}

package hookcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestTripwireAgentSent: a "hookcore_config_changed" the agent sent is not believed.
func TestTripwireAgentSent(t *testing.T) {
	t.Parallel()
	f := newTripwireFixture(t)
	r := f.runner(t, &state.Memory{})
	ctx := context.Background()
	r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "x"))
	sent := toolEvent(hook.PostToolUse, "tu1", "x")
	sent.Extra = map[string]json.RawMessage{"hookcore_config_changed": json.RawMessage(`["/etc/passwd: content changed"]`)}
	if res := r.Fire(ctx, hook.PostToolUse, sent); res.Blocked || !res.Continue {
		t.Errorf("blocked: %s", res.Reason)
	}
}

// TestTripwireBaseline: once armed, a session compares at every event with the previous
// event's snapshot: a change with no tool call between (a background write), a PostToolUse
// with no tool_use_id, a call whose PreToolUse is one of 70 open ones, a PreToolUse that
// was blocked; and the change is reported once.
func TestTripwireBaseline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		before []*hook.Input // fired before the change
		after  *hook.Input   // fired after it: reports the change
		want   string        // in its StopReason (tripwireStop) or Reason (the rule)
	}{
		{"between events", []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x"), toolEvent(hook.PostToolUse, "tu1", "x")},
			&hook.Input{SessionID: "s1", HookEventName: "UserPromptSubmit", Prompt: "go on"}, "between two events of the session (since its PostToolUse)"},
		{"next PreToolUse", []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x"), toolEvent(hook.PostToolUse, "tu1", "x")},
			toolEvent(hook.PreToolUse, "tu2", "ls"), "if you made this change, resume"},
		{"no tool_use_id", []*hook.Input{toolEvent(hook.PreToolUse, "", "x")}, toolEvent(hook.PostToolUse, "", "x"), "changed: "},
		{"blocked PreToolUse", []*hook.Input{toolEvent(hook.PreToolUse, "tu2", "rm -rf x")}, toolEvent(hook.PostToolUse, "tu9", "x"), "changed: "},
		{"70 open calls", func() []*hook.Input {
			var ins []*hook.Input
			for i := range 71 {
				ins = append(ins, toolEvent(hook.PreToolUse, fmt.Sprint("tu", i), "x"))
			}
			return ins
		}(), toolEvent(hook.PostToolUse, "tu0", "x"), "changed: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			r := f.runner(t, &state.Dir{Path: f.stateDir})
			for _, in := range tc.before {
				if res := r.Fire(ctx, hook.Event(in.HookEventName), in); !res.Continue {
					t.Fatalf("%s before the change: stopped: %s", in.HookEventName, res.StopReason)
				}
			}
			write(t, f.settings, `{"disableAllHooks": true}`)
			res := r.Fire(ctx, hook.Event(tc.after.HookEventName), tc.after)
			text := res.StopReason + " | " + res.Reason
			if !strings.Contains(text, f.settings+": content changed") || !strings.Contains(text, tc.want) {
				t.Fatalf("stop reason %q, reason %q: want the file and %q", res.StopReason, res.Reason, tc.want)
			}
			if res := r.Fire(ctx, hook.Event(tc.after.HookEventName), tc.after); res.Blocked || !res.Continue {
				t.Errorf("reported twice: %+v", res)
			}
		})
	}
}

// TestTripwireRuleRemoved: the change that removes the rule (the config loaded after it
// has none, or no hooks at all) is still reported: hookcore stops the agent by itself, and
// says whether the change happened during the tool call.
func TestTripwireRuleRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	st := &state.Dir{Path: f.stateDir}
	armed := f.runner(t, st)
	armed.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "x"))
	write(t, filepath.Join(f.hookcoreDir, "hooks.yaml"), "hooks: []\n# emptied\n")
	// The next hook process loads the emptied config: no hook, no config paths.
	set := loadConfig(t, f.dir, "empty.yaml", "hooks: []\n")
	r := newRunner(t, f.proj, set, hookcore.Options{State: st})
	res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu1", "x"))
	if res.Continue || !res.Blocked {
		t.Fatalf("continue %v, blocked %v; want a stop and a block", res.Continue, res.Blocked)
	}
	for _, want := range []string{filepath.Join(f.hookcoreDir, "hooks.yaml") + ": content changed", "NOT undone", "during the last tool call"} {
		if !strings.Contains(res.StopReason, want) {
			t.Errorf("stop reason %q: want %q", res.StopReason, want)
		}
	}
	if !strings.Contains(res.Reason, "NOT undone") {
		t.Errorf("reason %q", res.Reason)
	}
	// Still armed, with the baseline's paths: the next change is reported too.
	write(t, f.settings, "{}")
	if res := r.Fire(ctx, hook.Stop, &hook.Input{SessionID: "s1", HookEventName: "Stop"}); res.Continue || res.Blocked {
		t.Errorf("Stop: continue %v, blocked %v; want a stop and no block (a Stop block is go on)", res.Continue, res.Blocked)
	}
	// A config the change rewrote to keep a rule that lets it pass does not decide either.
	lax := loadConfig(t, f.dir, "lax.yaml", `hooks:
  - {id: hook-config-tripwire, event: post_tool_use, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
`)
	r2 := newRunner(t, f.proj, lax, hookcore.Options{State: st})
	write(t, f.settings, `{"disableAllHooks": true}`)
	if res := r2.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu3", "x")); res.Continue || !res.Blocked {
		t.Errorf("a rule that lets the change pass: continue %v, blocked %v; want a stop", res.Continue, res.Blocked)
	}
	// A session that was never armed is not judged by a config without the rule.
	if res := r.Fire(ctx, hook.PostToolUse, &hook.Input{SessionID: "other", HookEventName: "PostToolUse", ToolName: "Bash"}); !res.Continue {
		t.Errorf("unarmed session stopped: %s", res.StopReason)
	}
}

// TestTripwireHookScripts: the hook program's files and the hook script directories are
// compared too.
func TestTripwireHookScripts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	prog, scripts := filepath.Join(f.dir, "bin", "hookcore-hook"), filepath.Join(f.proj, ".claude", "hooks")
	for _, d := range []string{filepath.Dir(prog), scripts} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, prog, "#!/bin/sh\n")
	write(t, filepath.Join(scripts, "check.sh"), "#!/bin/sh\nexit 2\n")
	set := loadConfig(t, f.dir, "policy.yaml", tripwirePolicy)
	r := newRunner(t, f.proj, set, hookcore.Options{HookConfig: f.paths, HookProgram: []string{prog}, HookScripts: []string{scripts}, State: &state.Memory{}})
	for i, p := range []string{prog, filepath.Join(scripts, "check.sh")} {
		id := fmt.Sprint("tu", i)
		r.Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, id, "x"))
		write(t, p, "#!/bin/sh\nexit 0\n")
		if res := r.Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, id, "x")); !strings.Contains(res.Reason, p+": content changed") {
			t.Errorf("%s: reason %q", p, res.Reason)
		}
	}
}

// TestTripwireConcurrent: hook processes of one session that run at once after a change
// (state.Dir, one Runner each) report it once.
func TestTripwireConcurrent(t *testing.T) {
	t.Parallel()
	f := newTripwireFixture(t)
	st := &state.Dir{Path: f.stateDir}
	ctx := context.Background()
	f.runner(t, st).Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu0", "x"))
	write(t, f.settings, `{"hooks": {"PreToolUse": []}}`)
	const n = 8
	runners := make([]*hookcore.Runner, n)
	for i := range runners {
		runners[i] = f.runner(t, st)
	}
	var wg sync.WaitGroup
	reported := make([]bool, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := runners[i].Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, fmt.Sprint("tu", i), "x"))
			reported[i] = res.Blocked
		}()
	}
	wg.Wait()
	if got := len(slices.DeleteFunc(reported, func(b bool) bool { return !b })); got != 1 {
		t.Errorf("reported %d times, want once", got)
	}
}

// TestTripwireAnyEvent: the clause is allowed on every event (an armed session compares at
// each).
func TestTripwireAnyEvent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.yaml")
	write(t, path, `hooks:
  - {id: early, event: pre_tool_use, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
  - {id: prompt, event: user_prompt_submit, if: 'tool changed hook_config', action: {type: command, command: /bin/true}}
`)
	if _, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}); errs != nil {
		t.Fatalf("errors: %v", errs)
	}
}

// TestTripwireDamagedState: an armed session whose state file is garbage, larger than
// state.MaxSessionBytes, a directory or a symbolic link stops the agent (the tripwire could
// not compare), instead of taking a new baseline or warning and letting the call through
// (red team round 58, finding 1).
func TestTripwireDamagedState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, file string)
	}{
		{"garbage", func(t *testing.T, file string) { write(t, file, "\x00not json") }},
		{"over the bound", func(t *testing.T, file string) {
			write(t, file, `{"once": {"`+strings.Repeat("x", state.MaxSessionBytes)+`": true}}`)
		}},
		{"a directory", func(t *testing.T, file string) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(file, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symbolic link", func(t *testing.T, file string) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/dev/null", file); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			st := &state.Dir{Path: f.stateDir}
			ctx := context.Background()
			f.runner(t, st).Fire(ctx, hook.PreToolUse, toolEvent(hook.PreToolUse, "tu1", "x"))
			files, _ := filepath.Glob(filepath.Join(f.stateDir, "session-*.json"))
			if len(files) != 1 {
				t.Fatalf("session files %v, want one", files)
			}
			tc.damage(t, files[0])
			res := f.runner(t, st).Fire(ctx, hook.PostToolUse, toolEvent(hook.PostToolUse, "tu1", "x"))
			if res.Continue || !strings.Contains(res.StopReason, "could not compare") || !res.Blocked {
				t.Errorf("continue %v, blocked %v, stop reason %q; want the agent stopped", res.Continue, res.Blocked, res.StopReason)
			}
		})
	}
}

// TestTripwireBetweenSessions: a change made after an armed session's last event (a
// detached child of a tool call writing once the session ended) is told to the user at the
// next session's SessionStart (a system message, no stop), and stops the agent at a next
// session's first PreToolUse; with state.Dir and state.Memory (red team round 65, bypass 2).
func TestTripwireBetweenSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		store func(f *tripwireFixture) state.Store
	}{
		{"dir", func(f *tripwireFixture) state.Store { return &state.Dir{Path: f.stateDir} }},
		{"memory", func(*tripwireFixture) state.Store { return &state.Memory{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			st := tc.store(f)
			forget := st.(interface{ Forget(string) })
			session := func(id string, events ...hook.Event) hook.Result {
				t.Helper()
				var res hook.Result
				for _, ev := range events {
					in := toolEvent(ev, "tu-"+id, "x")
					in.SessionID = id
					res = f.runner(t, st).Fire(ctx, ev, in)
					if ev == hook.SessionEnd {
						forget.Forget(id) // as the CLI does
					}
				}
				return res
			}
			if res := session("s1", hook.SessionStart, hook.PreToolUse, hook.PostToolUse, hook.Stop, hook.SessionEnd); !res.Continue || res.SystemMessage != "" {
				t.Fatalf("first session: %+v", res)
			}
			write(t, filepath.Join(f.hookcoreDir, "hooks.yaml"), "hooks: [] # the child's\n")
			res := session("s2", hook.SessionStart)
			if !res.Continue || res.Blocked || !strings.Contains(res.SystemMessage, "changed between sessions") ||
				!strings.Contains(res.SystemMessage, filepath.Join(f.hookcoreDir, "hooks.yaml")+": content changed") {
				t.Errorf("next SessionStart: continue %v, blocked %v, system message %q; want the change told", res.Continue, res.Blocked, res.SystemMessage)
			}
			if res := session("s2", hook.PreToolUse, hook.PostToolUse, hook.Stop, hook.SessionEnd); !res.Continue {
				t.Errorf("the rest of the session: %+v", res)
			}
			// No SessionStart: the first PreToolUse stops.
			write(t, f.settings, `{"disableAllHooks": true}`)
			res = session("s3", hook.PreToolUse)
			if res.Continue || !res.Blocked || !strings.Contains(res.StopReason, "between sessions") || !strings.Contains(res.StopReason, f.settings+": content changed") {
				t.Errorf("first PreToolUse: continue %v, blocked %v, stop reason %q; want a stop naming the change", res.Continue, res.Blocked, res.StopReason)
			}
			// Nothing changed: nothing said.
			session("s3", hook.Stop, hook.SessionEnd)
			if res := session("s4", hook.SessionStart); !res.Continue || res.SystemMessage != "" {
				t.Errorf("SessionStart with nothing changed: %+v", res)
			}
		})
	}
}

// TestTripwireBetweenSessionsDamagedRecord: a workspace record that is garbage is told at
// SessionStart (no stop) and stops a first PreToolUse, as a damaged session state does.
func TestTripwireBetweenSessionsDamagedRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	st := &state.Dir{Path: f.stateDir}
	damage := func() {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(f.stateDir, "workspace-*.json"))
		if len(files) != 1 {
			t.Fatalf("workspace records %v, want one", files)
		}
		write(t, files[0], "\x00not json")
	}
	in := toolEvent(hook.SessionStart, "", "x")
	f.runner(t, st).Fire(ctx, hook.SessionStart, in)
	damage()
	in.SessionID = "s2"
	res := f.runner(t, st).Fire(ctx, hook.SessionStart, in)
	if !res.Continue || !strings.Contains(res.SystemMessage, "held no state") {
		t.Errorf("SessionStart: continue %v, system message %q", res.Continue, res.SystemMessage)
	}
	damage()
	in = toolEvent(hook.PreToolUse, "tu1", "x")
	in.SessionID = "s3"
	res = f.runner(t, st).Fire(ctx, hook.PreToolUse, in)
	if res.Continue || !res.Blocked || !strings.Contains(res.StopReason, "held no state") {
		t.Errorf("PreToolUse: continue %v, blocked %v, stop reason %q", res.Continue, res.Blocked, res.StopReason)
	}
}

// TestTripwireGitHookSamples (red team round 66): `git init` in an armed session creates
// .git/hooks full of *.sample files, which git never runs: no change. A hook of another name
// created there still is one.
func TestTripwireGitHookSamples(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	hooks := filepath.Join(f.proj, "sub", ".git", "hooks")
	set := loadConfig(t, f.dir, "policy.yaml", tripwirePolicy)
	r := newRunner(t, f.proj, set, hookcore.Options{HookConfig: f.paths, HookScripts: []string{hooks}, State: &state.Memory{}})
	fire := func(ev hook.Event) hook.Result {
		t.Helper()
		in := toolEvent(ev, "tu1", "git init sub")
		return r.Fire(ctx, ev, in)
	}
	fire(hook.PreToolUse)
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(hooks, "pre-commit.sample"), "#!/bin/sh\n")
	write(t, filepath.Join(hooks, "pre-push.sample"), "#!/bin/sh\n")
	if res := fire(hook.PostToolUse); !res.Continue || res.Blocked {
		t.Errorf("git init: continue %v, blocked %v, stop reason %q; want no change", res.Continue, res.Blocked, res.StopReason)
	}
	write(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\nexit 0\n")
	if res := fire(hook.PostToolUse); res.Continue || !strings.Contains(res.StopReason, filepath.Join(hooks, "pre-commit")+": created") {
		t.Errorf("a hook written: continue %v, stop reason %q; want the stop naming it", res.Continue, res.StopReason)
	}
}

// TestTripwireSessionEndKeepsRecord (red team round 66): a change found at SessionEnd is
// told to no one there, so the workspace's record keeps the state before it, and the next
// session's start reports it.
func TestTripwireSessionEndKeepsRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	st := &state.Dir{Path: f.stateDir}
	session := func(id string, events ...hook.Event) hook.Result {
		t.Helper()
		var res hook.Result
		for _, ev := range events {
			in := toolEvent(ev, "tu-"+id, "x")
			in.SessionID = id
			res = f.runner(t, st).Fire(ctx, ev, in)
			if ev == hook.SessionEnd {
				st.Forget(id)
			}
		}
		return res
	}
	session("s1", hook.SessionStart, hook.PreToolUse, hook.PostToolUse, hook.Stop)
	write(t, f.settings, `{"disableAllHooks": true}`) // after the last Stop
	session("s1", hook.SessionEnd)
	res := session("s2", hook.SessionStart)
	if !strings.Contains(res.SystemMessage, f.settings+": content changed") {
		t.Errorf("next SessionStart: system message %q; want the change made before the last SessionEnd told", res.SystemMessage)
	}
}

// TestTripwireBetweenSessionsRootMoved: the workspace's record is keyed by the agent's
// project directory (Options.AgentProjectDir), else the cwd, not the project root, which a
// `.git` created in a directory above moves (red team round 66: a detached child appended
// to ~/.bashrc and created ../.git/{objects,refs,HEAD}; the next session found no record,
// said nothing, and its first PreToolUse did not stop).
func TestTripwireBetweenSessionsRootMoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		agentDir bool
		above    func(par string) string // where the .git is created
	}{
		{"agent dir, .git in the parent", true, func(par string) string { return par }},
		{"agent dir, .git two levels up", true, func(par string) string { return filepath.Dir(par) }},
		{"cwd, .git in the parent", false, func(par string) string { return par }},
	} {
		for _, first := range []hook.Event{hook.SessionStart, hook.PreToolUse} {
			t.Run(tc.name+"/"+string(first), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				par := filepath.Join(dir, "par")
				w := filepath.Join(par, "w")
				home := filepath.Join(dir, "home")
				bashrc := filepath.Join(home, ".bashrc")
				for _, d := range []string{w, filepath.Join(home, ".hookcore", "state")} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				write(t, bashrc, "# bashrc\n")
				write(t, filepath.Join(home, ".hookcore", "hooks.yaml"), "hooks: []\n")
				st := &state.Dir{Path: filepath.Join(home, ".hookcore", "state")}
				set := loadConfig(t, dir, "policy.yaml", tripwirePolicy)
				runner := func(root string) *hookcore.Runner {
					opts := hookcore.Options{ProjectDir: root, State: st, HookConfig: []string{filepath.Join(home, ".hookcore"), filepath.Join(root, ".claude", "settings.json")},
						HookConfigVolatile: []string{st.Path}, HookScripts: []string{bashrc, filepath.Join(root, ".mcp.json")}}
					if tc.agentDir {
						opts.AgentProjectDir = w
					}
					return newRunner(t, dir, set, opts)
				}
				fire := func(root, id string, ev hook.Event) hook.Result {
					in := toolEvent(ev, "tu-"+id, "ls")
					in.SessionID, in.Cwd = id, w
					res := runner(root).Fire(ctx, ev, in)
					if ev == hook.SessionEnd {
						st.Forget(id)
					}
					return res
				}
				for _, ev := range []hook.Event{hook.SessionStart, hook.PreToolUse, hook.PostToolUse, hook.Stop, hook.SessionEnd} {
					fire(w, "h1", ev)
				}
				// The detached child: the change, then a .git above that moves the root.
				write(t, bashrc, "# bashrc\nexport CLAUDE_CONFIG_DIR=/tmp/cc\n")
				git := filepath.Join(tc.above(par), ".git")
				for _, d := range []string{filepath.Join(git, "objects"), filepath.Join(git, "refs")} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				write(t, filepath.Join(git, "HEAD"), "ref: refs/heads/main\n")
				root := filepath.ToSlash(config.ProjectRoot(w))
				if root == filepath.ToSlash(w) {
					t.Fatalf("the root did not move: %s", root)
				}
				res := fire(root, "h2", first)
				if first == hook.SessionStart && (!strings.Contains(res.SystemMessage, "changed between sessions") || !strings.Contains(res.SystemMessage, bashrc+": content changed")) {
					t.Errorf("next SessionStart: system message %q; want the change told", res.SystemMessage)
				}
				if first == hook.PreToolUse && (res.Continue || !res.Blocked || !strings.Contains(res.StopReason, bashrc+": content changed")) {
					t.Errorf("next session's first PreToolUse: continue %v, blocked %v, stop reason %q; want a stop", res.Continue, res.Blocked, res.StopReason)
				}
			})
		}
	}
}

// TestTripwireAgentProjectDir: a project directory of the agent inside a git work tree (a
// monorepo: the root is the top level) has its project files compared too, as the root's
// (red team round 66: /tmp/par9/w/.mcp.json, .claude/hooks/guard.sh and .claude/settings.json
// rewritten between events were not reported).
func TestTripwireAgentProjectDir(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, rel := range []string{".mcp.json", ".claude/hooks/guard.sh", ".claude/settings.json"} {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			top := filepath.Join(dir, "par9")
			w := filepath.Join(top, "w")
			for _, d := range []string{filepath.Join(top, ".git"), filepath.Join(w, ".claude", "hooks")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write(t, filepath.Join(w, ".claude", "settings.json"), "{}")
			write(t, filepath.Join(w, ".claude", "hooks", "guard.sh"), "exit 2\n")
			set := loadConfig(t, dir, "policy.yaml", tripwirePolicy)
			r := newRunner(t, dir, set, hookcore.Options{ProjectDir: top, AgentProjectDir: w, State: &state.Memory{},
				HookConfig:  []string{filepath.Join(top, ".claude", "settings.json")},
				HookScripts: []string{filepath.Join(top, ".claude", "hooks"), filepath.Join(top, ".mcp.json")}})
			in := toolEvent(hook.PreToolUse, "tu1", "ls")
			in.Cwd = w
			r.Fire(ctx, hook.PreToolUse, in)
			write(t, filepath.Join(w, rel), `{"mcpServers": {"x": {"command": "/tmp/x"}}}`)
			in = toolEvent(hook.PostToolUse, "tu1", "ls")
			in.Cwd = w
			res := r.Fire(ctx, hook.PostToolUse, in)
			if !res.Blocked || !strings.Contains(res.Reason, filepath.Join(w, rel)) {
				t.Errorf("blocked %v, reason %q; want the change of %s", res.Blocked, res.Reason, filepath.Join(w, rel))
			}
		})
	}
}

// TestTripwireRecordKeyStaysTheSessions: a session with no agent directory (serve) keys its
// record by the cwd of its first armed event, and keeps that key when its cwd moves (`cd
// sub`): the next session started in the project directory compares with the previous
// session's last record, and does not repeat a change that session's own tripwire reported.
func TestTripwireRecordKeyStaysTheSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newTripwireFixture(t)
	sub := filepath.Join(f.proj, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	st := &state.Dir{Path: f.stateDir}
	set := loadConfig(t, f.dir, "policy.yaml", tripwirePolicy)
	r := newRunner(t, f.proj, set, hookcore.Options{HookConfig: f.paths, State: st, SessionRoots: true})
	fire := func(id, cwd string, ev hook.Event) hook.Result {
		t.Helper()
		in := toolEvent(ev, "tu-"+id, "ls")
		in.SessionID, in.Cwd = id, cwd
		res := r.Fire(ctx, ev, in)
		if ev == hook.SessionEnd {
			st.Forget(id)
		}
		return res
	}
	fire("s1", f.proj, hook.SessionStart)
	write(t, f.settings, `{"hooks": {"x": 1}}`) // the user's edit, reported at the Stop
	if res := fire("s1", sub, hook.Stop); res.Continue {
		t.Fatalf("the session's Stop after the edit: %+v", res)
	}
	fire("s1", sub, hook.SessionEnd)
	if res := fire("s2", f.proj, hook.SessionStart); res.SystemMessage != "" {
		t.Errorf("next SessionStart: %q; want nothing (the change was reported in its session)", res.SystemMessage)
	}
}

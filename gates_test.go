package hookcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/trust"
)

// TestTrustGate: with Options.Trust, project and local hooks of an untrusted workspace are
// skipped with a reason while user-level and explicit hooks run; after the workspace is
// granted trust at TrustDigest(set) they run; a changed project file needs trust again
// (DESIGN.md section 7; conformance cases 28 and 29).
func TestTrustGate(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	home := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	hookLine := func(id, event string) string {
		return "hooks:\n  - {id: " + id + ", event: " + event + ", action: {type: command, command: \"echo " + id + " >> ran.txt\"}}\n"
	}
	load := func(projectHooks string) *config.Set {
		set := loadLayers(t, project,
			layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User, hookLine("user", "pre_tool_use")},
			layerFile{".hookcore/hooks.yaml", config.Project, projectHooks},
			layerFile{".hookcore/hooks.local.yaml", config.Local, hookLine("local", "pre_tool_use")},
			layerFile{"explicit.yaml", config.Explicit, hookLine("explicit", "pre_tool_use")},
		)
		return set
	}
	fire := func(set *config.Set) hook.Result {
		t.Helper()
		r := newRunner(t, project, set, hookcore.Options{Trust: store})
		return r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls"))
	}

	set := load(hookLine("project", "pre_tool_use"))
	res := fire(set)
	if diff := cmp.Diff([]string{"user=ok", "project=skipped", "local=skipped", "explicit=ok"}, outcomes(res)); diff != "" {
		t.Errorf("untrusted (-want +got):\n%s", diff)
	}
	if why := res.Hooks[1].Error; !strings.Contains(why, "not trusted") {
		t.Errorf("skip reason = %q, want it to say the workspace is not trusted", why)
	}
	if res.Blocked || res.Errors != 0 {
		t.Errorf("skipped hooks must not block or count as errors: %+v", summarize(res))
	}

	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	res = fire(set)
	if diff := cmp.Diff([]string{"user=ok", "project=ok", "local=ok", "explicit=ok"}, outcomes(res)); diff != "" {
		t.Errorf("trusted (-want +got):\n%s", diff)
	}

	// Changed after the grant (the model can edit the project's files): the project's hooks
	// do not run, and tool calls are blocked until the user grants again (a silent skip let
	// rm -rf through after one edit; stop 24). Other events run the trusted layers.
	changed := load(hookLine("project", "pre_tool_use") + "  - {id: sneaky, event: pre_tool_use, action: {type: command, command: \"echo sneaky >> ran.txt\"}}\n")
	res = fire(changed)
	if !res.Blocked || len(res.Hooks) != 0 || !strings.Contains(res.Reason, "changed since this workspace was trusted") {
		t.Errorf("changed after trust: %+v", summarize(res))
	}
	if diff := cmp.Diff("user\nexplicit\nuser\nproject\nlocal\nexplicit\n", readFile(t, project, "ran.txt")); diff != "" {
		t.Errorf("hooks that ran (-want +got):\n%s", diff)
	}
}

// TestTrustStoreUnreadableFailsClosed: a corrupt trust store runs no project hook, and blocks
// tool calls with the reason (red team round 21: the agent wrote the store, and a trusted
// project's guard was off without a word); other events run without the project's hooks.
func TestTrustStoreUnreadableFailsClosed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := trust.NewStore(writeFile(t, t.TempDir(), "trust.json", "{not json"))
	set := loadLayers(t, dir, layerFile{".hookcore/hooks.yaml", config.Project,
		"hooks:\n  - {id: p, event: pre_tool_use, action: {type: command, command: \"echo p >> ran.txt\"}}\n"})
	r := newRunner(t, dir, set, hookcore.Options{Trust: store})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if !res.Blocked || len(res.Hooks) != 0 || !strings.Contains(res.Reason, "the trust store could not be read") {
		t.Errorf("PreToolUse: %+v", summarize(res))
	}
	if res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1", Cwd: dir}); res.Blocked {
		t.Errorf("Stop: %+v", summarize(res))
	}
	if got := readFile(t, dir, "ran.txt"); got != "" {
		t.Errorf("project hook ran with a corrupt trust store")
	}
}

// TestApprover: an Approver is asked before each hook; a denial on a gate event, for a hook
// that may block, blocks with "hook not approved" and the hook does not run; any other denial
// skips the hook; an error counts as a denial (codebot; DESIGN.md section 7).
func TestApprover(t *testing.T) {
	t.Parallel()
	config := `hooks:
  - {id: guard, event: pre_tool_use, matcher: Bash, action: {type: command, command: "echo guard >> ran.txt"}}
  - {id: advisor, event: pre_tool_use, blocking: false, action: {type: command, command: "echo advisor >> ran.txt"}}
  - {id: notify, event: notification, action: {type: command, command: "echo notify >> ran.txt"}}
  - {id: stop, event: stop, action: {type: command, command: "echo stop >> ran.txt"}}
`
	deny := func(ids ...string) hookcore.ApproverFunc {
		return func(_ context.Context, h hookcore.HookInfo) (bool, error) {
			for _, id := range ids {
				if h.ID == id {
					return false, nil
				}
			}
			return true, nil
		}
	}
	tests := []struct {
		name     string
		approver hookcore.Approver
		event    hook.Event
		want     summary
		ran      string
	}{
		{"allowed", deny(), hook.PreToolUse, summary{Continue: true, Hooks: []string{"guard=ok", "advisor=ok"}}, "guard\nadvisor\n"},
		{"gate denied blocks", deny("guard"), hook.PreToolUse,
			summary{Blocked: true, Reason: "hook not approved (guard)", Continue: true, Hooks: []string{"guard=block"}}, ""},
		{"gate non-blocking denied is skipped", deny("advisor"), hook.PreToolUse,
			summary{Continue: true, Hooks: []string{"guard=ok", "advisor=skipped"}}, "guard\n"},
		{"observe denied is skipped", deny("notify"), hook.Notification,
			summary{Continue: true, Hooks: []string{"notify=skipped"}}, ""},
		{"feedback denied is skipped", deny("stop"), hook.Stop,
			summary{Continue: true, Hooks: []string{"stop=skipped"}}, ""},
		{"error is a denial", hookcore.ApproverFunc(func(context.Context, hookcore.HookInfo) (bool, error) {
			return true, errors.New("approval service down")
		}), hook.PreToolUse,
			summary{Blocked: true, Reason: "hook not approved: approval service down (guard)", Continue: true, Hooks: []string{"guard=block"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", config), hookcore.Options{Approver: tt.approver})
			res := r.Fire(context.Background(), tt.event, bashCall(dir, "s1", "ls"))
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.ran, readFile(t, dir, "ran.txt")); diff != "" {
				t.Errorf("hooks that ran (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApproverSeesHookInfo: the Approver is told which hook is about to run, for which event,
// and what it would run.
func TestApproverSeesHookInfo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var mu sync.Mutex
	var got []hookcore.HookInfo
	approver := hookcore.ApproverFunc(func(_ context.Context, h hookcore.HookInfo) (bool, error) {
		mu.Lock()
		got = append(got, h)
		mu.Unlock()
		return true, nil
	})
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: fmt
    event: pre_tool_use
    action: {type: command, command: "true"}
`)
	r := newRunner(t, dir, set, hookcore.Options{Approver: approver, Callbacks: []hookcore.Callback{
		{ID: "go-guard", Event: hook.PreToolUse, Func: fn(hook.Decision{})},
	}})
	r.Fire(context.Background(), "pre_tool_use", bashCall(dir, "s1", "ls"))
	want := []hookcore.HookInfo{
		{ID: "fmt", Type: "command", Event: hook.PreToolUse, Target: "true", Source: filepath.Join(dir, "hooks.yaml") + ":2"},
		{ID: "go-guard", Type: "func", Event: hook.PreToolUse, Target: "go-guard", Source: "callback"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HookInfo (-want +got):\n%s", diff)
	}
}

// TestCallbacks: Go callbacks are hooks like any other: matcher and if select them, they run
// after the config hooks of their event, they may block, rewrite and add context, a
// NonBlocking one cannot veto, and a panic is recovered and recorded as an error (DESIGN.md
// section 6, "func").
func TestCallbacks(t *testing.T) {
	t.Parallel()
	panics := func(context.Context, *hook.Input) (hook.Decision, error) { panic("boom") }
	tests := []struct {
		name      string
		callbacks []hookcore.Callback
		command   string
		want      summary
	}{
		{"block", []hookcore.Callback{
			{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: fn(hook.Decision{Block: true, Reason: "no rm"})},
		}, "cd / && rm -rf x", summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"cfg=ok", "no-rm=block"}}},
		{"if does not match", []hookcore.Callback{
			{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: fn(hook.Decision{Block: true, Reason: "no rm"})},
		}, "ls", summary{Continue: true, Hooks: []string{"cfg=ok"}}},
		{"matcher does not match", []hookcore.Callback{
			{ID: "edit-only", Event: hook.PreToolUse, Matcher: "Edit|Write", Func: fn(hook.Decision{Block: true})},
		}, "ls", summary{Continue: true, Hooks: []string{"cfg=ok"}}},
		{"rewrite and context", []hookcore.Callback{
			{ID: "rw", Event: "pre_tool_use", Func: fn(hook.Decision{UpdatedInput: []byte(`{"command":"ls -la"}`)})},
			{ID: "ctx", Event: hook.PreToolUse, Func: fn(hook.Decision{AdditionalContext: "listing"})},
		}, "ls", summary{UpdatedInput: `{"command":"ls -la"}`, Context: "listing", Continue: true, Hooks: []string{"cfg=ok", "rw=update", "ctx=context"}}},
		{"non-blocking", []hookcore.Callback{
			{ID: "advice", Event: hook.PreToolUse, NonBlocking: true, Func: fn(hook.Decision{Block: true, Reason: "careful"})},
		}, "ls", summary{Continue: true, Hooks: []string{"cfg=ok", "advice=ok"}}},
		{"panic is an error", []hookcore.Callback{
			{ID: "buggy", Event: hook.PreToolUse, Func: panics},
			{ID: "after", Event: hook.PreToolUse, Func: fn(hook.Decision{AdditionalContext: "still ran"})},
		}, "ls", summary{Context: "still ran", Continue: true, Errors: 1, Hooks: []string{"cfg=ok", "buggy=error", "after=context"}}},
		{"default id", []hookcore.Callback{
			{Event: hook.PreToolUse, Func: fn(hook.Decision{})},
			{Event: hook.PreToolUse, Func: fn(hook.Decision{})},
		}, "ls", summary{Continue: true, Hooks: []string{"cfg=ok", "func#1=ok", "func#2=ok"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: cfg, event: pre_tool_use, action: {type: command, command: \"true\"}}\n")
			r := newRunner(t, dir, set, hookcore.Options{Callbacks: tt.callbacks})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", tt.command))
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCallbackPanicMessage: the recorded error of a panicking callback says it panicked.
func TestCallbackPanicMessage(t *testing.T) {
	t.Parallel()
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{{
		ID: "buggy", Event: hook.Stop,
		Func: func(context.Context, *hook.Input) (hook.Decision, error) { panic(errors.New("nil map")) },
	}}})
	res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1"})
	if len(res.Hooks) != 1 || !strings.Contains(res.Hooks[0].Error, "panicked") || !strings.Contains(res.Hooks[0].Error, "nil map") {
		t.Errorf("records = %+v, want one error saying the hook panicked: nil map", res.Hooks)
	}
	if res.Blocked {
		t.Errorf("a panic blocked the stop")
	}
}

// TestCallbackErrors: New refuses callbacks with an unknown event, a nil Func or a matcher
// or condition that does not compile, naming the callback.
func TestCallbackErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cb   hookcore.Callback
		want string
	}{
		{hookcore.Callback{ID: "x", Event: "Nope", Func: fn(hook.Decision{})}, `callback x: unknown event "Nope"`},
		{hookcore.Callback{ID: "x", Event: hook.Stop}, "callback x: Func is nil"},
		{hookcore.Callback{ID: "x", Event: hook.PreToolUse, Matcher: "/[/", Func: fn(hook.Decision{})}, "callback x: "},
		{hookcore.Callback{ID: "x", Event: hook.PreToolUse, If: "tool == a && b == c || d == e", Func: fn(hook.Decision{})}, "callback x: "},
	}
	for _, tt := range tests {
		_, err := hookcore.New(nil, hookcore.Options{ProjectDir: t.TempDir(), Callbacks: []hookcore.Callback{tt.cb}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", tt.cb, err, tt.want)
		}
	}
}

// TestFuncsReferencedByConfig: `action: {type: func, name: N}` runs Options.Funcs[N] with the
// hook's config controls (matcher, if, reject, once...); an unregistered name is an error
// of New that names the hook.
func TestFuncsReferencedByConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: audit, event: post_tool_use, matcher: Bash, action: {type: func, name: audit}}
  - {id: policy, event: pre_tool_use, if: 'args.command =~ /sudo/', action: {type: func, name: policy}}
`)
	var mu sync.Mutex
	var audited []string
	funcs := map[string]hook.ExecutorFunc{
		"audit": func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			mu.Lock()
			audited = append(audited, in.HookEventName+" "+string(in.ToolInput))
			mu.Unlock()
			return hook.Decision{}, nil
		},
		"policy": fn(hook.Decision{Permission: hook.Deny, Reason: "no sudo"}),
	}
	r := newRunner(t, dir, set, hookcore.Options{Funcs: funcs})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "sudo ls"))
	want := summary{Blocked: true, Reason: "no sudo", Permission: "deny", Continue: true, Hooks: []string{"policy=block"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("PreToolUse (-want +got):\n%s", diff)
	}
	r.Fire(context.Background(), hook.PostToolUse, bashCall(dir, "s1", "ls"))
	r.Fire(context.Background(), hook.PostToolUse, &hook.Input{ToolName: "Edit", ToolInput: []byte(`{}`)})
	if diff := cmp.Diff([]string{`PostToolUse {"command":"ls"}`}, audited); diff != "" {
		t.Errorf("audit calls (-want +got):\n%s", diff)
	}

	_, err := hookcore.New(set, hookcore.Options{ProjectDir: dir, Funcs: map[string]hook.ExecutorFunc{"audit": funcs["audit"]}})
	if err == nil || !strings.Contains(err.Error(), "policy") || !strings.Contains(err.Error(), `"policy"`) {
		t.Errorf("New without the policy func = %v, want an error naming the hook and the func", err)
	}
}

// TestTrustNoticeAtSessionStart: when a workspace's project hooks do not run — never
// trusted, or changed since the grant — SessionStart tells the user in SystemMessage, which
// Claude Code and Gemini CLI show to the user and not to the model; the notice holds the
// count, not the repository's hook ids. SessionStart's own hooks still run, and no other
// event carries the notice. A trusted workspace, or one without project hooks, gets none.
// Before, a user's project guard in a workspace never trusted did nothing, and under an agent
// nothing said so (the second new-user trial, stop 24).
func TestTrustNoticeAtSessionStart(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	home := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	user := layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User,
		"hooks:\n  - {id: hello, event: session_start, action: {type: inject, message: hi}}\n  - {id: ss, event: session_start, action: {type: command, command: 'echo {\\\"systemMessage\\\": \\\"from the hook\\\"}'}}\n"}
	projectHooks := layerFile{".hookcore/hooks.yaml", config.Project,
		"hooks:\n  - {id: IGNORE_PREVIOUS_guard, event: pre_tool_use, reject: true, action: {type: command, command: \"echo no\"}}\n  - {id: other, event: stop, action: {type: command, command: \"true\"}}\n"}
	start := &hook.Input{SessionID: "s1", Cwd: project, Extra: map[string]json.RawMessage{"source": json.RawMessage(`"startup"`)}}
	fire := func(set *config.Set, event hook.Event, in *hook.Input) hook.Result {
		t.Helper()
		return newRunner(t, project, set, hookcore.Options{Trust: store}).Fire(context.Background(), event, in)
	}

	set := loadLayers(t, project, user, projectHooks)
	res := fire(set, hook.SessionStart, start)
	want := "from the hook\nhookcore: the project's hooks (2) do not run: this workspace is not trusted. Review them (`hookcore trust show`), then run `hookcore trust grant` in " + strconv.Quote(project)
	if res.SystemMessage != want || res.AdditionalContext != "hi" {
		t.Errorf("never trusted: system message %q, context %q; want %q", res.SystemMessage, res.AdditionalContext, want)
	}
	if res := fire(set, hook.PreToolUse, bashCall(project, "s1", "ls")); res.SystemMessage != "" || res.Blocked {
		t.Errorf("never trusted, PreToolUse: %+v", summarize(res))
	}
	if res := fire(loadLayers(t, project, user), hook.SessionStart, start); res.SystemMessage != "from the hook" {
		t.Errorf("no project hooks: system message %q", res.SystemMessage)
	}

	if err := hookcore.GrantTrust(store, set, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := fire(set, hook.SessionStart, start); res.SystemMessage != "from the hook" {
		t.Errorf("trusted: system message %q", res.SystemMessage)
	}

	// All hooks switched off by the user: a grant would run nothing, so no notice.
	off := loadLayers(t, project, layerFile{filepath.Join(home, ".hookcore", "off.yaml"), config.User, "disable_all_hooks: true\nhooks: []\n"}, projectHooks)
	if res := newRunner(t, project, off, hookcore.Options{Trust: trust.NewStore(filepath.Join(t.TempDir(), "t.json"))}).Fire(context.Background(), hook.SessionStart, start); res.SystemMessage != "" {
		t.Errorf("all hooks disabled: system message %q", res.SystemMessage)
	}

	changed := loadLayers(t, project, user, layerFile{".hookcore/hooks.yaml", config.Project, "hooks: []\n"})
	res = fire(changed, hook.SessionStart, start)
	if !strings.HasPrefix(res.SystemMessage, "from the hook\nhookcore: the project's hook config changed since this workspace was trusted") {
		t.Errorf("stale: system message %q", res.SystemMessage)
	}
}

// TestTrustGrantedBeforeStop25: a grant recorded before stop 25 (no Files) bound the whole
// content of every project file, Claude Code's settings with their permissions included;
// such a grant still matches the unchanged config after the upgrade (TrustDigestOf), so the
// upgrade alone blocks no tool call. A grant that records Files is compared with the new
// digest only.
func TestTrustGrantedBeforeStop25(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	set := loadLayers(t, project,
		layerFile{".hookcore/hooks.yaml", config.Project, "hooks:\n  - {id: g, event: pre_tool_use, action: {type: command, command: \"echo g >> ran.txt\"}}\n"},
		layerFile{".claude/settings.json", config.Project, `{"permissions": {"allow": ["Bash(ls:*)"]}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`})
	var parts []string
	for _, f := range set.Files {
		parts = append(parts, f.Path+"\x00"+f.Hash) // the digest as grants before stop 25 wrote it
	}
	legacy := trust.Digest(parts...)
	if legacy == hookcore.TrustDigest(set) {
		t.Fatal("the settings file's permissions do not change the digest formula: the test proves nothing")
	}
	put := func(e trust.Entry) {
		t.Helper()
		if err := store.Put(project, e); err != nil {
			t.Fatal(err)
		}
	}
	put(trust.Entry{Digest: legacy, Hooks: hookcore.CoverSet(set, project), Time: time.Now()})
	if ok, err := hookcore.TrustedSet(store, project, set); !ok || err != nil {
		t.Errorf("legacy grant: TrustedSet = %v, %v", ok, err)
	}
	res := newRunner(t, project, set, hookcore.Options{Trust: store}).Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls"))
	if res.Blocked || readFile(t, project, "ran.txt") != "g\n" {
		t.Errorf("legacy grant: %+v", summarize(res))
	}
	put(trust.Entry{Digest: legacy, Hooks: hookcore.CoverSet(set, project), Files: map[string]string{"x": "y"}, Time: time.Now()})
	if ok, _ := hookcore.TrustedSet(store, project, set); ok {
		t.Error("a grant that records its files matched the whole-file digest")
	}
}

// TestTrustNoticePrintable: the workspace directory in the SessionStart notice is made
// printable (a repository's clone directory takes its name; stop 25 trial: an escape
// sequence and U+202E went through raw).
func TestTrustNoticePrintable(t *testing.T) {
	t.Parallel()
	project := filepath.Join(t.TempDir(), "w\x1b[8m\u202ex")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Skip(err)
	}
	set := loadLayers(t, project, layerFile{".hookcore/hooks.yaml", config.Project, "hooks:\n  - {id: g, event: pre_tool_use, action: {type: command, command: \"true\"}}\n"})
	r := newRunner(t, project, set, hookcore.Options{Trust: trust.NewStore(filepath.Join(t.TempDir(), "t.json"))})
	res := r.Fire(context.Background(), hook.SessionStart, &hook.Input{SessionID: "s", Cwd: project})
	if !strings.Contains(res.SystemMessage, "not trusted") || strings.ContainsAny(res.SystemMessage, "\x1b\u202e") {
		t.Errorf("system message %q", res.SystemMessage)
	}
}

// TestTrustedProjectConfigDeleted: deleting a trusted workspace's project config is a change
// of it: tool calls are blocked until the user grants again (or revokes); other events run
// the user's hooks. Without the rule, `rm .hookcore/hooks.yaml` turned the project's guards
// off without a word.
func TestTrustedProjectConfigDeleted(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	home := t.TempDir()
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	user := layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User, "hooks:\n  - {id: user, event: pre_tool_use, action: {type: command, command: \"true\"}}\n  - {id: stop, event: stop, action: {type: command, command: \"true\"}}\n"}
	trusted := loadLayers(t, project, user, layerFile{".hookcore/hooks.yaml", config.Project, "hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"exit 2\"}}\n"})
	if err := hookcore.GrantTrust(store, trusted, project, time.Now()); err != nil {
		t.Fatal(err)
	}
	gone := loadLayers(t, project, user)
	r := newRunner(t, project, gone, hookcore.Options{Trust: store})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls"))
	if !res.Blocked || !strings.Contains(res.Reason, "changed since this workspace was trusted") {
		t.Errorf("PreToolUse: %+v", summarize(res))
	}
	if res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1", Cwd: project}); res.Blocked || len(res.Hooks) != 1 {
		t.Errorf("Stop: %+v", summarize(res))
	}
	if _, err := store.Revoke(project); err != nil {
		t.Fatal(err)
	}
	r = newRunner(t, project, gone, hookcore.Options{Trust: store})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "ls")); res.Blocked {
		t.Errorf("revoked: %+v", summarize(res))
	}
}

// TestFilePathEqualityThroughTheRunner: a Runner's deny rule `file_path == ABS` blocks a
// Write of every spelling of that file — relative, ./, .., a symlink, a hard link — end to
// end: the match index's prefilter took the value for a literal the arguments must hold and
// dropped the hook first (red team round 21).
func TestFilePathEqualityThroughTheRunner(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	writeFile(t, dir, "secret.txt", "x")
	writeFile(t, dir, "d/keep", "")
	if err := os.Symlink("../secret.txt", filepath.Join(dir, "d", "link")); err != nil {
		t.Skip(err)
	}
	if err := os.Link(secret, filepath.Join(dir, "hard")); err != nil {
		t.Skip(err)
	}
	for _, rule := range []string{secret, "secret.txt"} {
		set := loadConfig(t, dir, "hooks.yaml", fmt.Sprintf("hooks:\n  - {id: g, event: pre_tool_use, matcher: Write, if: 'file_path == %q', reject: true, action: {type: command, command: \"echo no\"}}\n", rule))
		r := newRunner(t, dir, set, hookcore.Options{})
		for _, p := range []string{secret, "secret.txt", "./secret.txt", "d/../secret.txt", "d/link", filepath.Join(dir, "d", "link"), "hard"} {
			args, _ := json.Marshal(map[string]string{"file_path": p, "content": "y"})
			res := r.Fire(context.Background(), hook.PreToolUse, &hook.Input{SessionID: "s", Cwd: dir, ToolName: "Write", ToolInput: args})
			if !res.Blocked {
				t.Errorf("rule %s, Write %s: not blocked", rule, p)
			}
		}
		args, _ := json.Marshal(map[string]string{"file_path": "d/keep", "content": "y"})
		if res := r.Fire(context.Background(), hook.PreToolUse, &hook.Input{SessionID: "s", Cwd: dir, ToolName: "Write", ToolInput: args}); res.Blocked {
			t.Errorf("rule %s, Write d/keep: blocked", rule)
		}
	}
}

// TestOtherAgentsKillSwitchIsTheirs: a kill switch in another agent's file turns off that
// agent's hooks, not the user's own hookcore guard (new-user trial, stop 24: `{"disableAllHooks":
// true}` written into ~/.cursor/hooks.json, or `disable_all_hooks: true` into
// ~/.minicode/config.yaml, switched off ~/.hookcore's rm -rf guard); Claude Code's, whose
// switch Claude Code applies to every hook it runs, hookcore's command included, still turns
// off everything.
func TestOtherAgentsKillSwitchIsTheirs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	project := t.TempDir()
	guard := layerFile{filepath.Join(home, ".hookcore", "hooks.yaml"), config.User, "hooks:\n  - {id: guard, event: pre_tool_use, action: {type: command, command: \"exit 2\"}}\n"}
	for _, tc := range []struct {
		file    layerFile
		blocked bool
	}{
		{layerFile{filepath.Join(home, ".cursor", "hooks.json"), config.User, `{"version": 1, "disableAllHooks": true, "hooks": {}}`}, true},
		{layerFile{filepath.Join(home, ".minicode", "config.yaml"), config.User, "disable_all_hooks: true\n"}, true},
		{layerFile{filepath.Join(home, ".copilot", "hooks", "x.json"), config.User, `{"version": 1, "disableAllHooks": true, "hooks": {}}`}, true},
		{layerFile{filepath.Join(home, ".codebot", "settings.json"), config.User, `{"disableAllHooks": true}`}, true},
		{layerFile{filepath.Join(home, ".claude", "settings.json"), config.User, `{"disableAllHooks": true}`}, false},
	} {
		set := loadLayers(t, project, guard, tc.file)
		r := newRunner(t, project, set, hookcore.Options{})
		if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf x")); res.Blocked != tc.blocked {
			t.Errorf("%s: blocked %v, want %v", tc.file.name, res.Blocked, tc.blocked)
		}
	}
	// A plugin's hooks file (red team round 23: a plugin's hooks.json with disableAllHooks
	// turned every guard off) speaks for that plugin only.
	set := loadLayers(t, project, guard)
	plugin := writeFile(t, home, ".claude/plugins/marketplaces/m/fmt/hooks/hooks.json", `{"disableAllHooks": true, "hooks": {}}`)
	pf, probs := config.ParseFile(plugin, config.User)
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	pf.Plugin = "fmt@m"
	set.Files = append(set.Files, pf)
	r := newRunner(t, project, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(project, "s1", "rm -rf x")); !res.Blocked {
		t.Errorf("a plugin's kill switch turned the user's guard off")
	}
}

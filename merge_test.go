package hookcore_test

// One test per sentence of the merge rules in merge.go's doc comment (STYLE.md, Shapes 4).
// The hooks are config entries of `type: func`, so that the config controls (reject,
// blocking, on_error, once) apply while the decisions are exact Go values.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// fnHook is one config hook backed by a Go func.
type fnHook struct {
	id   string
	keys string // extra YAML keys of the entry, e.g. "reject: true, "
	dec  hook.Decision
	err  error
}

// fireFuncs runs event once through a Runner whose config holds hooks, in order.
func fireFuncs(t *testing.T, event hook.Event, hooks ...fnHook) hook.Result {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("hooks:\n")
	funcs := map[string]hook.ExecutorFunc{}
	for _, h := range hooks {
		fmt.Fprintf(&b, "  - {id: %s, event: %s, %saction: {type: func, name: %s}}\n", h.id, event, h.keys, h.id)
		funcs[h.id] = func(ctx context.Context, _ *hook.Input) (hook.Decision, error) {
			if errors.Is(h.err, hook.ErrTimeout) { // wait for the hook's own deadline
				<-ctx.Done()
				return hook.Decision{}, ctx.Err()
			}
			return h.dec, h.err
		}
	}
	r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", b.String()), hookcore.Options{Funcs: funcs})
	return r.Fire(context.Background(), event, bashCall(dir, "s1", "ls"))
}

var errHook = errors.New("exit status 1")

// Rule 1: "A hook that did not run (untrusted layer, once already fired, not approved where
// it cannot block) is "skipped"; nothing of it is used."
func TestMergeHookThatDidNotRunIsSkippedAndNothingOfItIsUsed(t *testing.T) {
	t.Parallel()
	loud := fn(hook.Decision{Block: true, Reason: "r", AdditionalContext: "c", UpdatedInput: []byte(`{"x":1}`),
		StopAgent: true, SystemMessage: "m", Permission: hook.Deny})
	funcs := map[string]hook.ExecutorFunc{"loud": loud}
	tests := []struct {
		name  string
		event hook.Event
		opts  func(dir string) hookcore.Options
		fires int // the last fire is checked
	}{
		{"once already fired", hook.PreToolUse, func(string) hookcore.Options { return hookcore.Options{Funcs: funcs} }, 2},
		{"not approved on observe event", hook.Notification, func(string) hookcore.Options {
			return hookcore.Options{Funcs: funcs, Approver: hookcore.ApproverFunc(func(context.Context, hookcore.HookInfo) (bool, error) { return false, nil })}
		}, 1},
		{"not approved on feedback event", hook.PostToolUse, func(string) hookcore.Options {
			return hookcore.Options{Funcs: funcs, Approver: hookcore.ApproverFunc(func(context.Context, hookcore.HookInfo) (bool, error) { return false, nil })}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			set := loadConfig(t, dir, "hooks.yaml", fmt.Sprintf("hooks:\n  - {id: loud, event: %s, once: true, action: {type: func, name: loud}}\n", tt.event))
			r := newRunner(t, dir, set, tt.opts(dir))
			var res hook.Result
			for i := 0; i < tt.fires; i++ {
				res = r.Fire(context.Background(), tt.event, bashCall(dir, "s1", "ls"))
			}
			want := summary{Continue: true, Hooks: []string{"loud=skipped"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
	// The untrusted layer is covered with real files in TestTrustGate.
}

// Rule 2, first half: "A hook that failed (err != nil) is "timeout" or "error" and counts in
// Result.Errors".
func TestMergeFailedHookIsErrorOrTimeoutAndCounts(t *testing.T) {
	t.Parallel()
	for _, event := range []hook.Event{hook.PreToolUse, hook.PostToolUse, hook.Notification} {
		t.Run(string(event), func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, event,
				fnHook{id: "fails", err: errHook},
				fnHook{id: "hangs", keys: "timeout: 50ms, ", err: hook.ErrTimeout},
				fnHook{id: "fine"},
			)
			want := summary{Continue: true, Errors: 2, Hooks: []string{"fails=error", "hangs=timeout", "fine=ok"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 2, second half: "under on_error: block, on an event that can block, it blocks instead
// ("block"), with a reason that says the guard failed."
func TestMergeOnErrorBlockFailsClosedWithGuardFailedReason(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		event   hook.Event
		err     error
		blocked bool
		outcome string
	}{
		{"gate error", hook.PreToolUse, errHook, true, "block"},
		{"gate timeout", hook.PreToolUse, hook.ErrTimeout, true, "block"},
		{"feedback error", hook.Stop, errHook, true, "block"},
		{"observe error cannot block", hook.Notification, errHook, false, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, tt.event, fnHook{id: "guard", keys: "on_error: block, timeout: 50ms, ", err: tt.err})
			if res.Blocked != tt.blocked {
				t.Errorf("Blocked = %v, want %v", res.Blocked, tt.blocked)
			}
			if diff := cmp.Diff([]string{"guard=" + tt.outcome}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if tt.blocked && !(strings.Contains(res.Reason, `guard hook "guard" failed`) && strings.Contains(res.Reason, "on_error: block")) {
				t.Errorf("Reason = %q, want it to say the guard failed", res.Reason)
			}
			if res.Errors != 1 {
				t.Errorf("Errors = %d, want 1: a guard that failed closed still failed", res.Errors)
			}
		})
	}
}

// Rule 2, second sentence: "A failed hook's valid envelope is still used (a non-zero exit
// with JSON on stdout, DESIGN.md section 6)."
func TestMergeFailedHookEnvelopeStillUsed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "half.sh", "#!/bin/sh\nprintf '{\"additional_context\": \"lint: 3 warnings\"}'\nexit 1\n")
	set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: half, event: user_prompt_submit, action: {type: command, command: sh half.sh}}\n")
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Cwd: dir, Prompt: "go"})
	want := summary{Context: "lint: 3 warnings", Continue: true, Errors: 1, Hooks: []string{"half=error"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// Rule 3, first half: "A block (Block, or Permission Deny) blocks on gate and feedback events
// when the hook is blocking".
func TestMergeBlockOrDenyBlocksGateAndFeedbackEvents(t *testing.T) {
	t.Parallel()
	decisions := map[string]hook.Decision{
		"block": {Block: true, Reason: "no"},
		"deny":  {Permission: hook.Deny, Reason: "no"},
	}
	for _, event := range []hook.Event{hook.PreToolUse, hook.UserPromptSubmit, hook.PostToolUse, hook.Stop, hook.SubagentStop} {
		for name, d := range decisions {
			t.Run(string(event)+"/"+name, func(t *testing.T) {
				t.Parallel()
				res := fireFuncs(t, event, fnHook{id: "h", dec: d})
				if !res.Blocked || res.Reason != "no" {
					t.Errorf("Blocked, Reason = %v, %q; want true, \"no\"", res.Blocked, res.Reason)
				}
			})
		}
	}
}

// Rule 3, second half: "a MiniCode `reject: true` hook that ran blocks with its output as the
// reason."
func TestMergeRejectHookBlocksWithItsOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		dec    hook.Decision
		reason string
	}{
		{"output", hook.Decision{Output: "  vendor/ is read-only\n"}, "vendor/ is read-only"},
		{"no output", hook.Decision{}, `rejected by hook "r"`},
		{"own reason wins", hook.Decision{Block: true, Reason: "mine", Output: "out"}, "mine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, hook.PreToolUse, fnHook{id: "r", keys: "reject: true, ", dec: tt.dec})
			want := summary{Blocked: true, Reason: tt.reason, Continue: true, Hooks: []string{"r=block"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 3: "The first block's reason is the Result's reason." Two parallel Stop hooks both
// block; the one first in config order gives the reason, whichever finishes first.
func TestMergeFirstBlockReasonIsTheResultReason(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	slow := func(ctx context.Context, _ *hook.Input) (hook.Decision, error) {
		time.Sleep(50 * time.Millisecond)
		return hook.Decision{Block: true, Reason: "first"}, nil
	}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: a, event: stop, parallel: true, action: {type: func, name: a}}
  - {id: b, event: stop, parallel: true, action: {type: func, name: b}}
`)
	r := newRunner(t, dir, set, hookcore.Options{Funcs: map[string]hook.ExecutorFunc{
		"a": slow, "b": fn(hook.Decision{Block: true, Reason: "second"}),
	}})
	res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1"})
	want := summary{Blocked: true, Reason: "first", Continue: true, Hooks: []string{"a=block", "b=block"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// Rule 3: "A `blocking: false` hook's block, and any block on an observe event, is only
// recorded in the hook's Reason."
func TestMergeNonBlockingAndObserveBlocksOnlyRecorded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		event hook.Event
		keys  string
	}{
		{"blocking false on gate", hook.PreToolUse, "blocking: false, "},
		{"blocking false on feedback", hook.Stop, "blocking: false, "},
		{"observe event", hook.Notification, ""},
		{"observe event, tool", hook.FileChange, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, tt.event,
				fnHook{id: "b", keys: tt.keys, dec: hook.Decision{Block: true, Reason: "advice"}},
				fnHook{id: "d", keys: tt.keys, dec: hook.Decision{Permission: hook.Deny, Reason: "deny advice"}},
				fnHook{id: "after"},
			)
			if res.Blocked || res.Reason != "" || res.Permission != hook.NoPermission {
				t.Errorf("Blocked, Reason, Permission = %v, %q, %v; want false, \"\", none", res.Blocked, res.Reason, res.Permission)
			}
			var reasons []string
			for _, h := range res.Hooks {
				reasons = append(reasons, h.ID+":"+h.Reason)
			}
			if diff := cmp.Diff([]string{"b:advice", "d:deny advice", "after:"}, reasons); diff != "" {
				t.Errorf("record reasons (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 4, first half: "Permissions: the strongest wins (deny > ask > allow)". An ask is not a
// block.
func TestMergeStrongestPermissionWins(t *testing.T) {
	t.Parallel()
	p := func(perm hook.Permission, reason string) hook.Decision {
		return hook.Decision{Permission: perm, Reason: reason}
	}
	tests := []struct {
		name    string
		perms   []hook.Decision
		want    string
		blocked bool
	}{
		{"allow", []hook.Decision{p(hook.Allow, "")}, "allow", false},
		{"allow then ask", []hook.Decision{p(hook.Allow, ""), p(hook.Ask, "")}, "ask", false},
		{"ask then allow", []hook.Decision{p(hook.Ask, ""), p(hook.Allow, "")}, "ask", false},
		{"ask then deny", []hook.Decision{p(hook.Ask, ""), p(hook.Deny, "")}, "deny", true},
		{"allow, ask, deny", []hook.Decision{p(hook.Allow, ""), p(hook.Ask, ""), p(hook.Deny, "")}, "deny", true},
		{"deny then allow", []hook.Decision{p(hook.Deny, ""), p(hook.Allow, "")}, "deny", true},
		{"none", []hook.Decision{{}}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hooks []fnHook
			for i, d := range tt.perms {
				hooks = append(hooks, fnHook{id: fmt.Sprintf("h%d", i), dec: d})
			}
			res := fireFuncs(t, hook.PreToolUse, hooks...)
			if res.Permission.String() != tt.want || res.Blocked != tt.blocked {
				t.Errorf("Permission, Blocked = %q, %v; want %q, %v", res.Permission, res.Blocked, tt.want, tt.blocked)
			}
		})
	}
}

// Rule 4, second half: "its reason becomes the Result's reason when nothing blocked."
func TestMergePermissionReasonIsResultReasonWhenNothingBlocked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		hooks  []fnHook
		reason string
	}{
		{"ask", []fnHook{{id: "a", dec: hook.Decision{Permission: hook.Ask, Reason: "writes outside the repo"}}}, "writes outside the repo"},
		{"strongest reason", []fnHook{
			{id: "a", dec: hook.Decision{Permission: hook.Allow, Reason: "safe"}},
			{id: "b", dec: hook.Decision{Permission: hook.Ask, Reason: "check"}},
			{id: "c", dec: hook.Decision{Permission: hook.Allow, Reason: "safe again"}},
		}, "check"},
		{"block wins", []fnHook{
			{id: "a", dec: hook.Decision{Permission: hook.Ask, Reason: "check"}},
			{id: "b", dec: hook.Decision{Block: true, Reason: "blocked"}},
		}, "blocked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, hook.PreToolUse, tt.hooks...)
			if res.Reason != tt.reason {
				t.Errorf("Reason = %q, want %q", res.Reason, tt.reason)
			}
		})
	}
}

// Rule 5: "Additional context is appended in order, joined by a blank line."
func TestMergeContextAppendedInOrderJoinedByBlankLine(t *testing.T) {
	t.Parallel()
	for _, event := range []hook.Event{hook.UserPromptSubmit, hook.PostToolUse, hook.SessionStart} {
		t.Run(string(event), func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, event,
				fnHook{id: "a", dec: hook.Decision{AdditionalContext: "first: the repo uses Go 1.26"}},
				fnHook{id: "none"},
				fnHook{id: "b", dec: hook.Decision{AdditionalContext: "second: run make test\n"}},
			)
			if diff := cmp.Diff("first: the repo uses Go 1.26\n\nsecond: run make test\n", res.AdditionalContext); diff != "" {
				t.Errorf("context (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 6, first half: "An updated input replaces the tool input whole".
func TestMergeUpdatedInputReplacesWhole(t *testing.T) {
	t.Parallel()
	res := fireFuncs(t, hook.PreToolUse,
		fnHook{id: "a", dec: hook.Decision{UpdatedInput: []byte(`{"command":"ls","timeout":5}`)}},
		fnHook{id: "b", dec: hook.Decision{UpdatedInput: []byte(`{"description":"list"}`)}},
	)
	if diff := cmp.Diff(`{"description":"list"}`, string(res.UpdatedInput)); diff != "" {
		t.Errorf("updated input (-want +got):\n%s", diff)
	}
}

// Rule 6, second half: "a hook that returns none keeps the earlier rewrite."
func TestMergeHookWithoutUpdateKeepsEarlierRewrite(t *testing.T) {
	t.Parallel()
	res := fireFuncs(t, hook.PreToolUse,
		fnHook{id: "a", dec: hook.Decision{UpdatedInput: []byte(`{"command":"ls -la"}`)}},
		fnHook{id: "b", dec: hook.Decision{AdditionalContext: "ok"}},
		fnHook{id: "c"},
	)
	want := summary{UpdatedInput: `{"command":"ls -la"}`, Context: "ok", Continue: true, Hooks: []string{"a=update", "b=context", "c=ok"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// Rule 7, first half: "continue: false sets Continue false, with the first stop reason". It is
// not a block: the chain goes on.
func TestMergeContinueFalseKeepsFirstStopReason(t *testing.T) {
	t.Parallel()
	for _, event := range []hook.Event{hook.PreToolUse, hook.PostToolUse} {
		t.Run(string(event), func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, event,
				fnHook{id: "a", dec: hook.Decision{StopAgent: true, StopReason: "budget exhausted"}},
				fnHook{id: "b", dec: hook.Decision{StopAgent: true, StopReason: "second"}},
				fnHook{id: "c"},
			)
			want := summary{Continue: false, StopReason: "budget exhausted", Hooks: []string{"a=ok", "b=ok", "c=ok"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 7, second half: "system messages are joined by newlines."
func TestMergeSystemMessagesJoinedByNewlines(t *testing.T) {
	t.Parallel()
	res := fireFuncs(t, hook.PostToolUse,
		fnHook{id: "a", dec: hook.Decision{SystemMessage: "formatted 2 files"}},
		fnHook{id: "b"},
		fnHook{id: "c", dec: hook.Decision{SystemMessage: "lint clean"}},
	)
	if diff := cmp.Diff("formatted 2 files\nlint clean", res.SystemMessage); diff != "" {
		t.Errorf("system message (-want +got):\n%s", diff)
	}
}

// "The outcome is the strongest thing the hook did: block > update > context > ok, or
// error/timeout when it failed without blocking."
func TestMergeOutcomeIsStrongestThingTheHookDid(t *testing.T) {
	t.Parallel()
	all := hook.Decision{AdditionalContext: "c", UpdatedInput: []byte(`{"a":1}`)}
	tests := []struct {
		name string
		h    fnHook
		want string
	}{
		{"ok", fnHook{dec: hook.Decision{}}, "ok"},
		{"context", fnHook{dec: hook.Decision{AdditionalContext: "c"}}, "context"},
		{"update beats context", fnHook{dec: all}, "update"},
		{"block beats update", fnHook{dec: hook.Decision{Block: true, AdditionalContext: "c", UpdatedInput: []byte(`{"a":1}`)}}, "block"},
		{"error with context", fnHook{dec: hook.Decision{AdditionalContext: "c"}, err: errHook}, "error"},
		{"error with update", fnHook{dec: all, err: errHook}, "error"},
		{"timeout", fnHook{keys: "timeout: 50ms, ", err: hook.ErrTimeout}, "timeout"},
		{"failed closed", fnHook{keys: "on_error: block, ", err: errHook}, "block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.h.id = "h"
			res := fireFuncs(t, hook.PreToolUse, tt.h)
			if diff := cmp.Diff([]string{"h=" + tt.want}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// "merge reports whether the chain must stop": after a block, no later hook runs, on gate
// events and in the sequential part of feedback events.
func TestMergeBlockStopsTheChain(t *testing.T) {
	t.Parallel()
	for _, event := range []hook.Event{hook.PreToolUse, hook.Stop, hook.PostToolUse} {
		t.Run(string(event), func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, event,
				fnHook{id: "a"},
				fnHook{id: "b", dec: hook.Decision{Block: true, Reason: "stop"}},
				fnHook{id: "c", dec: hook.Decision{AdditionalContext: "never"}},
			)
			want := summary{Blocked: true, Reason: "stop", Continue: true, Hooks: []string{"a=ok", "b=block"}}
			if diff := cmp.Diff(want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// Rule 11: "On PostToolUse, an updated tool output replaces the one of an earlier hook."
func TestMergeUpdatedToolOutputReplacesEarlier(t *testing.T) {
	t.Parallel()
	res := fireFuncs(t, hook.PostToolUse,
		fnHook{id: "a", dec: hook.Decision{UpdatedToolOutput: []byte(`"first"`)}},
		fnHook{id: "b", dec: hook.Decision{UpdatedToolOutput: []byte(`"second"`)}},
		fnHook{id: "c"},
	)
	if string(res.UpdatedToolOutput) != `"second"` || res.Hooks[0].Outcome != hook.OutcomeUpdate || res.Hooks[2].Outcome != hook.OutcomeOK {
		t.Errorf("updated tool output %s, records %+v", res.UpdatedToolOutput, res.Hooks)
	}
}

// Rule 11: "On MessageDisplay, a display content replaces the one of an earlier hook; a
// hook that gives none, or fails, keeps it."
func TestMergeDisplayContentReplacesEarlier(t *testing.T) {
	t.Parallel()
	res := fireFuncs(t, hook.MessageDisplay,
		fnHook{id: "a", dec: hook.Decision{DisplayContent: "first"}},
		fnHook{id: "b", dec: hook.Decision{DisplayContent: "second"}},
		fnHook{id: "c"},
		fnHook{id: "d", err: errors.New("crashed")},
	)
	if res.DisplayContent != "second" || res.Hooks[0].Outcome != hook.OutcomeUpdate || res.Hooks[2].Outcome != hook.OutcomeOK {
		t.Errorf("display content %q, records %+v", res.DisplayContent, res.Hooks)
	}
}

// Rule 12: "A blocked gate event's permission is deny: when one hook allows (or asks, or
// defers) and another blocks, the call is refused."
func TestMergeAllowThenBlockIsDeny(t *testing.T) {
	t.Parallel()
	for _, p := range []hook.Permission{hook.Allow, hook.Ask, hook.Defer} {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			res := fireFuncs(t, hook.PreToolUse,
				fnHook{id: "a", dec: hook.Decision{Permission: p, Reason: "fine"}},
				fnHook{id: "b", dec: hook.Decision{Block: true, Reason: "b blocks"}},
			)
			if !res.Blocked || res.Permission != hook.Deny || res.Reason != "b blocks" {
				t.Errorf("blocked %v, permission %v, reason %q", res.Blocked, res.Permission, res.Reason)
			}
		})
	}
}

// Rule 13: "On Stop and SubagentStop, additional context keeps the agent working like a
// block; both count against the bound on consecutive Stop blocks, past which both are
// dropped."
func TestMergeStopContextKeepsWorkingWithinTheBound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(t, dir, nil, hookcore.Options{StopBlockLimit: 2, Callbacks: []hookcore.Callback{
		{ID: "ctx", Event: hook.Stop, Func: fn(hook.Decision{AdditionalContext: "keep going"})}}})
	var keeps []bool
	for range 3 {
		res := r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1", Cwd: dir})
		keeps = append(keeps, res.KeepsWorking())
	}
	if diff := cmp.Diff([]bool{true, true, false}, keeps); diff != "" {
		t.Errorf("KeepsWorking of three Stops in a row (-want +got):\n%s", diff)
	}
	res := r.Fire(context.Background(), hook.PostToolUse, &hook.Input{SessionID: "s1", Cwd: dir, ToolName: "Bash"})
	if res.KeepsWorking() {
		t.Error("context on PostToolUse does not keep the agent working")
	}
}

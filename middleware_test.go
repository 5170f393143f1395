package hookcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// recorder is a Go hook that keeps every input it was given.
type recorder struct {
	mu  sync.Mutex
	ins []*hook.Input
	dec hook.Decision
}

func (rc *recorder) Execute(_ context.Context, in *hook.Input) (hook.Decision, error) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.ins = append(rc.ins, in.Clone())
	return rc.dec, nil
}

// tool is a ToolFunc that records its calls and returns out or err.
type tool struct {
	calls []string
	out   string
	err   error
}

func (tl *tool) run(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
	tl.calls = append(tl.calls, string(input))
	if tl.err != nil {
		return nil, tl.err
	}
	return json.RawMessage(tl.out), nil
}

var lsCall = hookcore.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}

// TestMiddlewareBlockRejectsTool: a PreToolUse block returns *ToolRejectedError carrying the
// reason and the hook's id, and the tool does not run (MiniCode's ToolRejectedError).
func TestMiddlewareBlockRejectsTool(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "guard.sh", "#!/bin/sh\necho 'rm is not allowed here' >&2\nexit 2\n")
	set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: no-rm, event: pre_tool_use, matcher: Bash, if: 'Bash(rm *)', action: {type: command, command: sh guard.sh}}\n")
	r := newRunner(t, dir, set, hookcore.Options{})
	var tl tool
	ctx := hookcore.WithSession(context.Background(), hookcore.Session{ID: "s1", Cwd: dir})
	call := hookcore.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"rm -rf build"}`)}
	out, err := r.Middleware()(ctx, call, tl.run)
	var rej *hookcore.ToolRejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *ToolRejectedError", err)
	}
	if rej.Reason != "rm is not allowed here" || rej.HookID != "no-rm" || rej.Tool != "Bash" {
		t.Errorf("rejection = %+v", rej)
	}
	if !strings.Contains(err.Error(), "rm is not allowed here") {
		t.Errorf("Error() = %q, want the reason in it", err.Error())
	}
	if out != nil || len(tl.calls) != 0 {
		t.Errorf("the tool ran (calls %q, out %s) despite the block", tl.calls, out)
	}
}

// TestMiddlewareNextGetsRewrittenInput: the tool runs with the input as rewritten by the
// PreToolUse hooks, and PostToolUse sees the rewritten input too.
func TestMiddlewareNextGetsRewrittenInput(t *testing.T) {
	t.Parallel()
	post := &recorder{}
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "rw", Event: hook.PreToolUse, Func: fn(hook.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)})},
		{ID: "post", Event: hook.PostToolUse, Func: post.Execute},
	}})
	tl := tool{out: `"listing"`}
	if _, err := r.Middleware()(context.Background(), lsCall, tl.run); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`{"command":"ls -la"}`}, tl.calls); diff != "" {
		t.Errorf("tool input (-want +got):\n%s", diff)
	}
	if len(post.ins) != 1 || string(post.ins[0].ToolInput) != `{"command":"ls -la"}` {
		t.Errorf("PostToolUse inputs = %+v, want one with the rewritten input", post.ins)
	}
}

// TestMiddlewarePostEvents: after a successful tool PostToolUse gets tool_response = the
// output; after a failed tool PostToolUseFailure gets error = its message; the tool's output
// and error are returned unchanged.
func TestMiddlewarePostEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tool  tool
		event hook.Event
		want  hook.Input
	}{
		{"success", tool{out: `{"stdout":"a\nb\n","exit_code":0}`}, hook.PostToolUse, hook.Input{
			SessionID: "s1", Cwd: "/work", HookEventName: "PostToolUse", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"ls"}`), ToolResponse: json.RawMessage(`{"stdout":"a\nb\n","exit_code":0}`), ToolUseID: "toolu_1",
		}},
		{"failure", tool{err: errors.New("exit status 2: ls: x: No such file")}, hook.PostToolUseFailure, hook.Input{
			SessionID: "s1", Cwd: "/work", HookEventName: "PostToolUseFailure", ToolName: "Bash",
			ToolInput: json.RawMessage(`{"command":"ls"}`), ToolUseID: "toolu_1", Error: "exit status 2: ls: x: No such file",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ok, fail := &recorder{}, &recorder{}
			r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
				{ID: "ok", Event: hook.PostToolUse, Func: ok.Execute},
				{ID: "fail", Event: hook.PostToolUseFailure, Func: fail.Execute},
			}})
			ctx := hookcore.WithSession(context.Background(), hookcore.Session{ID: "s1", Cwd: "/work"})
			out, err := r.Middleware()(ctx, lsCall, tt.tool.run)
			if !errors.Is(err, tt.tool.err) || (tt.tool.err == nil && string(out) != tt.tool.out) {
				t.Errorf("middleware returned %s, %v; want the tool's %s, %v", out, err, tt.tool.out, tt.tool.err)
			}
			got := ok.ins
			if tt.event == hook.PostToolUseFailure {
				got = fail.ins
			}
			if len(ok.ins)+len(fail.ins) != 1 || len(got) != 1 {
				t.Fatalf("post hooks ran %d (ok) and %d (fail) times, want one %s", len(ok.ins), len(fail.ins), tt.event)
			}
			if diff := cmp.Diff(&tt.want, got[0]); diff != "" {
				t.Errorf("%s input (-want +got):\n%s", tt.event, diff)
			}
		})
	}
}

// TestMiddlewareSessionFields: every field of the Session in the context reaches the hook
// input, for PreToolUse and PostToolUse, also in a command hook's stdin.
func TestMiddlewareSessionFields(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pre := &recorder{}
	set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: dump, event: pre_tool_use, action: {type: command, command: \"cat > stdin.json\"}}\n")
	r := newRunner(t, dir, set, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "pre", Event: hook.PreToolUse, Func: pre.Execute},
		{ID: "post", Event: hook.PostToolUse, Func: pre.Execute},
	}})
	s := hookcore.Session{ID: "sess-42", TranscriptPath: "/tmp/t.jsonl", Cwd: dir, PermissionMode: "acceptEdits", AgentID: "agent-7", AgentType: "Explore"}
	ctx := hookcore.WithSession(context.Background(), s)
	if got := hookcore.SessionFrom(ctx); got != s {
		t.Errorf("SessionFrom = %+v, want %+v", got, s)
	}
	tl := tool{out: `"ok"`}
	if _, err := r.Middleware()(ctx, lsCall, tl.run); err != nil {
		t.Fatal(err)
	}
	var stdin hook.Input
	if err := json.Unmarshal([]byte(readFile(t, dir, "stdin.json")), &stdin); err != nil {
		t.Fatalf("command hook stdin: %v", err)
	}
	ins := append([]*hook.Input{&stdin}, pre.ins...)
	if len(ins) != 3 {
		t.Fatalf("got %d inputs, want 3", len(ins))
	}
	for _, in := range ins {
		got := hookcore.Session{ID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd, PermissionMode: in.PermissionMode, AgentID: in.AgentID, AgentType: in.AgentType}
		if diff := cmp.Diff(s, got); diff != "" {
			t.Errorf("%s input session fields (-want +got):\n%s", in.HookEventName, diff)
		}
		if in.ToolUseID != "toolu_1" || in.ToolName != "Bash" {
			t.Errorf("%s input tool_use_id, tool_name = %q, %q", in.HookEventName, in.ToolUseID, in.ToolName)
		}
	}
}

// TestMiddlewareFeedback: WithFeedback receives PreToolUse context and PostToolUse context and
// block reasons (Claude Code feeds a PostToolUse "decision: block" reason back to the model);
// results with nothing for the model are not reported; without WithFeedback nothing breaks.
func TestMiddlewareFeedback(t *testing.T) {
	t.Parallel()
	type report struct {
		Event   hook.Event
		Tool    string
		Blocked bool
		Reason  string
		Context string
	}
	tests := []struct {
		name      string
		callbacks []hookcore.Callback
		want      []report
	}{
		{"post block reason", []hookcore.Callback{
			{Event: hook.PostToolUse, Func: fn(hook.Decision{Block: true, Reason: "lint failed: fix main.go:3"})},
		}, []report{{hook.PostToolUse, "Bash", true, "lint failed: fix main.go:3", ""}}},
		{"pre and post context", []hookcore.Callback{
			{Event: hook.PreToolUse, Func: fn(hook.Decision{AdditionalContext: "pre note"})},
			{Event: hook.PostToolUse, Func: fn(hook.Decision{AdditionalContext: "post note"})},
		}, []report{{hook.PreToolUse, "Bash", false, "", "pre note"}, {hook.PostToolUse, "Bash", false, "", "post note"}}},
		{"nothing to say", []hookcore.Callback{
			{Event: hook.PreToolUse, Func: fn(hook.Decision{})},
			{Event: hook.PostToolUse, Func: fn(hook.Decision{})},
		}, nil},
		{"permission, stop and system message reach the harness", []hookcore.Callback{
			{Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Ask, Reason: "pushes need a human"})},
			{Event: hook.PostToolUse, Func: fn(hook.Decision{StopAgent: true, SystemMessage: "for the user only"})},
		}, []report{{hook.PreToolUse, "Bash", false, "pushes need a human", ""}, {hook.PostToolUse, "Bash", false, "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: tt.callbacks})
			var got []report
			ctx := hookcore.WithFeedback(context.Background(), func(e hook.Event, call hookcore.ToolCall, res hook.Result) {
				got = append(got, report{e, call.Name, res.Blocked, res.Reason, res.AdditionalContext})
			})
			tl := tool{out: `"ok"`}
			out, err := r.Middleware()(ctx, lsCall, tl.run)
			if err != nil || string(out) != `"ok"` {
				t.Errorf("middleware = %s, %v; a PostToolUse block must not change the tool's result", out, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("feedback (-want +got):\n%s", diff)
			}
			if _, err := r.Middleware()(context.Background(), lsCall, tl.run); err != nil {
				t.Errorf("without WithFeedback: %v", err)
			}
		})
	}
}

// TestMiddlewareAskDoesNotBlock: a permission "ask" is the harness's to act on; the tool runs.
func TestMiddlewareAskDoesNotBlock(t *testing.T) {
	t.Parallel()
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Ask, Reason: "sure?"})},
	}})
	tl := tool{out: `"ok"`}
	if _, err := r.Middleware()(context.Background(), lsCall, tl.run); err != nil || len(tl.calls) != 1 {
		t.Errorf("err = %v, tool calls = %d; want the tool to run", err, len(tl.calls))
	}
}

// TestChain: Chain makes the first middleware outermost, skips nils, and passes each layer's
// input change to the next.
func TestChain(t *testing.T) {
	t.Parallel()
	var trace []string
	layer := func(name string) hookcore.ToolMiddleware {
		return func(ctx context.Context, call hookcore.ToolCall, next hookcore.ToolFunc) (json.RawMessage, error) {
			trace = append(trace, name+">"+string(call.Input))
			out, err := next(ctx, json.RawMessage(strings.TrimSuffix(string(call.Input), "}")+`,"`+name+`":1}`))
			trace = append(trace, "<"+name)
			return out, err
		}
	}
	tl := tool{out: `"done"`}
	mw := hookcore.Chain(nil, layer("a"), nil, layer("b"), nil)
	out, err := mw(context.Background(), hookcore.ToolCall{Name: "Bash", Input: json.RawMessage(`{"x":0}`)}, tl.run)
	if err != nil || string(out) != `"done"` {
		t.Fatalf("Chain = %s, %v", out, err)
	}
	want := []string{`a>{"x":0}`, `b>{"x":0,"a":1}`, "<b", "<a"}
	if diff := cmp.Diff(want, trace); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`{"x":0,"a":1,"b":1}`}, tl.calls); diff != "" {
		t.Errorf("tool input (-want +got):\n%s", diff)
	}

	empty := hookcore.Chain()
	tl2 := tool{out: `"direct"`}
	if out, err := empty(context.Background(), hookcore.ToolCall{Input: json.RawMessage(`{}`)}, tl2.run); err != nil || string(out) != `"direct"` {
		t.Errorf("empty Chain = %s, %v; want the tool called directly", out, err)
	}
}

// TestChainWithHookMiddleware: the Runner's middleware composes with others; a rejection
// stops the chain inside it.
func TestChainWithHookMiddleware(t *testing.T) {
	t.Parallel()
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "deny-all", Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Deny, Reason: "read-only session"})},
	}})
	var inner bool
	after := func(ctx context.Context, call hookcore.ToolCall, next hookcore.ToolFunc) (json.RawMessage, error) {
		inner = true
		return next(ctx, call.Input)
	}
	tl := tool{}
	_, err := hookcore.Chain(r.Middleware(), after)(context.Background(), lsCall, tl.run)
	var rej *hookcore.ToolRejectedError
	if !errors.As(err, &rej) || rej.Reason != "read-only session" || rej.HookID != "deny-all" {
		t.Errorf("err = %v, want a rejection by deny-all", err)
	}
	if inner || len(tl.calls) != 0 {
		t.Errorf("the inner middleware or the tool ran after a rejection")
	}
}

// TestMiddlewareUpdatedToolOutput: a PostToolUse updatedToolOutput is what the middleware
// returns instead of the tool's output; updatedMCPToolOutput only for an MCP tool (Claude
// Code 2.1.332 replaced Bash's output and ignored updatedMCPToolOutput on Write, scenario
// testdata/claude/updated-output).
func TestMiddlewareUpdatedToolOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		dec  hook.Decision
		tool string
		want string
	}{
		{"tool output", hook.Decision{UpdatedToolOutput: json.RawMessage(`"REDACTED"`)}, "Bash", `"REDACTED"`},
		{"mcp output on a built-in tool", hook.Decision{UpdatedMCPToolOutput: json.RawMessage(`"m"`)}, "Write", `"own"`},
		{"mcp output on an mcp tool", hook.Decision{UpdatedMCPToolOutput: json.RawMessage(`"m"`)}, "mcp__gh__issue", `"m"`},
		{"none", hook.Decision{}, "Bash", `"own"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
				{ID: "post", Event: hook.PostToolUse, Func: fn(tt.dec)}}})
			tl := tool{out: `"own"`}
			call := hookcore.ToolCall{ID: "toolu_1", Name: tt.tool, Input: json.RawMessage(`{}`)}
			out, err := r.Middleware()(context.Background(), call, tl.run)
			if err != nil || string(out) != tt.want {
				t.Errorf("out %s, err %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestMiddlewareDefer: a PreToolUse permission "defer" returns *ToolDeferredError and the
// tool does not run (Claude Code 2.1.332, scenario testdata/claude/defer).
func TestMiddlewareDefer(t *testing.T) {
	t.Parallel()
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "d", Event: hook.PreToolUse, Func: fn(hook.Decision{Permission: hook.Defer, Reason: "later"})}}})
	var tl tool
	_, err := r.Middleware()(context.Background(), lsCall, tl.run)
	var de *hookcore.ToolDeferredError
	if !errors.As(err, &de) || de.Reason != "later" || de.Tool != "Bash" || len(tl.calls) != 0 {
		t.Errorf("err %v, calls %q; want a ToolDeferredError and no call", err, tl.calls)
	}
}

// TestMiddlewareHookIDFirstBlock: the rejection names the first blocking hook in config
// order, the one whose reason is the result's (merge rule 3). Before the one adapter,
// Runner.Middleware named the last one and the harness the first (issue 13); a Runner's
// gate chain stops at the first block, so the result with two blocks comes through FireVia.
func TestMiddlewareHookIDFirstBlock(t *testing.T) {
	t.Parallel()
	r, err := hookcore.New(nil, hookcore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var events []hook.Event
	fire := func(_ context.Context, event hook.Event, in *hook.Input) hook.Result {
		events = append(events, event)
		return hook.Result{Event: event, Continue: true, Blocked: true, Reason: "first says no", Hooks: []hook.Record{
			{ID: "watch", Outcome: hook.OutcomeOK},
			{ID: "first", Outcome: hook.OutcomeBlock, Reason: "first says no"},
			{ID: "second", Outcome: hook.OutcomeBlock, Reason: "second says no"},
		}}
	}
	var tl tool
	_, err = r.Middleware(hookcore.FireVia(fire))(context.Background(), lsCall, tl.run)
	var rej *hookcore.ToolRejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *ToolRejectedError", err)
	}
	if rej.HookID != "first" || rej.Reason != "first says no" {
		t.Errorf("HookID, Reason = %q, %q; want first, first says no", rej.HookID, rej.Reason)
	}
	if len(tl.calls) != 0 || !cmp.Equal(events, []hook.Event{hook.PreToolUse}) {
		t.Errorf("tool calls %v, events fired %v; want none, [PreToolUse]", tl.calls, events)
	}
}

// TestMiddlewareFireVia: every tool event goes through the FireVia function, with the
// input Runner.Fire would get, and its results are the middleware's.
func TestMiddlewareFireVia(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	r, err := hookcore.New(nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "pre", Event: hook.PreToolUse, Func: rec.Execute},
		{ID: "post", Event: hook.PostToolUse, Func: rec.Execute},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var fired []string
	fire := func(ctx context.Context, event hook.Event, in *hook.Input) hook.Result {
		fired = append(fired, string(event)+" "+in.HookEventName+" "+in.ToolName+" "+in.SessionID)
		return r.Fire(ctx, event, in)
	}
	ctx := hookcore.WithSession(context.Background(), hookcore.Session{ID: "s1"})
	tl := tool{out: `"ok"`}
	out, err := r.Middleware(hookcore.FireVia(fire))(ctx, lsCall, tl.run)
	if err != nil || string(out) != `"ok"` {
		t.Fatalf("out, err = %s, %v", out, err)
	}
	want := []string{"PreToolUse PreToolUse Bash s1", "PostToolUse PostToolUse Bash s1"}
	if diff := cmp.Diff(want, fired); diff != "" {
		t.Errorf("fired (-want +got):\n%s", diff)
	}
	if len(rec.ins) != 2 {
		t.Errorf("hooks ran %d times, want 2 (the Runner's hooks run through FireVia)", len(rec.ins))
	}
}

// TestMiddlewarePassPermission: a PreToolUse allow or ask reaches the tool's context through
// PassPermission, with the hook's reason (the harness passes it to the agent's permission
// check); without a decision, or without the option, nothing is passed.
func TestMiddlewarePassPermission(t *testing.T) {
	t.Parallel()
	type permKey struct{}
	tests := []struct {
		name string
		dec  hook.Decision
		opt  bool
		want string
	}{
		{"allow", hook.Decision{Permission: hook.Allow, Reason: "read-only"}, true, "allow: read-only"},
		{"ask", hook.Decision{Permission: hook.Ask, Reason: "look first"}, true, "ask: look first"},
		{"no decision", hook.Decision{}, true, ""},
		{"no option", hook.Decision{Permission: hook.Allow, Reason: "read-only"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := hookcore.New(nil, hookcore.Options{Callbacks: []hookcore.Callback{{ID: "perm", Event: hook.PreToolUse,
				Func: func(context.Context, *hook.Input) (hook.Decision, error) { return tt.dec, nil }}}})
			if err != nil {
				t.Fatal(err)
			}
			var opts []hookcore.MiddlewareOption
			if tt.opt {
				opts = append(opts, hookcore.PassPermission(func(ctx context.Context, p hook.Permission, reason string) context.Context {
					return context.WithValue(ctx, permKey{}, p.String()+": "+reason)
				}))
			}
			var got string
			next := func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
				got, _ = ctx.Value(permKey{}).(string)
				return json.RawMessage(`"ok"`), nil
			}
			if _, err := r.Middleware(opts...)(context.Background(), lsCall, next); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("permission in the tool's context = %q, want %q", got, tt.want)
			}
		})
	}
}

package hookcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// TestFireRunsHooksInConfigOrder: hooks of one event run in config order on gate, feedback
// and observe events, and their records come back in that order (DESIGN.md section 7).
func TestFireRunsHooksInConfigOrder(t *testing.T) {
	t.Parallel()
	for _, event := range []hook.Event{hook.PreToolUse, hook.PostToolUse, hook.Notification} {
		t.Run(string(event), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var b strings.Builder
			b.WriteString("hooks:\n")
			for _, id := range []string{"e", "b", "d", "a", "c"} {
				fmt.Fprintf(&b, "  - {id: %s, event: %s, action: {type: command, command: \"echo %s >> order.txt\"}}\n", id, event, id)
			}
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", b.String()), hookcore.Options{})
			res := r.Fire(context.Background(), event, bashCall(dir, "s1", "ls"))
			if diff := cmp.Diff("e\nb\nd\na\nc\n", readFile(t, dir, "order.txt")); diff != "" {
				t.Errorf("run order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"e=ok", "b=ok", "d=ok", "a=ok", "c=ok"}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGateChainsUpdatedInput: on a gate event each hook sees the input as rewritten by the
// hooks before it, on its stdin (conformance case 08).
func TestGateChainsUpdatedInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "rewrite.sh", "#!/bin/sh\nprintf '%s' '{\"updated_input\": {\"command\": \"ls -la\"}}'\n")
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: rewrite, event: pre_tool_use, matcher: Bash, action: {type: command, command: sh rewrite.sh}}
  - {id: observe, event: pre_tool_use, matcher: Bash, action: {type: command, command: "cat > seen.json"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))

	var seen struct {
		Event     string          `json:"hook_event_name"`
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal([]byte(readFile(t, dir, "seen.json")), &seen); err != nil {
		t.Fatalf("second hook's stdin: %v", err)
	}
	if diff := cmp.Diff(`{"command":"ls -la"}`, string(seen.ToolInput)); diff != "" {
		t.Errorf("second hook's tool_input (-want +got):\n%s", diff)
	}
	want := summary{UpdatedInput: `{"command":"ls -la"}`, Continue: true, Hooks: []string{"rewrite=update", "observe=ok"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// TestGateFirstBlockShortCircuits: the first block on a gate event ends the chain; the hook
// after it never runs (conformance case 31).
func TestGateFirstBlockShortCircuits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "blocker.sh", "#!/bin/sh\necho blocker >> order.txt\necho 'stop here' >&2\nexit 2\n")
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: first, event: pre_tool_use, action: {type: command, command: "echo first >> order.txt"}}
  - {id: blocker, event: pre_tool_use, action: {type: command, command: sh blocker.sh}}
  - {id: never, event: pre_tool_use, action: {type: command, command: "echo never >> order.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff("first\nblocker\n", readFile(t, dir, "order.txt")); diff != "" {
		t.Errorf("hooks that ran (-want +got):\n%s", diff)
	}
	want := summary{Blocked: true, Reason: "stop here", Continue: true, Hooks: []string{"first=ok", "blocker=block"}}
	if diff := cmp.Diff(want, summarize(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// TestBlockingFalseCannotVeto: a `blocking: false` hook's exit 2 is recorded but the call goes
// on, and the hooks after it still run (codebot; conformance case 22).
func TestBlockingFalseCannotVeto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "advise.sh", "#!/bin/sh\necho 'advisory only' >&2\nexit 2\n")
	set := loadConfig(t, dir, "settings.json", `{"hooks": {"PreToolUse": [
  {"type": "command", "command": "sh advise.sh", "matcher": "Bash", "blocking": false},
  {"type": "command", "command": "echo after >> after.txt", "matcher": "Bash"}
]}}`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if res.Blocked {
		t.Errorf("blocked by a blocking: false hook: %q", res.Reason)
	}
	if got := readFile(t, dir, "after.txt"); got != "after\n" {
		t.Errorf("the hook after the advisory block did not run (after.txt = %q)", got)
	}
	if len(res.Hooks) != 2 || res.Hooks[0].Reason != "advisory only" {
		t.Errorf("records = %+v, want the advisory reason on the first", res.Hooks)
	}
}

// TestRejectUsesStdoutAsReason: a MiniCode `reject: true` hook that matches and runs blocks,
// and its stdout is the reason the model sees (seed 004; conformance case 01).
func TestRejectUsesStdoutAsReason(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: command, command: "echo 'dangerous delete blocked'"}
    reject: true
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	tests := []struct {
		command string
		want    summary
	}{
		{"rm -rf /", summary{Blocked: true, Reason: "dangerous delete blocked", Continue: true, Hooks: []string{"block-dangerous-rm=block"}}},
		{"rm  -rf   /etc", summary{Blocked: true, Reason: "dangerous delete blocked", Continue: true, Hooks: []string{"block-dangerous-rm=block"}}},
		{"rm -rf build", summary{Continue: true}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			t.Parallel()
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", tt.command))
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOncePerSession: a `once: true` hook runs once per session; another session runs it
// again (seed 004; conformance case 30).
func TestOncePerSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: hello, event: session_start, once: true, action: {type: command, command: "echo $SESSION_ID >> runs.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	var got []string
	for _, s := range []string{"s1", "s1", "s2", "s1", "s2"} {
		res := r.Fire(context.Background(), hook.SessionStart, &hook.Input{SessionID: s, Cwd: dir, Source: "startup"})
		got = append(got, s+":"+strings.Join(outcomes(res), ","))
	}
	want := []string{"s1:hello=ok", "s1:hello=skipped", "s2:hello=ok", "s1:hello=skipped", "s2:hello=skipped"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("s1\ns2\n", readFile(t, dir, "runs.txt")); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

// TestOncePerFile: `once` is per hook, and an id is unique within one file only: a hook of
// another file with the same id has its own claim. Regression (stop 25 red team): a trusted
// project hook named like the user's `once: true` guard ran first, took the claim, and the
// user's guard never ran for the session's rm -rf.
func TestOncePerFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir,
		layerFile{"user.yaml", config.User, "hooks:\n  - {id: guard, event: pre_tool_use, matcher: Bash, once: true, if: 'args.command =~ /rm -rf/', reject: true, action: {type: command, command: \"echo user guard\"}}\n"},
		layerFile{"project.yaml", config.Explicit, "hooks:\n  - {id: guard, event: pre_tool_use, matcher: Read, once: true, action: {type: command, command: \"true\"}}\n"})
	r := newRunner(t, dir, set, hookcore.Options{})
	read := &hook.Input{SessionID: "s", Cwd: dir, ToolName: "Read", ToolInput: json.RawMessage(`{"file_path":"a"}`)}
	if res := r.Fire(context.Background(), hook.PreToolUse, read); res.Blocked {
		t.Fatalf("Read: %+v", summarize(res))
	}
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s", "rm -rf /tmp/x")); !res.Blocked {
		t.Errorf("rm -rf after the other file's guard ran: %+v", summarize(res))
	}
}

// TestOnceUnderConcurrency: many goroutines firing the same sessions at once run a once
// hook exactly once per session (DESIGN.md section 7: "safe under concurrency").
func TestOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var mu sync.Mutex
	runs := map[string]int{}
	count := func(_ context.Context, in *hook.Input) (hook.Decision, error) {
		mu.Lock()
		runs[in.SessionID]++
		mu.Unlock()
		return hook.Decision{}, nil
	}
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: once-func, event: session_start, once: true, action: {type: func, name: count}}
  - {id: once-cmd, event: session_start, once: true, action: {type: command, command: "echo $SESSION_ID >> runs.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{Funcs: map[string]hook.ExecutorFunc{"count": count}})
	sessions := []string{"a", "b", "c", "d"}
	const perSession = 16
	var wg sync.WaitGroup
	ran := make(chan string, len(sessions)*perSession*2)
	for i := 0; i < perSession; i++ {
		for _, s := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := r.Fire(context.Background(), hook.SessionStart, &hook.Input{SessionID: s, Cwd: dir})
				for _, h := range res.Hooks {
					if h.Outcome == hook.OutcomeOK {
						ran <- s + "/" + h.ID
					}
				}
			}()
		}
	}
	wg.Wait()
	close(ran)
	got := map[string]int{}
	for k := range ran {
		got[k]++
	}
	want := map[string]int{}
	for _, s := range sessions {
		want[s+"/once-func"] = 1
		want[s+"/once-cmd"] = 1
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ok records per session/hook (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"a": 1, "b": 1, "c": 1, "d": 1}, runs); diff != "" {
		t.Errorf("func runs per session (-want +got):\n%s", diff)
	}
	if lines := strings.Count(readFile(t, dir, "runs.txt"), "\n"); lines != len(sessions) {
		t.Errorf("command ran %d times, want %d", lines, len(sessions))
	}
}

// TestDedupIdenticalCommandHooks: identical command hooks matched twice for one event run
// once and leave one record (Claude Code dedup; DESIGN.md section 7), on gate events and on
// feedback/observe events, within one file and across layers.
func TestDedupIdenticalCommandHooks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		event hook.Event
		files []layerFile
	}{
		{"one file gate", hook.PreToolUse, []layerFile{{"hooks.yaml", config.Explicit, `hooks:
  - {id: d1, event: pre_tool_use, action: {type: command, command: "echo run >> runs.txt"}}
  - {id: d2, event: pre_tool_use, matcher: Bash, action: {type: command, command: "echo run >> runs.txt"}}
`}}},
		{"one file feedback", hook.PostToolUse, []layerFile{{"hooks.yaml", config.Explicit, `hooks:
  - {id: d1, event: post_tool_use, action: {type: command, command: "echo run >> runs.txt"}}
  - {id: d2, event: post_tool_use, action: {type: command, command: "echo run >> runs.txt"}}
`}}},
		{"two layers", hook.PreToolUse, []layerFile{
			{"user.yaml", config.User, `hooks:
  - {id: d1, event: pre_tool_use, timeout: 30, action: {type: command, command: "echo run >> runs.txt"}}
`},
			// The same timeout: a Claude Code hook's default (600 s) differs from hookcore's,
			// and hooks that time out differently are not one (issue 10.5).
			{"settings.json", config.Explicit, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo run >> runs.txt", "timeout": 30}]}]}}`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, loadLayers(t, dir, tt.files...), hookcore.Options{})
			res := r.Fire(context.Background(), tt.event, bashCall(dir, "s1", "ls"))
			if diff := cmp.Diff([]string{"d1=ok"}, outcomes(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if got := readFile(t, dir, "runs.txt"); got != "run\n" {
				t.Errorf("runs.txt = %q, want one run", got)
			}
		})
	}
}

// TestDedupKeepsDifferentCommands: hooks whose commands differ after placeholder expansion
// both run.
func TestDedupKeepsDifferentCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: a, event: pre_tool_use, action: {type: command, command: "echo run >> runs.txt"}}
  - {id: b, event: pre_tool_use, action: {type: command, command: "echo  run >> runs.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if diff := cmp.Diff([]string{"a=ok", "b=ok"}, outcomes(res)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestUnknownEventMatchesNothing: Fire with an event no registry knows returns an empty,
// allowing result and runs nothing.
func TestUnknownEventMatchesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: any, event: pre_tool_use, action: {type: command, command: "echo ran >> ran.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	for _, ev := range []hook.Event{"NoSuchEvent", "", "pre-tool-use-typo"} {
		res := r.Fire(context.Background(), ev, bashCall(dir, "s1", "ls"))
		want := hook.Result{Event: ev, Continue: true}
		if diff := cmp.Diff(want, res); diff != "" {
			t.Errorf("Fire(%q) (-want +got):\n%s", ev, diff)
		}
	}
	if got := readFile(t, dir, "ran.txt"); got != "" {
		t.Errorf("a hook ran for an unknown event: %q", got)
	}
}

// TestEventAliases: a hook configured under a MiniCode alias (turn_start) fires for every
// spelling of its event, the result names the canonical event, and the hook's input says
// the canonical hook_event_name (DESIGN.md section 3).
func TestEventAliases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - {id: greet, event: turn_start, action: {type: command, command: "echo $HOOK_EVENT >> events.txt; cat >> stdin.txt; echo >> stdin.txt"}}
`)
	r := newRunner(t, dir, set, hookcore.Options{})
	spellings := []hook.Event{"turn_start", hook.UserPromptSubmit, "user_prompt_submit", "userpromptsubmit", "TURN_START"}
	for _, ev := range spellings {
		res := r.Fire(context.Background(), ev, &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: string(ev), Prompt: "hi"})
		if res.Event != hook.UserPromptSubmit {
			t.Errorf("Fire(%q).Event = %q, want UserPromptSubmit", ev, res.Event)
		}
		if diff := cmp.Diff([]string{"greet=ok"}, outcomes(res)); diff != "" {
			t.Errorf("Fire(%q) records (-want +got):\n%s", ev, diff)
		}
	}
	if diff := cmp.Diff(strings.Repeat("UserPromptSubmit\n", len(spellings)), readFile(t, dir, "events.txt")); diff != "" {
		t.Errorf("HOOK_EVENT (-want +got):\n%s", diff)
	}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, dir, "stdin.txt")), "\n") {
		var in hook.Input
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("stdin %q: %v", line, err)
		}
		if in.HookEventName != "UserPromptSubmit" {
			t.Errorf("stdin hook_event_name = %q, want UserPromptSubmit", in.HookEventName)
		}
	}
}

// TestFireDoesNotModifyInput: Fire works on a copy; the caller's Input is unchanged even when
// hooks rewrite the tool input and the event name is spelt as an alias.
func TestFireDoesNotModifyInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{ID: "rw", Event: hook.PreToolUse, Func: fn(hook.Decision{UpdatedInput: json.RawMessage(`{"command":"pwd"}`)})},
		{ID: "mut", Event: hook.PreToolUse, Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			return hook.Decision{AdditionalContext: string(in.ToolInput)}, nil
		}},
	}})
	in := bashCall(dir, "s1", "ls")
	in.HookEventName = "pre_tool_use"
	before := in.Clone()
	res := r.Fire(context.Background(), "pre_tool_use", in)
	if diff := cmp.Diff(before, in); diff != "" {
		t.Errorf("input changed (-before +after):\n%s", diff)
	}
	if res.AdditionalContext != `{"command":"pwd"}` {
		t.Errorf("second callback saw %q, want the rewritten input", res.AdditionalContext)
	}
}

package hookcore_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// truncMarker is the marker the Runner appends to context cut at the cap.
const truncMarker = "\n… [additional context truncated]"

// TestContextCap: the joined additional context is capped at 10 000 characters (runes, not
// bytes) and the rest replaced by a marker; Options.MaxContext changes the cap (DESIGN.md
// section 7).
func TestContextCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		pieces []string
		max    int
		want   string
	}{
		{"under the cap", []string{strings.Repeat("a", 4000), strings.Repeat("b", 5998)}, 0,
			strings.Repeat("a", 4000) + "\n\n" + strings.Repeat("b", 5998)},
		{"over the cap", []string{strings.Repeat("a", 6000), strings.Repeat("b", 6000)}, 0,
			strings.Repeat("a", 6000) + "\n\n" + strings.Repeat("b", 3998) + truncMarker},
		{"runes not bytes", []string{strings.Repeat("é", 10000)}, 0, strings.Repeat("é", 10000)},
		{"runes over the cap", []string{strings.Repeat("日", 10001)}, 0, strings.Repeat("日", 10000) + truncMarker},
		{"custom cap", []string{"hello", "world"}, 8, "hello\n\nw" + truncMarker},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var cbs []hookcore.Callback
			for i, p := range tt.pieces {
				cbs = append(cbs, hookcore.Callback{ID: fmt.Sprint(i), Event: hook.UserPromptSubmit, Func: fn(hook.Decision{AdditionalContext: p})})
			}
			r := newRunner(t, t.TempDir(), nil, hookcore.Options{Callbacks: cbs, MaxContext: tt.max})
			res := r.Fire(context.Background(), hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Prompt: "go"})
			if res.AdditionalContext != tt.want {
				t.Errorf("context: %d runes ending %q; want %d runes ending %q",
					utf8.RuneCountInString(res.AdditionalContext), tail(res.AdditionalContext),
					utf8.RuneCountInString(tt.want), tail(tt.want))
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 60 {
		return s[len(s)-60:]
	}
	return s
}

// TestStopBlockBound: Stop-type blocks are bounded per session: the 9th consecutive block is
// overridden with a notice (the hook still runs), a new user prompt resets the count, and an
// allowed stop ends the streak (Claude Code; DESIGN.md section 7).
func TestStopBlockBound(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	keepGoing := func(context.Context, *hook.Input) (hook.Decision, error) {
		runs.Add(1)
		return hook.Decision{Block: true, Reason: "tests are failing"}, nil
	}
	newR := func(limit int, event hook.Event) *hookcore.Runner {
		return newRunner(t, t.TempDir(), nil, hookcore.Options{StopBlockLimit: limit, Callbacks: []hookcore.Callback{
			{ID: "gate", Event: event, Func: keepGoing},
		}})
	}
	stop := func(r *hookcore.Runner, event hook.Event, session string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			res := r.Fire(context.Background(), event, &hook.Input{SessionID: session, StopHookActive: i > 0})
			if res.Blocked {
				b.WriteByte('B')
			} else {
				b.WriteByte('.')
				if !strings.Contains(res.SystemMessage, "blocked") || !strings.Contains(res.SystemMessage, "tests are failing") {
					t.Errorf("overridden block without a notice: system message %q", res.SystemMessage)
				}
				if res.Reason != "" {
					t.Errorf("overridden block kept its reason %q", res.Reason)
				}
			}
		}
		return b.String()
	}

	t.Run("default limit", func(t *testing.T) {
		r := newR(0, hook.Stop)
		before := runs.Load()
		if diff := cmp.Diff("BBBBBBBB.BBBBBBBB.", stop(r, hook.Stop, "s1", 18)); diff != "" {
			t.Errorf("blocks (-want +got):\n%s", diff)
		}
		if got := runs.Load() - before; got != 18 {
			t.Errorf("hook ran %d times, want 18: it still runs when its block is overridden", got)
		}
	})
	t.Run("reset by user prompt", func(t *testing.T) {
		r := newR(0, hook.Stop)
		got := stop(r, hook.Stop, "s1", 5)
		r.Fire(context.Background(), hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Prompt: "again"})
		got += "|" + stop(r, hook.Stop, "s1", 9)
		if diff := cmp.Diff("BBBBB|BBBBBBBB.", got); diff != "" {
			t.Errorf("blocks (-want +got):\n%s", diff)
		}
	})
	t.Run("reset by user prompt alias", func(t *testing.T) {
		r := newR(2, hook.Stop)
		got := stop(r, hook.Stop, "s1", 2)
		r.Fire(context.Background(), "turn_start", &hook.Input{SessionID: "s1", Prompt: "again"})
		got += "|" + stop(r, hook.Stop, "s1", 3)
		if diff := cmp.Diff("BB|BB.", got); diff != "" {
			t.Errorf("blocks (-want +got):\n%s", diff)
		}
	})
	t.Run("per session", func(t *testing.T) {
		r := newR(2, hook.Stop)
		got := stop(r, hook.Stop, "a", 2) + "|" + stop(r, hook.Stop, "b", 3) + "|" + stop(r, hook.Stop, "a", 1)
		if diff := cmp.Diff("BB|BB.|.", got); diff != "" {
			t.Errorf("blocks (-want +got):\n%s", diff)
		}
	})
	t.Run("subagent stop", func(t *testing.T) {
		r := newR(3, hook.SubagentStop)
		if diff := cmp.Diff("BBB.BBB.", stop(r, hook.SubagentStop, "s1", 8)); diff != "" {
			t.Errorf("blocks (-want +got):\n%s", diff)
		}
	})
}

// TestStopStreakPerAgent (red team round 42, with the real Claude Code): the main agent's
// Stop blocks and each sub-agent's SubagentStop blocks are bounded apart, as Claude Code
// bounds each agent's; one streak per session let a sub-agent's blocks release the main
// agent's Stop guard early (and the other way round).
func TestStopStreakPerAgent(t *testing.T) {
	t.Parallel()
	guard := func(context.Context, *hook.Input) (hook.Decision, error) {
		return hook.Decision{Block: true, Reason: "run the tests first"}, nil
	}
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{StopBlockLimit: 3, Callbacks: []hookcore.Callback{
		{ID: "stop", Event: hook.Stop, Func: guard}, {ID: "sub", Event: hook.SubagentStop, Func: guard},
	}})
	var got strings.Builder
	fire := func(ev hook.Event, agent string) {
		if r.Fire(context.Background(), ev, &hook.Input{SessionID: "s1", AgentID: agent}).Blocked {
			got.WriteByte('B')
		} else {
			got.WriteByte('.')
		}
	}
	// Main, a1, main, a2, a1, main, main: each agent's own fourth stop is let through.
	for _, step := range []struct {
		ev    hook.Event
		agent string
	}{
		{hook.Stop, ""}, {hook.SubagentStop, "a1"}, {hook.Stop, ""}, {hook.SubagentStop, "a2"},
		{hook.SubagentStop, "a1"}, {hook.Stop, ""}, {hook.SubagentStop, "a1"}, {hook.SubagentStop, "a1"},
		{hook.Stop, ""},
	} {
		fire(step.ev, step.agent)
	}
	if diff := cmp.Diff("BBBBBBB.", got.String()[:8]); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	if got.String()[8] != '.' {
		t.Errorf("the main agent's fourth stop was blocked: %s", got.String())
	}
}

// TestStopStreakGeminiContinuation (red team round 43, with the real Gemini CLI): Gemini CLI
// continues a turn a Stop hook blocked with a BeforeAgent (UserPromptSubmit) whose prompt
// is the block's reason; that is no new turn, so the streak goes on and the cap ends the
// loop (it reset it, and a blocking Stop guard looped for ever). A prompt of the user's
// still starts a new turn.
func TestStopStreakGeminiContinuation(t *testing.T) {
	t.Parallel()
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{StopBlockLimit: 3, Callbacks: []hookcore.Callback{{
		ID: "tests", Event: hook.Stop,
		Func: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: true, Reason: "STOP-GUARD: write DONE.txt first"}, nil
		},
	}}})
	ctx := context.Background()
	var got strings.Builder
	turn := func(prompt string) {
		r.Fire(ctx, hook.UserPromptSubmit, &hook.Input{SessionID: "s1", Prompt: prompt})
		if r.Fire(ctx, hook.Stop, &hook.Input{SessionID: "s1"}).Blocked {
			got.WriteByte('B')
		} else {
			got.WriteByte('.')
		}
	}
	turn("do the task")
	for range 3 {
		turn("STOP-GUARD: write DONE.txt first")
	}
	turn("now the docs") // the user's: a new turn
	if diff := cmp.Diff("BBB.B", got.String()); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// TestStopStreakEndsOnAllowedStop: a Stop that nobody blocks ends the streak.
func TestStopStreakEndsOnAllowedStop(t *testing.T) {
	t.Parallel()
	var block atomic.Bool
	r := newRunner(t, t.TempDir(), nil, hookcore.Options{StopBlockLimit: 2, Callbacks: []hookcore.Callback{{
		ID: "gate", Event: hook.Stop,
		Func: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: block.Load(), Reason: "more"}, nil
		},
	}}})
	var got strings.Builder
	for _, b := range []bool{true, true, false, true, true, true} {
		block.Store(b)
		if r.Fire(context.Background(), hook.Stop, &hook.Input{SessionID: "s1"}).Blocked {
			got.WriteByte('B')
		} else {
			got.WriteByte('.')
		}
	}
	if diff := cmp.Diff("BB.BB.", got.String()); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// TestOnErrorBlockWithRealProcesses: a guard that exits 1 or runs past its timeout blocks
// under on_error: block, with a reason that says the guard failed; without it, the action
// goes on and the hook is recorded as error or timeout (DESIGN.md section 6, "fail open or
// closed").
func TestOnErrorBlockWithRealProcesses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		keys    string
		want    summary
		reason  string
	}{
		{"exit 1 fails open", "sh crash.sh", "", summary{Continue: true, Errors: 1, Hooks: []string{"guard=error"}}, ""},
		{"timeout fails open", "sh hang.sh", "timeout: 300ms, ", summary{Continue: true, Errors: 1, Hooks: []string{"guard=timeout"}}, ""},
		{"exit 1 fails closed", "sh crash.sh", "on_error: block, ", summary{Blocked: true, Continue: true, Errors: 1, Hooks: []string{"guard=block"}}, "exit"},
		{"timeout fails closed", "sh hang.sh", "on_error: block, timeout: 300ms, ", summary{Blocked: true, Continue: true, Errors: 1, Hooks: []string{"guard=block"}}, "timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, "crash.sh", "#!/bin/sh\necho 'Traceback: boom' >&2\nexit 1\n")
			writeFile(t, dir, "hang.sh", "#!/bin/sh\nsleep 30\n")
			set := loadConfig(t, dir, "hooks.yaml", fmt.Sprintf(
				"hooks:\n  - {id: guard, event: pre_tool_use, %saction: {type: command, command: %s}}\n", tt.keys, tt.command))
			r := newRunner(t, dir, set, hookcore.Options{})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
			got := summarize(res)
			reason := got.Reason
			got.Reason = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if tt.want.Blocked && !(strings.Contains(reason, `guard hook "guard" failed`) && strings.Contains(reason, tt.reason)) {
				t.Errorf("Reason = %q, want it to say the guard failed (%s)", reason, tt.reason)
			}
		})
	}
}

// TestHookThatCannotStartNeverBlocks: a missing program, or a known interpreter whose script
// is missing (`python3 missing.py` exits 2), is outcome error, never a block by its exit code
// (DESIGN.md section 6; Claude Code issue 80697). Under on_error: block the guard fails closed
// as it does for any other failure. A reject hook rejects whatever its command did (seed 004:
// the command only gives the reason); it let the call through when the command could not
// start (red team round 20).
func TestHookThatCannotStartNeverBlocks(t *testing.T) {
	t.Parallel()
	commands := []string{"python3 missing.py", "no-such-program-hookcore", "./missing.sh", "sh missing.sh", "bash ./missing.sh --flag"}
	for _, command := range commands {
		for _, keys := range []string{"", "reject: true, ", "matcher: Bash, "} {
			t.Run(command+"/"+keys, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				set := loadConfig(t, dir, "hooks.yaml", fmt.Sprintf("hooks:\n  - {id: g, event: pre_tool_use, %saction: {type: command, command: %q}}\n", keys, command))
				r := newRunner(t, dir, set, hookcore.Options{})
				res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
				want := summary{Continue: true, Errors: 1, Hooks: []string{"g=error"}}
				if keys == "reject: true, " {
					want = summary{Continue: true, Blocked: true, Errors: 1, Hooks: []string{"g=block"},
						Reason: `rejected by hook "g" (its command, which gives the reason, could not start)`}
				}
				if diff := cmp.Diff(want, summarize(res)); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
				if e := res.Hooks[0].Error; !strings.Contains(e, "could not start") {
					t.Errorf("error = %q, want it to say the hook could not start", e)
				}
				if res.Hooks[0].ExitCode != nil {
					t.Errorf("exit code %d recorded for a hook that never started", *res.Hooks[0].ExitCode)
				}
			})
		}
	}
	t.Run("on_error block", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: g, event: pre_tool_use, on_error: block, action: {type: command, command: python3 missing.py}}\n")
		r := newRunner(t, dir, set, hookcore.Options{})
		res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
		if !res.Blocked || !strings.Contains(res.Reason, "could not start") {
			t.Errorf("Blocked, Reason = %v, %q; want a fail-closed block saying the guard could not start", res.Blocked, res.Reason)
		}
	})
}

// TestPermissionFromEnvelopes: Claude Code permission decisions printed by real hooks merge
// by precedence deny > ask > allow; ask is not a block, deny is (conformance cases 11, 13).
func TestPermissionFromEnvelopes(t *testing.T) {
	t.Parallel()
	envelope := func(decision, reason string) string {
		return fmt.Sprintf(`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": %q, "permissionDecisionReason": %q}}`, decision, reason)
	}
	tests := []struct {
		name  string
		hooks []string // decisions, in order
		want  summary
	}{
		{"allow", []string{"allow"}, summary{Permission: "allow", Reason: "allow because", Continue: true, Hooks: []string{"h0=ok"}}},
		{"ask is not a block", []string{"allow", "ask"}, summary{Permission: "ask", Reason: "ask because", Continue: true, Hooks: []string{"h0=ok", "h1=ok"}}},
		{"deny beats ask", []string{"ask", "deny", "allow"}, summary{Blocked: true, Permission: "deny", Reason: "deny because", Continue: true, Hooks: []string{"h0=ok", "h1=block"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var groups []string
			for i, d := range tt.hooks {
				writeFile(t, dir, fmt.Sprintf("h%d.sh", i), "#!/bin/sh\ncat <<'EOF'\n"+envelope(d, d+" because")+"\nEOF\n")
				groups = append(groups, fmt.Sprintf(`{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh h%d.sh"}]}`, i))
			}
			set := loadConfig(t, dir, "settings.json", `{"hooks": {"PreToolUse": [`+strings.Join(groups, ",")+`]}}`)
			r := newRunner(t, dir, set, hookcore.Options{})
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "rm -rf x"))
			// The ids are generated: PreToolUse#1, ...; map them to h0, h1.
			for i := range res.Hooks {
				res.Hooks[i].ID = fmt.Sprintf("h%d", i)
			}
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestContinueFalseFromCommand: {"continue": false, "stopReason": ...} from a real hook stops
// the agent (conformance case 35).
func TestContinueFalseFromCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "budget.sh", "#!/bin/sh\nprintf '%s' '{\"continue\": false, \"stopReason\": \"budget exhausted\"}'\n")
	set := loadConfig(t, dir, "settings.json", `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh budget.sh"}]}]}}`)
	r := newRunner(t, dir, set, hookcore.Options{})
	in := bashCall(dir, "s1", "ls")
	in.ToolResponse = []byte(`{"stdout":"a\n"}`)
	res := r.Fire(context.Background(), hook.PostToolUse, in)
	if res.Continue || res.StopReason != "budget exhausted" || res.Blocked {
		t.Errorf("Continue, StopReason, Blocked = %v, %q, %v; want false, \"budget exhausted\", false", res.Continue, res.StopReason, res.Blocked)
	}
}

// TestRejectHookThatTimesOutRejects: a reject hook whose command runs past its timeout
// rejects, with a reason that says so (red team round 20: it let the call through).
func TestRejectHookThatTimesOutRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", "hooks:\n  - {id: g, event: pre_tool_use, reject: true, timeout: 0.2, action: {type: command, command: \"sleep 30\"}}\n")
	r := newRunner(t, dir, set, hookcore.Options{})
	res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls"))
	if !res.Blocked || res.Reason != `rejected by hook "g" (its command, which gives the reason, timed out)` {
		t.Errorf("Blocked, Reason = %v, %q", res.Blocked, res.Reason)
	}
}

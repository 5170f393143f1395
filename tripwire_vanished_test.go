package hookcore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// Transcript lines of session s1 (Claude Code's shapes, trimmed to the fields read) and of
// a Codex rollout.
const (
	trPrompt    = `{"type":"user","sessionId":"s1","message":{"role":"user","content":"fix the tests"}}`
	trUse0      = `{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"tu0","name":"Bash","input":{"command":"ls"}}]}}`
	trResult0   = `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"tool_use_id":"tu0","type":"tool_result","content":"a.txt"}]}}`
	trUse1      = `{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"x"}}]}}`
	trResult1   = `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"tool_use_id":"tu1","type":"tool_result","content":"done"}]}}`
	trOldResult = `{"type":"user","sessionId":"s0","message":{"role":"user","content":[{"tool_use_id":"tu0","type":"tool_result","content":"a.txt"}]}}`
	cxMeta      = `{"type":"session_meta","payload":{"id":"s1","cwd":"/w"}}`
	cxOther     = `{"type":"session_meta","payload":{"id":"s0","cwd":"/w"}}`
	cxResult0   = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"tu0","output":"a.txt"}}`
)

// TestTripwireVanishedState: an armed session whose state file a tool call deletes or
// empties, in the same call that disables the hooks, is stopped at the next event when its
// transcript shows an earlier finished tool call (red team round 60: the call's
// PostToolUse and the next PreToolUse answered nothing). The stop comes once: the event
// stores a new baseline.
func TestTripwireVanishedState(t *testing.T) {
	t.Parallel()
	long := `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"tool_use_id":"tu0","type":"tool_result","content":"` + strings.Repeat("x", 300<<10) + `"}]}}`
	for _, tc := range []struct {
		name       string
		transcript []string
		damage     func(t *testing.T, file string)
	}{
		{"deleted", []string{trPrompt, trUse0, trResult0, trUse1}, func(t *testing.T, file string) { os.Remove(file) }},
		{"emptied to {}", []string{trPrompt, trUse0, trResult0, trUse1}, func(t *testing.T, file string) { write(t, file, "{}") }},
		{"its own result written", []string{trPrompt, trUse0, trResult0, trUse1, trResult1}, func(t *testing.T, file string) { os.Remove(file) }},
		{"a long result line", []string{trPrompt, trUse0, long, trUse1}, func(t *testing.T, file string) { os.Remove(file) }},
		{"Codex rollout", []string{cxMeta, cxResult0}, func(t *testing.T, file string) { os.Remove(file) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			tr := filepath.Join(f.dir, "transcript.jsonl")
			write(t, tr, trPrompt+"\n")
			r := f.runner(t, &state.Dir{Path: f.stateDir})
			ctx := context.Background()
			fire := func(event hook.Event, id, command string) hook.Result {
				in := toolEvent(event, id, command)
				in.TranscriptPath = tr
				return r.Fire(ctx, event, in)
			}
			for _, ev := range []struct {
				event hook.Event
				id    string
			}{{hook.PreToolUse, "tu0"}, {hook.PostToolUse, "tu0"}, {hook.PreToolUse, "tu1"}} {
				if res := fire(ev.event, ev.id, "x"); !res.Continue {
					t.Fatalf("%s %s before the change: stopped: %s", ev.event, ev.id, res.StopReason)
				}
			}
			files, _ := filepath.Glob(filepath.Join(f.stateDir, "session-*.json"))
			if len(files) != 1 {
				t.Fatalf("session files %v, want one", files)
			}
			write(t, tr, strings.Join(tc.transcript, "\n")+"\n")
			tc.damage(t, files[0])
			write(t, f.settings, `{"disableAllHooks": true}`)
			res := fire(hook.PostToolUse, "tu1", "x")
			if res.Continue || !res.Blocked || !strings.Contains(res.StopReason, "tripwire state vanished") || !strings.Contains(res.StopReason, "tool call tu0 ") {
				t.Fatalf("continue %v, blocked %v, stop reason %q; want the agent stopped: the state vanished", res.Continue, res.Blocked, res.StopReason)
			}
			if res := fire(hook.PreToolUse, "tu2", "ls"); !res.Continue || res.Blocked {
				t.Errorf("the next event: stopped again: %s", res.StopReason)
			}
		})
	}
}

// TestTripwireVanishedNoStop: a session with no baseline whose transcript shows no earlier
// finished tool call of its own is new to hookcore, not one whose state vanished: its first
// events take a baseline and do not stop. A resumed session (SessionEnd dropped its state)
// starts again at SessionStart.
func TestTripwireVanishedNoStop(t *testing.T) {
	t.Parallel()
	prompt := func() *hook.Input {
		return &hook.Input{SessionID: "s1", HookEventName: "UserPromptSubmit", Prompt: "fix the tests"}
	}
	resume := &hook.Input{SessionID: "s1", HookEventName: "SessionStart", Source: "resume"}
	for _, tc := range []struct {
		name       string
		transcript []string // nil: no transcript file
		events     []*hook.Input
	}{
		{"first prompt", []string{trPrompt}, []*hook.Input{prompt()}},
		{"first tool call", []string{trPrompt, trUse1}, []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x"), toolEvent(hook.PostToolUse, "tu1", "x")}},
		{"first tool call's own result", []string{trPrompt, trUse1, trResult1}, []*hook.Input{toolEvent(hook.PostToolUse, "tu1", "x")}},
		{"no transcript yet", nil, []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x")}},
		{"another session's results (a fork)", []string{trOldResult, trPrompt, trUse1}, []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x")}},
		{"another Codex session's rollout", []string{cxOther, cxResult0}, []*hook.Input{toolEvent(hook.PreToolUse, "tu1", "x")}},
		{"resumed", []string{trPrompt, trUse0, trResult0, trUse1, trResult1}, []*hook.Input{resume, prompt(), toolEvent(hook.PreToolUse, "tu2", "x")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newTripwireFixture(t)
			tr := filepath.Join(f.dir, "transcript.jsonl")
			if tc.transcript != nil {
				write(t, tr, strings.Join(tc.transcript, "\n")+"\n")
			}
			r := f.runner(t, &state.Dir{Path: f.stateDir})
			for _, in := range tc.events {
				in.TranscriptPath = tr
				if res := r.Fire(context.Background(), hook.Event(in.HookEventName), in); !res.Continue || res.Blocked {
					t.Fatalf("%s: stopped: %s", in.HookEventName, res.StopReason)
				}
			}
			if files, _ := filepath.Glob(filepath.Join(f.stateDir, "session-*.json")); len(files) != 1 {
				t.Errorf("session files %v, want one: the baseline", files)
			}
		})
	}
}

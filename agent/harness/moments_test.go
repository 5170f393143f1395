package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/agent"
)

// The reference agent fires the Claude Code events that have a moment in it (issue 8 item
// 1). Observed with Claude Code 2.1.332 through ../shared/peer-claude: a project with
// .claude/commands/greet.md, the prompt "/greet world", a Bash call with a text preamble
// ("Let me look.") and a final text, capture hooks on every event:
//
//	UserPromptSubmit    {"prompt": "/greet world"}
//	UserPromptExpansion {"expansion_type": "slash_command", "command_name": "greet",
//	                     "command_args": "world", "command_source": "projectSettings",
//	                     "prompt": "/greet world"}
//	MessageDisplay      {"turn_id": UUID, "message_id": UUID, "index": 0, "final": true,
//	                     "delta": "Let me look."}   (before the PreToolUse of its Bash call)
//	...
//	MessageDisplay      {..., "delta": "Hello world, done."}   (before Stop)
//
// and, with a UserPromptExpansion hook that exits 2 with "expansion refused": no model
// request, no Stop, the run's result "UserPromptExpansion operation blocked by hook: ...".
// (Claude Code fires UserPromptSubmit on the typed text first; the reference agent submits
// the expanded text, after the expansion.)

// TestUserPromptExpansion: a typed custom command fires UserPromptExpansion with Claude
// Code's fields; its block rejects the prompt before any model request.
func TestUserPromptExpansion(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, command string
		blocked       bool
	}{
		{"observe", "exit 0", false},
		{"block", "echo 'expansion refused' >&2; exit 2", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, setup{
				yaml:   `{"hooks": {"UserPromptExpansion": [{"matcher": "greet", "hooks": [{"type": "command", "command": "` + tt.command + `"}]}]}}`,
				script: `["Hello world, done."]`,
				files:  map[string]string{".hookcore/commands/greet.md": "---\ndescription: greet\n---\nSay hello to $ARGUMENTS.\n"},
			})
			_, err := rg.s.Prompt(context.Background(), "/greet world")
			exp := rg.of("UserPromptExpansion")
			if len(exp) != 1 {
				t.Fatalf("UserPromptExpansion fired %d times; events %v", len(exp), rg.events())
			}
			var got map[string]any
			if err := json.Unmarshal(exp[0].Input, &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"session_id", "transcript_path", "cwd", "permission_mode"} {
				delete(got, k)
			}
			want := map[string]any{
				"hook_event_name": "UserPromptExpansion", "expansion_type": "slash_command",
				"command_name": "greet", "command_args": "world", "command_source": "projectSettings",
				"prompt": "/greet world",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("input (-want +got):\n%s", diff)
			}
			var rej *agent.PromptRejectedError
			if tt.blocked != errors.As(err, &rej) {
				t.Fatalf("err = %v, blocked %v", err, tt.blocked)
			}
			if !tt.blocked {
				if n := len(rg.reqs()); n != 1 {
					t.Errorf("%d model requests, want 1", n)
				}
				return
			}
			if rej.Reason != "expansion refused" {
				t.Errorf("reason = %q", rej.Reason)
			}
			if n := len(rg.reqs()); n != 0 {
				t.Errorf("%d model requests after a blocked expansion, want 0", n)
			}
			if n := len(rg.of("Stop")); n != 0 {
				t.Errorf("Stop fired %d times after a blocked expansion", n)
			}
		})
	}
}

// TestMessageDisplayContent: a MessageDisplay hook's displayContent replaces the text shown
// (the Trace's text step, which hookcore run prints), not what the model is sent back.
// Observed with Claude Code 2.1.332 (testdata/claude/display in the root package: the hook
// answers {"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent":
// "[shown] " + delta}}): the stream's assistant text and the -p result were "[shown] All
// done here.", the next model request held "Let me look." as the model wrote it. Before,
// the reference agent ignored displayContent.
func TestMessageDisplayContent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var shown []string
	rg := newRig(t, setup{
		yaml: `{"hooks": {"MessageDisplay": [{"hooks": [{"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\": {\"hookEventName\": \"MessageDisplay\", \"displayContent\": \"[shown]\"}}'"}]}]}}`,
		script: `[{"text": "Let me look.", "tool_calls": [{"name": "Bash", "input": {"command": "true"}}]},
			"All done here."]`,
		opts: func(o *agent.Options) {
			o.PermissionMode = agent.ModeBypassPermissions
			o.Trace = func(st agent.Step) {
				if st.Kind == agent.StepText {
					mu.Lock()
					shown = append(shown, st.Text)
					mu.Unlock()
				}
			}
		},
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"[shown]", "[shown]"}, shown); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	reqs := rg.reqs()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var sent []string
	for _, m := range reqs[1].Messages {
		if m.Role == agent.RoleAssistant {
			sent = append(sent, m.Text)
		}
	}
	if diff := cmp.Diff([]string{"Let me look."}, sent); diff != "" {
		t.Errorf("the model was sent (-want +got):\n%s", diff)
	}
}

// TestMessageDisplay: each model message with text fires MessageDisplay once, before its
// tool calls run, with the whole text as one final piece; a hook's output changes nothing.
func TestMessageDisplay(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		yaml: `{"hooks": {"MessageDisplay": [{"hooks": [{"type": "command", "command": "echo '{\"decision\": \"block\", \"reason\": \"no\"}'"}]}]}}`,
		script: `[{"text": "Let me look.", "tool_calls": [{"name": "Bash", "input": {"command": "true"}}]},
			"Hello world, done."]`,
		opts: func(o *agent.Options) { o.PermissionMode = agent.ModeBypassPermissions },
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, e := range rg.entries() {
		switch e.Event {
		case "MessageDisplay":
			var in struct {
				TurnID    string `json:"turn_id"`
				MessageID string `json:"message_id"`
				Index     *int   `json:"index"`
				Final     bool   `json:"final"`
				Delta     string `json:"delta"`
			}
			if err := json.Unmarshal(e.Input, &in); err != nil {
				t.Fatal(err)
			}
			if in.TurnID == "" || in.MessageID == "" || in.Index == nil || *in.Index != 0 || !in.Final {
				t.Errorf("MessageDisplay input %s", e.Input)
			}
			seen = append(seen, "MessageDisplay "+in.Delta+" "+in.TurnID+" "+in.MessageID)
		case "PreToolUse", "Stop":
			seen = append(seen, e.Event)
		}
	}
	want := []string{"MessageDisplay Let me look. turn_1 msg_1", "PreToolUse", "MessageDisplay Hello world, done. turn_1 msg_2", "Stop"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := rg.toolResults(); len(got) != 1 {
		t.Errorf("tool results %v", got)
	}
}

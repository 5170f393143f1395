package harness_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
)

// TestStopContextKeepsWorking: a Stop hook's additional context, without a block, makes the
// agent go on with it as a system reminder, as Claude Code 2.1.332 does (scenario
// testdata/claude/stop-context of the root package: the second request's new user message
// was "<system-reminder>\nStop hook additional context: keep going: run the tests\n
// </system-reminder>"); once the hook says nothing, the agent stops.
func TestStopContextKeepsWorking(t *testing.T) {
	t.Parallel()
	n := 0
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.Stop, "", func(in *hook.Input) hook.Decision {
			if n++; n == 1 {
				return hook.Decision{AdditionalContext: "keep going: run the tests"}
			}
			return hook.Decision{}
		})},
		script: `[{"text": "first end"}, {"text": "second end"}]`,
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	reqs := rg.reqs()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	want := "<system-reminder>\nStop hook additional context: keep going: run the tests\n</system-reminder>"
	if last := msgs[len(msgs)-1]; last.Text != want {
		t.Errorf("last message of request 2 = %q, want %q", last.Text, want)
	}
	if strings.Contains(reqs[1].System, "keep going") {
		t.Error("the Stop context is also a hook-notification in the system area")
	}
}

// TestUpdatedToolOutputIsWhatTheModelSees: a PostToolUse hook's updatedToolOutput replaces
// the tool result the model gets, as Claude Code 2.1.332 showed "REDACTED" instead of the
// Bash output (scenario testdata/claude/updated-output of the root package).
func TestUpdatedToolOutputIsWhatTheModelSees(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.PostToolUse, "Bash", func(in *hook.Input) hook.Decision {
			return hook.Decision{UpdatedToolOutput: json.RawMessage(`"REDACTED"`)}
		})},
		script: `[{"tool": "Bash", "input": {"command": "echo secret-token-123"}}, {"text": "end"}]`,
		opts:   bypass,
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	reqs := rg.reqs()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for _, m := range reqs[1].Messages {
		if strings.Contains(m.Text, "secret-token-123") {
			t.Errorf("the model saw the original output: %q", m.Text)
		}
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Text, "REDACTED") {
		t.Errorf("tool result = %q, want the hook's replacement", last.Text)
	}
}

// TestDeferStopsTheTurn: a PreToolUse permission "defer" keeps the tool from running and
// ends the turn without another model request, as Claude Code 2.1.332 in -p mode ended the
// run with stop_reason "tool_deferred" (scenario testdata/claude/defer of the root package).
func TestDeferStopsTheTurn(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.PreToolUse, "Bash", func(in *hook.Input) hook.Decision {
			return hook.Decision{Permission: hook.Defer, Reason: "deferred"}
		})},
		script: `[{"tool": "Bash", "input": {"command": "echo deferred > d.txt"}}, {"text": "should not be asked"}]`,
		opts:   bypass,
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(rg.ws, "d.txt")); !os.IsNotExist(err) {
		t.Errorf("the deferred call ran (stat: %v)", err)
	}
	if n := len(rg.reqs()); n != 1 {
		t.Errorf("%d model requests, want 1: the turn ends at the deferred call", n)
	}
}

// bypass runs the session in bypassPermissions mode, as the peer-claude scenarios run.
func bypass(o *agent.Options) { o.PermissionMode = agent.ModeBypassPermissions }

// TestPostToolBatch: PostToolBatch fires once after the calls of a reply, with Claude
// Code's tool_calls (tool_name, tool_input, tool_use_id and the result text the model will
// read), before the next model request (Claude Code 2.1.332 fired it after the PostToolUse
// of both calls of a batch, scenario testdata/claude/events of the root package); its block
// ends the loop before that request.
func TestPostToolBatch(t *testing.T) {
	t.Parallel()
	var got []json.RawMessage
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.PostToolBatch, "", func(in *hook.Input) hook.Decision {
			got = append(got, in.Extra["tool_calls"])
			return hook.Decision{Block: true, Reason: "enough"}
		})},
		script: `[{"tool_calls": [{"name": "Bash", "input": {"command": "echo a"}}, {"name": "Bash", "input": {"command": "echo b"}}]}, {"text": "should not be asked"}]`,
		opts:   bypass,
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("PostToolBatch fired %d times, want 1", len(got))
	}
	var calls []struct {
		ToolName     string `json:"tool_name"`
		ToolResponse string `json:"tool_response"`
	}
	if err := json.Unmarshal(got[0], &calls); err != nil || len(calls) != 2 ||
		calls[0].ToolName != "Bash" || !strings.Contains(calls[1].ToolResponse, "b") {
		t.Errorf("tool_calls = %s (%v)", got[0], err)
	}
	if n := len(rg.reqs()); n != 1 {
		t.Errorf("%d model requests, want 1: the block ends the loop", n)
	}
}

// TestPreCompactBlockSkipsCompaction: PreCompact is a gate in Claude Code 2.1.x (research
// note section 1.4: a blocked compaction is skipped); a block leaves the conversation as it
// was, with no PostCompact or SessionStart(compact).
func TestPreCompactBlockSkipsCompaction(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.PreCompact, "", func(in *hook.Input) hook.Decision {
			return hook.Decision{Block: true, Reason: "keep everything"}
		})},
		script: `[{"text": "hello"}]`,
	})
	if _, err := rg.s.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	before := len(rg.s.Messages())
	if _, err := rg.s.Prompt(context.Background(), "/compact"); err != nil {
		t.Fatal(err)
	}
	if len(rg.of("PreCompact")) != 1 || len(rg.of("PostCompact")) != 0 {
		t.Errorf("events: %v", rg.events())
	}
	if after := len(rg.s.Messages()); after != before {
		t.Errorf("%d messages after a blocked compaction, want %d", after, before)
	}
}

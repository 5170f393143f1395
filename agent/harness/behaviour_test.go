package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

func TestInjectedContextInSystemArea(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		yaml:   "hooks:\n  - {id: rule, event: turn_start, action: {type: prompt, message: 'Use tabs.'}}\n",
		script: `[{"text": "ok"}]`,
	})
	if _, err := rg.s.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	reqs := rg.reqs()
	want := "You are a test agent.\n\n<hook-notification>\nUse tabs.\n</hook-notification>"
	if reqs[0].System != want {
		t.Errorf("system of request 1 = %q, want %q", reqs[0].System, want)
	}
	for _, m := range reqs[0].Messages {
		if strings.Contains(m.Text, "Use tabs.") {
			t.Errorf("the context is a chat message: %+v", m)
		}
	}
	if len(reqs) > 1 && strings.Contains(reqs[1].System, "hook-notification") {
		t.Errorf("the notification stayed for a later request")
	}
}

func TestUserPromptBlocked(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.UserPromptSubmit, "", func(in *hook.Input) hook.Decision {
			return hook.Decision{Block: true, Reason: "no secrets in prompts"}
		})},
		script: `[{"text": "should not be asked"}]`,
	})
	_, err := rg.s.Prompt(context.Background(), "my password is hunter2")
	var rej *agent.PromptRejectedError
	if !errors.As(err, &rej) || rej.Reason != "no secrets in prompts" {
		t.Fatalf("err = %v, want a PromptRejectedError with the hook's reason", err)
	}
	if n := len(rg.reqs()); n != 0 {
		t.Errorf("the model got %d requests", n)
	}
	if n := len(rg.s.Messages()); n != 0 {
		t.Errorf("the rejected prompt is in the conversation")
	}
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	allowAll := cb(hook.PreToolUse, "Bash", func(in *hook.Input) hook.Decision {
		return hook.Decision{Permission: hook.Allow, Reason: "hook says fine"}
	})
	askAll := cb(hook.PreToolUse, "Bash", func(in *hook.Input) hook.Decision {
		return hook.Decision{Permission: hook.Ask, Reason: "a human must look at this command"}
	})
	permDeny := cb(hook.PermissionRequest, "Bash", func(in *hook.Input) hook.Decision {
		return hook.Decision{Permission: hook.Deny, Reason: "not on Fridays"}
	})
	permAllow := cb(hook.PermissionRequest, "Bash", func(in *hook.Input) hook.Decision {
		return hook.Decision{Permission: hook.Allow}
	})
	script := `[{"tool": "Bash", "input": {"command": "echo hi > out.txt"}}]`
	tests := []struct {
		name     string
		cbs      []hookcore.Callback
		deny     []string
		approver agent.Approver
		want     string // the tool result
		isErr    bool
	}{
		{name: "hook allow runs", cbs: []hookcore.Callback{allowAll}, want: `{"stdout":"","stderr":"","exit_code":0}`},
		{name: "hook allow never loosens a deny rule", cbs: []hookcore.Callback{allowAll}, deny: []string{"Bash(echo *)"},
			want: "permission to use Bash is denied by the rule Bash(echo *)", isErr: true},
		{name: "ask without a user is a deny with the hook's reason", cbs: []hookcore.Callback{askAll},
			want: "a human must look at this command", isErr: true},
		{name: "ask with a user who says yes", cbs: []hookcore.Callback{askAll},
			approver: agent.ApproverFunc(func(context.Context, tool.Call, string) (bool, error) { return true, nil }),
			want:     `{"stdout":"","stderr":"","exit_code":0}`},
		{name: "PermissionRequest deny", cbs: []hookcore.Callback{permDeny}, want: "not on Fridays", isErr: true},
		{name: "PermissionRequest allow", cbs: []hookcore.Callback{permAllow}, want: `{"stdout":"","stderr":"","exit_code":0}`},
		{name: "nobody decides, non-interactive", want: "permission to use Bash is required, and nobody can grant it in this non-interactive session", isErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, setup{callbacks: tt.cbs, script: script, opts: func(o *agent.Options) {
				o.Deny, o.Approver = tt.deny, tt.approver
			}})
			if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			got := rg.toolResults()["call_1"]
			if got.Text != tt.want || got.IsError != tt.isErr {
				t.Errorf("tool result = %q (error %v), want %q (error %v)", got.Text, got.IsError, tt.want, tt.isErr)
			}
		})
	}
}

func TestStopBlockCap(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.Stop, "", func(in *hook.Input) hook.Decision {
			return hook.Decision{Block: true, Reason: "not yet"}
		})},
		script: `[]`,
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	stops := rg.of("Stop")
	var active []bool
	for _, e := range stops {
		active = append(active, e.in.StopHookActive)
	}
	want := []bool{false, true, true, true, true, true, true, true, true}
	if diff := cmp.Diff(want, active); diff != "" {
		t.Errorf("stop_hook_active of the Stop events (-want +got):\n%s", diff)
	}
	if n := len(rg.reqs()); n != 9 {
		t.Errorf("%d model requests, want 9 (1 + 8 continuations)", n)
	}
}

func TestValidationRounds(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		yaml:   "hooks:\n  - {id: tests, event: PostStopValidation, action: {type: command, command: 'echo FAIL: TestX >&2; exit 1'}}\n",
		script: `[{"tool": "WriteFile", "input": {"path": "a.txt", "content": "x"}, "text": "writing"}]`,
		opts:   func(o *agent.Options) { o.PermissionMode = agent.ModeAcceptEdits },
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := len(rg.of("PostStopValidation")); n != 4 {
		t.Errorf("%d validations, want 4 (3 failures fed back, then a stop)", n)
	}
	var reminders int
	for _, m := range rg.s.Messages() {
		if strings.HasPrefix(m.Text, "<system-reminder>\nThe PostStopValidation hook failed. Fix the problem based on the following output:\n") {
			reminders++
			if !strings.Contains(m.Text, "FAIL: TestX") {
				t.Errorf("the reminder lacks the failure output: %q", m.Text)
			}
		}
	}
	if reminders != 3 {
		t.Errorf("%d reminders, want 3", reminders)
	}
}

func TestNoValidationWithoutChanges(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		yaml:   "hooks:\n  - {id: tests, event: PostStopValidation, action: {type: command, command: 'exit 2'}}\n",
		script: `[{"tool": "ReadFile", "input": {"path": "a.txt"}}]`,
		files:  map[string]string{"a.txt": "x"},
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := len(rg.of("PostStopValidation")); n != 0 {
		t.Errorf("PostStopValidation fired %d times without a file change", n)
	}
}

func TestRewriteIsWhatRuns(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{
		callbacks: []hookcore.Callback{cb(hook.PreToolUse, "WriteFile", func(in *hook.Input) hook.Decision {
			return hook.Decision{UpdatedInput: json.RawMessage(`{"path":"safe.txt","content":"rewritten"}`)}
		})},
		script: `[{"tool": "WriteFile", "input": {"path": "orig.txt", "content": "original"}}]`,
		opts:   func(o *agent.Options) { o.PermissionMode = agent.ModeBypassPermissions },
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	got := rg.of("FileChange")
	if len(got) != 1 || string(got[0].in.ToolInput) != `{"path":"safe.txt","content":"rewritten"}` {
		t.Fatalf("FileChange = %+v", got)
	}
	if post := rg.of("PostToolUse"); len(post) != 1 || !strings.Contains(string(post[0].in.ToolInput), "safe.txt") {
		t.Errorf("PostToolUse does not see the rewritten input: %+v", post)
	}
}

func TestErrorAndSessionEnd(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{script: `[]`, opts: func(o *agent.Options) {
		o.Model = agent.ModelFunc(func(context.Context, *agent.Request) (agent.Reply, error) {
			return agent.Reply{}, errors.New("rate limited")
		})
	}})
	err := rg.s.Run(context.Background(), "go")
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{"SessionStart", "UserPromptSubmit", "PreSend", "Error", "StopFailure", "SessionEnd"}
	if diff := cmp.Diff(want, rg.events()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if e := rg.of("Error")[0].in.Error; e != "rate limited" {
		t.Errorf("Error input error = %q", e)
	}
	if r := rg.of("SessionEnd")[0].in.Reason; r != "error" {
		t.Errorf("SessionEnd reason = %q, want error", r)
	}
}

func TestCancelledSessionEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	rg := newRig(t, setup{script: `[]`, opts: func(o *agent.Options) {
		o.Model = agent.ModelFunc(func(ctx context.Context, _ *agent.Request) (agent.Reply, error) {
			cancel()
			<-ctx.Done()
			return agent.Reply{}, ctx.Err()
		})
	}})
	if err := rg.s.Run(ctx, "go"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	ends := rg.of("SessionEnd")
	if len(ends) != 1 || ends[0].in.Reason != "error" {
		t.Errorf("SessionEnd = %+v, want one with reason error", ends)
	}
}

// TestValidationAfterBashChange: a Bash call that changes a file leaves changes to
// validate, as a WriteFile does (MiniCode: PostStopValidation runs when files changed;
// issue 8 item 7: compare the workspace, not only WriteFile/EditFile calls); a Bash call
// that changes nothing does not.
func TestValidationAfterBashChange(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, command string
		want          int
	}{
		{"write", "echo y > a.txt", 1},
		{"new file", "touch b.txt", 1},
		{"remove", "rm a.txt", 1},
		{"failing command that writes", "echo y > a.txt; exit 3", 1},
		{"read only", "cat a.txt", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, setup{
				yaml:   "hooks:\n  - {id: tests, event: PostStopValidation, action: {type: command, command: 'true'}}\n",
				script: `[{"tool": "Bash", "input": {"command": "` + tt.command + `"}}]`,
				files:  map[string]string{"a.txt": "x"},
				opts:   func(o *agent.Options) { o.PermissionMode = agent.ModeBypassPermissions },
			})
			if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if n := len(rg.of("PostStopValidation")); n != tt.want {
				t.Errorf("PostStopValidation fired %d times, want %d", n, tt.want)
			}
		})
	}
}

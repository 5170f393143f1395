package executor_test

import (
	"context"
	"testing"

	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/hooktest"
)

// TestConformance runs hooktest.TestExecutor, the hook.Executor contract, against every
// executor of this package: a quick and a blocking configuration of each (a `sleep`, a
// loopback server that never answers, a model or sub-agent that waits for its context).
// It is not parallel: the leak check looks at every goroutine.
func TestConformance(t *testing.T) {
	quick := hooktest.NewModelServer(`{"ok": true}`)
	defer quick.Close()
	hang := hooktest.NewModelServer("")
	hang.Hang()
	defer hang.Close()

	waitModel := executor.ModelFunc(func(ctx context.Context, _, _ string) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	waitAgent := executor.AgentRunnerFunc(func(ctx context.Context, _ string) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	dir := t.TempDir()
	in := hooktest.DefaultInput()
	in.Cwd = dir

	for _, tc := range []struct {
		name string
		c    hooktest.Conformance
	}{
		{"command", hooktest.Conformance{
			Executor: &executor.Command{Command: `echo '{"decision":"block","reason":"no"}'`},
			Blocking: &executor.Command{Command: `sleep 600`},
		}},
		{"command exec form", hooktest.Conformance{
			Executor: &executor.Command{Args: []string{"true"}},
			Blocking: &executor.Command{Args: []string{"sleep", "600"}},
		}},
		{"http", hooktest.Conformance{
			Executor: &executor.HTTP{URL: quick.URL + "/hook", AllowedHosts: []string{"127.0.0.1"}},
			Blocking: &executor.HTTP{URL: hang.URL + "/hook", AllowedHosts: []string{"127.0.0.1"}},
		}},
		{"prompt", hooktest.Conformance{
			Executor: &executor.Prompt{Prompt: "judge $ARGUMENTS", Model: executor.ModelFunc(
				func(context.Context, string, string) (string, error) { return `{"ok": false, "reason": "no"}`, nil })},
			Blocking: &executor.Prompt{Prompt: "judge $ARGUMENTS", Model: waitModel},
		}},
		{"agent", hooktest.Conformance{
			Executor: &executor.Agent{Prompt: "check $ARGUMENTS", Runner: executor.AgentRunnerFunc(
				func(context.Context, string) (string, error) { return `{"ok": true}`, nil })},
			Blocking: &executor.Agent{Prompt: "check $ARGUMENTS", Runner: waitAgent},
		}},
		{"inject", hooktest.Conformance{Executor: executor.Inject{Message: "remember $TOOL_NAME"}}},
		{"func", hooktest.Conformance{
			Executor: executor.Func{Fn: func(context.Context, *hook.Input) (hook.Decision, error) {
				return hook.Decision{Block: true, Permission: hook.Deny, Reason: "no"}, nil
			}},
			Blocking: executor.Func{Fn: func(ctx context.Context, _ *hook.Input) (hook.Decision, error) {
				<-ctx.Done()
				return hook.Decision{}, ctx.Err()
			}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Input = in
			hooktest.TestExecutor(t, tc.c)
		})
	}
}

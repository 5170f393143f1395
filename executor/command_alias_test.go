package executor_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/executor/command"
	"github.com/hookcore/hookcore/hook"
)

// TestCommandAliases: the deprecated names in executor are the command package's, not
// copies: a value of one is a value of the other, the error matches under either name, the
// constants and the env-file helpers agree.
func TestCommandAliases(t *testing.T) {
	t.Parallel()
	var c *command.Command = &executor.Command{Command: `echo $(( $TOOL_ARGS.n + 1 ))`}
	in := &hook.Input{Cwd: t.TempDir(), HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"n": "a[$(id)]"}`)}
	_, err := c.Execute(context.Background(), in)
	if !errors.Is(err, executor.ErrArithValue) || !errors.Is(err, command.ErrArithValue) {
		t.Errorf("err = %v, want ErrArithValue under both names", err)
	}
	if a, ok := executor.ParseExitAction("inject"); !ok || a != command.ExitInject || executor.ExitInject != command.ExitInject {
		t.Errorf("ParseExitAction(inject) = %v, %v", a, ok)
	}
	if executor.DefaultTimeout != command.DefaultTimeout || len(executor.EnvFileEvents) != len(command.EnvFileEvents) {
		t.Error("DefaultTimeout or EnvFileEvents differ")
	}
	if got, want := executor.SessionEnvDir("/d", "../x"), command.SessionEnvDir("/d", "../x"); got != want || got == "" {
		t.Errorf("SessionEnvDir = %q, want %q", got, want)
	}
}

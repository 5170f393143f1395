package harness_test

import (
	"context"
	"fmt"
	"os"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/agent/tools"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/model"
	"github.com/hookcore/hookcore/tool"
)

// Example embeds a Runner in an agent loop: the harness is the loop's Observer and one of
// its tool middlewares; a Go hook blocks rm, and the model gets the reason as the tool result.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)

	// The hooks: here one Go callback; config files work the same (hookcore.Load).
	r, _ := hookcore.New(nil, hookcore.Options{ProjectDir: dir, Callbacks: []hookcore.Callback{{
		ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)",
		Func: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: true, Reason: "deleting files is not allowed"}, nil
		},
	}}})
	defer r.Close(ctx)

	// The model: scripted here; model.Config{}.New("openai:gpt-4o-mini") for a real one.
	m := model.NewScripted(
		model.Turn{ToolCalls: []tool.Call{{Name: "Bash", Input: []byte(`{"command":"rm -r src"}`)}}},
		model.Turn{Text: "Understood, I will not delete anything."},
	)

	h := harness.New(harness.Options{Runner: r})
	s, _ := agent.New(agent.Options{
		Model:          m,
		Tools:          tools.All(tools.Workspace{Root: dir}),
		Observer:       h,                                 // SessionStart, Stop, ... fire hooks
		Middleware:     []tool.Middleware{h.Middleware()}, // PreToolUse / PostToolUse
		Workspace:      dir,
		PermissionMode: agent.ModeBypassPermissions,
		Trace: func(st agent.Step) {
			if st.Kind == agent.StepToolResult {
				fmt.Printf("tool result for %s: %s\n", st.Call.Name, st.Text)
			}
		},
	})
	answer, _ := s.Prompt(ctx, "clean up")
	fmt.Println("final answer:", answer)
	// Output:
	// tool result for Bash: deleting files is not allowed
	// final answer: Understood, I will not delete anything.
}

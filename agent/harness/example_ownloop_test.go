package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// Example_ownLoop embeds the Runner in a loop of your own, without package agent: fire the
// gate events yourself, wrap the tool pipeline with Runner.Middleware, and give a
// *tool.RejectedError's reason back to the model as the tool result.
func Example_ownLoop() {
	ctx := context.Background()
	r, _ := hookcore.New(nil, hookcore.Options{Callbacks: []hookcore.Callback{
		{Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)",
			Func: func(context.Context, *hook.Input) (hook.Decision, error) {
				return hook.Decision{Block: true, Reason: "use git clean instead"}, nil
			}},
		{Event: hook.UserPromptSubmit,
			Func: func(context.Context, *hook.Input) (hook.Decision, error) {
				return hook.Decision{AdditionalContext: "The repository uses tabs."}, nil
			}},
	}})
	defer r.Close(ctx)
	ctx = tool.WithSession(ctx, tool.Session{ID: "s-1", Cwd: "/work"})

	// 1. The user's prompt: a block rejects it; context goes to the model.
	res := r.Fire(ctx, hook.UserPromptSubmit, &hook.Input{SessionID: "s-1", Prompt: "clean up"})
	if res.Blocked {
		fmt.Println("prompt rejected:", res.Reason)
		return
	}
	fmt.Println("context for the model:", res.AdditionalContext)

	// 2. Each tool call the model asks for goes through the middleware.
	runTool := func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`"ran"`), nil // your tool
	}
	pipeline := tool.Chain(r.Middleware()) // add your own middlewares here
	call := tool.Call{ID: "call_1", Name: "Bash", Input: json.RawMessage(`{"command":"rm -rf build"}`)}
	out, err := pipeline(ctx, call, runTool)
	var rej *tool.RejectedError
	switch {
	case errors.As(err, &rej):
		fmt.Println("tool result for the model:", rej.Reason)
	case err != nil:
		fmt.Println("tool error:", err)
	default:
		fmt.Println("tool result:", string(out))
	}

	// 3. The model stops: a Stop block would make it continue with the reason.
	stop := r.Fire(ctx, hook.Stop, &hook.Input{SessionID: "s-1"})
	fmt.Println("stop blocked:", stop.Blocked)
	// Output:
	// context for the model: The repository uses tabs.
	// tool result for the model: use git clean instead
	// stop blocked: false
}

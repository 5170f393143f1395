package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookcore/hookcore/tool"
)

// ExampleChain wraps a tool with a guard that vetoes rm and a logger outside it.
func ExampleChain() {
	logger := func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
		fmt.Println("calling", call.Name)
		out, err := next(ctx, call.Input)
		fmt.Println("done:", err)
		return out, err
	}
	guard := func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
		var args struct{ Command string }
		if json.Unmarshal(call.Input, &args) == nil && args.Command == "rm -rf /" {
			return nil, &tool.RejectedError{Tool: call.Name, Reason: "not here"}
		}
		return next(ctx, call.Input)
	}
	bash := func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`"ok"`), nil }
	_, err := tool.Chain(logger, guard)(context.Background(), tool.Call{Name: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`)}, bash)
	var rej *tool.RejectedError
	fmt.Println(errors.As(err, &rej), rej.Reason)
	// Output:
	// calling Bash
	// done: tool Bash rejected: not here
	// true not here
}

package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/tool"
)

// TestChainOrder: the first middleware is outermost, nil entries are skipped, and each
// layer passes on the input it chose (the rewrite is what the tool runs).
func TestChainOrder(t *testing.T) {
	t.Parallel()
	var trace []string
	layer := func(name string) tool.Middleware {
		return func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
			trace = append(trace, name+" in "+string(call.Input))
			out, err := next(ctx, json.RawMessage(`{"by":"`+name+`"}`))
			trace = append(trace, name+" out")
			return out, err
		}
	}
	run := func(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
		trace = append(trace, "tool "+string(input))
		return json.RawMessage(`"done"`), nil
	}
	out, err := tool.Chain(nil, layer("a"), nil, layer("b"))(context.Background(), tool.Call{Name: "Bash", Input: json.RawMessage(`{}`)}, run)
	if err != nil || string(out) != `"done"` {
		t.Fatalf("out, err = %s, %v", out, err)
	}
	want := `a in {}|b in {"by":"a"}|tool {"by":"b"}|b out|a out`
	if got := strings.Join(trace, "|"); got != want {
		t.Errorf("trace = %s\nwant    %s", got, want)
	}
}

// TestChainEmpty: Chain() calls the tool with the call's input.
func TestChainEmpty(t *testing.T) {
	t.Parallel()
	out, err := tool.Chain()(context.Background(), tool.Call{Input: json.RawMessage(`{"x":1}`)},
		func(_ context.Context, in json.RawMessage) (json.RawMessage, error) { return in, nil })
	if err != nil || string(out) != `{"x":1}` {
		t.Errorf("out, err = %s, %v", out, err)
	}
}

// TestRejectedError: the message names the hook when one blocked, and the underlying error
// unwraps.
func TestRejectedError(t *testing.T) {
	t.Parallel()
	cause := errors.New("denied")
	tests := []struct {
		name string
		err  *tool.RejectedError
		want string
	}{
		{"hook", &tool.RejectedError{Tool: "Bash", HookID: "no-rm", Reason: "no rm"}, "tool Bash rejected by hook no-rm: no rm"},
		{"rule", &tool.RejectedError{Tool: "Bash", Reason: "rule", Err: cause}, "tool Bash rejected: rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			var rej *tool.RejectedError
			if !errors.As(fmt.Errorf("wrapped: %w", tt.err), &rej) || rej != tt.err {
				t.Errorf("errors.As did not find the RejectedError")
			}
			if errors.Is(tt.err, cause) != (tt.err.Err != nil) {
				t.Errorf("Unwrap: errors.Is(err, cause) = %v", errors.Is(tt.err, cause))
			}
		})
	}
}

// TestSessionContext: SessionFrom returns what WithSession put, and the zero Session
// without one.
func TestSessionContext(t *testing.T) {
	t.Parallel()
	s := tool.Session{ID: "s1", TranscriptPath: "/t.jsonl", Cwd: "/w", PermissionMode: "plan", AgentID: "a1", AgentType: "Explore"}
	if got := tool.SessionFrom(tool.WithSession(context.Background(), s)); got != s {
		t.Errorf("SessionFrom = %+v, want %+v", got, s)
	}
	if got := tool.SessionFrom(context.Background()); got != (tool.Session{}) {
		t.Errorf("SessionFrom(empty) = %+v, want zero", got)
	}
}

// TestCallJSON: a Call's JSON form is {"id","name","input"} (the agent's messages and the
// scripted model's tool calls use it).
func TestCallJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(tool.Call{ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)})
	if want := `{"id":"t1","name":"Bash","input":{"command":"ls"}}`; err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v; want %s", b, err, want)
	}
}

package executor

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/hook"
)

func TestInject(t *testing.T) {
	t.Parallel()
	in := &hook.Input{HookEventName: "PostToolUse", ToolName: "WriteFile", ToolInput: json.RawMessage(`{"path": "a; $(rm -rf ~).go"}`)}
	d, err := Inject{Message: "$TOOL_NAME wrote $FILE_PATH; keep $HOME"}.Execute(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := hook.Decision{AdditionalContext: "WriteFile wrote a; $(rm -rf ~).go; keep $HOME", ExitCode: -1}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

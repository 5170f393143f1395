package hookio

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

func varsInput() *hook.Input {
	return &hook.Input{
		SessionID: "s1", Cwd: "/work", HookEventName: "PreToolUse", ToolName: "Bash",
		ToolInput: json.RawMessage(`{"command": "go test ./...", "path": "a b.go", "n": 3, "ok": true, "nested": {"k": "v", "list": ["x", "y"]}, "html": "<b>&"}`),
		Message:   "hello", Error: "boom",
	}
}

func TestExpandPlain(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"$EVENT $TOOL_NAME $FILE_PATH", "PreToolUse Bash a b.go"},
		{"${EVENT}-${TOOL_NAME}", "PreToolUse-Bash"},
		{"$MESSAGE/$ERROR/$SESSION_ID/$CWD", "hello/boom/s1//work"},
		{"$TOOL_ARGS.command", "go test ./..."},
		{"${TOOL_ARGS.command}!", "go test ./...!"},
		{"$TOOL_ARGS.n $TOOL_ARGS.ok", "3 true"},
		{"$TOOL_ARGS.nested.k $TOOL_ARGS.nested.list.1 $TOOL_ARGS.nested.list", `v y ["x","y"]`},
		{"$TOOL_ARGS.html", "<b>&"},
		{"[$TOOL_ARGS.missing] [$TOOL_ARGS.nested.list.9] [$TOOL_ARGS.command.x]", "[] [] []"},
		{"$TOOL_ARGS.command.", "go test ./...."},
		{"$HOME $$ $1 $NO_SUCH_VAR ${FILE_PATH%.go} $EVENTS $ $", "$HOME $$ $1 $NO_SUCH_VAR ${FILE_PATH%.go} $EVENTS $ $"},
		{"${EVENT", "${EVENT"},
		{"no dollars", "no dollars"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if got := ExpandPlain(tt.in, varsInput()); got != tt.want {
				t.Errorf("ExpandPlain(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandPlainTOOLARGS(t *testing.T) {
	t.Parallel()
	in := varsInput()
	want := `{"command":"go test ./...","path":"a b.go","n":3,"ok":true,"nested":{"k":"v","list":["x","y"]},"html":"<b>&"}`
	if got := ExpandPlain("$TOOL_ARGS", in); got != want {
		t.Errorf("got %q", got)
	}
	in.ToolInput = nil
	if got := ExpandPlain("[$TOOL_ARGS][$TOOL_ARGS.x]", in); got != "[][]" {
		t.Errorf("got %q", got)
	}
}

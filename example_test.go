package hookcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// A MiniCode config refuses `rm -rf /` in any spacing; the hook's output is the reason the
// model sees.
func ExampleRunner_Fire() {
	dir, err := os.MkdirTemp("", "hookcore-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hooks.yaml")
	err = os.WriteFile(path, []byte(`hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action:
      type: command
      command: "echo 'dangerous delete blocked'"
    reject: true
`), 0o644)
	if err != nil {
		log.Fatal(err)
	}

	r, err := hookcore.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}, hookcore.Options{ProjectDir: dir})
	if err != nil {
		log.Fatal(err) // every config problem, as file:line:col: hook-id: message
	}
	defer r.Close(context.Background())

	for _, command := range []string{"rm  -rf /", "rm -rf build"} {
		res := r.Fire(context.Background(), hook.PreToolUse, &hook.Input{
			SessionID: "s1",
			Cwd:       dir,
			ToolName:  "Bash",
			ToolInput: json.RawMessage(fmt.Sprintf(`{"command": %q}`, command)),
		})
		fmt.Printf("%q: blocked=%v reason=%q hooks=%d\n", command, res.Blocked, res.Reason, len(res.Hooks))
	}
	// Output:
	// "rm  -rf /": blocked=true reason="dangerous delete blocked" hooks=1
	// "rm -rf build": blocked=false reason="" hooks=0
}

// The Runner's middleware wraps a tool: a Go callback hook rewrites the tool input before the
// tool runs, and the tool sees the rewritten input.
func ExampleRunner_Middleware() {
	quiet := hookcore.Callback{
		ID:      "quiet-npm",
		Event:   hook.PreToolUse,
		Matcher: "Bash",
		If:      "Bash(npm install*)",
		Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			var args struct {
				Command string `json:"command"`
			}
			if err := json.Unmarshal(in.ToolInput, &args); err != nil {
				return hook.Decision{}, err
			}
			rewritten, _ := json.Marshal(map[string]string{"command": args.Command + " --no-audit --no-fund"})
			return hook.Decision{UpdatedInput: rewritten}, nil
		},
	}
	r, err := hookcore.New(nil, hookcore.Options{Callbacks: []hookcore.Callback{quiet}})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close(context.Background())

	bash := func(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
		fmt.Println("tool input:", string(input))
		return json.RawMessage(`{"exit_code": 0}`), nil
	}
	tools := hookcore.Chain(r.Middleware())
	call := hookcore.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"npm install"}`)}
	if _, err := tools(context.Background(), call, bash); err != nil {
		log.Fatal(err)
	}
	// Output:
	// tool input: {"command":"npm install --no-audit --no-fund"}
}

// Go callbacks are hooks like configured ones: this one denies writes under vendor/, and the
// middleware turns the denial into a *ToolRejectedError whose reason goes back to the model.
func ExampleCallback() {
	vendorGuard := hookcore.Callback{
		ID:      "vendor-guard",
		Event:   hook.PreToolUse,
		Matcher: "Write|Edit",
		If:      `file_path ~= "vendor/**"`,
		Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			return hook.Decision{
				Permission: hook.Deny,
				Reason:     in.FilePath() + " is vendored; change go.mod instead",
			}, nil
		},
	}
	r, err := hookcore.New(nil, hookcore.Options{Callbacks: []hookcore.Callback{vendorGuard}})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close(context.Background())

	write := func(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
		fmt.Println("wrote", string(input))
		return json.RawMessage(`"ok"`), nil
	}
	for _, path := range []string{"vendor/x/y.go", "main.go"} {
		call := hookcore.ToolCall{Name: "Write", Input: json.RawMessage(fmt.Sprintf(`{"file_path":%q}`, path))}
		_, err := r.Middleware()(context.Background(), call, write)
		var rejected *hookcore.ToolRejectedError
		if errors.As(err, &rejected) {
			fmt.Printf("rejected by %s: %s\n", rejected.HookID, strings.TrimSpace(rejected.Reason))
		}
	}
	// Output:
	// rejected by vendor-guard: vendor/x/y.go is vendored; change go.mod instead
	// wrote {"file_path":"main.go"}
}

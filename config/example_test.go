package config_test

import (
	"fmt"

	"github.com/hookcore/hookcore/config"
)

func ExampleParse() {
	src := `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    matcher: Bash
    if: 'args.command =~ /rm\s+-rf\s+\//'
    action: {type: command, command: "echo 'dangerous rm blocked'", timeout: 10s}
    reject: true
  - event: session_start
    action: {type: prompt, message: "Read ARCHITECTURE.md first."}
    once: true
`
	f, errs := config.Parse(".hookcore/hooks.yaml", []byte(src), config.Project)
	if err := errs.Err(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Dialect, len(f.Hooks), "hooks")
	for _, h := range f.Hooks {
		fmt.Println(h.Source(), h.ID, h.Event, h.Action.Type, h.Action.Timeout)
	}

	_, errs = config.Parse("bad.yaml", []byte("hooks:\n  - id: guard\n    event: pre_tool_usee\n    action: {type: comand, command: x}\n"), config.Project)
	for _, p := range errs {
		fmt.Println(p)
	}
	// Output:
	// native 2 hooks
	// .hookcore/hooks.yaml:2 block-dangerous-rm PreToolUse command 10s
	// .hookcore/hooks.yaml:8 SessionStart#1 SessionStart inject 0s
	// bad.yaml:3:12: guard: unknown event "pre_tool_usee" (did you mean "pre_tool_use"?)
	// bad.yaml:4:20: guard: unknown action type "comand" (did you mean "command"?)
}

package transcript_test

import (
	"fmt"
	"io"
	"log"

	"github.com/hookcore/hookcore/transcript"
)

// ExampleOpen replays a recorded Claude Code session (session-stop-gate: a Stop hook blocks
// once, and a PermissionRequest hook allows a Bash call) as the hook events it fired.
func ExampleOpen() {
	r, err := transcript.Open("../sessions/session-stop-gate/84dcf15f-e3e6-46b6-9621-dc9c4d06f0dd.jsonl", transcript.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		in := ev.Input
		switch {
		case in.ToolName != "":
			fmt.Printf("%d %s %s (line %d)\n", ev.Index, ev.Event, in.ToolName, ev.Line)
		case ev.Event == "Stop":
			fmt.Printf("%d %s stop_hook_active=%t\n", ev.Index, ev.Event, in.StopHookActive)
		default:
			fmt.Printf("%d %s\n", ev.Index, ev.Event)
		}
	}
	st := r.Stats()
	fmt.Printf("%d lines, %d tool calls, %d events, %d skipped\n", st.Lines, st.ToolCalls, st.Events, st.Skipped)
	// Output:
	// 0 SessionStart
	// 1 UserPromptSubmit
	// 2 PreToolUse Bash (line 22)
	// 3 PostToolUse Bash (line 25)
	// 4 PreToolUse Read (line 29)
	// 5 PostToolUse Read (line 32)
	// 6 PreToolUse Edit (line 35)
	// 7 PostToolUse Edit (line 37)
	// 8 PreToolUse Write (line 40)
	// 9 PostToolUse Write (line 42)
	// 10 Stop stop_hook_active=false
	// 11 PreToolUse Bash (line 52)
	// 12 PermissionRequest Bash (line 54)
	// 13 PostToolUse Bash (line 54)
	// 14 PreToolUse Bash (line 56)
	// 15 PostToolUse Bash (line 57)
	// 16 Stop stop_hook_active=true
	// 17 SessionEnd
	// 62 lines, 6 tool calls, 18 events, 0 skipped
}

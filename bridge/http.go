package bridge

import (
	"encoding/json"

	"github.com/hookcore/hookcore/hook"
)

// ClaudeHTTP turns a Claude Answer into the body of a Claude Code `type: "http"` hook
// response. An http hook has no exit status: Claude Code reads a 2xx body as the hook's JSON
// output and treats anything else as a non-blocking error, so a block that the command form
// says with exit 2 is said in JSON instead (PreToolUse and PreSkillShellCommand, which takes
// PreToolUse's answer: permissionDecision deny; other events: decision "block"), with the
// same reason. ok is false for an answer that is a
// non-blocking error (exit 1): the server then replies 500 with the text.
func ClaudeHTTP(event hook.Event, a Answer) (body []byte, ok bool) {
	switch a.Code {
	case 0:
		return a.Stdout, true
	case 2:
		var top obj
		if a.Stdout != nil {
			// The command form printed JSON besides the exit 2 (universal fields): keep them.
			var m map[string]json.RawMessage
			if json.Unmarshal(a.Stdout, &m) == nil {
				for _, k := range []string{"continue", "stopReason", "systemMessage"} {
					if v, ok := m[k]; ok {
						top.set(k, v)
					}
				}
			}
		}
		if event == hook.PreToolUse || event == hook.PreSkillShellCommand {
			var hso obj
			hso.set("hookEventName", string(event)).set("permissionDecision", "deny").set("permissionDecisionReason", a.Stderr)
			top.set("hookSpecificOutput", &hso)
		} else {
			top.set("decision", "block").set("reason", a.Stderr)
		}
		return marshal(&top), true
	}
	return []byte(a.Stderr), false
}

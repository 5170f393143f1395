package bridge_test

import (
	"encoding/json"
	"testing"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// FuzzDecode: no input makes a protocol's Decode panic, and whatever it decodes encodes to
// an answer whose stdout is empty or valid JSON (the agent must never misread it).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"beforeMCPExecution","tool_input":"{\"a\":1}","workspace_roots":["/"]}`,
		`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command"}`,
		`[]`, `{`, `{"tool_input":"x"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, n := range bridge.Names() {
			p, _ := bridge.Lookup(n)
			ev, in, err := p.Decode([]byte(data), "")
			if err != nil {
				continue
			}
			res := hook.Result{Event: ev, Continue: true, Blocked: true, Reason: data, AdditionalContext: data}
			if in.ToolInput != nil && json.Valid(in.ToolInput) && len(in.ToolInput) > 0 && in.ToolInput[0] == '{' {
				res.UpdatedInput = in.ToolInput
			}
			a := p.Encode(ev, in, &res)
			if len(a.Stdout) > 0 && !json.Valid(a.Stdout) {
				t.Fatalf("%s: stdout is not JSON: %q", n, a.Stdout)
			}
		}
	})
}

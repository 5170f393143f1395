package hookcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestToolsThatRunShellCommandsAreBashCalls (red team round 45, observed with Claude Code
// 2.1.332): Claude Code's Monitor tool runs its `command` in the shell Bash runs in, and
// opens its `ws.url`; PreToolUse came with tool_name Monitor, so no Bash guard and no
// WebFetch domain rule saw it, and `rm -rf` ran. Fire runs the PreToolUse hooks on each
// view of such a call (the command as a Bash call, a URL as a WebFetch call) after the call's
// own hooks, and the decision goes back for the real tool.
func TestToolsThatRunShellCommandsAreBashCalls(t *testing.T) {
	t.Parallel()
	monitor := `{"description":"watch","timeout_ms":5000,"command":"rm -rf /tmp/x; echo gone"}`
	type seenCall struct{ Tool, Input, ViewOf string }
	var mu sync.Mutex
	var seen []seenCall
	record := func(d hook.Decision) hook.ExecutorFunc {
		return func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			mu.Lock()
			defer mu.Unlock()
			var of string
			_ = json.Unmarshal(in.Extra["hookcore_view_of"], &of)
			seen = append(seen, seenCall{in.ToolName, string(in.ToolInput), of})
			return d, nil
		}
	}
	noRm := hookcore.Callback{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: record(hook.Decision{Block: true, Reason: "no rm"})}
	noEvil := hookcore.Callback{ID: "no-evil", Event: hook.PreToolUse, Matcher: "WebFetch", If: "WebFetch(domain:evil.com)", Func: record(hook.Decision{Block: true, Reason: "no evil"})}
	rewrite := func(out string) hookcore.Callback {
		return hookcore.Callback{ID: "rw", Event: hook.PreToolUse, Matcher: "Bash", Func: record(hook.Decision{UpdatedInput: json.RawMessage(out)})}
	}
	tests := []struct {
		name      string
		callbacks []hookcore.Callback
		event     hook.Event
		tool      string
		input     string
		want      summary
		wantSeen  []seenCall
	}{
		{"a Bash guard blocks Monitor's command", []hookcore.Callback{noRm}, hook.PreToolUse, "Monitor", monitor,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf /tmp/x; echo gone","description":"watch"}`, "Monitor"}}},
		{"the guard's if does not match", []hookcore.Callback{noRm}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"tail -f log"}`,
			summary{Continue: true}, nil},
		{"a guard of another tool", []hookcore.Callback{{ID: "edits", Event: hook.PreToolUse, Matcher: "Edit", Func: record(hook.Decision{Block: true})}}, hook.PreToolUse, "Monitor", monitor,
			summary{Continue: true}, nil},
		{"a WebFetch domain rule blocks Monitor's WebSocket", []hookcore.Callback{noRm, noEvil}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"ws":{"url":"wss://EVIL.com./stream","protocols":["v1"]}}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"wss://EVIL.com./stream"}`, "Monitor"}}},
		{"another host", []hookcore.Callback{noEvil}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"ws":{"url":"ws://127.0.0.1:9/x"}}`,
			summary{Continue: true}, nil},
		{"Monitor's own hook blocks first", []hookcore.Callback{
			{ID: "monitor", Event: hook.PreToolUse, Matcher: "Monitor", Func: record(hook.Decision{Block: true, Reason: "no monitors"})}, noRm,
		}, hook.PreToolUse, "Monitor", monitor,
			summary{Blocked: true, Reason: "no monitors", Continue: true, Hooks: []string{"monitor=block"}},
			[]seenCall{{"Monitor", monitor, ""}}},
		{"a hook of every tool runs once, on the call", []hookcore.Callback{
			{ID: "all", Event: hook.PreToolUse, Matcher: "*", Func: record(hook.Decision{AdditionalContext: "seen"})},
			{ID: "bash", Event: hook.PreToolUse, Matcher: "Bash", Func: record(hook.Decision{AdditionalContext: "bash"})},
		}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"ls"}`,
			summary{Context: "seen\nbash", Continue: true, Hooks: []string{"all=context", "bash=context"}},
			[]seenCall{{"Monitor", `{"description":"w","timeout_ms":5000,"command":"ls"}`, ""}, {"Bash", `{"command":"ls","description":"w"}`, "Monitor"}}},
		{"a hook of every tool whose if names Bash runs on the view", []hookcore.Callback{
			{ID: "all", Event: hook.PreToolUse, Matcher: "*", If: "Bash(rm *)", Func: record(hook.Decision{Block: true, Reason: "no rm"})},
		}, "PRE-TOOL-USE", "Monitor", monitor,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"all=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf /tmp/x; echo gone","description":"watch"}`, "Monitor"}}},
		{"a rewrite of the command goes back into Monitor", []hookcore.Callback{rewrite(`{"command":"cd logs && tail -n 5 <app.log","description":"w"}`)}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"cd logs && tail -f app.log"}`,
			summary{Continue: true, UpdatedInput: `{"command":"cd logs && tail -n 5 <app.log","description":"w","timeout_ms":5000}`, Hooks: []string{"rw=update"}},
			[]seenCall{{"Bash", `{"command":"cd logs && tail -f app.log","description":"w"}`, "Monitor"}}},
		{"a rewrite of the WebSocket's URL goes back into ws", []hookcore.Callback{{ID: "rw", Event: hook.PreToolUse, Matcher: "WebFetch", Func: record(hook.Decision{UpdatedInput: json.RawMessage(`{"url":"wss://mirror.example/s?a=1&b=2"}`)})}}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"ws":{"url":"wss://events.example/s","protocols":["v1"]}}`,
			summary{Continue: true, UpdatedInput: `{"description":"w","timeout_ms":5000,"ws":{"protocols":["v1"],"url":"wss://mirror.example/s?a=1&b=2"}}`, Hooks: []string{"rw=update"}},
			[]seenCall{{"WebFetch", `{"url":"wss://events.example/s"}`, "Monitor"}}},
		{"a rewrite without the description keeps Monitor's", []hookcore.Callback{rewrite(`{"command":"ls"}`)}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"tail -f log"}`,
			summary{Continue: true, UpdatedInput: `{"command":"ls","description":"w","timeout_ms":5000}`, Hooks: []string{"rw=update"}},
			[]seenCall{{"Bash", `{"command":"tail -f log","description":"w"}`, "Monitor"}}},
		{"a rewrite Monitor cannot take blocks", []hookcore.Callback{rewrite(`{"command":"ls","timeout":600000}`)}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"tail -f log"}`,
			summary{Blocked: true, Reason: `hookcore: a PreToolUse hook rewrote Monitor's command as a Bash call, which hookcore cannot carry back to Monitor: the rewritten input has "timeout", which command does not take`, Continue: true, Hooks: []string{"rw=update"}},
			[]seenCall{{"Bash", `{"command":"tail -f log","description":"w"}`, "Monitor"}}},
		{"an unchanged rewrite is none", []hookcore.Callback{rewrite(` {"command" : "ls"}`)}, hook.PreToolUse, "mcp__x__run", `{"command":"ls"}`,
			summary{Continue: true, Hooks: []string{"rw=update"}},
			[]seenCall{{"Bash", `{"command":"ls"}`, "mcp__x__run"}}},
		{"an ask", []hookcore.Callback{{ID: "ask", Event: hook.PreToolUse, Matcher: "Bash", Func: record(hook.Decision{Permission: hook.Ask, Reason: "sure?"})}}, hook.PreToolUse, "Monitor", monitor,
			summary{Permission: "ask", Reason: "sure?", Continue: true, Hooks: []string{"ask=ok"}},
			[]seenCall{{"Bash", `{"command":"rm -rf /tmp/x; echo gone","description":"watch"}`, "Monitor"}}},
		{"an allow of Monitor's one view allows it", []hookcore.Callback{{ID: "ok", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(tail *)", Func: record(hook.Decision{Permission: hook.Allow})}}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"tail -f log"}`,
			summary{Permission: "allow", Continue: true, Hooks: []string{"ok=ok"}},
			[]seenCall{{"Bash", `{"command":"tail -f log","description":"w"}`, "Monitor"}}},
		{"PermissionRequest too", []hookcore.Callback{{ID: "no-rm", Event: hook.PermissionRequest, Matcher: "Bash", If: "Bash(rm *)", Func: record(hook.Decision{Block: true, Reason: "no rm"})}}, hook.PermissionRequest, "Monitor", monitor,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf /tmp/x; echo gone","description":"watch"}`, "Monitor"}}},
		{"an MCP tool's command", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__exec", `{"cwd":"/","command":"rm -rf x"}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__exec"}}},
		{"an argv", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__exec", `{"cmd":["rm","-rf","it's"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"'rm' '-rf' 'it'\\''s'"}`, "mcp__shell__exec"}}},
		{"a URL deep in an MCP tool's input, any case", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__browser__navigate", `{"page":{"URL":"https://a.evil.com/x"}}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://a.evil.com/x"}`, "mcp__browser__navigate"}}},
		{"an escaped key", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__exec", `{"c\u006fmmand":"rm -rf x"}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__exec"}}},
		{"an unknown tool's allow does not approve it", []hookcore.Callback{{ID: "ok", Event: hook.PreToolUse, Matcher: "Bash", Func: record(hook.Decision{Permission: hook.Allow})}}, hook.PreToolUse, "mcp__remote__exec", `{"host":"prod","command":"ls"}`,
			summary{Continue: true, Hooks: []string{"ok=ok"}},
			[]seenCall{{"Bash", `{"command":"ls"}`, "mcp__remote__exec"}}},
		{"an unknown tool's rewrite blocks", []hookcore.Callback{rewrite(`{"command":"ls -la"}`)}, hook.PreToolUse, "mcp__remote__exec", `{"host":"prod","command":"ls"}`,
			summary{Blocked: true, Reason: "hookcore: a PreToolUse hook rewrote mcp__remote__exec's command as a Bash call, which hookcore cannot carry back to mcp__remote__exec: hookcore cannot carry a rewrite back into a tool it does not know", Continue: true, Hooks: []string{"rw=update"}},
			[]seenCall{{"Bash", `{"command":"ls"}`, "mcp__remote__exec"}}},
		// Red team round 47: MCP-style inputs that held a command or URL the views did not read.
		{"a command that is an object fails closed", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__exec", `{"command":{"program":"rm","args":["-rf","x"]}}`,
			summary{Blocked: true, Reason: "hookcore: mcp__shell__exec's command is a JSON object, which hookcore cannot read as a shell command for the Bash hooks (it fails closed)", Continue: true}, nil},
		{"a command of numbers fails closed", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__exec", `{"x":{"CMD":["rm",1]}}`,
			summary{Blocked: true, Reason: "hookcore: mcp__shell__exec's x.CMD is an array that is not all strings, which hookcore cannot read as a shell command for the Bash hooks (it fails closed)", Continue: true}, nil},
		{"an unreadable command with no Bash hook", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__shell__exec", `{"command":{"program":"rm"}}`,
			summary{Continue: true}, nil},
		{"program and args", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__proc__spawn", `{"program":"rm","args":["-rf","x"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"'rm' '-rf' 'x'"}`, "mcp__proc__spawn"}}},
		{"an executable and args (red team round 48)", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__srv__run", `{"executable":"rm","args":["foo"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"'rm' 'foo'"}`, "mcp__srv__run"}}},
		{"two program keys fail closed", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__srv__run", `{"program":"ls","exec":"rm","args":["foo"]}`,
			summary{Blocked: true, Reason: "hookcore: mcp__srv__run's exec is a string, which hookcore cannot read as a shell command for the Bash hooks (it fails closed)", Continue: true}, nil},
		{"program with args that are no argv fails closed", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__proc__spawn", `{"Program":"rm","args":{"r":true}}`,
			summary{Blocked: true, Reason: "hookcore: mcp__proc__spawn's Program args is a JSON object, which hookcore cannot read as a shell command for the Bash hooks (it fails closed)", Continue: true}, nil},
		{"command and args", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__proc__spawn", `{"command":"rm","args":["-rf","x"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm '-rf' 'x'"}`, "mcp__proc__spawn"}}},
		{"args alone are no command", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__calc__call", `{"function":"rm","args":["-rf","x"]}`,
			summary{Continue: true}, nil},
		{"an argv array", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__proc__spawn", `{"argv":["rm","-rf","x"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"'rm' '-rf' 'x'"}`, "mcp__proc__spawn"}}},
		{"a script", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__run", `{"script":"rm -rf x"}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__run"}}},
		{"a cmdline", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__run", `{"CmdLine":"rm -rf x"}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__run"}}},
		{"a shell_command", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__run", `{"shell_command":"rm -rf x"}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__run"}}},
		{"commands", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__batch", `{"commands":["ls","rm -rf x"]}`,
			summary{Blocked: true, Reason: "no rm", Continue: true, Hooks: []string{"no-rm=block"}},
			[]seenCall{{"Bash", `{"command":"rm -rf x"}`, "mcp__shell__batch"}}},
		{"commands holding an object fails closed", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__shell__batch", `{"commands":["ls",{"run":"rm -rf x"}]}`,
			summary{Blocked: true, Reason: "hookcore: mcp__shell__batch's commands[1] is a JSON object, which hookcore cannot read as a shell command for the Bash hooks (it fails closed)", Continue: true}, nil},
		{"urls", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__fetch_all", `{"urls":["https://ok.example/","https://evil.com/x"]}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__web__fetch_all"}}},
		{"a uri", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__get", `{"uri":"https://evil.com/x"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__web__get"}}},
		{"an href", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__get", `{"a":{"HREF":"https://evil.com/x"}}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__web__get"}}},
		{"an endpoint", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__post", `{"endpoint":"https://evil.com/api","body":"{}"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/api"}`, "mcp__web__post"}}},
		{"a link", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__open", `{"link":"https://evil.com/"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/"}`, "mcp__web__open"}}},
		{"a base_url (red team round 48)", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__srv__call", `{"base_url":"https://evil.com/x","path":"/v1"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__srv__call"}}},
		{"a camel-case webhookUrl", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__srv__call", `{"webhookUrl":"https://evil.com/hook"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/hook"}`, "mcp__srv__call"}}},
		{"links (red team round 48)", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__srv__call", `{"links":["https://evil.com/x"]}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__srv__call"}}},
		{"curl and security are no URL keys", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__srv__call", `{"curl":"evil.com/x","security":"evil.com/y"}`,
			summary{Continue: true}, nil},
		{"but a URL is a URL under any key (red team round 50)", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__srv__call", `{"curl":"https://evil.com/x"}`,
			summary{Blocked: true, Reason: "no evil", Continue: true, Hooks: []string{"no-evil=block"}},
			[]seenCall{{"WebFetch", `{"url":"https://evil.com/x"}`, "mcp__srv__call"}}},
		{"a url that is an object fails closed", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__get", `{"url":{"host":"evil.com","path":"/x"}}`,
			summary{Blocked: true, Reason: "hookcore: mcp__web__get's url is a JSON object, which hookcore cannot read as a URL for the WebFetch hooks (it fails closed)", Continue: true}, nil},
		{"a null url is none", []hookcore.Callback{noEvil}, hook.PreToolUse, "mcp__web__get", `{"url":null,"query":"x"}`,
			summary{Continue: true}, nil},
		{"PowerShell's command is no bash", []hookcore.Callback{noRm}, hook.PreToolUse, "PowerShell", `{"command":"rm -r -fo x"}`,
			summary{Continue: true}, nil},
		{"an ambiguous input", []hookcore.Callback{noRm}, hook.PreToolUse, "Monitor", `{"description":"w","timeout_ms":5000,"command":"ls","command":"rm -rf x"}`,
			summary{Blocked: true, Reason: `tool input rejected: ambiguous tool input: duplicate key "command"`, Continue: true}, nil},
		{"too many views", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__x__batch", manyCommands(17),
			summary{Blocked: true, Reason: "hookcore: mcp__x__batch's input holds 17 shell commands, URLs and file paths, more than the 16 hookcore checks one by one", Continue: true}, nil},
		{"as many as checked", []hookcore.Callback{noRm}, hook.PreToolUse, "mcp__x__batch", manyCommands(16),
			summary{Continue: true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: tt.callbacks})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: string(tt.event), ToolName: tt.tool, ToolInput: json.RawMessage(tt.input), ToolUseID: "toolu_1"}
			res := r.Fire(context.Background(), tt.event, in)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.wantSeen, seen); diff != "" {
				t.Errorf("calls the hooks were given (-want +got):\n%s", diff)
			}
			if in.ToolName != tt.tool || string(in.ToolInput) != tt.input {
				t.Errorf("Fire changed its input: %s %s", in.ToolName, in.ToolInput)
			}
		})
	}
}

// manyCommands is an MCP tool input with n commands, none a delete.
func manyCommands(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`{"command":"echo %d"}`, i))
	}
	return `{"steps":[` + strings.Join(parts, ",") + `]}`
}

// TestToolViewHookInput: a command hook on a view gets the event's input as on a call of the
// view's tool (as the PreToolUse hooks on a skill's shell command do), with the real tool's
// name in hookcore_view_of and every other field of the call.
func TestToolViewHookInput(t *testing.T) {
	t.Parallel()
	var got []byte
	cb := hookcore.Callback{ID: "log", Event: hook.PreToolUse, Matcher: "Bash", Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
		got, _ = json.Marshal(in)
		return hook.Decision{}, nil
	}}
	dir := t.TempDir()
	r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{cb}})
	in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: "Monitor", ToolUseID: "toolu_1",
		ToolInput: json.RawMessage(`{"description":"w","timeout_ms":5000,"command":"ls"}`), Extra: map[string]json.RawMessage{"effort": json.RawMessage(`{"level":"medium"}`)}}
	r.Fire(context.Background(), hook.PreToolUse, in)
	want := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"w"},"tool_use_id":"toolu_1","effort":{"level":"medium"},"hookcore_view_of":"Monitor"}`, dir)
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("hook input (-want +got):\n%s", diff)
	}
	if _, ok := in.Extra["hookcore_view_of"]; ok {
		t.Error("Fire changed its input's Extra")
	}
}

// TestOtherAgentsShellAndFetchTools: the tools of the other agents that hookcore's bridges do
// not name Bash or WebFetch but that take a shell command or a URL are guarded through their
// views: Cursor's preToolUse of its Shell tool (Cursor also sends beforeShellExecution, which
// the bridge names Bash), Copilot CLI's web_fetch (third-party lists of its tools; no runner
// here) and an MCP tool under Cursor's beforeMCPExecution.
func TestOtherAgentsShellAndFetchTools(t *testing.T) {
	t.Parallel()
	callbacks := []hookcore.Callback{
		{ID: "no-rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: fn(hook.Decision{Block: true, Reason: "no rm"})},
		{ID: "no-evil", Event: hook.PreToolUse, Matcher: "WebFetch", If: "WebFetch(domain:evil.com)", Func: fn(hook.Decision{Block: true, Reason: "no evil"})},
	}
	tests := []struct {
		name    string
		proto   bridge.Protocol
		event   string
		payload string
		want    string
	}{
		{"Cursor Shell", bridge.Cursor{}, "", `{"conversation_id":"c1","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf x"}}`, "no rm"},
		{"Cursor MCP", bridge.Cursor{}, "", `{"conversation_id":"c1","hook_event_name":"beforeMCPExecution","tool_name":"fetch","tool_input":"{\"url\":\"https://evil.com/a\"}"}`, "no evil"},
		{"Copilot web_fetch", bridge.Copilot{}, "preToolUse", `{"sessionId":"s1","toolName":"web_fetch","toolArgs":"{\"url\":\"https://x.evil.com/\"}"}`, "no evil"},
		{"Copilot web_fetch elsewhere", bridge.Copilot{}, "preToolUse", `{"sessionId":"s1","toolName":"web_fetch","toolArgs":"{\"url\":\"https://example.org/\"}"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: callbacks})
			ev, in, err := tt.proto.Decode([]byte(tt.payload), tt.event)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Fire(context.Background(), ev, in)
			if res.Blocked != (tt.want != "") || res.Reason != tt.want {
				t.Errorf("blocked %v, reason %q; want the reason %q", res.Blocked, res.Reason, tt.want)
			}
		})
	}
}

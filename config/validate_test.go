package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidationMessages checks every validation message with its position and hook id.
func TestValidationMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, content string
		want                string
	}{
		{"native", "bad.yaml", `hooks:
  - id: a
    event: pre_tool_usee
    action: {type: comand, command: x}
  - id: a
    event: post_tool_use
    reject: true
    action: {type: command}
  - id: c
    event: pre_tool_use
    async: true
    parallel: true
    blocking: "yes"
    timeout: -3
    on_error: blok
    exit_codes: {1: blck, 300: block, x: inject, 2: [a]}
    matcher: "Bash"
    if: 'tool == "Bash" && args.x == 1 || tool == "Y"'
    action: {type: http, url: "ftp://x", method: "P O", command: "x"}
  - event: stop
    matcher: Bash
    timeout: 100000h
    acton: {}
    action: {type: prompt}
  - event: stop
    action: {type: prompt, message: a, prompt: b}
  - event: stop
    action: {type: inject}
  - event: stop
    action: {type: agent, model: x}
  - event: stop
    action: {type: func, args: 3}
  - event: stop
    command: x
    action: {timeout: 10s}
  - 42
  - event: [stop]
    id: {a: 1}
    action: {type: command, command: x, headers: [1], args: {a: b}}
  - event: stop
    action: {type: command, command: x, timeout: 5s}
    timeout: 6s
    reject: true
    blocking: false
  - event: ""
    action: {type: command, command: x}
`, `bad.yaml:3:12: a: unknown event "pre_tool_usee" (did you mean "pre_tool_use"?)
bad.yaml:4:20: a: unknown action type "comand" (did you mean "command"?)
bad.yaml:5:9: a: duplicate id "a" (first used at line 2)
bad.yaml:7:13: a: reject is only allowed on gate events; PostToolUse is a feedback event
bad.yaml:8:20: a: command action needs command or args
bad.yaml:11:12: c: async is not allowed on gate event PreToolUse: its decision must be waited for
bad.yaml:12:15: c: warning: parallel is ignored on gate event PreToolUse: gate hooks run in order
bad.yaml:13:15: c: blocking must be true or false, not a string
bad.yaml:14:14: c: negative timeout "-3"
bad.yaml:15:15: c: bad on_error "blok": want allow or block (did you mean "block"?)
bad.yaml:16:21: c: bad exit_codes value "blck" for 1: want block, inject, allow or error (did you mean "block"?)
bad.yaml:16:27: c: bad exit_codes key "300": want an exit status 0-255
bad.yaml:16:39: c: bad exit_codes key "x": want an exit status 0-255
bad.yaml:16:53: c: bad exit_codes value for 2: want block, inject, allow or error, not a sequence
bad.yaml:18:40: c: bad if condition: condition mixes && and ||; use one of them
bad.yaml:19:31: c: url "ftp://x" must start with http:// or https://
bad.yaml:19:50: c: bad http method "P O"
bad.yaml:19:57: c: warning: command is ignored by http actions
bad.yaml:21:14: Stop#1: warning: matcher is ignored on Stop
bad.yaml:22:14: Stop#1: absurd timeout "100000h" (more than 24h)
bad.yaml:23:5: Stop#1: warning: unknown key "acton" in hook (did you mean "action"?)
bad.yaml:24:20: Stop#1: prompt action needs message (inject context) or prompt (LLM judge)
bad.yaml:26:20: Stop#2: prompt action has both message (inject context) and prompt (LLM judge); keep one
bad.yaml:28:20: Stop#3: inject action needs message
bad.yaml:30:20: Stop#4: agent action needs prompt
bad.yaml:32:20: Stop#5: func action needs name
bad.yaml:32:26: Stop#5: warning: args is ignored by func actions
bad.yaml:32:32: Stop#5: args must be a sequence of strings, not a number
bad.yaml:34:5: Stop#6: warning: unknown key "command" in hook: command belongs under action:
bad.yaml:35:13: Stop#6: missing action type (one of command, http, prompt, agent, inject, func, rego, mcp_tool)
bad.yaml:36:5: hook#1: a hook must be a mapping with event and action, not a number
bad.yaml:37:12: hook#2: event must be a string, not a sequence
bad.yaml:38:9: hook#2: id must be a string, not a mapping
bad.yaml:39:41: hook#2: warning: headers is ignored by command actions
bad.yaml:39:50: hook#2: headers must be a mapping, not a sequence
bad.yaml:39:61: hook#2: args must be a sequence of strings, not a mapping
bad.yaml:42:14: Stop#7: warning: both timeout and action.timeout are set; action.timeout (5s) wins
bad.yaml:43:13: Stop#7: reject is only allowed on gate events; Stop is a feedback event
bad.yaml:43:13: Stop#7: warning: reject has no effect with blocking: false
bad.yaml:45:12: hook#3: missing event
`},
		{"json", "bad.json", `{"hooks": {
  "PreToolUze": [{"type": "command", "command": "x"}],
  "Stop": [{"type": "prompt", "message": "m"}, {"matcher": "Bash", "hooks": [{"command": "a"}, {"command": "b", "matcher": "x"}], "extra": 1}],
  "PostToolUse": {"type": "command"},
  "SessionStart": [{"hooks": [{"type": "command", "command": "x", "asyncc": true, "exit_codes": {"1": "block"}}]}, 5],
  "": []
}}
`, `bad.json:2:3: PreToolUze#1: unknown event "PreToolUze" (did you mean "PreToolUse"?)
bad.json:3:21: Stop#1: prompt hook needs prompt (the LLM judge's question); for fixed context use type inject with message
bad.json:3:60: Stop#2: warning: matcher is ignored on Stop
bad.json:3:113: Stop#3: warning: matcher belongs on the matcher group, not on the hook; ignored
bad.json:4:18: hooks for PostToolUse must be a sequence, not a mapping
bad.json:5:67: SessionStart#1: warning: unknown key "asyncc" in hook (did you mean "async"?)
bad.json:5:116: SessionStart#2: a hook must be a mapping with type and command, not a number
bad.json:6:3: empty event name
`},
		// The conformance cases 15-18 and 40.
		{"15 mixed and or", "hooks.yaml", `hooks:
  - id: fine
    event: pre_tool_use
    action: {type: command, command: "echo ran > ran.txt"}
  - id: mixed-ops
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm/ || tool == "WriteFile"'
    action: {type: command, command: "echo hi"}
`, `hooks.yaml:7:49: mixed-ops: bad if condition: condition mixes && and ||; use one of them
`},
		{"16 reject on post", "hooks.yaml", `hooks:
  - id: too-late
    event: post_tool_use
    action: {type: command, command: "echo no"}
    reject: true
`, `hooks.yaml:5:13: too-late: reject is only allowed on gate events; PostToolUse is a feedback event
`},
		{"17 async on pre", "hooks.yaml", `hooks:
  - id: cannot-wait
    event: pre_tool_use
    action: {type: command, command: "echo no"}
    async: true
`, `hooks.yaml:5:12: cannot-wait: async is not allowed on gate event PreToolUse: its decision must be waited for
`},
		{"18 unknown event and type", "hooks.yaml", `hooks:
  - id: typo-event
    event: pre_tool_usee
    action: {type: command, command: "echo a"}
  - id: typo-type
    event: pre_tool_use
    action: {type: comand, command: "echo b"}
`, `hooks.yaml:3:12: typo-event: unknown event "pre_tool_usee" (did you mean "pre_tool_use"?)
hooks.yaml:7:20: typo-type: unknown action type "comand" (did you mean "command"?)
`},
		{"40 did you mean", ".hookcore/hooks.yaml", `hooks:
  - id: guard
    event: pre_tool_usee
    action: {type: command, command: "exit 0"}
`, `.hookcore/hooks.yaml:3:12: guard: unknown event "pre_tool_usee" (did you mean "pre_tool_use"?)
`},
		{"if column in plain and double-quoted values", "hooks.yaml", `hooks:
  - event: pre_tool_use
    if: tool == "Bash" && a == b || c == d
    action: {type: command, command: x}
  - event: pre_tool_use
    if: "tool == 'Bash' && a == b || c == d"
    action: {type: command, command: x}
  - event: pre_tool_use
    if: |
      tool == "Bash" && a == b || c == d
    action: {type: command, command: x}
`, `hooks.yaml:3:34: PreToolUse#1: bad if condition: condition mixes && and ||; use one of them
hooks.yaml:6:35: PreToolUse#2: bad if condition: condition mixes && and ||; use one of them
hooks.yaml:9:9: PreToolUse#3: bad if condition: condition mixes && and ||; use one of them
`},
		{"bad matcher regex", "hooks.yaml", "hooks:\n  - event: pre_tool_use\n    matcher: \"(\"\n    action: {type: command, command: x}\n",
			"hooks.yaml:3:14: PreToolUse#1: bad matcher regex \"(\": error parsing regexp: missing closing ): `(`\n"},
		{"user test gaps all at once", "gaps.yaml", `hooks:
  - id: bad-url
    event: post_tool_use
    action: {type: http, url: "http://[::1"}
  - id: no-host
    event: post_tool_use
    action: {type: http, url: "https:///x"}
  - id: both
    event: pre_tool_use
    action: {type: command, command: "./x.sh", args: ["./x.sh", "-v"]}
  - id: hosts
    event: post_tool_use
    action:
      type: http
      url: "http://127.0.0.1:9/h"
      allowed_hosts: [127.0.0.1, "10.0.0.0/8", "[::1]", hooks.internal.example., "bad host", "*.example.com", "a:80", "", ok_host-1]
  - id: nan
    event: stop
    timeout: NaN
    action: {type: command, command: x}
  - id: inf
    event: stop
    action: {type: command, command: x, timeout: -.inf}
`, `gaps.yaml:4:31: bad-url: bad url "http://[::1": missing ']' in host
gaps.yaml:7:31: no-host: url "https:///x" has no host
gaps.yaml:10:48: both: command and args are exclusive: command is a shell line, args runs a program without a shell
gaps.yaml:16:82: hosts: allowed host "bad host" is not a host name, IP address or CIDR prefix
gaps.yaml:16:94: hosts: allowed host "*.example.com" is not a host name, IP address or CIDR prefix
gaps.yaml:16:111: hosts: allowed host "a:80" is not a host name, IP address or CIDR prefix
gaps.yaml:16:119: hosts: allowed host "" is not a host name, IP address or CIDR prefix
gaps.yaml:19:14: nan: timeout must be a number of seconds or a duration, not "NaN"
gaps.yaml:23:50: inf: timeout must be a number of seconds or a duration, not "-.inf"
`},
		{"json if column", "s.json", `{"hooks": {"PreToolUse": [{"command": "x", "if": "a == b && c == d || e == f"}]}}`,
			`s.json:1:68: PreToolUse#1: bad if condition: condition mixes && and ||; use one of them
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, errs := Parse(tt.file, []byte(tt.content), Project)
			var got strings.Builder
			for _, p := range errs {
				got.WriteString(p.Error() + "\n")
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			// A hook named in an error is skipped (Broken), never loaded (issue 8.2).
			for _, p := range errs {
				if p.Warning || p.HookID == "" {
					continue
				}
				for _, h := range f.Hooks {
					if h.ID == p.HookID {
						t.Errorf("hook %s has an error but is loaded", h.ID)
					}
				}
			}
		})
	}
}

// TestShellSyntaxReported: a shell-form command that does not parse is an error, at its
// column when the command is one line, with the hook id (issue 10.7); the hook still loads
// (it is not Broken): when it runs, the shell decides, and a command that does not parse is
// an error of that hook, never a block.
func TestShellSyntaxReported(t *testing.T) {
	t.Parallel()
	f, errs := Parse("hooks.yaml", []byte(`hooks:
  - id: guard
    event: pre_tool_use
    action: {type: command, command: "echo $(ls"}
  - id: multi
    event: stop
    action:
      type: command
      command: |
        echo ok
        if true; then echo
  - id: fine
    event: stop
    action: {type: command, command: "echo $TOOL_ARGS.command | grep -q rm && exit 2 || true"}
`), Project)
	var got strings.Builder
	for _, p := range errs {
		got.WriteString(p.Error() + "\n")
	}
	want := "hooks.yaml:4:44: guard: command does not parse as a shell line (it fails each time it runs): reached EOF without matching `$(` with `)`\n" +
		"hooks.yaml:9:16: multi: command does not parse as a shell line (it fails each time it runs): line 2:1: `if` statement must end with `fi`\n"
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(f.Hooks) != 3 || len(f.Broken) != 0 {
		t.Errorf("%d hooks, %d broken; want 3 loaded", len(f.Hooks), len(f.Broken))
	}
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// write creates the file rel under dir with content and returns its path.
func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The configs of the conformance cases, verbatim.
const (
	case01 = `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action:
      type: command
      command: "echo 'dangerous delete blocked'"
    reject: true
`
	case05 = `{
  "hooks": {
    "PreToolUse": [
      {"type": "command", "command": "echo 'no recursive deletes here' >&2; exit 2", "matcher": "bash", "if": "/rm -rf/", "blocking": true, "timeout": 30}
    ]
  }
}
`
	case10 = `hooks:
  - id: remind
    event: PreToolUse
    matcher: Bash
    action: {type: command, command: "echo 'remember: the build dir is generated' >&2; exit 2"}
    exit_codes: {1: block, 2: inject}
  - id: audit-only
    event: PreToolUse
    matcher: Bash
    action: {type: command, command: "echo 'blocked by s08 protocol' >&2; exit 1"}
    exit_codes: {1: block, 2: inject}
`
	case11 = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"lock files are generated\"}}'", "timeout": 10}
        ]
      }
    ]
  }
}
`
	case24user = `hooks:
  - id: user
    event: session_start
    action: {type: prompt, message: "from the user layer"}
`
	case42codebot = `{"hooks": {"PreToolUse": [{"type": "command", "command": "exit 0", "matcher": "bash"}]}}`
	case42claude  = `{"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "exit 0"}]}]}}`
	case43b       = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}`
)

func TestParseDialects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, content string
		dialect             Dialect
		want                []Hook // Pos.File is filled in by the test
	}{
		{"native reject", ".hookcore/hooks.yaml", case01, Native, []Hook{{
			ID: "block-dangerous-rm", Event: hook.PreToolUse,
			If:     `tool == "Bash" && args.command =~ /rm\s+-rf\s+\//`,
			Action: Action{Type: TypeCommand, Command: "echo 'dangerous delete blocked'"},
			Reject: true, Blocking: true, Enabled: true, Pos: Pos{Line: 2, Col: 5},
		}}},
		{"codebot flat", "settings.json", case05, Flat, []Hook{{
			ID: "PreToolUse#1", Event: hook.PreToolUse, Matcher: "bash", If: "/rm -rf/",
			Action:   Action{Type: TypeCommand, Command: "echo 'no recursive deletes here' >&2; exit 2", Timeout: 30 * time.Second},
			Blocking: true, Enabled: true, Pos: Pos{Line: 4, Col: 7}, Dialect: Flat,
		}}},
		{"s08 exit codes", ".hookcore/hooks.yaml", case10, Native, []Hook{{
			ID: "remind", Event: hook.PreToolUse, Matcher: "Bash",
			Action:    Action{Type: TypeCommand, Command: "echo 'remember: the build dir is generated' >&2; exit 2"},
			ExitCodes: map[int]string{1: "block", 2: "inject"},
			Blocking:  true, Enabled: true, Pos: Pos{Line: 2, Col: 5},
		}, {
			ID: "audit-only", Index: 1, Event: hook.PreToolUse, Matcher: "Bash",
			Action:    Action{Type: TypeCommand, Command: "echo 'blocked by s08 protocol' >&2; exit 1"},
			ExitCodes: map[int]string{1: "block", 2: "inject"},
			Blocking:  true, Enabled: true, Pos: Pos{Line: 7, Col: 5},
		}}},
		{"claude nested", ".claude/settings.json", case11, Nested, []Hook{{
			ID: "PreToolUse#1", Event: hook.PreToolUse, Matcher: "Edit|Write",
			Action: Action{Type: TypeCommand, Timeout: 10 * time.Second,
				Command: `printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "lock files are generated"}}'`},
			Blocking: true, Enabled: true, Pos: Pos{Line: 7, Col: 11}, Dialect: Nested,
		}}},
		{"native inject", "hooks.yaml", case24user, Native, []Hook{{
			ID: "user", Event: hook.SessionStart,
			Action:   Action{Type: TypeInject, Message: "from the user layer"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 2, Col: 5},
		}}},
		{"codebot one line", "codebot.json", case42codebot, Flat, []Hook{{
			ID: "PreToolUse#1", Event: hook.PreToolUse, Matcher: "bash",
			Action:   Action{Type: TypeCommand, Command: "exit 0"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 27}, Dialect: Flat,
		}}},
		{"claude one line", "settings.json", case42claude, Nested, []Hook{{
			ID: "PostToolUse#1", Event: hook.PostToolUse, Matcher: "Write|Edit",
			Action:   Action{Type: TypeCommand, Command: "exit 0"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 64}, Dialect: Nested,
		}}},
		{"s08 entry without type", "hooks.json",
			`{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "./audit.sh"}]}}`, Flat, []Hook{{
				ID: "PreToolUse#1", Event: hook.PreToolUse, Matcher: "bash",
				Action:   Action{Type: TypeCommand, Command: "./audit.sh"},
				Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 27}, Dialect: Flat,
				// Issue 8 item 7: the s08 protocol by default.
				S08: true, ExitCodes: map[int]string{1: "block", 2: "inject"},
			}}},
		{"s08 entry with its own exit codes", "hooks.json",
			`{"hooks": {"PreToolUse": [{"command": "./audit.sh", "exit_codes": {"3": "block"}}]}}`, Flat, []Hook{{
				ID: "PreToolUse#1", Event: hook.PreToolUse,
				Action:   Action{Type: TypeCommand, Command: "./audit.sh"},
				Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 27}, Dialect: Flat,
				S08: true, ExitCodes: map[int]string{3: "block"},
			}}},
		{"codebot observe hook is async by default", "settings.json",
			`{"hooks": {"PostToolUse": [{"type": "command", "command": "./audit.sh"}]}}`, Flat, []Hook{{
				ID: "PostToolUse#1", Event: hook.PostToolUse,
				Action:   Action{Type: TypeCommand, Command: "./audit.sh"},
				Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 28}, Dialect: Flat, Async: true,
			}}},
		{"claude observe hook is not async by default", "settings.json",
			`{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "./audit.sh"}]}]}}`, Nested, []Hook{{
				ID: "PostToolUse#1", Event: hook.PostToolUse,
				Action:   Action{Type: TypeCommand, Command: "./audit.sh"},
				Blocking: true, Enabled: true, Pos: Pos{Line: 1, Col: 39}, Dialect: Nested,
			}}},
		{"claude settings with other keys", "settings.json", `{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "env": {"FOO": "1"},
  "hooks": {
    "Stop": [{"hooks": [{"type": "prompt", "prompt": "Is the task done? $ARGUMENTS", "model": "haiku"}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "agent", "prompt": "check it", "statusMessage": "checking"}]}],
    "Notification": [{"matcher": "idle_prompt", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/n", "headers": {"Authorization": "Bearer $TOKEN"}, "allowedEnvVars": ["TOKEN"]}]}]
  }
}`, Nested, []Hook{{
			ID: "Stop#1", Event: hook.Stop,
			Action:   Action{Type: TypePrompt, Prompt: "Is the task done? $ARGUMENTS", Model: "haiku"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 6, Col: 25}, Dialect: Nested,
		}, {
			ID: "UserPromptSubmit#1", Index: 1, Event: hook.UserPromptSubmit,
			Action: Action{Type: TypeAgent, Prompt: "check it"}, StatusMessage: "checking",
			Blocking: true, Enabled: true, Pos: Pos{Line: 7, Col: 37}, Dialect: Nested,
		}, {
			ID: "Notification#1", Index: 2, Event: hook.Notification, Matcher: "idle_prompt",
			Action: Action{Type: TypeHTTP, URL: "http://127.0.0.1:9/n",
				Headers: map[string]string{"Authorization": "Bearer $TOKEN"}, AllowedEnvVars: []string{"TOKEN"}},
			Blocking: true, Enabled: true, Pos: Pos{Line: 8, Col: 59}, Dialect: Nested,
		}}},
		{"mixed flat and nested", "mixed.json", `{"hooks": {"PreToolUse": [
  {"type": "command", "command": "a"},
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "b"}, {"command": "c"}]}
]}}`, Nested, []Hook{{
			ID: "PreToolUse#1", Event: hook.PreToolUse, Action: Action{Type: TypeCommand, Command: "a"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 2, Col: 3}, Dialect: Flat,
		}, {
			ID: "PreToolUse#2", Index: 1, Event: hook.PreToolUse, Matcher: "Bash", Action: Action{Type: TypeCommand, Command: "b"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 3, Col: 33}, Dialect: Nested,
		}, {
			ID: "PreToolUse#3", Index: 2, Event: hook.PreToolUse, Matcher: "Bash", Action: Action{Type: TypeCommand, Command: "c"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 3, Col: 70}, Dialect: Nested,
		}}},
		{"native every key", "hooks.yaml", `parallel: true
hooks:
  - id: all
    event: post_tool_use
    matcher: /^(Write|Edit)$/
    if: 'file_path ~= "**/*.go"'
    action:
      type: http
      url: https://example.com/hook
      method: put
      headers: {X-Token: abc, X-Num: 1}
      body: '{"file": "$FILE_PATH"}'
      allowed_hosts: [example.com]
      allowed_env_vars: TOKEN
      timeout: 1.5
    blocking: false
    once: true
    async: true
    parallel: true
    timeout: 1.5
    on_error: block
    exit_codes: {"3": allow}
    enabled: false
    description: notify
  - event: turn_start
    action: {type: prompt, prompt: "is this prompt safe? $ARGUMENTS", model: small}
  - event: turn_start
    action: {type: func, name: audit}
  - event: TurnStart
    action: {type: command, args: [./x.sh, -v, 2]}
  - id: UserPromptSubmit#3
    event: compact
    action: {type: agent, prompt: review}
`, Native, []Hook{{
			ID: "all", Event: hook.PostToolUse, Matcher: "/^(Write|Edit)$/", If: `file_path ~= "**/*.go"`,
			Action: Action{Type: TypeHTTP, URL: "https://example.com/hook", Method: "PUT",
				Headers: map[string]string{"X-Token": "abc", "X-Num": "1"}, Body: `{"file": "$FILE_PATH"}`,
				AllowedHosts: []string{"example.com"}, AllowedEnvVars: []string{"TOKEN"}, Timeout: 1500 * time.Millisecond},
			Once: true, Async: true, Parallel: true, Timeout: 1500 * time.Millisecond, OnError: "block",
			ExitCodes: map[int]string{3: "allow"}, Pos: Pos{Line: 3, Col: 5},
		}, {
			ID: "UserPromptSubmit#1", Index: 1, Event: hook.UserPromptSubmit,
			Action:   Action{Type: TypePrompt, Prompt: "is this prompt safe? $ARGUMENTS", Model: "small"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 25, Col: 5},
		}, {
			ID: "UserPromptSubmit#2", Index: 2, Event: hook.UserPromptSubmit,
			Action:   Action{Type: TypeFunc, Name: "audit"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 27, Col: 5},
		}, {
			ID: "UserPromptSubmit#4", Index: 3, Event: hook.UserPromptSubmit,
			Action:   Action{Type: TypeCommand, Args: []string{"./x.sh", "-v", "2"}},
			Blocking: true, Enabled: true, Pos: Pos{Line: 29, Col: 5},
		}, {
			ID: "UserPromptSubmit#3", Index: 4, Event: hook.PreCompact,
			Action:   Action{Type: TypeAgent, Prompt: "review"},
			Blocking: true, Enabled: true, Pos: Pos{Line: 31, Col: 5},
		}}},
		{"anchors and merge keys", "hooks.yaml", `defaults: &guard
  event: pre_tool_use
  matcher: Bash
hooks:
  - <<: *guard
    id: a
    action: &act {type: command, command: ./a.sh}
  - <<: *guard
    id: b
    matcher: Write
    action: *act
`, Native, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := write(t, t.TempDir(), tt.file, tt.content)
			f, errs := ParseFile(path, Project)
			if tt.name == "anchors and merge keys" {
				// The unknown top-level key `defaults` is a warning only.
				if errs.Errors() != 0 || errs.Warnings() != 1 || len(f.Hooks) != 2 ||
					f.Hooks[0].Matcher != "Bash" || f.Hooks[1].Matcher != "Write" ||
					f.Hooks[1].Action.Command != "./a.sh" || f.Hooks[1].Event != hook.PreToolUse {
					t.Fatalf("hooks %+v, problems:\n%v", f.Hooks, errs)
				}
				return
			}
			if len(errs) != 0 {
				t.Fatalf("problems:\n%v", errs)
			}
			if f.Dialect != tt.dialect {
				t.Errorf("dialect = %v, want %v", f.Dialect, tt.dialect)
			}
			for i := range tt.want {
				tt.want[i].Pos.File = path
				tt.want[i].Layer = Project
			}
			if diff := cmp.Diff(tt.want, f.Hooks); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
			if len(f.Hash) != 64 || f.Path != path || f.Layer != Project {
				t.Errorf("file = %+v", f)
			}
		})
	}
}

func TestParseTopLevel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, content string
		dialect             Dialect
		disableAll, par     bool
		problems            string
	}{
		{"empty yaml", "hooks.yaml", "", Native, false, false, ""},
		{"empty json", "settings.json", "", Nested, false, false, ""},
		{"comment only", "hooks.yaml", "# nothing yet\n", Native, false, false, ""},
		{"null hooks", "hooks.yaml", "hooks:\n", Native, false, false, ""},
		{"empty event map", "settings.json", `{"hooks": {}}`, Nested, false, false, ""},
		{"disable all native", "hooks.local.yaml", "disable_all_hooks: true\n", Native, true, false, ""},
		{"disable all claude", "settings.json", `{"disableAllHooks": true, "permissions": {}}`, Nested, true, false, ""},
		{"parallel", "hooks.yaml", "parallel: true\nhooks: []\n", Native, false, true, ""},
		{"unknown top key native", "hooks.yaml", "hook:\n  - x\n", Native, false, false,
			`hooks.yaml:1:1: unknown key "hook" in config (did you mean "hooks"?), and no hooks:`},
		{"unknown top key beside empty hooks", "hooks.yaml", "hooks: []\nhook: 1\n", Native, false, false,
			`hooks.yaml:2:1: unknown key "hook" in config (did you mean "hooks"?), and no hooks:`},
		{"unknown top key beside hooks", "hooks.yaml", "hooks: [{id: a, event: stop, action: {type: command, command: \"true\"}}]\nhook: 1\n", Native, false, false,
			`hooks.yaml:2:1: warning: unknown key "hook" in config (did you mean "hooks"?)`},
		{"unknown top key json close", "s.json", `{"disable_all_hook": true}`, Nested, false, false,
			`s.json:1:2: warning: unknown key "disable_all_hook" in config (did you mean "disable_all_hooks"?)`},
		{"not a mapping", "hooks.yaml", "- a\n- b\n", Native, false, false,
			`hooks.yaml:1:1: config must be a mapping with a hooks key, not a sequence`},
		{"hooks scalar", "hooks.yaml", "hooks: 3\n", Native, false, false,
			`hooks.yaml:1:8: hooks must be a sequence of hooks or a mapping of event names, not a number`},
		{"disable all not bool", "hooks.yaml", "disable_all_hooks: \"yes\"\n", Native, false, false,
			`hooks.yaml:1:20: disable_all_hooks must be true or false, not a string`},
		{"yaml syntax error", "hooks.yaml", "hooks:\n  - id: a\n   event: x\n", Native, false, false,
			"hooks.yaml:3:4: syntax error: value is not allowed in this context"},
		{"json syntax error", "s.json", "{\"hooks\": {\"Stop\": [}\n", Nested, false, false,
			"s.json:1:"},
		{"duplicate key", "hooks.yaml", "hooks: []\nhooks: []\n", Native, false, false,
			`hooks.yaml:2:1: syntax error: mapping key "hooks" already defined at [1:1]`},
		{"two documents", "hooks.yaml", "hooks: []\n---\nhooks: []\n", Native, false, false,
			"hooks.yaml:3:6: more than one YAML document; put all hooks in one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, errs := Parse(tt.file, []byte(tt.content), User)
			if f == nil {
				t.Fatal("nil file")
			}
			if f.Dialect != tt.dialect || f.DisableAll != tt.disableAll || f.Parallel != tt.par {
				t.Errorf("file = %+v", f)
			}
			got := errs.Error()
			if tt.problems == "" && got != "" || !strings.HasPrefix(got, tt.problems) {
				t.Errorf("problems:\n%s\nwant prefix:\n%s", got, tt.problems)
			}
		})
	}
}

func TestParseFileUnreadable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing.yaml")
	f, errs := ParseFile(path, Explicit)
	want := path + ": cannot read config: no such file or directory"
	if f == nil || len(errs) != 1 || errs[0].Error() != want {
		t.Fatalf("got %v, want %s", errs, want)
	}
	if errs.Err() == nil {
		t.Error("Err() = nil for an error")
	}
}

// TestBrokenEntrySkipped: in every dialect an entry with an error is skipped (kept in
// Broken with its errors) and the file's valid hooks load; check still counts the errors
// (issue 8.2). Claude Code 2.1.x does the same with a "Settings Warning": the Claude cases
// are the entries issue 8 found refusing whole settings files (an event hookcore does not
// know, async on PreToolUse), and an mcp_tool handler without its tool.
func TestBrokenEntrySkipped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, content string
		hooks, broken       []string // ids
	}{
		{"native unknown event", "hooks.yaml", `hooks:
  - id: fine
    event: pre_tool_use
    action: {type: command, command: "echo ran > ran.txt"}
  - id: broken
    event: nope
    action: {type: command, command: "x"}
`, []string{"fine"}, []string{"broken"}},
		{"native bad regex, missing field, unknown type", "hooks.yaml", `hooks:
  - {id: re, event: pre_tool_use, matcher: "/(/", action: {type: command, command: x}}
  - {id: nocmd, event: pre_tool_use, action: {type: command}}
  - {id: typ, event: pre_tool_use, action: {type: comand, command: x}}
  - {id: ok, event: stop, action: {type: command, command: x}}
`, []string{"ok"}, []string{"re", "nocmd", "typ"}},
		{"claude unknown event, mcp_tool without tool, async on PreToolUse", "settings.json", `{
  "model": "opus",
  "hooks": {
    "PreFlightCheck": [{"hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]}],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "mcp_tool", "server": "s"},
        {"type": "command", "command": "guard.sh"},
        {"type": "command", "command": "bg.sh", "async": true}
      ]}
    ]
  }
}`, // The async PreToolUse hook loads with a warning: Claude Code 2.1.332 runs it in the
			// background and ignores its decision (handlers, TestClaudeAsyncGateHookCannotDecide).
			[]string{"PreToolUse#2", "PreToolUse#3"}, []string{"PreFlightCheck#1", "PreFlightCheck#2", "PreToolUse#1"}},
		{"codebot bad regex", "settings.json", `{"hooks": {"PreToolUse": [
  {"type": "command", "command": "a", "matcher": "/[/"},
  {"type": "command", "command": "b"}
]}}`, []string{"PreToolUse#2"}, []string{"PreToolUse#1"}},
		{"s08 missing command", "hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash"}, {"matcher": "Bash", "command": "b"}]}}`,
			[]string{"PreToolUse#2"}, []string{"PreToolUse#1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, errs := Parse(tt.file, []byte(tt.content), Project)
			if f.Failed {
				t.Fatalf("file failed: %v", errs)
			}
			var hooks, broken []string
			for _, h := range f.Hooks {
				hooks = append(hooks, h.ID)
			}
			for _, b := range f.Broken {
				broken = append(broken, b.Hook.ID)
				if len(b.Errors) == 0 {
					t.Errorf("broken %s has no errors", b.Hook.ID)
				}
			}
			if diff := cmp.Diff(tt.hooks, hooks); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.broken, broken); diff != "" {
				t.Errorf("broken (-want +got):\n%s\nproblems:\n%v", diff, errs)
			}
			if errs.Err() == nil {
				t.Error("no error reported for the broken entries")
			}
			if f.Entries != len(tt.hooks)+len(tt.broken) {
				t.Errorf("Entries = %d", f.Entries)
			}
		})
	}
	// Warnings alone keep the hooks.
	f, errs := Parse("hooks.yaml", []byte("hooks:\n  - event: stop\n    matcher: x\n    action: {type: command, command: x}\n"), Project)
	if errs.Errors() != 0 || errs.Warnings() != 1 || len(f.Hooks) != 1 || errs.Err() != nil {
		t.Fatalf("hooks %d, problems %v", len(f.Hooks), errs)
	}
}

// TestClaudeUnknownKeysIgnored: in Claude Code settings, keys hookcore does not read are
// ignored as Claude Code ignores them — no warning on every fire for a file written for a
// newer Claude Code — except a near-miss of a known key; codebot entries still warn
// (issue 8.2).
func TestClaudeUnknownKeysIgnored(t *testing.T) {
	t.Parallel()
	_, errs := Parse("settings.json", []byte(`{"hooks": {"PostToolUse": [{"matcher": "Write", "futureGroupKey": 1,
  "hooks": [{"type": "command", "command": "true", "asyncRewake": true, "shell": "bash", "newField": {"a": 1}, "comand": "x"}]}]}}`), Project)
	var got []string
	for _, p := range errs {
		got = append(got, p.Msg)
	}
	want := []string{`unknown key "comand" in hook (did you mean "command"?)`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	_, errs = Parse("settings.json", []byte(`{"hooks": {"Stop": [{"type": "command", "command": "true", "newField": 1}]}}`), Project)
	if errs.Warnings() != 1 {
		t.Errorf("codebot entry: %v, want the unknown key warned", errs)
	}
}

// TestParseHookWithoutDash: a hook written under hooks: without its leading "- " reads as
// an event mapping whose "events" (id, event, matcher, action) are not lists: the file is
// Failed — what it meant to run is not known, so a guard must not be taken as absent — and
// the message says what was probably meant (new-user trial, stop 21: the guard was dropped
// and `hook claude` let every call through).
func TestParseHookWithoutDash(t *testing.T) {
	t.Parallel()
	src := "hooks:\n  id: guard\n  event: pre_tool_use\n  matcher: Bash\n  action: {type: command, command: \"exit 2\"}\n"
	f, probs := Parse("hooks.yaml", []byte(src), User)
	if !f.Failed {
		t.Errorf("file not Failed; problems: %v", probs)
	}
	if !strings.Contains(probs.Error(), `hooks for id must be a sequence, not a string (a hook written without its leading "- "?`) {
		t.Errorf("problems %q: want the hint", probs.Error())
	}
	// The same in a settings file: a matcher group whose hooks are a mapping.
	g, probs := Parse("settings.json", []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": {"type": "command", "command": "exit 2"}}]}}`), User)
	if !g.Failed {
		t.Errorf("matcher group with a mapping of hooks: not Failed; problems: %v", probs)
	}
	// The same hook flush left, under an empty hooks: (or with no hooks: at all).
	for _, src := range []string{
		"hooks:\nid: g\nevent: pre_tool_use\naction: {type: command, command: \"exit 2\"}\n",
		"id: g\nevent: pre_tool_use\naction: {type: command, command: \"exit 2\"}\n",
	} {
		if h, probs := Parse("hooks.yaml", []byte(src), User); !h.Failed || !strings.Contains(probs.Error(), "is a hook's key, not a config key") {
			t.Errorf("%q: Failed %v, problems %v", src, h.Failed, probs)
		}
	}
	// An event mapping written as such still loads.
	ok, probs := Parse("hooks.yaml", []byte("hooks:\n  pre_tool_use:\n    - {id: g, type: command, command: \"exit 2\"}\n"), User)
	if ok.Failed || len(ok.Hooks) != 1 {
		t.Errorf("event mapping: Failed %v, %d hooks, problems %v", ok.Failed, len(ok.Hooks), probs)
	}
}

// TestClaudeHandlerNotOnEvent: a Claude Code hook whose handler type its event does not
// take is not run, with a warning, as Claude Code does not run it (observed with Claude
// Code 2.1.332: an http hook on SessionStart is skipped, a prompt hook there fails to run);
// the same types elsewhere, and Codex's files, are left alone.
func TestClaudeHandlerNotOnEvent(t *testing.T) {
	t.Parallel()
	f, errs := Parse(".claude/settings.json", []byte(`{"hooks": {
  "SessionStart": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:7878/x"}, {"type": "prompt", "prompt": "p"}, {"type": "command", "command": "true"}]}],
  "Notification": [{"hooks": [{"type": "agent", "prompt": "p"}, {"type": "http", "url": "http://127.0.0.1:7878/x"}]}],
  "Stop": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]}}`), Project)
	var got []string
	for _, p := range errs {
		got = append(got, p.Msg)
	}
	want := []string{
		"Claude Code does not run http hooks on SessionStart (it takes command, mcp_tool there), so hookcore does not either",
		"Claude Code does not run prompt hooks on SessionStart (it takes command, mcp_tool there), so hookcore does not either",
		"Claude Code does not run agent hooks on Notification (it takes command, http, mcp_tool there), so hookcore does not either",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	var enabled []string
	for _, h := range f.Hooks {
		if h.Enabled {
			enabled = append(enabled, string(h.Event)+":"+h.Action.Type)
		}
	}
	if diff := cmp.Diff([]string{"SessionStart:command", "Notification:http", "Stop:prompt"}, enabled); diff != "" {
		t.Errorf("hooks that run (-want +got):\n%s", diff)
	}
}

// TestNotUTF8Warned (new-user trial, stop 28): a policy saved in Latin-1 checked clean, and
// its block reason reached the agent with U+FFFD in place of "é"; the first byte that is not
// UTF-8 is a warning at its line and column, and the file still loads.
func TestNotUTF8Warned(t *testing.T) {
	t.Parallel()
	f, errs := Parse("hooks.yaml", []byte("hooks:\n  - id: g\n    event: pre_tool_use\n    action: {type: command, command: \"echo d\xe9fendu\"}\n"), Project)
	if len(errs) != 1 || !errs[0].Warning || errs[0].Pos.Line != 4 || errs[0].Pos.Col != 45 || !strings.Contains(errs[0].Msg, "not UTF-8 here (byte 0xE9)") {
		t.Errorf("problems: %v", errs)
	}
	if len(f.Hooks) != 1 {
		t.Errorf("the file's hook did not load: %d hooks", len(f.Hooks))
	}
	if _, errs := Parse("hooks.yaml", []byte("hooks:\n  - {id: g, event: stop, action: {type: command, command: \"echo défendu ✓\"}}\n"), Project); len(errs) != 0 {
		t.Errorf("UTF-8 text warned: %v", errs)
	}
}

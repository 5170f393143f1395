package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// TestGeminiMatcher: Gemini's tool-name regexes are translated to the Claude names the
// bridge gives the tools; lifecycle matchers stay exact.
func TestGeminiMatcher(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e             hook.Event
		in, out, warn string
	}{
		{hook.PreToolUse, "", "", ""},
		{hook.PreToolUse, "*", "*", ""},
		{hook.PreToolUse, "run_shell_command", "Bash", ""},
		{hook.PostToolUse, "write_file|replace", "Write|Edit", ""},
		{hook.PreToolUse, "mcp__github__.*", "/mcp__github__.*/", ""},
		{hook.PreToolUse, "^(read|write)_file$", `/^(?:Read|Write)$|^(read|write)_file$/`, ""},
		{hook.PreToolUse, "(?i)edit", "/(?i)edit/", `Gemini matcher "(?i)edit" also matches the Claude tool name(s) Edit, whose Gemini names it does not match; the hook runs for them too`},
		{hook.SessionStart, "startup", "startup", ""},
		{hook.Notification, "a.b", `/^a\.b$/`, ""},
	} {
		got, warn, err := geminiMatcher(tc.e, tc.in)
		if err != nil {
			t.Errorf("%s %q: %v", tc.e, tc.in, err)
			continue
		}
		if got != tc.out || warn != tc.warn {
			t.Errorf("%s %q = %q, %q; want %q, %q", tc.e, tc.in, got, warn, tc.out, tc.warn)
		}
	}
	if _, _, err := geminiMatcher(hook.PreToolUse, "("); err == nil {
		t.Error(`"(": no error`)
	}
}

// TestGeminiProblems: errors carry file:line:col and the hook; a bad entry skips only
// that entry; BeforeToolSelection is a warning; a sequence is not Gemini's shape.
func TestGeminiProblems(t *testing.T) {
	t.Parallel()
	src := `{"hooks": {
  "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
    {"type": "command", "name": "slow", "command": "true", "timeout": "5s"},
    {"type": "command", "name": "ok", "command": "true", "timeout": 250}
  ]}],
  "BeforeTools": [{"hooks": [{"type": "command", "command": "true"}]}],
  "AfterTool": [{"matcher": "(", "hooks": [{"type": "command", "command": "true"}]}],
  "BeforeToolSelection": [{"hooks": [{"type": "command", "command": "true"}]}]
}}`
	f, probs := ParseDialect("s.json", []byte(src), Project, Gemini)
	var got []string
	for _, p := range probs {
		got = append(got, p.Error())
	}
	want := []string{
		`s.json:3:71: slow: timeout must be a number of milliseconds (Gemini CLI), not "5s"`,
		`s.json:6:3: BeforeTools#1: unknown Gemini CLI event "BeforeTools" (did you mean "BeforeTool"?)`,
		`s.json:7:29: PostToolUse#1: bad matcher regex "(": error parsing regexp: missing closing ): ` + "`(`",
		`s.json:8:3: warning: Gemini event BeforeToolSelection has no hookcore event (it narrows the tool set); its hooks are not loaded`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(f.Hooks) != 1 || f.Hooks[0].ID != "ok" || f.Hooks[0].Action.Timeout.String() != "250ms" || f.Dialect != Gemini {
		t.Errorf("hooks %+v dialect %s; want only ok with 250ms", f.Hooks, f.Dialect)
	}
	if f, _ := ParseDialect("s.json", []byte(`{"hooks": [{"event": "PreToolUse"}]}`), Project, Gemini); !f.Failed {
		t.Error("a hooks sequence in a Gemini file did not fail")
	}
}

// TestGeminiSharedNames: Gemini CLI's name is a label several hooks may share (`hookcore
// install gemini` names every entry "hookcore"); all load, the later ones as NAME#2, NAME#3,
// (never an id another hook has), with no problem. Regression (stop 25 trial): each repeat was a broken "duplicate id"
// entry, and a trusted project with hookcore installed for Gemini CLI failed every gate
// event closed under `hookcore hook claude`. In hookcore's own files a repeated id stays an
// error.
func TestGeminiSharedNames(t *testing.T) {
	t.Parallel()
	src := `{"hooks": {
  "BeforeTool": [{"matcher": ".*", "hooks": [{"type": "command", "name": "lint", "command": "a"}]}],
  "AfterTool": [{"matcher": ".*", "hooks": [{"type": "command", "name": "lint", "command": "b"}, {"type": "command", "name": "lint#2", "command": "c"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "name": "lint", "command": "d"}]}]
}}`
	f, probs := ParseDialect("s.json", []byte(src), Project, Gemini)
	if len(probs) != 0 || len(f.Broken) != 0 {
		t.Fatalf("problems %v, broken %d", probs, len(f.Broken))
	}
	var ids []string
	for _, h := range f.Hooks {
		ids = append(ids, h.ID+"="+h.Action.Command)
	}
	if diff := cmp.Diff([]string{"lint=a", "lint#3=b", "lint#2=c", "lint#4=d"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	// A renamed hook avoids the ids assigned to unnamed hooks (stop 25 red team: two hooks
	// were PreToolUse#2, and shared their once state).
	src = `{"hooks": {"BeforeTool": [{"hooks": [
  {"type": "command", "command": "a"}, {"type": "command", "name": "PreToolUse", "command": "b"},
  {"type": "command", "name": "PreToolUse", "command": "c"}, {"type": "command", "command": "d"}]}]}}`
	f, _ = ParseDialect("s.json", []byte(src), Project, Gemini)
	seen := map[string]bool{}
	for _, h := range f.Hooks {
		if seen[h.ID] {
			t.Errorf("id %s given twice", h.ID)
		}
		seen[h.ID] = true
	}
	if _, probs := ParseDialect("h.yaml", []byte("hooks:\n  - {id: x, event: stop, action: {type: command, command: a}}\n  - {id: x, event: stop, action: {type: command, command: b}}\n"), Project, Native); len(probs) != 1 {
		t.Errorf("native duplicate ids: problems %v, want one", probs)
	}
}

// TestOtherAgentFileSkipsHookcore: the entry `hookcore install gemini` (or codex) writes is
// hookcore itself; loaded from that agent's file it stays listed but off, so that hookcore's
// policy does not run twice under another agent. Other commands stay on.
func TestOtherAgentFileSkipsHookcore(t *testing.T) {
	t.Parallel()
	gem := `{"hooks": {"BeforeTool": [{"hooks": [
  {"type": "command", "command": "/usr/local/bin/hookcore hook gemini"},
  {"type": "command", "command": "./guard.sh"}]}]}}`
	f, probs := ParseDialect("settings.json", []byte(gem), User, Gemini)
	if probs.Err() != nil || len(f.Hooks) != 2 || f.Hooks[0].Enabled || !f.Hooks[1].Enabled {
		t.Errorf("gemini: problems %v, hooks %+v", probs, f.Hooks)
	}
	cdx := `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookcore hook codex"}]}]}}`
	f, probs = ParseDialect("hooks.json", []byte(cdx), User, Codex)
	if probs.Err() != nil || len(f.Hooks) != 1 || f.Hooks[0].Enabled {
		t.Errorf("codex: problems %v, hooks %+v", probs, f.Hooks)
	}
	for cmd, want := range map[string]bool{"hookcore hook claude": true, `"hookcore" hook x`: true, "hookcore fire PreToolUse": false, "myhookcore hook x": false, "hookcore": false,
		// What install writes for the lean binary, and for a path with a space (red team 11).
		"hookcore-hook hook claude": true, `'/opt/my bin/hookcore' hook claude`: true, `"/opt/my bin/hookcore-hook" hook x`: true,
		`'/opt/my bin/hookcore'x hook claude`: false, "/opt/my bin/hookcore hook x": false} {
		if got := isHookcoreBridge(cmd); got != want {
			t.Errorf("isHookcoreBridge(%q) = %v", cmd, got)
		}
	}
}

// TestClaudeSettingsSkipHookcore: Claude Code's settings (and any file of an agent's
// dialect) treat hookcore's own entries as the other agents' files do: `hookcore hook
// claude` (what `hookcore install claude` writes, in the shell or the exec form) and an http
// hook to a `hookcore serve` on this machine (install --server) load disabled; an http hook
// to another host with the same path, and hookcore's own YAML, are left alone.
// Regression: `hookcore hook codex --config .claude/settings.json` ran `hookcore hook claude`;
// and an exec-form program path with a space was split at it (stop 29).
func TestClaudeSettingsSkipHookcore(t *testing.T) {
	t.Parallel()
	cl := `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
  {"type": "command", "command": "hookcore hook claude"},
  {"type": "command", "command": "/home/u/go/bin/hookcore hook claude --server http://127.0.0.1:7878"},
  {"type": "http", "url": "http://127.0.0.1:7878/hook/claude"},
  {"type": "http", "url": "http://localhost:9/hook/codex/PreToolUse"},
  {"type": "http", "url": "http://[::1]:9/hook/claude"},
  {"type": "http", "url": "https://hooks.example.com/hook/claude"},
  {"type": "http", "url": "http://127.0.0.1:7878/hook/vscode"},
  {"type": "command", "command": "./guard.sh"},
  {"type": "command", "command": "/home/u/go/bin/hookcore-hook", "args": ["hook", "claude"]},
  {"type": "command", "command": "/opt/my tools/hookcore-hook", "args": ["hook", "claude"]},
  {"type": "command", "command": "/opt/tools/guard", "args": ["hook", "claude"]}]}]}}`
	f, probs := Parse(".claude/settings.json", []byte(cl), Project)
	if probs.Err() != nil {
		t.Fatal(probs)
	}
	var got []bool
	for _, h := range f.Hooks {
		got = append(got, h.Enabled)
	}
	want := []bool{false, false, false, false, false, true, true, true, false, false, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("enabled (-want +got):\n%s", diff)
	}
	yml := "hooks:\n  - {event: pre_tool_use, action: {type: command, command: hookcore hook claude --config other.yaml}}\n"
	if f, _ := Parse("hooks.yaml", []byte(yml), Project); len(f.Hooks) != 1 || !f.Hooks[0].Enabled {
		t.Errorf("hookcore's own file: hooks %+v, want the hook on", f.Hooks)
	}
}

// TestCodexTOMLProblems: a bad handler is skipped alone, its problem at the line of its
// [[hooks.EVENT.hooks]] header; a TOML syntax error has line and column.
func TestCodexTOMLProblems(t *testing.T) {
	t.Parallel()
	src := `[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"

[[hooks.Stop.hooks]]
type = "command"
command = "true"
`
	f, probs := ParseDialect("config.toml", []byte(src), User, Codex)
	var got []string
	for _, p := range probs {
		got = append(got, p.Error())
	}
	if diff := cmp.Diff([]string{"config.toml:2: Stop#1: command action needs command or args"}, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(f.Hooks) != 1 || f.Hooks[0].Pos.Line != 5 || f.Dialect != Codex {
		t.Errorf("hooks %+v", f.Hooks)
	}
	f, probs = ParseDialect("config.toml", []byte("[hooks\nx = 1\n"), User, Codex)
	if !f.Failed || len(probs) != 1 || probs[0].Pos.Line == 0 || probs[0].Pos.Col == 0 {
		t.Errorf("syntax error: failed %v, problems %v", f.Failed, probs)
	}
}

// TestGeminiHooksConfig: Gemini CLI's hooksConfig (observed with Gemini CLI 0.61.0,
// peer-gemini, stop 26): `enabled: false` runs no Gemini hook; `disabled` lists hooks by
// name, or by command for a hook without one, and the lists of the user's and the project's
// files add up; a project's counts only in a trusted workspace; the last file that sets
// `enabled` wins; hooks.enabled/disabled/notifications are skipped, with a warning. Before,
// hookcore ran the hooks Gemini CLI had turned off (a disabled blocker blocked every call).
func TestGeminiHooksConfig(t *testing.T) {
	t.Parallel()
	project := `{"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [
  {"type": "command", "name": "blocker", "command": "exit 2"},
  {"type": "command", "name": "blocker", "command": "exit 3"},
  {"type": "command", "command": "echo unnamed"},
  {"type": "command", "name": "logger", "command": "true"}]}],
 "disabled": ["x"]},
 "hooksConfig": {"disabled": ["echo unnamed"], "notifications": false}}`
	pf, probs := ParseDialect("/w/.gemini/settings.json", []byte(project), Project, Gemini)
	var got []string
	for _, p := range probs {
		got = append(got, p.Error())
	}
	want := []string{`/w/.gemini/settings.json:6:2: warning: Gemini CLI skips hooks.disabled (it reads hooksConfig.disabled): it has no effect`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	var names []string
	for _, h := range pf.Hooks {
		names = append(names, h.ID+"="+h.AgentKey)
	}
	if diff := cmp.Diff([]string{"blocker=blocker", "blocker#2=blocker", "PreToolUse#1=echo unnamed", "logger=logger"}, names); diff != "" {
		t.Errorf("ids=names (-want +got):\n%s", diff)
	}
	user, _ := ParseDialect("/h/.gemini/settings.json", []byte(`{"hooksConfig": {"enabled": true, "disabled": ["blocker"]}}`), User, Gemini)
	offIDs := func(sw AgentSwitches) (ids []string) {
		for i := range pf.Hooks {
			if sw.Off(pf, &pf.Hooks[i]) {
				ids = append(ids, pf.Hooks[i].ID)
			}
		}
		return ids
	}
	if diff := cmp.Diff([]string{"blocker", "blocker#2", "PreToolUse#1"}, offIDs(AgentSwitch([]*File{user, pf}, true))); diff != "" {
		t.Errorf("trusted: off (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"blocker", "blocker#2"}, offIDs(AgentSwitch([]*File{user, pf}, false))); diff != "" {
		t.Errorf("untrusted: off, want the user's list only (-want +got):\n%s", diff)
	}
	set := &Set{Files: []*File{user, pf}}
	var runs []string
	for _, h := range set.Hooks() {
		runs = append(runs, h.ID)
	}
	if diff := cmp.Diff([]string{"logger"}, runs); diff != "" {
		t.Errorf("Set.Hooks (-want +got):\n%s", diff)
	}

	offProject, _ := ParseDialect("/w/.gemini/settings.json", []byte(`{"hooksConfig": {"enabled": false}}`), Project, Gemini)
	onProject, _ := ParseDialect("/w/.gemini/settings.json", []byte(`{"hooksConfig": {"enabled": true}}`), Project, Gemini)
	offUser, _ := ParseDialect("/h/.gemini/settings.json", []byte(`{"hooksConfig": {"enabled": false}}`), User, Gemini)
	for _, tc := range []struct {
		name    string
		files   []*File
		trusted bool
		off     bool
	}{
		{"project off", []*File{user, offProject}, true, true},
		{"untrusted project off", []*File{user, offProject}, false, false},
		{"user off, project on", []*File{offUser, onProject}, true, false},
		{"user off, untrusted project on", []*File{offUser, onProject}, false, true},
	} {
		if off := AgentSwitch(tc.files, tc.trusted).Off(pf, &pf.Hooks[3]); off != tc.off {
			t.Errorf("%s: off = %v, want %v", tc.name, off, tc.off)
		}
	}

	// A malformed hooksConfig is a warning and switches nothing off (the hooks run).
	bad, probs := ParseDialect("/w/.gemini/settings.json", []byte(`{"hooksConfig": {"enabled": "no", "disabled": "blocker"}}`), Project, Gemini)
	if probs.Errors() != 0 || len(probs) != 2 || bad.HooksEnabled != nil || bad.HooksDisabled != nil {
		t.Errorf("malformed hooksConfig: %v; enabled %v, disabled %v", probs, bad.HooksEnabled, bad.HooksDisabled)
	}
	// Outside Gemini CLI's settings, hooksConfig is nobody's switch.
	claude, _ := Parse("/w/.claude/settings.json", []byte(`{"hooksConfig": {"enabled": false, "disabled": ["x"]}}`), Project)
	if claude.HooksEnabled != nil || claude.HooksDisabled != nil {
		t.Errorf("a Claude Code settings file's hooksConfig was read: %v %v", claude.HooksEnabled, claude.HooksDisabled)
	}
}

// TestGeminiSettingsAsGeminiReadsThem: a Gemini CLI settings file is read as Gemini CLI
// reads it (red team round 27, stop 26): its // and /* */ comments are skipped
// (strip-json-comments; before, a comment failed the file, and a user's ~/.gemini settings
// with one blocked every tool call under hookcore hook claude), and a file that is not
// strict JSON otherwise (a trailing comma, a byte order mark, an unquoted key), which stops
// Gemini CLI, has its hooks run but its hooksConfig not applied (before, it switched the
// user's Gemini guard off).
func TestGeminiSettingsAsGeminiReadsThem(t *testing.T) {
	t.Parallel()
	commented := "{\n  // my hooks\n  \"hooks\": {\"BeforeTool\": [{\"matcher\": \".*\", \"hooks\": [\n    {\"type\": \"command\", \"name\": \"g\", \"command\": \"curl -s http://x/*y*/ # keep\"} /* one */\n  ]}]},\n  /* off:\n  */ \"hooksConfig\": {\"disabled\": [\"other\"]}\n}"
	f, probs := ParseDialect("/h/.gemini/settings.json", []byte(commented), User, Gemini)
	if len(probs) != 0 || len(f.Hooks) != 1 || f.Hooks[0].Action.Command != "curl -s http://x/*y*/ # keep" || f.Hooks[0].Pos.Line != 4 {
		t.Errorf("commented file: problems %v, hooks %+v", probs, f.Hooks)
	}
	if diff := cmp.Diff([]string{"other"}, f.HooksDisabled); diff != "" {
		t.Errorf("commented file: disabled (-want +got):\n%s", diff)
	}
	for name, src := range map[string]string{
		"trailing comma":  `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "g"}]}]}, "hooksConfig": {"enabled": false, "disabled": ["g"]},}`,
		"byte order mark": "\xef\xbb\xbf" + `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "g"}]}]}, "hooksConfig": {"enabled": false}}`,
		"unquoted key":    `{hooks: {"BeforeTool": [{"hooks": [{"type": "command", "command": "g"}]}]}, "hooksConfig": {"disabled": ["g"]}}`,
	} {
		f, probs := ParseDialect("/w/.gemini/settings.json", []byte(src), Project, Gemini)
		if probs.Errors() != 0 || len(f.Hooks) != 1 || f.HooksEnabled != nil || f.HooksDisabled != nil {
			t.Errorf("%s: problems %v, %d hooks, enabled %v, disabled %v", name, probs, len(f.Hooks), f.HooksEnabled, f.HooksDisabled)
		}
		if len(probs) == 0 || !strings.Contains(probs[len(probs)-1].Msg, "Gemini CLI refuses this file") {
			t.Errorf("%s: no warning that Gemini CLI refuses the file: %v", name, probs)
		}
	}
	// strip-json-comments keeps what JavaScript calls white space, and JSON.parse then
	// refuses a no-break space (red team round 28; Gemini CLI 0.61.0 exits 52): hookcore
	// refuses the file too, and its hooksConfig switches nothing off.
	nbsp, probs := ParseDialect("/w/.gemini/settings.json", []byte(`{"hooksConfig": {"disabled": ["g"]} /* `+"\u00a0"+` */}`), Project, Gemini)
	if nbsp.HooksDisabled != nil || nbsp.HooksEnabled != nil || len(probs) == 0 {
		t.Errorf("no-break space in a comment: disabled %v, problems %v", nbsp.HooksDisabled, probs)
	}
	for in, want := range map[string]string{
		`{"a": "//x"} // c`:              `{"a": "//x"}     `,
		"{\"a\": \"\\\"//\"} /* x\ny */": "{\"a\": \"\\\"//\"}     \n    ",
		`{"a": 1} /* open`:               `{"a": 1}        `,
		"{} // c\r\n":                    "{}     \r\n",
		"{} /*\u00a0é\u2028*/":           "{}   \u00a0 \u2028  ",
	} {
		if got := string(stripJSONComments([]byte(in))); got != want {
			t.Errorf("stripJSONComments(%q) = %q, want %q", in, got, want)
		}
	}
}

package config

import (
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

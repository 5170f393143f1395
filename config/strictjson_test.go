package config

import (
	"strings"
	"testing"
)

// TestStrictJSONWarning: a .json config that only the lenient YAML parser accepts (a trailing
// comma) loads, with a warning at the offending byte, because Claude Code would refuse it.
func TestStrictJSONWarning(t *testing.T) {
	t.Parallel()
	f, probs := Parse("s.json", []byte("{\"hooks\": {\"PreToolUse\": [\n  {\"type\": \"command\", \"command\": \"x\",}\n]}}\n"), Explicit)
	if probs.Errors() != 0 || probs.Warnings() != 1 || len(f.Hooks) != 1 {
		t.Fatalf("want the hook and one warning, got %d hooks and %v", len(f.Hooks), probs)
	}
	if got := probs[0].Error(); !strings.HasPrefix(got, "s.json:2:38: warning: not strict JSON") {
		t.Fatalf("warning = %q", got)
	}
	if _, probs := Parse("ok.json", []byte(`{"hooks": {}}`), Explicit); len(probs) != 0 {
		t.Fatalf("strict JSON drew %v", probs)
	}
	if _, probs := Parse("y.yaml", []byte("hooks: []\n"), Explicit); len(probs) != 0 {
		t.Fatalf("YAML drew %v", probs)
	}
}

// TestStrictJSONWarningNamesTheAgent: the warning names the agent that reads the file, by
// its path or its shape (new-user trial, stop 28: a trailing comma in ~/.codex/hooks.json and
// ~/.cursor/hooks.json said "Claude Code and codebot would refuse this file").
func TestStrictJSONWarningNamesTheAgent(t *testing.T) {
	t.Parallel()
	nested := "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"x\"},]}]}}\n"
	tests := []struct{ path, data, want string }{
		{"/h/.codex/hooks.json", nested, "Codex would refuse this file"},
		{"/h/.cursor/hooks.json", "{\"version\": 1, \"hooks\": {\"beforeShellExecution\": [{\"command\": \"x\"},]}}\n", "Cursor would refuse this file"},
		{"/p/.github/hooks/a.json", "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"x\"},]}}\n", "Copilot CLI would refuse this file"},
		{"/p/plugin/hooks/hooks.json", nested, "Claude Code would refuse this file"},
		{"/p/codebot.json", "{\"hooks\": {\"PreToolUse\": [{\"type\": \"command\", \"command\": \"x\"},]}}\n", "codebot would refuse this file"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			_, probs := parseData(tt.path, []byte(tt.data), User)
			var msgs []string
			for _, p := range probs {
				msgs = append(msgs, p.Error())
				if p.Warning && strings.Contains(p.Msg, "not strict JSON") && strings.HasSuffix(p.Msg, "hookcore reads it, but "+tt.want) {
					return
				}
			}
			t.Errorf("no not-strict warning ending in %q: %q", tt.want, msgs)
		})
	}
}

// TestJSONSyntaxErrorWords: a .json config that is not JSON is reported as a JSON parser
// words and places it (new-user trial, stop 27: a missing last "}" was "could not find flow
// mapping end token '}'" at 1:1, the YAML parser's words at the "{" opening the file).
func TestJSONSyntaxErrorWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ src, want string }{
		{"{\"hooks\": {\"PreToolUse\": [\n  {\"matcher\": \"Bash\", \"hooks\": []}\n]}\n", "x.json:4:1: syntax error: unexpected end of JSON input"},
		{"{\"hooks\": {\"PreToolUse\": [\n  {\"matcher\": \"Bash\",, \"hooks\": []}\n]}}\n", "x.json:2:22: syntax error: invalid character ',' looking for beginning of object key string"},
	} {
		_, probs := Parse("x.json", []byte(tt.src), Explicit)
		if len(probs) != 1 || probs[0].Error() != tt.want {
			t.Errorf("%q: %v, want %s", tt.src, probs, tt.want)
		}
	}
	// YAML keeps the YAML parser's words.
	if _, probs := Parse("x.yaml", []byte("hooks: [\n"), Explicit); len(probs) != 1 || strings.Contains(probs[0].Msg, "JSON") {
		t.Errorf("yaml: %v", probs)
	}
}

// TestProblemPrintable (red team round 34): a repository file named with an escape sequence
// printed its warnings with the ESC bytes raw (trust show, check), which could hide the lines
// a user reads before a trust grant. The name, the hook id and the message show them as
// escapes; line breaks in a message are kept.
func TestProblemPrintable(t *testing.T) {
	t.Parallel()
	p := &Problem{Pos: Pos{File: ".github/hooks/\x1b[8mx.json", Line: 1, Col: 2}, HookID: "id\x1b[0m", Msg: "bad \x1b[31m\nvalue", Warning: true}
	want := `.github/hooks/\x1b[8mx.json:1:2: id\x1b[0m: warning: bad \x1b[31m` + "\nvalue"
	if got := p.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

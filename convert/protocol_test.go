package convert

import (
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
)

// protocolSources are one PreToolUse guard on the shell per source dialect, each parsed as
// its agent's file.
var protocolSources = []struct {
	family, path, src string
	dialect           config.Dialect
}{
	{"claude", "p/.claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`, config.Nested},
	{"claude", "p/.codex/hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`, config.Codex},
	{"claude", "p/.hookcore/hooks.yaml", "hooks:\n  - event: PreToolUse\n    matcher: Bash\n    action: {type: command, command: ./guard.sh}\n", config.Native},
	{"gemini", "p/.gemini/settings.json", `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`, config.Gemini},
	{"cursor", "p/.cursor/hooks.json", `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh"}]}}`, config.Cursor},
	{"copilot", "p/.github/hooks/h.json", `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh"}]}}`, config.Copilot},
}

// TestProtocolLoss (new-user trial, stop 28): a command hook moved to an agent that reads
// another reply protocol is one line, a warning on a gate event, naming the input it now
// gets and what it must print to block; before, a Cursor guard that printed
// {"permission":"deny"} was converted to Claude Code without a word and blocked nothing.
//
// Claude Code, Codex and hookcore's YAML are one family, with no line between them: Codex
// decodes and encodes Claude Code's shape (bridge/codex.go: decodeClaudeShape,
// encodeClaudeShape), so a script that exits 2 with a reason or prints hookSpecificOutput
// blocks under both. Codex's differences are in what it accepts (a strict schema: no
// "ask", no unknown fields, a reason required on exit 2), which a guard that blocks with a
// reason does not meet. hookcore's YAML has no key that names a command's protocol
// (config.NativeHookKeys), and hookcore reads a hook of it as Claude Code's
// (compile.go's commandAgent), so to hookcore the other agents' hooks are reported too.
func TestProtocolLoss(t *testing.T) {
	t.Parallel()
	for _, s := range protocolSources {
		f, errs := config.ParseDialect(s.path, []byte(s.src), config.Explicit, s.dialect)
		if f == nil || f.Failed || len(f.Hooks) != 1 {
			t.Fatalf("%s does not load: %v", s.path, errs)
		}
		for _, target := range Targets {
			t.Run(s.path+"/"+target, func(t *testing.T) {
				_, lost, err := To(f, target)
				if err != nil {
					t.Fatal(err)
				}
				var lines []Loss
				for _, l := range lost {
					if strings.Contains(l.What, "hook protocol") {
						lines = append(lines, l)
					}
				}
				if s.family == targetProtocol(target) {
					if len(lines) > 0 {
						t.Errorf("same protocol, but: %v", lines)
					}
					return
				}
				if len(lines) != 1 || !lines[0].Warning {
					t.Fatalf("want one protocol warning, got %v", lines)
				}
				want := protocols[targetProtocol(target)]
				if w := lines[0].What; !strings.Contains(w, want.input) || !strings.Contains(w, want.block) || !strings.Contains(w, "its "+protocols[s.family].reply+" is not read") {
					t.Errorf("line does not say the input, the reply and what is not read: %s", w)
				}
			})
		}
	}
}

// TestProtocolLossCursorGuard is the trial's case: a Cursor guard converted to Claude Code.
func TestProtocolLossCursorGuard(t *testing.T) {
	t.Parallel()
	f, errs := config.ParseDialect("x/.cursor/hooks.json", []byte(`{"version": 1, "hooks": {
  "beforeShellExecution": [{"command": "echo '{\"permission\":\"deny\",\"agent_message\":\"no rm\"}'"}],
  "afterFileEdit": [{"command": "./fmt.sh"}]}}`), config.Explicit, config.Cursor)
	if errs.Err() != nil {
		t.Fatal(errs)
	}
	_, lost, err := To(f, "claude")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lost {
		got = append(got, l.String())
	}
	line := `speaks Cursor's hook protocol, not Claude Code's: it now reads Claude Code's input (tool_name "Bash", tool_input) on stdin and, to block, must exit 2 with the reason on stderr or print {"hookSpecificOutput": {"permissionDecision": "deny", ...}} ({"decision": "block", ...} off PreToolUse); its {"permission": "deny", ...} is not read`
	want := []string{
		"x/.cursor/hooks.json:2: PreToolUse#1: warning: " + line,
		"x/.cursor/hooks.json:3: PostToolUse#1: " + line,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("losses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

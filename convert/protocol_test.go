package convert

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
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
				t.Parallel()
				_, lost, err := To(f, target)
				if err != nil {
					t.Fatal(err)
				}
				lines := protocolLines(lost)
				if s.family == targetProtocol(target) {
					if len(lines) > 0 {
						t.Errorf("same protocol, but: %v", lines)
					}
					return
				}
				if len(lines) != 1 || !lines[0].Warning {
					t.Fatalf("want one protocol warning, got %v", lines)
				}
				native := map[string]string{"gemini": "BeforeTool", "cursor": "preToolUse", "copilot": "preToolUse"}[target]
				if native == "" {
					native = "PreToolUse"
				}
				if shell, ok := cursorShellEvent(&f.Hooks[0]); ok && target == "cursor" {
					native = shell
				}
				want := protocols[targetProtocol(target)].on(hook.PreToolUse, native)
				src := protocols[s.family].on(hook.PreToolUse, "")
				gone := " is not read"
				if target == "hookcore" && s.family == "gemini" {
					gone = " is still read" // hookcore takes a decision "deny" (hook.ParseEnvelope)
				}
				if w := lines[0].What; !strings.Contains(w, "reads "+want.input+" on stdin and"+want.how+";") || !strings.Contains(w, "its "+string(src.prints[0])+gone) {
					t.Errorf("line does not say the input, the reply and what is not read: %s", w)
				}
			})
		}
	}
}

// TestProtocolLossEvent (new-user trial, stop 29): the line is about the event the hook is
// on. Every line described PreToolUse's protocol (permissionDecision, Cursor's permission),
// also for a Stop hook, whose answer keeps the agent working, and a PostToolUse hook, which
// cannot undo its call; and it said a Claude Code Stop hook's reply was lost where Gemini
// CLI and Copilot CLI read its {"decision": "block"}.
func TestProtocolLossEvent(t *testing.T) {
	t.Parallel()
	claude := parse(t, "p/.claude/settings.json", config.Nested, `{"hooks": {
  "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "./post.sh"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}`)
	cursor := parse(t, "p/.cursor/hooks.json", config.Cursor, `{"version": 1, "hooks": {
  "stop": [{"command": "./stop.sh"}]}}`)
	copilot := parse(t, "p/.github/hooks/h.json", config.Copilot, `{"version": 1, "hooks": {
  "agentStop": [{"type": "command", "bash": "./stop.sh"}]}}`)
	const (
		fromClaude = `speaks Claude Code's hook protocol, not `
		toClaude   = ` hook protocol, not Claude Code's: it now reads Claude Code's Stop input (stop_hook_active, last_assistant_message) on stdin and, to keep the agent working, must exit 2 with the reason on stderr or print {"decision": "block", "reason": "..."} (the reason is its next instruction); its `
	)
	for _, tc := range []struct {
		f      *config.File
		target string
		want   []string
	}{
		{claude, "gemini", []string{
			`p/.claude/settings.json:2: PostToolUse#1: ` + fromClaude + `Gemini CLI's: it now reads Gemini CLI's AfterTool input (tool_name, tool_input, tool_response) on stdin and, to tell the model (the call has run), must exit 2 with the reason on stderr or print {"decision": "deny", "reason": "..."} (the reason replaces the call's result), or add context with {"hookSpecificOutput": {"additionalContext": "..."}}; its {"decision": "block", ...} and {"hookSpecificOutput": {"additionalContext": ...}} are still read`,
			`p/.claude/settings.json:3: Stop#1: ` + fromClaude + `Gemini CLI's: it now reads Gemini CLI's AfterAgent input (prompt, prompt_response, stop_hook_active) on stdin and, to keep the agent working, must exit 2 with the reason on stderr or print {"decision": "deny", "reason": "..."} (the reason goes back as a new prompt); its {"decision": "block", ...} is still read`,
		}},
		{claude, "cursor", []string{
			`p/.claude/settings.json:2: PostToolUse#1: ` + fromClaude + `Cursor's: it now reads Cursor's postToolUse input (tool_name, tool_input, tool_output) on stdin and cannot block, and its output is not read there`,
			`p/.claude/settings.json:3: Stop#1: ` + fromClaude + `Cursor's: it now reads Cursor's stop input (status, loop_count) on stdin and, to keep the agent working, must print {"followup_message": "..."} (sent as the next user message); its {"decision": "block", ...} is not read`,
		}},
		{claude, "copilot", []string{
			`p/.claude/settings.json:2: PostToolUse#1: ` + fromClaude + `Copilot CLI's: it now reads Copilot CLI's camelCase postToolUse input (toolName, toolArgs, toolResult) on stdin and cannot block, and its output is not read there`,
			`p/.claude/settings.json:3: Stop#1: ` + fromClaude + `Copilot CLI's: it now reads Copilot CLI's camelCase agentStop input on stdin and, to keep the agent working, must print {"decision": "block", "reason": "..."}; its {"decision": "block", ...} is still read`,
		}},
		{cursor, "claude", []string{`p/.cursor/hooks.json:2: Stop#1: speaks Cursor's` + toClaude + `{"followup_message": ...} is not read`}},
		{copilot, "codex", []string{`p/.github/hooks/h.json:2: Stop#1: speaks Copilot CLI's` + toClaude + `{"decision": "block", ...} is still read`}},
	} {
		t.Run(tc.f.Path+"/"+tc.target, func(t *testing.T) {
			t.Parallel()
			_, lost, err := To(tc.f, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range protocolLines(lost) {
				got = append(got, l.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("protocol lines (-want +got):\n%s", d)
			}
		})
	}
}

// TestProtocolLossEveryEvent: for a hook on any event of any agent's file, moved to any
// target of another protocol, the line names the event's own input and answer: the
// PreToolUse answers (permissionDecision, Cursor's "permission") only on PreToolUse, and the
// line is a warning only on a gate event, always on a gate of tool calls (whose input every
// agent names its own way), and not on another one whose reply the target still reads.
func TestProtocolLossEveryEvent(t *testing.T) {
	t.Parallel()
	files := []*config.File{
		parse(t, "p/.claude/settings.json", config.Nested, nested(claudeEvents())),
		parse(t, "p/.gemini/settings.json", config.Gemini, nested(slices.Sorted(maps.Keys(bridge.EventNames("gemini"))))),
		parse(t, "p/.cursor/hooks.json", config.Cursor, flatFile(slices.Sorted(maps.Keys(bridge.EventNames("cursor"))), `{"command": "./h.sh"}`)),
		parse(t, "p/.github/hooks/h.json", config.Copilot, flatFile(slices.Sorted(maps.Keys(bridge.EventNames("copilot"))), `{"type": "command", "bash": "./h.sh"}`)),
	}
	for _, f := range files {
		for _, target := range Targets {
			t.Run(f.Path+"/"+target, func(t *testing.T) {
				t.Parallel()
				_, lost, err := To(f, target)
				if err != nil {
					t.Fatal(err)
				}
				byID := map[string]*config.Hook{}
				for i := range f.Hooks {
					byID[f.Hooks[i].ID] = &f.Hooks[i]
				}
				for _, l := range protocolLines(lost) {
					h := byID[l.Hook]
					if h == nil {
						t.Fatalf("no hook %s", l.Hook)
					}
					pre := h.Event == hook.PreToolUse
					if !pre && (strings.Contains(l.What, "permissionDecision") || strings.Contains(l.What, `"permission": "deny"`)) {
						t.Errorf("%s: a PreToolUse answer on %s: %s", l.Hook, h.Event, l.What)
					}
					if !strings.Contains(l.What, " input") || !strings.Contains(l.What, " on stdin and") {
						t.Errorf("%s: no input: %s", l.Hook, l.What)
					}
					toolGate := h.Event.Kind() == hook.Gate && h.Event.MatchField() == "tool_name"
					kept := strings.HasSuffix(l.What, " still read")
					if l.Warning && h.Event.Kind() != hook.Gate || toolGate && !l.Warning || kept && l.Warning && !toolGate {
						t.Errorf("%s: warning %v on %s (%s): %s", l.Hook, l.Warning, h.Event, h.Event.Kind(), l.What)
					}
				}
			})
		}
	}
}

func parse(t *testing.T, path string, d config.Dialect, src string) *config.File {
	t.Helper()
	f, errs := config.ParseDialect(path, []byte(src), config.Explicit, d)
	if f == nil || f.Failed || errs.Err() != nil {
		t.Fatalf("%s does not load: %v", path, errs)
	}
	return f
}

// protocolLines returns the lines of lost about a command's reply protocol.
func protocolLines(lost []Loss) []Loss {
	var out []Loss
	for _, l := range lost {
		if strings.Contains(l.What, "hook protocol") {
			out = append(out, l)
		}
	}
	return out
}

// claudeEvents are the events of a Claude Code settings file: hookcore's own, less those of
// the seeds (notClaude).
func claudeEvents() []string {
	var out []string
	for _, e := range hook.Events() {
		if !notClaude[e] {
			out = append(out, string(e))
		}
	}
	return out
}

// nested is a Claude Code or Gemini CLI settings file with one command hook on each event.
func nested(events []string) string {
	hooks := map[string]any{}
	for _, e := range events {
		hooks[e] = []any{map[string]any{"hooks": []any{map[string]string{"type": "command", "command": "./h.sh"}}}}
	}
	b, _ := json.Marshal(map[string]any{"hooks": hooks})
	return string(b)
}

// flatFile is a Cursor or Copilot CLI hooks file with the entry on each event.
func flatFile(events []string, entry string) string {
	var parts []string
	for _, e := range events {
		parts = append(parts, fmt.Sprintf("%q: [%s]", e, entry))
	}
	return `{"version": 1, "hooks": {` + strings.Join(parts, ", ") + `}}`
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
	want := []string{
		`x/.cursor/hooks.json:2: PreToolUse#1: warning: speaks Cursor's hook protocol, not Claude Code's: it now reads Claude Code's PreToolUse input (tool_name "Bash", tool_input) on stdin and, to block, must exit 2 with the reason on stderr or print {"hookSpecificOutput": {"permissionDecision": "deny", ...}}; its {"permission": "deny", ...} is not read`,
		`x/.cursor/hooks.json:3: PostToolUse#1: speaks Cursor's hook protocol, not Claude Code's: it now reads Claude Code's PostToolUse input (tool_name, tool_input, tool_response) on stdin and, to tell the model (the call has run), must exit 2 with the reason on stderr or print {"decision": "block", "reason": "..."}, or add context with {"hookSpecificOutput": {"additionalContext": "..."}}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("losses (-want +got):\n%s", d)
	}
}

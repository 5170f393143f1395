package convert

import (
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
)

// TestSourceOnlyFields (new-user trial, stop 28): what a source dialect has that no target
// keeps is a line for every target, where it vanished before: Copilot CLI's cwd and env (a
// warning on a gate event: without cwd the script is not found and a guard fails open), its
// powershell command beside bash, Cursor's loop_limit, Gemini CLI's BeforeToolSelection
// hooks (dropped) and `sequential: true` on a target that runs hooks in parallel or does
// not say in which order.
func TestSourceOnlyFields(t *testing.T) {
	t.Parallel()
	copilot := `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh", "cwd": "tools/hooks", "env": {"STRICT": "1"}}],
  "sessionStart": [{"type": "command", "bash": "./a.sh", "powershell": "./a.ps1"}]}}`
	cursor := `{"version": 1, "hooks": {"stop": [{"command": "./more.sh", "loop_limit": 3}]}}`
	gemini := `{"hooks": {
  "BeforeToolSelection": [{"hooks": [{"type": "command", "command": "./tools.sh"}, {"type": "command", "command": "./more.sh"}]}],
  "AfterTool": [{"sequential": true, "hooks": [{"type": "command", "command": "./one.sh"}, {"type": "command", "command": "./two.sh"}]},
                {"matcher": "write_file", "sequential": true, "hooks": [{"type": "command", "command": "./alone.sh"}]}]}}`
	type line struct {
		id, what string
		warning  bool
	}
	for _, tc := range []struct {
		path, src string
		dialect   config.Dialect
		targets   []string
		want      []line
	}{
		{"p/.github/hooks/h.json", copilot, config.Copilot, Targets, []line{
			{"PreToolUse#1", "Copilot CLI's cwd not carried over", true},
			{"PreToolUse#1", "Copilot CLI's env not carried over", true},
			{"SessionStart#1", "Copilot CLI's powershell command not carried over", false},
		}},
		{"p/.cursor/hooks.json", cursor, config.Cursor, Targets, []line{
			{"Stop#1", "Cursor's loop_limit not carried over", false},
		}},
		{"p/.gemini/settings.json", gemini, config.Gemini, Targets, []line{
			{"BeforeToolSelection", "2 hook(s) of Gemini CLI's BeforeToolSelection", false},
		}},
		{"p/.gemini/settings.json", gemini, config.Gemini, []string{"claude", "codex"}, []line{
			{"BeforeToolSelection", "2 hook(s) of Gemini CLI's BeforeToolSelection", false},
			{"PostToolUse#1", "Gemini CLI's sequential: true not carried over: ", false},
			{"PostToolUse#2", "Gemini CLI's sequential: true not carried over: ", false},
		}},
		{"p/.gemini/settings.json", gemini, config.Gemini, []string{"cursor", "copilot"}, []line{
			{"BeforeToolSelection", "2 hook(s) of Gemini CLI's BeforeToolSelection", false},
			{"PostToolUse#1", "Gemini CLI's sequential: true not carried over: ", false},
			{"PostToolUse#2", "Gemini CLI's sequential: true not carried over: ", false},
		}},
	} {
		f, errs := config.ParseDialect(tc.path, []byte(tc.src), config.Explicit, tc.dialect)
		if f == nil || f.Failed || errs.Err() != nil {
			t.Fatalf("%s: %v", tc.path, errs)
		}
		for _, target := range tc.targets {
			if tc.path == "p/.gemini/settings.json" && len(tc.targets) == len(Targets) && target != "gemini" && target != "hookcore" {
				continue // the rows below hold the other targets' lines
			}
			t.Run(tc.path+"/"+target, func(t *testing.T) {
				_, lost, err := To(f, target)
				if err != nil {
					t.Fatal(err)
				}
				var got []line
				for _, l := range lost {
					for _, w := range tc.want {
						if l.Hook == w.id && strings.HasPrefix(l.What, w.what) {
							got = append(got, line{l.Hook, w.what, l.Warning})
						}
					}
					if l.Hook == "BeforeToolSelection" && (!l.Dropped || !strings.HasPrefix(l.Source, tc.path+":2")) {
						t.Errorf("want dropped, at the event's line: %v", l)
					}
				}
				if len(got) != len(tc.want) {
					t.Fatalf("got %v\nall: %v\nwant %v", got, lost, tc.want)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("line %d: %v, want %v", i, got[i], tc.want[i])
					}
				}
			})
		}
	}
}

// TestFieldsKept (stop 28, comparing what config's parsers read with what convert writes):
// an mcp_tool hook's server, tool and input, a file's disable_all_hooks and parallel, and a
// Gemini hook's name were dropped without a line. They are written where the target has
// them; where it does not, disable_all_hooks drops every hook, with a line each, since the
// converted hooks would run where the original ran none.
func TestFieldsKept(t *testing.T) {
	t.Parallel()
	claude := `{"disableAllHooks": true, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "mcp_tool", "server": "guard", "tool": "check", "input": {"cmd": "${tool_input.command}"}}]}]}}`
	parse := func(t *testing.T, src string) *config.File {
		f, errs := config.Parse("p/.claude/settings.json", []byte(src), config.Explicit)
		if f == nil || f.Failed || errs.Err() != nil || len(f.Hooks) != 1 {
			t.Fatalf("%v", errs)
		}
		return f
	}
	t.Run("mcp_tool and disableAllHooks to hookcore", func(t *testing.T) {
		out, lost, err := To(parse(t, claude), "hookcore")
		if err != nil {
			t.Fatal(err)
		}
		g, errs := config.Parse("h.yaml", out, config.Explicit)
		if errs.Err() != nil || len(g.Hooks) != 1 || !g.DisableAll {
			t.Fatalf("hookcore output does not load back the same: %v\n%s", errs, out)
		}
		if a := g.Hooks[0].Action; a.Server != "guard" || a.Tool != "check" || a.Input["cmd"] != "${tool_input.command}" {
			t.Errorf("mcp_tool action: %+v\n%s", a, out)
		}
		if len(lost) != 0 {
			t.Errorf("hookcore losses: %v", lost)
		}
	})
	t.Run("disableAllHooks to claude", func(t *testing.T) {
		out, lost, _ := To(parse(t, claude), "claude")
		if len(lost) != 1 || !lost[0].Dropped || !strings.Contains(lost[0].What, "disable_all_hooks") || strings.Contains(string(out), "mcp_tool") {
			t.Errorf("%v\n%s", lost, out)
		}
	})
	t.Run("mcp_tool to claude", func(t *testing.T) {
		out, lost, _ := To(parse(t, strings.Replace(claude, `"disableAllHooks": true, `, "", 1)), "claude")
		if len(lost) != 0 || !strings.Contains(string(out), `"type": "mcp_tool",`) || !strings.Contains(string(out), `"server": "guard",`) {
			t.Errorf("%v\n%s", lost, out)
		}
	})
	t.Run("parallel to hookcore", func(t *testing.T) {
		f, _ := config.Parse("h.yaml", []byte("parallel: true\nhooks:\n  - event: PostToolUse\n    action: {type: command, command: a.sh}\n"), config.Explicit)
		out, _, _ := To(f, "hookcore")
		if g, _ := config.Parse("h.yaml", out, config.Explicit); g == nil || !g.Parallel {
			t.Errorf("parallel: true lost:\n%s", out)
		}
	})
	t.Run("gemini name", func(t *testing.T) {
		f, _ := config.ParseDialect("p/.gemini/settings.json", []byte(`{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": "guard", "command": "./g.sh"}, {"type": "command", "command": "./h.sh"}]}]}}`), config.Explicit, config.Gemini)
		out, _, _ := To(f, "gemini")
		if g, _ := config.ParseDialect("p/.gemini/settings.json", out, config.Explicit, config.Gemini); g == nil || len(g.Hooks) != 2 || g.Hooks[0].AgentKey != "guard" || g.Hooks[1].AgentKey != "./h.sh" {
			t.Errorf("gemini name:\n%s", out)
		}
	})
}

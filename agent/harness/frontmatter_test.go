package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/agent"
)

const guardSkill = `---
name: guard
description: Guard the shell.
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "grep -q forbidden && { echo 'skill guard blocks' >&2; exit 2; }; exit 0"
---
Use the shell carefully.
`

const checkerAgent = `---
name: checker
description: Checks with the shell.
tools: Bash
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "grep -q sa-forbidden && { echo 'checker blocks' >&2; exit 2; }; exit 0"
  Stop:
    - hooks:
        - type: command
          command: "grep -o '\"hook_event_name\":\"[A-Za-z]*\"' >> stops.txt"
---
You are the checker.
`

// TestFrontmatterHooksInSession runs, with the scripted model, the session that the real
// Claude Code 2.1.332 ran in testdata/frontmatter (see hookcore's
// TestFrontmatterDifferential for what it showed): the skill's hooks start with the Skill
// call and stay for the main agent's later calls, also after the sub-agent, but never apply
// to the sub-agent's calls; the checker's hooks apply to the checker's calls only, and its
// Stop hook runs on its SubagentStop, not on the main agent's Stop. The sub-agent runs with
// the definition's system prompt and only its tools.
func TestFrontmatterHooksInSession(t *testing.T) {
	t.Parallel()
	files := map[string]string{".claude/skills/guard/SKILL.md": guardSkill, ".claude/agents/checker.md": checkerAgent}
	var defs []string
	for name := range files {
		defs = append(defs, name)
	}
	slices.Sort(defs)
	var ws string
	rg := newRig(t, setup{
		files: files, frontmatter: defs,
		script: `[
			{"tool": "Bash", "input": {"command": "echo before-skill forbidden"}},
			{"tool": "Skill", "input": {"skill": "guard"}},
			{"tool": "Bash", "input": {"command": "echo after-skill forbidden"}},
			{"tool": "Agent", "input": {"prompt": "CHECKER TASK", "subagent_type": "checker"}},
			{"tool": "Bash", "input": {"command": "echo sa-forbidden"}},
			{"tool": "Bash", "input": {"command": "echo forbidden in the sub-agent"}},
			{"text": "checker done"},
			{"tool": "Bash", "input": {"command": "echo main sa-forbidden"}},
			{"text": "All done."}
		]`,
		opts: func(o *agent.Options) {
			o.PermissionMode = agent.ModeBypassPermissions
			ws = o.Workspace
			var paths []string
			for _, d := range defs {
				paths = append(paths, filepath.Join(o.Workspace, d))
			}
			skills, types, err := agent.ReadDefinitions(paths)
			if err != nil {
				t.Fatal(err)
			}
			o.Skills, o.AgentTypes = skills, types
		},
	})
	if _, err := rg.s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	type call struct{ Agent, Command, Blocked string }
	var got []call
	for _, e := range rg.of("PreToolUse") {
		if e.in.ToolName != "Bash" {
			continue
		}
		cmd := strings.TrimSuffix(strings.TrimPrefix(string(e.in.ToolInput), `{"command":"`), `"}`)
		reason := ""
		if e.Result != nil && e.Result.Blocked {
			reason = e.Result.Reason
		}
		got = append(got, call{e.in.AgentType, cmd, reason})
	}
	want := []call{
		{"", "echo before-skill forbidden", ""},
		{"", "echo after-skill forbidden", "skill guard blocks"},
		{"checker", "echo sa-forbidden", "checker blocks"},
		{"checker", "echo forbidden in the sub-agent", ""},
		{"", "echo main sa-forbidden", "skill guard blocks"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Bash calls (-want +got):\n%s", d)
	}
	stops, _ := os.ReadFile(filepath.Join(ws, "stops.txt"))
	if got := strings.TrimSpace(string(stops)); got != `"hook_event_name":"SubagentStop"` {
		t.Errorf("the checker's Stop hook ran on %q, want its SubagentStop only", got)
	}
	if res := rg.toolResults()["call_2"]; !strings.HasPrefix(res.Text, "Launching skill: guard") {
		t.Errorf("Skill result = %q", res.Text)
	}
	for _, req := range rg.reqs() {
		if len(req.Messages) > 0 && req.Messages[0].Text == "CHECKER TASK" {
			var names []string
			for _, sp := range req.Tools {
				names = append(names, sp.Name)
			}
			if req.System != "You are the checker.\n" || !slices.Equal(names, []string{"Bash"}) {
				t.Errorf("sub-agent request: system %q, tools %v", req.System, names)
			}
		}
	}
}

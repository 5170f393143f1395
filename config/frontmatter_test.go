package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// TestFrontmatterHooks: the hooks of a skill's and a sub-agent's frontmatter load in the
// settings shape, named by the frontmatter's name, a sub-agent's Stop becomes SubagentStop
// (Claude Code 2.1.332, testdata/frontmatter), and the other keys are not read.
func TestFrontmatterHooks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	skill := write(t, dir, ".claude/skills/guard-dir/SKILL.md", `---
name: guard
description: "Guard: the shell"
allowed-tools: Bash
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./check.sh
          once: true
---
Body text with --- and hooks: in it.
`)
	agent := write(t, dir, ".claude/agents/checker.md", `---
description: no name key: the file name is the agent's
tools: Bash, Read
hooks:
  Stop:
    - hooks:
        - {type: command, command: echo stop}
  PostToolUse:
    - matcher: Edit
      hooks:
        - {type: command, command: echo edited}
---
You are the checker.
`)
	set, probs := Load([]LayerPath{{Path: skill, Layer: Project}, {Path: agent, Layer: User}})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	type row struct {
		Skill, Agent string
		Event        hook.Event
		Matcher      string
		Command      string
		Once         bool
		Line         int
	}
	var got []row
	for _, f := range set.Files {
		for _, h := range f.Hooks {
			got = append(got, row{f.Skill, f.Agent, h.Event, h.Matcher, h.Action.Command, h.Once, h.Pos.Line})
		}
	}
	want := []row{
		{Skill: "guard", Event: hook.PreToolUse, Matcher: "Bash", Command: "./check.sh", Once: true, Line: 9},
		{Agent: "checker", Event: hook.SubagentStop, Command: "echo stop", Line: 7},
		{Agent: "checker", Event: hook.PostToolUse, Matcher: "Edit", Command: "echo edited", Line: 11},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("frontmatter hooks (-want +got):\n%s", d)
	}
}

// TestFrontmatterBrokenEntry: a broken entry of a frontmatter is a problem at its
// file:line:col in the Markdown file and is skipped; the file's other hooks load. An
// unclosed frontmatter fails the file; a file without one has no hooks.
func TestFrontmatterBrokenEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := write(t, dir, ".claude/agents/a.md", "---\nname: a\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: echo ok}\n  NoSuchEvent:\n    - hooks:\n        - {type: command, command: echo x}\n---\nbody\n")
	set, probs := Load([]LayerPath{{Path: p, Layer: Project}})
	if len(set.Files[0].Hooks) != 1 || len(probs) == 0 {
		t.Fatalf("hooks %d, problems %v", len(set.Files[0].Hooks), probs)
	}
	if got := probs[0].Error(); !strings.HasPrefix(got, p+":8:3:") {
		t.Errorf("problem = %q, want it at %s:8:3", got, p)
	}
	open := write(t, dir, "x/skills/s/SKILL.md", "---\nname: s\nhooks: {}\n")
	set, probs = Load([]LayerPath{{Path: open, Layer: User}})
	if !set.Files[0].Failed || probs.Errors() != 1 {
		t.Errorf("unclosed frontmatter: failed %v, problems %v", set.Files[0].Failed, probs)
	}
	plain := write(t, dir, "y/agents/plain.md", "You are plain.\nhooks: not frontmatter\n")
	set, probs = Load([]LayerPath{{Path: plain, Layer: User}})
	if len(set.Files[0].Hooks) != 0 || len(probs) != 0 || set.Files[0].Agent != "plain" {
		t.Errorf("no frontmatter: %+v %v", set.Files[0], probs)
	}
}

// TestFrontmatterPaths: the user's skills and agents, then the project's, each lexical.
func TestFrontmatterPaths(t *testing.T) {
	t.Parallel()
	home, root := t.TempDir(), t.TempDir()
	write(t, home, ".claude/agents/b.md", "x")
	write(t, home, ".claude/skills/z/SKILL.md", "x")
	write(t, root, ".claude/agents/a.md", "x")
	write(t, root, ".claude/agents/notes.txt", "x")
	write(t, root, ".claude/skills/s/other.md", "x")
	var got []string
	for _, lp := range FrontmatterPaths(root, home) {
		rel := strings.TrimPrefix(strings.TrimPrefix(lp.Path, home), root)
		got = append(got, lp.Layer.String()+" "+filepath.ToSlash(rel))
	}
	want := []string{"user /.claude/skills/z/SKILL.md", "user /.claude/agents/b.md", "project /.claude/agents/a.md"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

package hookcore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// TestFrontmatterDifferential replays through hookcore what the real Claude Code 2.1.332
// did with the skill and sub-agent frontmatter hooks of testdata/frontmatter (its
// observed.txt is the peer-claude run: ../shared/peer-claude/run-scenario.sh
// testdata/frontmatter). The real CLI can exercise both offline: the scripted model calls
// the Skill tool ({"skill": "guard"}) and the Agent tool with subagent_type checker (a
// project agent) and ucheck (a user agent). It showed that
//
//   - the skill's hooks do not run before the skill is invoked, run for every later tool
//     call of the main agent (also after the sub-agents ended: the skill's scope is the rest
//     of the session, not the skill's turn), never for a sub-agent's calls, and its `once`
//     PostToolUse hook runs once;
//   - a sub-agent's hooks run for that sub-agent's calls only, not on its SubagentStart, and
//     its `Stop` hook fires on its SubagentStop (hook_event_name SubagentStop);
//   - a project agent's hooks run only once the workspace trust dialog was accepted
//     (setup.sh; without it they never fired, even under -p).
//
// Each group of observed.txt lines with one event, agent and command is fired as one event
// (in the session; a sub-agent's events carry its agent id and type); the hooks that ran
// (the stand-in bin/capture-hook.py logs their labels, as the real one does) and the blocks
// must be those Claude Code showed. The Skill tool's PostToolUse is where the harness calls
// InvokeSkill, as agent/harness does.
func TestFrontmatterDifferential(t *testing.T) {
	t.Parallel()
	src, _ := filepath.Abs(filepath.Join("testdata", "frontmatter"))
	dir, home := t.TempDir(), t.TempDir()
	copyTree(t, filepath.Join(src, "files"), dir)
	copyTree(t, filepath.Join(src, "home"), home)
	settings, err := os.ReadFile(filepath.Join(src, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".claude/settings.json", string(settings))
	paths := []config.LayerPath{{Path: filepath.Join(dir, ".claude", "settings.json"), Layer: config.Explicit}}
	// Trusted as the peer run's workspace was: the frontmatter files load as user files.
	for _, lp := range config.FrontmatterPaths(dir, home) {
		paths = append(paths, config.LayerPath{Path: lp.Path, Layer: config.User})
	}
	set, probs := config.Load(paths)
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "hooks.log")
	env := append(os.Environ(), "PEER_TOOLS="+filepath.Join(src, "bin"), "PEER_HOOK_LOG="+logPath)
	r := newRunner(t, dir, set, hookcore.Options{Env: env})

	blocks := map[string]string{ // tool_input.command → the reason the model got
		"echo after-skill forbidden": "skill guard blocks",
		"echo sa-forbidden":          "checker blocks",
		"echo u sa-forbidden":        "checker blocks",
		"echo main sa-forbidden":     "skill guard blocks",
	}
	groups := observedGroups(t, filepath.Join(src, "observed.txt"))
	if len(groups) < 20 {
		t.Fatalf("observed.txt: %d events", len(groups))
	}
	agents := map[string]string{}
	for i, g := range groups {
		_ = os.Remove(logPath)
		in := &hook.Input{SessionID: "s1", Cwd: dir}
		if g.agent != "-" {
			if agents[g.agent] == "" {
				agents[g.agent] = "agent-" + g.agent
			}
			in.AgentID, in.AgentType = agents[g.agent], g.agent
		}
		if g.subject != "-" {
			in.ToolName, in.ToolInput = "Bash", mustJSON(t, map[string]string{"command": g.subject})
			switch g.subject {
			case "guard":
				in.ToolName, in.ToolInput = "Skill", mustJSON(t, map[string]string{"skill": "guard"})
			case "checker", "ucheck":
				in.ToolName, in.ToolInput = "Agent", mustJSON(t, map[string]any{"prompt": "p", "subagent_type": g.subject})
			}
		}
		ev, _ := hook.ParseEvent(g.event)
		res := r.Fire(context.Background(), ev, in)
		if ev == hook.PostToolUse && in.ToolName == "Skill" {
			if err := r.InvokeSkill(context.Background(), "s1", in.AgentID, "guard"); err != nil {
				t.Fatal(err)
			}
		}
		ran := readLines(logPath)
		slices.Sort(ran)
		if d := cmp.Diff(g.labels, ran); d != "" {
			t.Errorf("event %d (%s %s %s): hooks run (-Claude Code +hookcore):\n%s", i, g.event, g.agent, g.subject, d)
		}
		if want := blocks[g.subject]; ev == hook.PreToolUse && (res.Blocked != (want != "") || !strings.Contains(res.Reason, want)) {
			t.Errorf("event %d (%s %s): blocked %v %q, want %q", i, g.event, g.subject, res.Blocked, res.Reason, want)
		}
	}
}

// TestSkillHooksPerSession: an invoked skill's hooks are those of its session and its
// invoking agent only, and the record is in the state store (a state.Dir shares it with
// other hookcore processes).
func TestSkillHooksPerSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadLayers(t, dir, layerFile{".claude/skills/lint/SKILL.md", config.User,
		"---\nname: lint\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: 'echo lint says no >&2; exit 2'}\n---\n"})
	st := &state.Memory{}
	r := newRunner(t, dir, set, hookcore.Options{State: st})
	ctx := context.Background()
	if res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "ls")); res.Blocked || len(res.Hooks) != 0 {
		t.Fatalf("before the skill: %+v", res)
	}
	if err := r.InvokeSkill(ctx, "s1", "", "lint"); err != nil {
		t.Fatal(err)
	}
	if res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s1", "ls")); !res.Blocked || res.Reason != "lint says no" {
		t.Errorf("after the skill: %+v", res)
	}
	if res := r.Fire(ctx, hook.PreToolUse, bashCall(dir, "s2", "ls")); res.Blocked {
		t.Errorf("another session: %+v", res)
	}
	sub := bashCall(dir, "s1", "ls")
	sub.AgentID, sub.AgentType = "a1", "general-purpose"
	if res := r.Fire(ctx, hook.PreToolUse, sub); res.Blocked {
		t.Errorf("a sub-agent of the session: %+v", res)
	}
	if got := st.Get("s1").Skills; !got[state.SkillKey("", "lint")] {
		t.Errorf("state: %v", got)
	}
}

type observedGroup struct {
	event, agent, subject string
	labels                []string
}

// observedGroups reads observed.txt: tab-separated label, event, agent type, subject.
func observedGroups(t *testing.T, path string) []observedGroup {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []observedGroup
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != 4 {
			t.Fatalf("observed.txt: %q", line)
		}
		if n := len(out); n > 0 && out[n-1].event == p[1] && out[n-1].agent == p[2] && out[n-1].subject == p[3] {
			out[n-1].labels = append(out[n-1].labels, p[0])
			slices.Sort(out[n-1].labels)
			continue
		}
		out = append(out, observedGroup{p[1], p[2], p[3], []string{p[0]}})
	}
	return out
}

func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyTree copies the regular files under from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, to, rel, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// SkillInvoked is the moment the Skill tool loads a skill (Skill names it): a harness
// activates the skill's frontmatter hooks for the invoking agent (Info.AgentID) from here
// on. It is not a hook event.
const SkillInvoked hook.Event = "SkillInvoked"

// Skill is a Claude Code skill (.claude/skills/NAME/SKILL.md): the Skill tool gives the
// model its Body.
type Skill struct {
	Name, Description string
	Body              string // the Markdown after the frontmatter
	Path              string
}

// AgentType is a custom sub-agent definition (.claude/agents/NAME.md): a sub-agent of
// this type runs with System as its system prompt and, when Tools is not empty, only those
// tools (Claude Code's `tools:`).
type AgentType struct {
	Name, Description string
	System            string
	Tools             []string
	Path              string
}

// ReadDefinitions reads skill files (.../skills/NAME/SKILL.md) and sub-agent files
// (.../agents/NAME.md) from paths, in order; a later file of the same name replaces an
// earlier one (a project's skill overrides the user's). The frontmatter keys read are
// name (default: the skill's directory or the agent file's base name), description and,
// for agents, tools (a comma-separated string or a list). Other paths are passed over. An
// error names a file that cannot be read or whose frontmatter is not YAML; the others are
// still returned.
func ReadDefinitions(paths []string) ([]Skill, []AgentType, error) {
	skills, agents := map[string]Skill{}, map[string]AgentType{}
	var errs []error
	for _, p := range paths {
		isSkill := filepath.Base(p) == "SKILL.md"
		if !isSkill && filepath.Base(filepath.Dir(p)) != "agents" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var fm struct {
			Name        string `yaml:"name"`
			Description string `yaml:"description"`
			Tools       any    `yaml:"tools"`
		}
		head, body := splitFrontmatter(string(data))
		if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
			errs = append(errs, fmt.Errorf("%s: frontmatter: %w", p, err))
			continue
		}
		if isSkill {
			if fm.Name == "" {
				fm.Name = filepath.Base(filepath.Dir(p))
			}
			skills[fm.Name] = Skill{Name: fm.Name, Description: fm.Description, Body: body, Path: p}
			continue
		}
		if fm.Name == "" {
			fm.Name = strings.TrimSuffix(filepath.Base(p), ".md")
		}
		agents[fm.Name] = AgentType{Name: fm.Name, Description: fm.Description, System: body, Tools: toolList(fm.Tools), Path: p}
	}
	outS := make([]Skill, 0, len(skills))
	for _, s := range skills {
		outS = append(outS, s)
	}
	sort.Slice(outS, func(i, j int) bool { return outS[i].Name < outS[j].Name })
	outA := make([]AgentType, 0, len(agents))
	for _, a := range agents {
		outA = append(outA, a)
	}
	sort.Slice(outA, func(i, j int) bool { return outA[i].Name < outA[j].Name })
	return outS, outA, errors.Join(errs...)
}

// splitFrontmatter returns the YAML between a first line `---` and the next `---` line,
// and the text after it ("" and the whole text when there is no frontmatter).
func splitFrontmatter(s string) (head, body string) {
	s = strings.TrimPrefix(s, "\ufeff")
	first, rest, _ := strings.Cut(s, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return "", s
	}
	var b strings.Builder
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimRight(line, " \t\r") == "---" {
			return b.String(), strings.TrimLeft(rest, "\n")
		}
		b.WriteString(line + "\n")
	}
	return "", s
}

func toolList(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		for _, name := range strings.Split(t, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
		}
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok && strings.TrimSpace(name) != "" {
				out = append(out, strings.TrimSpace(name))
			}
		}
	}
	return out
}

// skillTool is Claude Code's Skill tool: {"skill": NAME, "args": TEXT}. It reports
// SkillInvoked, then returns "Launching skill: NAME" and the skill's body (Claude Code
// 2.1.332 answers the call with that line and gives the body to the model as a message).
type skillTool struct{ skills map[string]Skill }

func (skillTool) Name() string { return "Skill" }
func (t skillTool) Description() string {
	names := make([]string, 0, len(t.skills))
	for n, s := range t.skills {
		names = append(names, n+": "+s.Description)
	}
	sort.Strings(names)
	return "Load a skill's instructions. Skills: " + strings.Join(names, "; ")
}
func (skillTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"skill":{"type":"string","description":"the skill's name"},"args":{"type":"string"}},"required":["skill"]}`)
}
func (skillTool) NeedsApproval(json.RawMessage) bool { return false }

func (t skillTool) Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Skill string `json:"skill"`
		Args  string `json:"args"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil || in.Skill == "" {
		return nil, errors.New("Skill needs a skill name")
	}
	sk, ok := t.skills[strings.TrimPrefix(in.Skill, "/")]
	if !ok {
		return nil, fmt.Errorf("unknown skill: %s", in.Skill)
	}
	if s := sessionFrom(ctx); s != nil {
		call := tool.Call{Name: t.Name(), Input: input}
		s.observe(ctx, &Event{Moment: SkillInvoked, Call: &call, Skill: sk.Name})
	}
	text := "Launching skill: " + sk.Name + "\n\n" + sk.Body
	if in.Args != "" {
		text += "\n\nARGUMENTS: " + in.Args
	}
	return json.Marshal(text)
}

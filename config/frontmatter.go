package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// Skill and sub-agent frontmatter hooks (issue 8 item 6). Claude Code reads `hooks:` in the
// YAML frontmatter of a skill (.claude/skills/NAME/SKILL.md) and of a sub-agent definition
// (.claude/agents/NAME.md), in the settings.json shape. Observed with Claude Code 2.1.332
// (peer-claude, testdata/frontmatter): a skill's hooks register when the Skill tool invokes
// it and then stay for the rest of the session, for the tool calls of the agent that
// invoked it (not those of its sub-agents), and `once` runs a hook once; a sub-agent's hooks
// run only for that sub-agent's own events, its `Stop` hooks fire on SubagentStop, and a
// project sub-agent's hooks run only in a trusted workspace.

// FrontmatterKind says what a Markdown file with frontmatter hooks defines.
type FrontmatterKind int

// The kinds of frontmatter file.
const (
	NotFrontmatter FrontmatterKind = iota
	SkillFile                      // .../skills/NAME/SKILL.md
	AgentFile                      // .../agents/NAME.md
)

// FrontmatterKindOf tells a skill or sub-agent file apart by its path: SKILL.md inside a
// skills/NAME directory, or NAME.md directly inside an agents directory.
func FrontmatterKindOf(path string) FrontmatterKind {
	dir, base := filepath.Split(filepath.Clean(path))
	dir = filepath.Clean(dir)
	switch {
	case base == "SKILL.md" && filepath.Base(filepath.Dir(dir)) == "skills":
		return SkillFile
	case strings.HasSuffix(base, ".md") && filepath.Base(dir) == "agents":
		return AgentFile
	}
	return NotFrontmatter
}

// FrontmatterPaths returns the skill and sub-agent files Claude Code reads: the user's
// (~/.claude/skills/*/SKILL.md, ~/.claude/agents/*.md, User layer) when home is set, then
// the project's (ROOT/.claude/skills/*/SKILL.md, ROOT/.claude/agents/*.md, Project layer,
// so that the trust gate applies to them), each group in lexical order.
func FrontmatterPaths(root, home string) []LayerPath {
	var out []LayerPath
	add := func(base string, layer Layer) {
		skills := filepath.Join(base, ".claude", "skills")
		dirs, complete := globFiles(filepath.Join(skills, "*"), repositoryLayer(layer))
		var skillFiles []string
		for _, d := range dirs {
			skillFiles = append(skillFiles, filepath.Join(d, "SKILL.md"))
		}
		agents, agentsComplete := globFiles(filepath.Join(base, ".claude", "agents", "*.md"), repositoryLayer(layer))
		for _, g := range []struct {
			pattern  string
			m        []string
			complete bool
		}{{filepath.Join(skills, "*", "SKILL.md"), skillFiles, complete}, {filepath.Join(base, ".claude", "agents", "*.md"), agents, agentsComplete}} {
			if !g.complete {
				out = append(out, LayerPath{Path: g.pattern, Layer: layer, Refused: fmt.Sprintf("%s holds more than %d names; none of its files are loaded", filepath.Dir(filepath.Dir(g.pattern)), maxDiscoveryDirNames)})
				continue
			}
			n := 0
			for _, p := range g.m {
				if !isFile(p) {
					continue
				}
				if n == MaxGlobFiles && repositoryLayer(layer) { // bounded as discovery's patterns are
					out = append(out, LayerPath{Path: p, Layer: layer, Refused: fmt.Sprintf("more than %d files match %s; hookcore loads the first %d by name", MaxGlobFiles, g.pattern, MaxGlobFiles)})
					break
				}
				n++
				out = append(out, LayerPath{Path: p, Layer: layer})
			}
		}
	}
	if home != "" {
		add(home, User)
	}
	if root != "" && filepath.Clean(root) != filepath.Clean(home) {
		add(root, Project)
	}
	return out
}

// ParseFrontmatter parses the `hooks:` key of a skill or sub-agent file's YAML frontmatter
// (the lines between a first line `---` and the next `---`) as a Claude Code settings
// `hooks` value, with the rules of Parse: a broken entry is a problem at its file:line:col
// in the Markdown file and is skipped, the others load. The other frontmatter keys (name,
// description, tools, model, ...) are not hookcore's and are not read, except `name`, which
// names the skill or sub-agent (File.Skill or File.Agent; without it, the skill's
// directory or the agent file's base name). In a sub-agent file a `Stop` hook becomes a
// SubagentStop hook (Claude Code converts it: the sub-agent's stop is a SubagentStop). A
// file without frontmatter has no hooks and no problems; a frontmatter that is not closed
// is one error and the File is Failed. The File's Hash covers the whole file.
func ParseFrontmatter(path string, data []byte, layer Layer, kind FrontmatterKind) (*File, ErrorList) {
	sum := sha256.Sum256(data)
	name := frontmatterDefaultName(path, kind)
	fm, ok, closed := frontmatter(data)
	var f *File
	var probs ErrorList
	switch {
	case !ok:
		f = &File{Path: path, Layer: layer, Dialect: Nested}
	case !closed:
		f = &File{Path: path, Layer: layer, Dialect: Nested, Failed: true}
		probs = ErrorList{{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: "frontmatter: no closing --- line"}}
	default:
		var n string
		fm, n = hooksOnly(fm)
		if n != "" {
			name = n
		}
		f, probs = Parse(path, fm, layer)
		f.Dialect = Nested
	}
	f.Hash = hex.EncodeToString(sum[:])
	if kind == AgentFile {
		f.Agent = name
		for i := range f.Hooks {
			if f.Hooks[i].Event == hook.Stop {
				f.Hooks[i].Event = hook.SubagentStop
			}
		}
	} else {
		f.Skill = name
	}
	return f, probs
}

func frontmatterDefaultName(path string, kind FrontmatterKind) string {
	if kind == SkillFile {
		return filepath.Base(filepath.Dir(path))
	}
	return strings.TrimSuffix(filepath.Base(path), ".md")
}

// frontmatter returns the file's text up to its closing `---` line, with the opening line
// blanked so that lines and columns stay those of the file; ok is false when the file does
// not start with a `---` line, closed false when no line closes it.
func frontmatter(data []byte) (fm []byte, ok, closed bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, false, false
	}
	out := []byte("\n")
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return out, true, true
		}
		out = append(append(out, line...), '\n')
	}
	return nil, true, false
}

// hooksOnly blanks every top-level key of the frontmatter but `hooks` (and the lines that
// continue it), so that Parse sees a settings-shaped document with the file's positions,
// and returns the `name` key's plain value.
func hooksOnly(fm []byte) ([]byte, string) {
	lines := bytes.Split(fm, []byte("\n"))
	keep, name := false, ""
	for i, l := range lines {
		if len(l) > 0 && l[0] != ' ' && l[0] != '\t' && l[0] != '#' {
			key, val, _ := bytes.Cut(l, []byte(":"))
			k := strings.TrimSpace(string(key))
			keep = k == "hooks"
			if k == "name" {
				name = strings.Trim(strings.TrimSpace(string(val)), `"'`)
			}
		}
		if !keep {
			lines[i] = nil
		}
	}
	return bytes.Join(lines, []byte("\n")), name
}

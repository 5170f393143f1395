package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRepositoryBudget: one Load parses at most MaxRepositoryBytes of a repository's config
// files (Project, Local) and keeps at most MaxHooks of their hooks, together; a file past
// either is not loaded, with why, and the user's files are not counted. A repository's
// hundred-odd files at their size cap took a minute per hook event, and 10 000 hooks in each
// exhausted memory (stop 23, red team round 15). Not parallel: the time budget is lifted
// for it, so that a slow machine (two files of 5 001 hooks under -race, while other builds
// ran) cannot turn the hook cap's refusal into the time budget's (CI, stop 26).
func TestRepositoryBudget(t *testing.T) {
	old := repositoryParseTime
	repositoryParseTime = time.Hour
	defer func() { repositoryParseTime = old }()
	dir := t.TempDir()
	pad := func(n int) string { return "# " + strings.Repeat("x", n) + "\n" }
	hooks := func(n int) string { // entries without an action: broken ones, which count too
		var b strings.Builder
		b.WriteString("hooks:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: h%d}\n", i)
		}
		return b.String()
	}
	third := MaxRepositoryBytes / 3
	paths := []LayerPath{
		{Path: write(t, dir, "home/.hookcore/hooks.yaml", "hooks: []\n"+pad(MaxFileSize-100)), Layer: User},
		{Path: write(t, dir, "repo/a/.hookcore/hooks.yaml", "hooks: []\n"+pad(third)), Layer: Project},
		{Path: write(t, dir, "repo/b/.hookcore/hooks.yaml", "hooks: []\n"+pad(third)), Layer: Project},
		{Path: write(t, dir, "repo/c/.hookcore/hooks.yaml", "hooks: []\n"+pad(third)), Layer: Local},
	}
	set, probs := Load(paths)
	var got []string
	for _, p := range probs {
		got = append(got, filepath.Base(filepath.Dir(filepath.Dir(p.Pos.File)))+": "+p.Msg)
	}
	if len(probs) != 1 || !strings.HasPrefix(got[0], "c: ") || !strings.Contains(got[0], fmt.Sprintf("larger than %d KiB together", MaxRepositoryBytes>>10)) || !set.Files[3].Failed {
		t.Errorf("bytes: problems %q", got)
	}

	n := MaxHooks/2 + 1
	hp := []LayerPath{
		{Path: write(t, dir, "h/home.yaml", hooks(n)), Layer: User},
		{Path: write(t, dir, "h/a.yaml", hooks(n)), Layer: Project},
		{Path: write(t, dir, "h/b.yaml", hooks(n)), Layer: Project},
	}
	set, probs = Load(hp)
	var over []string
	for _, p := range probs {
		if strings.Contains(p.Msg, "more than 10000 hooks together") {
			over = append(over, filepath.Base(p.Pos.File))
		}
	}
	if len(over) != 1 || over[0] != "b.yaml" {
		t.Errorf("hooks: past the cap %v", over)
	}
	if len(set.Files[0].Broken) != n || len(set.Files[1].Broken) != n || len(set.Files[2].Broken) != 0 || !set.Files[2].Failed {
		t.Errorf("entries kept: %d, %d, %d", len(set.Files[0].Broken), len(set.Files[1].Broken), len(set.Files[2].Broken))
	}
}

// TestRepositoryBudgetLeavesMarkdown: a repository's skill and sub-agent files (Markdown,
// whose frontmatter alone is parsed; loaded by `run` and `trust`, not by the hook command)
// do not spend the byte budget: a project with many long skills still loads them.
func TestRepositoryBudgetLeavesMarkdown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := strings.Repeat("prose\n", MaxRepositoryBytes/6/2)
	var paths []LayerPath
	for i := range 3 {
		paths = append(paths, LayerPath{Path: write(t, dir, fmt.Sprintf("repo/.claude/agents/a%d.md", i), "---\nname: a\ndescription: d\n---\n"+body), Layer: Project})
	}
	paths = append(paths, LayerPath{Path: write(t, dir, "repo/.hookcore/hooks.yaml", "hooks: []\n"), Layer: Project})
	_, probs := Load(paths)
	for _, p := range probs {
		if strings.Contains(p.Msg, "together") {
			t.Errorf("%s: %s", p.Pos.File, p.Msg)
		}
	}
}

// TestRepositoryParseTime: one Load parses a repository's files within a time budget; a
// file whose parse passes it is not loaded (a load error of its layer), later ones are not
// parsed, and the user's files are not concerned. Round 17 of stop 23's red team found a
// third way after the byte caps to make the YAML parser slow (a flow mapping of keys with no
// values: 20 s for 512 KiB); the budget bounds them all. Here the budget is 1 ms and each
// file takes the parser tens of milliseconds.
func TestRepositoryParseTime(t *testing.T) {
	old := repositoryParseTime
	repositoryParseTime = time.Millisecond
	defer func() { repositoryParseTime = old }()
	dir := t.TempDir()
	slow := "{" + strings.Repeat("a,", 12<<10) + "a}\n" // 24 KiB: tens of milliseconds, then the abandoned parse ends
	paths := []LayerPath{
		{Path: write(t, dir, "home/.hookcore/hooks.yaml", "hooks:\n  - {event: stop, action: {type: command, command: x}}\n"), Layer: User},
		{Path: write(t, dir, "repo/.hookcore/hooks.yaml", slow), Layer: Project},
		{Path: write(t, dir, "repo/.claude/settings.json", slow), Layer: Project},
	}
	set, probs := Load(paths)
	if len(set.Files[0].Hooks) != 1 || set.Files[0].Failed {
		t.Errorf("the user's file: %d hooks, failed %v", len(set.Files[0].Hooks), set.Files[0].Failed)
	}
	for i, f := range set.Files[1:] {
		if !f.Failed {
			t.Errorf("repository file %d loaded", i+1)
		}
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.Msg)
	}
	if len(probs) != 2 || !strings.Contains(got[0], "took longer than 2s together") || !strings.Contains(got[1], "took longer than") {
		t.Errorf("problems %q", got)
	}
}

// TestRepositoryParseMemory: a repository file whose parse grows the heap past the memory
// cap is not loaded. The parser gives every node a path spelling its keys, so nested long
// keys over a list grew gigabytes inside the time budget (red team round 18). Here 20
// nested 1 000-byte keys over 3 000 items (about 60 MB of paths) against a 16 MB cap.
func TestRepositoryParseMemory(t *testing.T) {
	old := repositoryParseMemory
	repositoryParseMemory = 16 << 20
	defer func() { repositoryParseMemory = old }()
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "%s%s:\n", strings.Repeat(" ", i), strings.Repeat(string(rune('a'+i)), 1000))
	}
	fmt.Fprintf(&b, "%sx: [%s1]\n", strings.Repeat(" ", 20), strings.Repeat("1,", 3000))
	if err := CheckLimits("f.yaml", []byte(b.String())); err != nil {
		t.Fatalf("the payload does not pass the byte checks: %v", err)
	}
	dir := t.TempDir()
	_, probs := Load([]LayerPath{{Path: write(t, dir, "repo/.hookcore/hooks.yaml", b.String()), Layer: Project}})
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "allocated more than") {
		t.Errorf("problems %v", probs)
	}
}

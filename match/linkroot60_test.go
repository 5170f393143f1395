package match

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChangesLinkedRoot (red team round 60): a path of `changes hook_config` or of a
// `changes "PATH"` clause that is a symbolic link to a directory (~/.claude/skills ->
// ~/dotfiles/skills, ~/.claude/hooks -> ~/dotfiles/hooks) covers its target: a write there
// is a write under the link. Reading the target, or a write beside it, is not.
func TestChangesLinkedRoot(t *testing.T) {
	t.Parallel()
	home, paths := configHome(t)
	for _, d := range []string{"dotfiles/skills/s1", "dotfiles/hooks", "dotfiles/other"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{".claude/skills": "../dotfiles/skills", ".claude/hooks": filepath.Join(home, "dotfiles/hooks")} {
		if err := os.Symlink(target, filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths = append(paths, filepath.Join(home, ".claude/skills"))
	for _, c := range []struct {
		expr, tool, key, v string
		want               bool
	}{
		{"args.command changes hook_config", "Bash", "command", "printf x > ~/dotfiles/skills/s1/SKILL.md", true},
		{"args.command changes hook_config", "Bash", "command", "printf x > HOMEDIR/dotfiles/skills/s1/SKILL.md", true},
		{"args.command changes hook_config", "Bash", "command", "rm -rf ~/dotfiles/skills", true},
		{"file_path changes hook_config", "Write", "file_path", "HOMEDIR/dotfiles/skills/s1/SKILL.md", true},
		{`args.command changes "~/.claude/hooks"`, "Bash", "command", "printf x > ~/dotfiles/hooks/guard.sh", true},
		{`file_path changes "~/.claude/hooks"`, "Write", "file_path", "HOMEDIR/dotfiles/hooks/guard.sh", true},
		{"args.command changes hook_config", "Bash", "command", "cat ~/dotfiles/skills/s1/SKILL.md", false},
		{"args.command changes hook_config", "Bash", "command", "printf x > ~/dotfiles/other/a", false},
		{`file_path changes "~/.claude/hooks"`, "Write", "file_path", "HOMEDIR/dotfiles/other/guard.sh", false},
	} {
		if got := matchConfig(t, c.expr, c.tool, c.key, c.v, home, paths); got != c.want {
			t.Errorf("%s, %s %q: %v, want %v", c.expr, c.tool, c.v, got, c.want)
		}
	}
}

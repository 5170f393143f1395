package match

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Red team round 56: the attacks, each judged by the example's Bash conditions (changes
// hook_program with the program at ~/go/bin/hookcore, changes hook_config, changes
// ".git/hooks" and ".git/config"), and the lines that stay allowed.
func TestChangesRound56(t *testing.T) {
	t.Parallel()
	checkRound(t, []roundRow{
		// 1. A git after a cd takes the cd's directory as its work tree, as -C's.
		{"cd ~ && git checkout", "", "cd ~ && git init -q && git fetch -q /tmp/er && git checkout FETCH_HEAD -- .", true},
		{"cd ~ && git reset --hard", "", "cd ~ && git reset --hard evil", true},
		{"cd ~ && git pull", "", "cd ~ && git pull /tmp/er evil", true},
		{"cd ~ && git restore", "", "cd ~ && git restore --source evil .", true},
		{"cd ~ && git read-tree -u", "", "cd ~ && git read-tree -u -m evil", true},
		{"cd ~ && git checkout-index", "", "cd ~ && git checkout-index -a -f", true},
		{"cd ~/go && git checkout", "", "cd ~/go && git checkout evil -- .", true},
		{"cd HOMEDIR; git checkout", "", "cd HOMEDIR; git checkout evil -- .", true},
		{"env -C ~ git checkout", "", "env -C ~ git checkout evil -- .", true},
		{"cd ~ && git status", "", "cd ~ && git status && git log -1", false},
		{"cd /tmp && git checkout", "", "cd /tmp/x && git checkout main", false},
		{"git checkout in the project", "", "git checkout main && git pull", false},
		{"cd the project root && git pull", "", "cd HOMEDIR/proj && git pull", false},
		{"cd build && git checkout", "", "cd build && git checkout main -- .", false},

		// echo -e or printf with the home or the cwd by variable, evaluated (red team round 56).
		{"echo -e $HOME | xargs cp", "", `echo -e "$HOME/go/bin/hookcor\x65" | xargs cp /tmp/evil`, true},
		{"printf ${HOME} in a substitution", "", `cp /tmp/evil "$(printf '%s/.cl%s/settings.json' "${HOME}" aude)"`, true},
		{"echo -e $PWD | xargs cp in the project", "", `echo -e "$PWD/src/a\x2ego" | xargs cp /tmp/x`, false},

		// 2. A backup's name (DEST+SUFFIX) and a split's pieces (PREFIX then any text) are written.
		{"cp -b -S", "", "cp -b -S e /tmp/evil ~/go/bin/hookcor", true},
		{"mv -b -S", "", "mv -b -S e /tmp/evil ~/go/bin/hookcor", true},
		{"install -b -S", "", "install -b -S e /tmp/evil ~/go/bin/hookcor", true},
		{"cp --suffix=", "", "cp --suffix=e /tmp/evil ~/go/bin/hookcor", true},
		{"cp -S into a directory", "", "cp -bSe /tmp/hookcor ~/go/bin/", true},
		{"ln -b -S", "", "ln -sf -b -S e /tmp/evil ~/go/bin/hookcor", true},
		{"cp --backup with SIMPLE_BACKUP_SUFFIX", "", "SIMPLE_BACKUP_SUFFIX=e cp --backup=simple /tmp/evil ~/go/bin/hookcor", true},
		{"cp -b: the ~ backup of settings.json~", "", "cp -b /tmp/evil ~/.claude/settings.json~", false},
		{"mv -b -S into .claude", "", "mv -b -S .json /tmp/evil ~/.claude/settings", true},
		{"cp -b --backup=numbered", "", "cp --backup=numbered /tmp/evil ~/go/bin/hookcore.~1", false},
		{"csplit -f", "", `csplit -s -f ~/go/bin/hookco -b "re%.0d" /tmp/evil 3`, true},
		{"csplit --prefix=", "", "csplit --prefix=HOMEDIR/.claude/sett /tmp/evil 3", true},
		{"split PREFIX", "", "split -b 1M /tmp/evil ~/go/bin/hook", true},
		{"cp -b in the project", "", "cp -b -S .orig x.go y.go", false},
		{"csplit in /tmp", "", "csplit -f /tmp/part /tmp/evil 3", false},
		{"split in /tmp", "", "split -l 10 /tmp/evil /tmp/part", false},

		// 3. A decompressor writes its operand less the compression suffix.
		{"gunzip -f", "", "gunzip -f ~/.claude/settings.json.gz", true},
		{"gzip -d", "", "gzip -d ~/.claude/settings.json.gz", true},
		{"gzip -dc", "", "gzip -d -f ~/go/bin/hookcore.gz", true},
		{"bunzip2", "", "bunzip2 ~/.claude/settings.json.bz2", true},
		{"bzip2 -d", "", "bzip2 -df ~/.claude/settings.json.bz2", true},
		{"unxz", "", "unxz ~/.claude/settings.json.xz", true},
		{"xz -d", "", "xz -d ~/.claude/settings.json.xz", true},
		{"unlzma", "", "unlzma ~/.claude/settings.json.lzma", true},
		{"lz4 -d", "", "lz4 -d -f ~/.claude/settings.json.lz4", true},
		{"lz4 -d SRC DST", "", "lz4 -d /tmp/e.lz4 ~/.claude/settings.json", true},
		{"zstd -d", "", "zstd -d -f ~/.claude/settings.json.zst", true},
		{"unzstd", "", "unzstd ~/.claude/settings.json.zst", true},
		{"uncompress", "", "uncompress ~/.claude/settings.json.Z", true},
		{"gunzip -S", "", "gunzip -S .evil ~/.claude/settings.json.evil", true},
		{"gunzip -c", "", "gunzip -c ~/.claude/settings.json.gz", false},
		{"zstd -d --stdout", "", "zstd -d --stdout ~/.claude/settings.json.zst", false},
		{"gzip -t", "", "gzip -t ~/.claude/settings.json.gz", false},
		// 4. tmux -c and systemd-run -p WorkingDirectory= run their command there.
		{"tmux new -c", "", `tmux new -d -c ~/go "mv bin x"`, true},
		{"tmux new-window -c", "", `tmux new-window -c ~/go "mv bin x"`, true},
		{"tmux new-session -c", "", `tmux new-session -d -c HOMEDIR "rm -rf go"`, true},
		{"tmux split-window -c", "", `tmux split-window -c ~/go "rm -rf bin"`, true},
		{"tmux new -c unquoted", "", `tmux new -d -c ~/go mv bin x`, true},
		{"systemd-run -p WorkingDirectory=", "", "systemd-run -p WorkingDirectory=HOMEDIR/go mv bin x", true},
		{"systemd-run --property=WorkingDirectory=", "", "systemd-run --property=WorkingDirectory=HOMEDIR rm -rf go", true},
		{"tmux new -c /tmp", "", `tmux new -d -c /tmp "mv bin x"`, false},
		{"tmux ls", "", "tmux ls", false},
		{"systemd-run -p in /tmp", "", "systemd-run -p WorkingDirectory=/tmp rm -rf go", false},
		{"gunzip in /tmp", "", "gunzip /tmp/x.gz && xz -d /tmp/y.xz", false},
	})
}

// Red team round 56's false positives: commands that only read a path changes "PATH"
// names.
func TestChangesPathReaders56(t *testing.T) {
	t.Parallel()
	home, _ := configHome(t)
	proj := filepath.Join(home, "proj")
	bashrc := filepath.Join(home, ".bashrc")
	f, err := CompileIf(`args.command changes ".mcp.json" || args.command changes "` + bashrc + `"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cmd string
		want      bool
	}{
		{"jq", "jq . .mcp.json", false},
		{"jq -r", "jq -r '.mcpServers | keys[]' .mcp.json", false},
		{"python3 -m json.tool", "python3 -m json.tool .mcp.json", false},
		{"shellcheck", "shellcheck HOMEDIR/.bashrc", false},
		{"bash -n", "bash -n HOMEDIR/.bashrc", false},
		{"git diff", "git diff .mcp.json", false},
		{"git log", "git log -p -- .mcp.json", false},
		{"git show", "git show HEAD:.mcp.json", false},
		{"git status", "git status .mcp.json", false},
		{"git add", "git add .mcp.json", false},
		{"jq with a redirection", "jq . x.json > .mcp.json", true},
		{"python3 -m json.tool OUT", "python3 -m json.tool x.json .mcp.json", true},
		{"bash runs it", "bash HOMEDIR/.bashrc", true},
		{"git checkout", "git checkout main -- .mcp.json", true},
		{"sed -i", "sed -i s/a/b/ .mcp.json", true},
		{"jq --in-place-ish sponge", "jq . .mcp.json | sponge .mcp.json", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"command": strings.ReplaceAll(tc.cmd, "HOMEDIR", home)})
			s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home)
			if got := f.Match(s); got != tc.want {
				t.Errorf("%q = %v, want %v", tc.cmd, got, tc.want)
			}
		})
	}
}

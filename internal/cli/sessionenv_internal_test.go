package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScanShell: the static paths of `source`/`.` lines and ZDOTDIR assignments of a shell
// startup file (red team round 66), and what is not followed.
func TestScanShell(t *testing.T) {
	const home = "/h"
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return "/xdg"
		}
		return ""
	}
	text := `# . ~/commented
. "$HOME/.cargo/env"
source ~/.aliases   # trailing comment
[ -f ~/.fzf.bash ] && . ~/.fzf.bash
[[ -r "${HOME}/dot files/x.sh" ]] && source "${HOME}/dot files/x.sh"
if [ -f /etc/bash_completion ]; then . /etc/bash_completion; fi
test -f ~/a && . ~/a || . ~/b
	. 'single/$HOME'
source $HOME/.local.sh
. rel/path.sh
source "$(brew --prefix)/etc/profile.d/z.sh"
. $NVM_DIR/nvm.sh
. ~/.config/*.sh
source ` + "`pwd`" + `/x
. ~other/x
echo . ~/not-a-source
alias x='. ~/in-alias'
export ZDOTDIR=~/.config/zsh
ZDOTDIR="${XDG_CONFIG_HOME:-$HOME/.config}/zsh2"
export ZDOTDIR=$SOMEWHERE
. $HOMEDIR/x
. "$XDG_CONFIG_HOME/sh/env"
{ . ~/brace; }
`
	var srcs, zdots []string
	scanShell([]byte(text), home, getenv, func(src, zdot string) {
		if zdot != "" {
			zdots = append(zdots, zdot)
		} else {
			srcs = append(srcs, src)
		}
	})
	want := []string{"/h/.cargo/env", "/h/.aliases", "/h/.fzf.bash", "/h/dot files/x.sh", "/etc/bash_completion",
		"/h/a", "/h/b", "/h/single/$HOME", "/h/.local.sh", "/h/rel/path.sh", "/xdg/sh/env", "/h/brace"}
	if !slices.Equal(srcs, want) {
		t.Errorf("sources\n got %q\nwant %q", srcs, want)
	}
	if want := []string{"/h/.config/zsh", "/xdg/zsh2"}; !slices.Equal(zdots, want) {
		t.Errorf("ZDOTDIR got %q, want %q", zdots, want)
	}
}

// TestScanGitIncludes: [include] and [includeIf] paths of a git config, resolved as git
// resolves them.
func TestScanGitIncludes(t *testing.T) {
	text := `[user]
	name = U
	path = /not/an/include
[include]
	path = ~/.gitconfig.local
	path=rel.inc ; a comment
	PATH = "/abs/quoted path" # another
[includeIf "gitdir:~/work/"]
	path = ../work/.gitconfig
[IncludeIf "onbranch:main"] path = one-line.inc
# [include]
;	path = commented
[core]
	path = /not/either
[include]
	path = ~user/x
	path = %(prefix)/etc/x
	path = conf.d/*.inc
	path =
`
	var got []string
	scanGitIncludes([]byte(text), "/h", "/h/.config/git", func(p string) { got = append(got, p) })
	want := []string{"/h/.gitconfig.local", "/h/.config/git/rel.inc", "/abs/quoted path", "/h/.config/work/.gitconfig", "/h/.config/git/one-line.inc"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestEnvFollowed: the files read and what is added: ZDOTDIR's files (read as startup files
// too), repeats and paths already compared left out, the first 64 KiB read, and the bound.
func TestEnvFollowed(t *testing.T) {
	home := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noenv := func(string) string { return "" }
	bashrc := write(".bashrc", ". ~/.cargo/env\n. ~/.bash_aliases\n. ~/.bashrc.d/x.sh\n. ~/.cargo/env\n")
	zshenv := write(".zshenv", "export ZDOTDIR=$HOME/.zsh\n")
	write(".zsh/.zshrc", "source ~/.zsh/plugins.zsh\n")
	gitconfig := write(".gitconfig", "[include]\n\tpath = .gitconfig.local\n")
	have := []string{filepath.Join(home, ".bash_aliases"), filepath.Join(home, ".bashrc.d")}
	got := envFollowed(home, []string{bashrc, zshenv, filepath.Join(home, ".missing")}, []string{gitconfig}, have, noenv)
	want := []string{filepath.Join(home, ".cargo/env")}
	for _, f := range zshDotFiles() {
		want = append(want, filepath.Join(home, ".zsh", f))
	}
	want = append(want, filepath.Join(home, ".zsh/plugins.zsh"), filepath.Join(home, ".gitconfig.local"))
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}

	// $ZDOTDIR of the environment.
	got = envFollowed(home, nil, nil, nil, func(k string) string {
		if k == "ZDOTDIR" {
			return "/z"
		}
		return ""
	})
	if len(got) != 5 || got[2] != "/z/.zshrc" {
		t.Errorf("ZDOTDIR from the environment: got %q", got)
	}

	// The bound: 40 sources give the first envFollowMax; the git config is not read then.
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, ". ~/s%d\n", i)
	}
	many := write(".profile", b.String())
	got = envFollowed(home, []string{many}, []string{gitconfig}, nil, noenv)
	if len(got) != envFollowMax || got[0] != filepath.Join(home, "s0") || got[envFollowMax-1] != filepath.Join(home, fmt.Sprint("s", envFollowMax-1)) {
		t.Errorf("bound: got %d paths %q", len(got), got)
	}

	// Past the first 64 KiB: not read.
	long := write(".kshrc", strings.Repeat("#", envFollowMaxRead)+"\n. ~/late\n")
	if got := envFollowed(home, []string{long}, nil, nil, noenv); len(got) != 0 {
		t.Errorf("past the read bound: got %q", got)
	}
	// A directory in a startup file's place is not read.
	if got := envFollowed(home, []string{filepath.Join(home, ".zsh")}, nil, nil, noenv); len(got) != 0 {
		t.Errorf("a directory: got %q", got)
	}
}

// BenchmarkSessionEnvironment: what building the tripwire's session-environment list costs
// an armed event, with a home of the common kind (a .bashrc of 200 lines sourcing rustup's
// env and a completion file, a .profile, a .zshenv setting ZDOTDIR with a .zshrc there, a
// .gitconfig with an include).
func BenchmarkSessionEnvironment(b *testing.B) {
	home := b.TempDir()
	files := map[string]string{
		".bashrc":            strings.Repeat("alias ll='ls -l' # x\nexport PATH=\"$HOME/bin:$PATH\"\n", 100) + ". \"$HOME/.cargo/env\"\n[ -f ~/.fzf.bash ] && source ~/.fzf.bash\n",
		".profile":           "if [ -n \"$BASH_VERSION\" ]; then\n  if [ -f \"$HOME/.bashrc\" ]; then\n    . \"$HOME/.bashrc\"\n  fi\nfi\n",
		".zshenv":            "export ZDOTDIR=$HOME/.config/zsh\n",
		".config/zsh/.zshrc": "source ~/.config/zsh/aliases.zsh\n",
		".gitconfig":         "[user]\n\tname = U\n[include]\n\tpath = ~/.gitconfig.local\n",
	}
	for name, content := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	noenv := func(string) string { return "" }
	b.Logf("%d paths", len(sessionEnvironment(home, "/p", noenv)))
	b.ReportAllocs()
	for b.Loop() {
		sessionEnvironment(home, "/p", noenv)
	}
}

// BenchmarkHookTripwireArmed: one armed PreToolUse of the hook command with the
// self-protect example (`hook claude --config`), the home of BenchmarkSessionEnvironment's
// kind: the session-environment list built, its files compared with the previous event's
// snapshot and the snapshot replaced.
func BenchmarkHookTripwireArmed(b *testing.B) {
	policy, err := filepath.Abs(filepath.Join("..", "..", "examples", "self-protect", "hooks.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for name, content := range map[string]string{
		".bashrc":     strings.Repeat("alias ll='ls -l' # x\n", 200) + ". \"$HOME/.cargo/env\"\n",
		".cargo/env":  "export PATH=\"$HOME/.cargo/bin:$PATH\"\n",
		".zshenv":     "export ZDOTDIR=$HOME/.config/zsh\n",
		".gitconfig":  "[include]\n\tpath = ~/.gitconfig.local\n",
		".hookcore/x": "",
	} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", home)
	b.Setenv("HOOKCORE_STATE_DIR", "")
	b.Setenv("XDG_CONFIG_HOME", "")
	b.Setenv("ZDOTDIR", "")
	b.Chdir(proj)
	input := []byte(`{"session_id":"bench","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}`)
	args := []string{"hook", "claude", "--config", policy}
	var stderr bytes.Buffer
	if code := Main(args, bytes.NewReader(input), io.Discard, &stderr); code != 0 {
		b.Fatalf("exit %d: %s", code, stderr.Bytes())
	}
	b.ReportAllocs()
	for b.Loop() {
		Main(args, bytes.NewReader(input), io.Discard, io.Discard)
	}
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, ".hookcore/present.sh", "#!/bin/sh\n")
	write(t, dir, "scripts/fmt.py", "")
	bin := filepath.Join(dir, "bin") // the PATH: the interpreters the hooks name
	for _, prog := range []string{"python3", "node", "bash"} {
		write(t, bin, prog, "#!/bin/sh\n")
		if err := os.Chmod(filepath.Join(bin, prog), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Conformance case 41, plus the other shapes of a script reference.
	path := write(t, dir, ".hookcore/hooks.yaml", `hooks:
  - id: py-guard
    event: pre_tool_use
    matcher: Bash
    action: {type: command, command: "python3 .hookcore/guard.py"}
  - id: present
    event: pre_tool_use
    action: {type: command, command: ".hookcore/present.sh --fast"}
  - id: interp-flags
    event: post_tool_use
    action: {type: command, command: "FOO=1 python3 -u scripts/fmt.py $FILE_PATH"}
  - id: missing-abs
    event: stop
    action: {type: command, command: "'/nonexistent/hook script.sh' arg"}
  - id: claude-dir
    event: stop
    action: {type: command, command: "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh"}
  - id: other-var
    event: stop
    action: {type: command, command: "$HOME/bin/x.sh"}
  - id: inline
    event: stop
    action: {type: command, command: "bash -c 'exit 0' && ./later.sh"}
  - id: program
    event: stop
    action: {type: command, command: "echo hi | ./x"}
  - id: argv
    event: stop
    action: {type: command, args: [node, tools/missing.js]}
  - id: write-only
    event: pre_tool_use
    matcher: Write|NotebookEdit
    action: {type: command, command: "exit 0"}
  - id: regex-hit
    event: pre_tool_use
    matcher: "mcp__.*"
    action: {type: command, command: "exit 0"}
  - id: any
    event: pre_tool_use
    action: {type: command, command: "exit 0"}
  - id: not-a-tool-event
    event: session_start
    matcher: startup
    action: {type: command, command: "exit 0"}
  - id: tilde
    event: stop
    action: {type: command, command: "~/bin/log-bash.sh"}
  - id: tilde-interp
    event: stop
    action: {type: command, command: "python3 ~/.codex/guard.py"}
  - id: braced-home
    event: stop
    action: {type: command, command: "\"${HOME}\"/bin/y.sh --x"}
  - id: tilde-bash
    event: stop
    action: {type: command, command: "bash ~/bin/z.sh"}
  - id: tilde-present
    event: stop
    action: {type: command, command: "~/bin/ok.sh && $HOME/bin/ok.sh"}
  - id: single-quoted-home
    event: stop
    action: {type: command, command: "'$HOME/x.sh'"}
  - id: quoted-tilde
    event: stop
    action: {type: command, command: "\"~/y.sh\""}
  - id: command-substitution
    event: stop
    action: {type: command, command: "python3 $(pwd)/z.py"}
  - id: unknown-variable
    event: stop
    action: {type: command, command: "python3 ${OTHER}/z.py"}
  - id: glob
    event: stop
    action: {type: command, command: "python3 ~/*.py"}
`)
	f, errs := ParseFile(path, Project)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	home := filepath.Join(dir, "home")
	write(t, home, "bin/ok.sh", "#!/bin/sh\n")
	for _, p := range Lint(f, LintOptions{Tools: []string{"Bash", "Edit", "mcp__github__search"}, Path: bin, Home: home}) {
		got = append(got, strings.ReplaceAll(strings.TrimPrefix(p.Error(), path), dir, "DIR"))
	}
	want := []string{
		`:2:5: py-guard: warning: script ".hookcore/guard.py" does not exist (DIR/.hookcore/guard.py)`,
		`:12:5: missing-abs: warning: script "/nonexistent/hook script.sh" does not exist`,
		`:15:5: claude-dir: warning: script "$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh" does not exist (DIR/.claude/hooks/check.sh)`,
		`:18:5: other-var: warning: script "$HOME/bin/x.sh" does not exist (DIR/home/bin/x.sh)`,
		`:27:5: argv: warning: script "tools/missing.js" does not exist (DIR/tools/missing.js)`,
		`:30:5: write-only: warning: matcher "Write|NotebookEdit" matches none of the declared tools (Bash, Edit, mcp__github__search)`,
		// New-user trial (stop 28): ~ and $HOME were not expanded, so none of these warned,
		// and the guard did not run.
		`:45:5: tilde: warning: script "~/bin/log-bash.sh" does not exist (DIR/home/bin/log-bash.sh)`,
		`:48:5: tilde-interp: warning: script "~/.codex/guard.py" does not exist (DIR/home/.codex/guard.py)`,
		`:51:5: braced-home: warning: script "${HOME}/bin/y.sh" does not exist (DIR/home/bin/y.sh)`,
		`:54:5: tilde-bash: warning: script "~/bin/z.sh" does not exist (DIR/home/bin/z.sh)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
	// Without declared tools, matchers are not checked.
	if n := len(Lint(f, LintOptions{Path: bin, Home: home})); n != 9 {
		t.Errorf("lint without tools: %d warnings, want 9", n)
	}
	if Lint(nil, LintOptions{}) != nil {
		t.Error("Lint(nil) is not empty")
	}
}

func TestLintRoot(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"/p/.hookcore/hooks.yaml", "/p"},
		{"/p/.claude/settings.json", "/p"},
		{"/p/settings.json", "/p"},
		{"/p/conf/hooks.yaml", "/p/conf"},
	}
	for _, tt := range tests {
		if got := lintRoot(filepath.FromSlash(tt.path)); got != filepath.FromSlash(tt.want) {
			t.Errorf("lintRoot(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestShellWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"python3 a.py", []string{"python3", "a.py"}},
		{`"a b"/c 'd e' f\ g`, []string{"a b/c", "d e", "f g"}},
		{"a;b", []string{"a"}},
		{"a | b", []string{"a"}},
		{`x "unterminated`, []string{"x", "unterminated"}},
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, shellWords(tt.in)); diff != "" {
			t.Errorf("shellWords(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestLintIfRuleTool (red team): a hook matching Write with `if: Edit(.env)` never runs —
// a permission rule matches its own tool only (Claude Code 2.1.332 ran no `if:
// Edit(/src/**)` hook on a Write, testdata/claude/if-paths) — and check said nothing. A
// Read rule also matches Grep, Glob and LS (stop 29): a matcher of searches is no warning.
func TestLintIfRuleTool(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := write(t, dir, ".claude/settings.json", `{"hooks": {"PreToolUse": [
  {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2", "if": "Edit(.env)"}]},
  {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "exit 2", "if": "Edit(.env)"}]},
  {"matcher": "Edit", "hooks": [{"type": "command", "command": "exit 2", "if": "Edit(.env)"}]},
  {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "exit 2", "if": "file_path ~= \"**/.env\""}]},
  {"hooks": [{"type": "command", "command": "exit 2", "if": "Edit(.env)"}]},
  {"matcher": "Grep|Glob", "hooks": [{"type": "command", "command": "exit 2", "if": "Read(.env)"}]},
  {"matcher": "Read|Grep|Write", "hooks": [{"type": "command", "command": "exit 2", "if": "Read(.env)"}]},
  {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2", "if": "Read(.env)"}]}]}}`)
	f, errs := ParseFile(path, Project)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, p := range Lint(f, LintOptions{}) {
		got = append(got, p.Msg)
	}
	want := []string{
		`if "Edit(.env)" matches only Edit calls, which matcher "Write" never passes: the hook never runs (a permission rule matches its own tool only, as in Claude Code)`,
		`if "Edit(.env)" matches only Edit calls: the hook never runs for Write that matcher "Edit|Write" lets through (a permission rule matches its own tool only, as in Claude Code)`,
		`if "Read(.env)" matches only Read, Grep, Glob and LS calls: the hook never runs for Write that matcher "Read|Grep|Write" lets through (a Read rule matches Read and the searches, as Claude Code's permissions do)`,
		`if "Read(.env)" matches only Read, Grep, Glob and LS calls, which matcher "Write" never passes: the hook never runs (a Read rule matches Read and the searches, as Claude Code's permissions do)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
}

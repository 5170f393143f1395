package match

import (
	"encoding/json"
	"testing"
)

func TestRuleBash(t *testing.T) {
	t.Parallel()
	bash := func(name, expr, command string, want bool) ifCase {
		args := `{"command":` + jsonString(command) + `}`
		return ifCase{name, expr, "Bash", args, want}
	}
	runIfCases(t, []ifCase{
		// Conformance cases 26 and 27.
		bash("26 compound", "Bash(rm *)", "cd /tmp/build && ls | head -1 ; rm -rf out", true),
		bash("27 quoted mention", "Bash(rm *)", "echo 'rm -rf /' && grep -r rm docs/", false),
		// Simple commands anywhere.
		bash("plain", "Bash(rm *)", "rm -rf out", true),
		bash("bare rm", "Bash(rm *)", "rm", true),
		bash("rmdir", "Bash(rm *)", "rmdir out", false),
		bash("pipeline", "Bash(rm *)", "ls | rm x", true),
		bash("or list", "Bash(rm *)", "false || rm x", true),
		bash("subshell", "Bash(rm *)", "(cd x; rm y)", true),
		bash("block", "Bash(rm *)", "{ rm y; }", true),
		bash("cmd subst", "Bash(rm *)", "echo $(rm -rf x)", true),
		bash("backquotes", "Bash(rm *)", "echo `rm -rf x`", true),
		bash("assign subst", "Bash(rm *)", "X=$(rm -rf x)", true),
		bash("if body", "Bash(rm *)", "if true; then rm x; fi", true),
		bash("for body", "Bash(rm *)", "for f in a b; do rm $f; done", true),
		bash("while body", "Bash(rm *)", "while false; do rm x; done", true),
		bash("function body", "Bash(rm *)", "f() { rm -rf /; }; f", true),
		bash("case body", "Bash(rm *)", "case x in x) rm y;; esac", true),
		bash("newline", "Bash(rm *)", "ls\nrm x", true),
		bash("line continuation", "Bash(rm -rf *)", "rm \\\n -rf x", true),
		bash("process subst", "Bash(rm *)", "diff <(rm x) y", true),
		bash("heredoc body", "Bash(rm *)", "cat <<EOF\nrm -rf /\nEOF", false),
		bash("double quoted split", "Bash(rm *)", `r""m x`, true),
		bash("background", "Bash(rm *)", "rm x &", true),
		bash("test", "Bash(rm *)", "[ -f x ] && rm x", true),
		// Quoting and escapes are unquoted.
		bash("quoted name", "Bash(rm *)", "'rm' -rf x", true),
		bash("escaped name", "Bash(rm *)", `r\m -rf x`, true),
		bash("split quotes", "Bash(rm *)", `r''m -rf x`, true),
		bash("double quoted", "Bash(rm -rf *)", `rm "-rf" x`, true),
		bash("quoted argument", "Bash(git commit -m *)", `git commit -m "fix: rm stuff"`, true),
		bash("dynamic argument", "Bash(rm -rf $HOME)", `rm -rf $HOME`, true),
		// Assignments, wrappers and paths.
		bash("assignment", "Bash(rm *)", "FOO=1 rm x", true),
		bash("sudo", "Bash(rm *)", "sudo rm -rf /", true),
		bash("sudo -u", "Bash(rm *)", "sudo -u root rm -rf /", true),
		bash("env", "Bash(rm *)", "env -i FOO=1 rm x", true),
		bash("nohup time", "Bash(rm *)", "nohup time rm x", true),
		bash("command exec", "Bash(rm *)", "command exec rm x", true),
		bash("xargs", "Bash(rm *)", "find . -name '*.o' | xargs -n 1 rm", true),
		bash("timeout", "Bash(rm *)", "timeout -s KILL 10 rm x", true),
		bash("nice", "Bash(rm *)", "nice -n 5 rm x", true),
		bash("abs path", "Bash(rm *)", "/bin/rm -rf x", true),
		bash("find exec", "Bash(rm *)", `find . -exec rm {} \;`, true),
		bash("bash -c", "Bash(rm *)", `bash -c "cd x && rm -rf y"`, true),
		bash("sh -lc", "Bash(rm *)", `sh -lc 'rm -rf y'`, true),
		bash("bash script", "Bash(rm *)", `bash script.sh rm`, false),
		bash("eval", "Bash(rm *)", `eval "rm -rf y"`, true),
		bash("wrapper no match", "Bash(rm *)", "sudo ls", false),
		bash("echo rm", "Bash(rm *)", "echo rm -rf /", false),
		// Commands that can not be analysed match.
		bash("unparseable", "Bash(rm *)", `echo "unterminated`, true),
		bash("unparseable other", "Bash(git push *)", `if then fi (`, true),
		bash("dynamic name", "Bash(rm *)", `$CMD -rf x`, true),
		bash("subst name", "Bash(rm *)", `$(which rm) -rf x`, true),
		bash("ansi-c name", "Bash(rm *)", `$'\x72m' -rf x`, true),
		bash("glob name", "Bash(rm *)", `/bin/r? -rf x`, true),
		bash("brace name", "Bash(rm *)", `{rm,-rf,x}`, true),
		bash("dynamic bash -c", "Bash(rm *)", `bash -c "$S"`, true),
		// Pattern forms.
		bash("prefix colon", "Bash(npm run test:*)", "npm run test", true),
		bash("prefix colon args", "Bash(npm run test:*)", "npm run test -- --watch", true),
		bash("prefix colon word boundary", "Bash(npm run test:*)", "npm run testing", false),
		bash("prefix space", "Bash(npm run test *)", "npm run test -- -v", true),
		bash("star no space", "Bash(ls*)", "lsof", true),
		bash("star middle", "Bash(git * --force)", "git push origin main --force", true),
		bash("star middle no", "Bash(git * --force)", "git push --force-with-lease", false),
		bash("star crosses slash", "Bash(cat *)", "cat /etc/passwd", true),
		bash("exact", "Bash(ls)", "ls", true),
		bash("exact no args", "Bash(ls)", "ls -l", false),
		bash("pattern spaces", "Bash(git   push *)", "git push x", true),
		bash("metachars literal", "Bash(echo a.b *)", "echo axb c", false),
		// Tool-only rules and other tools.
		bash("tool only", "Bash", "anything", true),
		bash("tool star", "Bash(*)", "anything", true),
		bash("tool empty", "Bash()", "anything", true),
		bash("tool case", "bash(rm *)", "rm x", true),
		{"other tool", "Bash(rm *)", "Shell", `{"command":"rm x"}`, false},
		{"codebot bash", "Bash(rm *)", "bash", `{"command":"rm x"}`, true},
		{"no command", "Bash(rm *)", "Bash", `{}`, false},
		{"invalid args", "Bash(rm *)", "Bash", `{"command":`, true},
		{"empty command", "Bash(rm *)", "Bash", `{"command":""}`, false},
	})
}

func TestRulePath(t *testing.T) {
	t.Parallel()
	file := func(name, expr, tool, p string, want bool) ifCase {
		return ifCase{name, expr, tool, `{"file_path":` + jsonString(p) + `}`, want}
	}
	runIfCases(t, []ifCase{
		file("relative", "Write(src/**/*.go)", "Write", "src/a/b.go", true),
		file("relative zero dirs", "Write(src/**/*.go)", "Write", "src/b.go", true),
		file("relative under abs", "Write(src/**/*.go)", "Write", "/repo/src/a/b.go", true),
		file("relative no", "Write(src/**/*.go)", "Write", "/repo/lib/a/b.go", false),
		file("star no cross", "Edit(src/*.go)", "Edit", "src/a/b.go", false),
		file("dot slash", "Read(./.env)", "Read", "/home/u/proj/.env", true),
		file("dot slash relative", "Read(./.env)", "Read", ".env", true),
		file("env no", "Read(./.env)", "Read", "/home/u/proj/.envrc", false),
		file("basename glob", "Read(*.pem)", "Read", "/a/b/key.pem", true),
		file("double slash absolute", "Read(//etc/passwd)", "Read", "/etc/passwd", true),
		file("double slash not suffix", "Read(//etc/passwd)", "Read", "/chroot/etc/passwd", false),
		file("single slash", "Edit(/src/**)", "Edit", "/repo/src/x.go", true),
		file("home", "Read(~/.ssh/**)", "Read", "/home/u/.ssh/id_rsa", true),
		file("cleaned value", "Write(vendor/**)", "Write", "/repo/src/../vendor/x.go", true),
		file("other tool", "Write(src/**)", "Edit", "src/x", false),
		file("case-insensitive tool", "write(src/**)", "Write", "src/x", true),
		{"path argument", "WriteFile(vendor/**)", "WriteFile", `{"path":"vendor/github.com/acme/lib/x.go"}`, true},
		{"notebook", "NotebookEdit(*.ipynb)", "NotebookEdit", `{"notebook_path":"/r/n.ipynb"}`, true},
		{"no path", "Write(src/**)", "Write", `{"content":"x"}`, false},
		{"multiedit", "MultiEdit(**/*.go)", "MultiEdit", `{"file_path":"a/b.go","edits":[]}`, true},
	})
}

// TestRulePathEveryKey checks that a path rule reads every path argument of the call, not
// the first present (stop 28): Gemini CLI's list_directory names its directory `dir_path`,
// and a call with a decoy `path` next to its `file_path` (or the reverse) was judged by
// whichever came first in the rule's list while the tool may read the other. A deny rule
// matches when any path matches; an allow rule permits the call only when it permits every
// path. The subject is made in /p (NewSubjectIn) with the home directory /home/u.
func TestRulePathEveryKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rule, tool, args string
		match, allows          bool
	}{
		{"gemini list_directory", "LS(~/.ssh)", "LS", `{"dir_path":"/home/u/.ssh"}`, true, false},
		{"gemini list_directory inside", "LS(~/.ssh/**)", "LS", `{"dir_path":"/home/u/.ssh/keys"}`, true, false},
		{"gemini list_directory other", "LS(~/.ssh)", "LS", `{"dir_path":"/home/u/src"}`, false, false},
		{"claude ls", "LS(~/.ssh)", "LS", `{"path":"/home/u/.ssh"}`, true, false},
		{"ls decoy path", "LS(~/.ssh)", "LS", `{"path":"/p/src","dir_path":"/home/u/.ssh"}`, true, false},
		{"ls decoy dir_path", "LS(~/.ssh)", "LS", `{"dir_path":"/p/src","path":"/home/u/.ssh"}`, true, false},
		{"ls allow dir_path", "LS(src/**)", "LS", `{"dir_path":"/p/src/a"}`, true, true},
		{"ls allow one of two", "LS(src/**)", "LS", `{"path":"/p/src/a","dir_path":"/etc"}`, true, false},
		{"ls allow both", "LS(src/**)", "LS", `{"path":"/p/src/a","dir_path":"src/b"}`, true, true},
		{"ls odd dir_path", "LS(src/**)", "LS", `{"path":"/p/src/a","dir_path":["/etc"]}`, true, false},
		{"read decoy file_path", "Read(./.env)", "Read", `{"file_path":"/p/notes.md","path":"/p/.env"}`, true, false},
		{"read decoy path", "Read(./.env)", "Read", `{"path":"/p/notes.md","file_path":"/p/.env"}`, true, false},
		{"read neither", "Read(./.env)", "Read", `{"path":"/p/notes.md","file_path":"/p/a.md"}`, false, false},
		{"edit allow one of two", "Edit(src/**)", "Edit", `{"file_path":"/p/src/a.go","path":"/p/.env"}`, true, false},
		{"edit allow other of two", "Edit(src/**)", "Edit", `{"path":"/p/src/a.go","file_path":"/p/.env"}`, true, false},
		{"edit allow both", "Edit(src/**)", "Edit", `{"file_path":"/p/src/a.go","path":"src/b.go"}`, true, true},
		{"write allow single", "Write(src/**)", "Write", `{"file_path":"/p/src/a.go"}`, true, true},
		{"copilot view", "Read(./.env)", "Read", `{"path":"/p/.env"}`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkMatchAllows(t, tt.rule, NewSubjectIn("PreToolUse", tt.tool, json.RawMessage(tt.args), "/p").WithHome("/home/u"), tt.args, tt.match, tt.allows)
		})
	}
}

func TestRuleText(t *testing.T) {
	t.Parallel()
	runIfCases(t, []ifCase{
		{"webfetch url", "WebFetch(https://example.com/*)", "WebFetch", `{"url":"https://example.com/a/b","prompt":"x"}`, true},
		{"webfetch domain", "WebFetch(domain:example.com)", "WebFetch", `{"url":"https://example.com/a"}`, true},
		{"webfetch subdomain", "WebFetch(domain:example.com)", "WebFetch", `{"url":"https://docs.Example.com/a"}`, true},
		{"webfetch other domain", "WebFetch(domain:example.com)", "WebFetch", `{"url":"https://badexample.com/a"}`, false},
		{"webfetch domain star", "WebFetch(domain:*.example.com)", "WebFetch", `{"url":"https://a.example.com/"}`, true},
		{"webfetch bad url", "WebFetch(domain:example.com)", "WebFetch", `{"url":"::"}`, false},
		{"grep pattern", "Grep(TODO*)", "Grep", `{"pattern":"TODO: x","path":"src"}`, true},
		{"glob pattern", "Glob(**/*.go)", "Glob", `{"pattern":"**/*.go"}`, true},
		{"first string arg", "mcp__github__create_issue(acme/*)", "mcp__github__create_issue", `{"n":1,"repo":"acme/x","title":"t"}`, true},
		{"first string arg no", "mcp__github__create_issue(acme/*)", "mcp__github__create_issue", `{"title":"t","repo":"acme/x"}`, false},
		{"no string arg", "Task(x*)", "Task", `{"n":1}`, false},
		{"tool only other tool", "Task", "Bash", `{}`, false},
	})
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

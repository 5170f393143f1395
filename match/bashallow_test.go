package match

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAllowedBy checks permit semantics (issue 10 item 1): an allow rule must hold for every
// command of the line, and a line that cannot be analysed is not allowed. Each rule list is
// separated by " ; ".
func TestAllowedBy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rules, tool, args string
		want                    bool
	}{
		{"issue 10: ls && rm", "Bash(ls *)", "Bash", cmd(`ls && rm -rf victim`), false},
		{"plain", "Bash(ls *)", "Bash", cmd(`ls -la`), true},
		// Red team: single quotes in a double-quoted ${...} are literal, what they hold runs.
		{"dq single quotes", "Bash(ls *)", "Bash", cmd(`ls "${x:-'$(rm -rf x)'}"`), false},
		{"comment ending in a backslash", "Bash(ls *)", "Bash", cmd("ls #\\\nrm victim"), false},
		{"backslash CR LF", "Bash(ls *)", "Bash", cmd("ls x\\\r\nrm victim"), false},
		{"heredoc single quotes", "Bash(cat *)", "Bash", cmd("cat <<EOF\n${x:-'$(rm -rf x)'}\nEOF"), false},
		{"dq single quotes without expansion", "Bash(ls *)", "Bash", cmd(`ls "${x:-'a b'}"`), true},
		// Red team: a nameref with no target.
		{"nameref", "Bash(declare *) ; Bash(r=*) ; Bash(: *)", "Bash", cmd(`declare -n r; r='a[$(rm -rf x)]'; : $r`), false},
		// Words whose value is not known: the rule must cover them as written.
		{"ansi-c decoded", "Bash(ls -la)", "Bash", cmd(`ls $'-la'`), true},
		{"variable not an exact argument", "Bash(ls -la)", "Bash", cmd(`ls $f`), false},
		{"variable subcommand", "Bash(git status:*)", "Bash", cmd(`git $p`), false},
		{"variable under a prefix rule", "Bash(git status:*)", "Bash", cmd(`git status $p`), true},
		{"git global options as written", "Bash(git status:*)", "Bash", cmd(`git -C . status`), false},
		{"glob not an exact argument", "Bash(rm x)", "Bash", cmd(`rm ?`), false},
		// Red team: a write redirection is a unit of its own.
		{"write redirection", "Bash(ls *)", "Bash", cmd(`ls > ~/.bashrc`), false},
		{"append redirection", "Bash(ls *)", "Bash", cmd(`ls >> .git/hooks/pre-commit`), false},
		{"read-write redirection", "Bash(ls *)", "Bash", cmd(`ls <>x`), false},
		{"both redirection", "Bash(ls *)", "Bash", cmd(`ls &>log`), false},
		{"redirection to /dev/null", "Bash(ls *)", "Bash", cmd(`ls >/dev/null 2>&1`), true},
		{"descriptor duplication", "Bash(ls *)", "Bash", cmd(`ls 2>&1 >&2`), true},
		{"read redirection", "Bash(cat *)", "Bash", cmd(`cat < notes.txt`), true},
		{"write permitted by its own rule", "Bash(ls *) ; Bash(> out.txt)", "Bash", cmd(`ls > out.txt`), true},
		{"exact", "Bash(ls)", "Bash", cmd(`ls`), true},
		{"exact with args", "Bash(ls)", "Bash", cmd(`ls -la`), false},
		{"each by some rule", "Bash(ls *) ; Bash(git status*)", "Bash", cmd(`ls && git status`), true},
		{"one not covered", "Bash(ls *) ; Bash(git status*)", "Bash", cmd(`ls && git status; git push`), false},
		{"semicolon", "Bash(ls *)", "Bash", cmd(`ls; rm -rf victim`), false},
		{"pipe", "Bash(ls *)", "Bash", cmd(`ls | sh`), false},
		{"or", "Bash(ls *)", "Bash", cmd(`ls || rm x`), false},
		{"newline", "Bash(ls *)", "Bash", cmd("ls\nrm x"), false},
		{"background", "Bash(ls *)", "Bash", cmd(`ls & rm x`), false},
		{"command substitution", "Bash(echo *)", "Bash", cmd(`echo $(rm -rf victim)`), false},
		{"backquotes", "Bash(echo *)", "Bash", cmd("echo `rm -rf victim`"), false},
		{"process substitution", "Bash(cat *)", "Bash", cmd(`cat <(rm -rf victim)`), false},
		{"in an assignment", "Bash(ls *)", "Bash", cmd(`X=$(rm -rf victim) ls`), false},
		{"prefix assignment kept", "Bash(ls *)", "Bash", cmd(`PATH=/tmp/evil ls`), false},
		{"prefix assignment allowed", "Bash(PATH=/tmp) ; Bash(ls *)", "Bash", cmd(`PATH=/tmp ls -l`), true},
		{"assignment rule is not the command's", "Bash(FOO=*)", "Bash", cmd(`FOO=1 rm -rf victim`), false},
		{"bare assignment is a command", "Bash(ls *)", "Bash", cmd(`PAGER=evil; ls`), false},
		{"export is a command", "Bash(ls *)", "Bash", cmd(`export PAGER=evil; ls`), false},
		{"function body", "Bash(ls *)", "Bash", cmd(`f() { rm -rf victim; }; ls`), false},
		{"subshell", "Bash(ls *)", "Bash", cmd(`(ls; rm x)`), false},
		{"if body", "Bash(ls *)", "Bash", cmd(`if ls; then rm x; fi`), false},
		{"path is not the base name", "Bash(ls *)", "Bash", cmd(`./ls -la`), false},
		{"absolute path", "Bash(ls *)", "Bash", cmd(`/tmp/x/ls`), false},
		{"wrapper needs its own rule", "Bash(ls *)", "Bash", cmd(`sudo ls`), false},
		{"wrapper and command", "Bash(sudo *) ; Bash(ls *)", "Bash", cmd(`sudo ls`), true},
		{"wrapper is no blanket grant", "Bash(sudo *)", "Bash", cmd(`sudo rm -rf victim`), false},
		{"nice rm", "Bash(nice *) ; Bash(ls *)", "Bash", cmd(`nice rm -rf victim`), false},
		{"bash -c inner", "Bash(bash *) ; Bash(ls *)", "Bash", cmd(`bash -c 'ls; rm -rf victim'`), false},
		{"bash -c covered", "Bash(bash *) ; Bash(ls *)", "Bash", cmd(`bash -c 'ls -l'`), true},
		{"eval", "Bash(eval *) ; Bash(ls *)", "Bash", cmd(`eval 'ls; rm x'`), false},
		{"eval dynamic", "Bash(eval *) ; Bash(ls *)", "Bash", cmd(`eval "$X"`), false},
		{"alias expansion", "Bash(alias *) ; Bash(ll *)", "Bash", cmd(`alias ll='rm -rf'; ll victim`), false},
		{"xargs appends", "Bash(xargs *) ; Bash(rm)", "Bash", cmd(`echo a | xargs rm`), false},
		{"xargs prefix rule", "Bash(echo *) ; Bash(xargs *) ; Bash(rm *)", "Bash", cmd(`echo a | xargs rm`), true},
		{"find -exec", "Bash(find *)", "Bash", cmd(`find . -exec rm {} \;`), false},
		{"dynamic command name", "Bash(ls *)", "Bash", cmd(`$X`), false},
		{"dynamic after ls", "Bash(ls *)", "Bash", cmd(`ls && $(echo rm) -rf x`), false},
		{"unparsable", "Bash(ls *)", "Bash", cmd(`ls && (`), false},
		{"stdin script unknown", "Bash(cat *) ; Bash(bash *)", "Bash", cmd(`cat x | bash`), false},
		{"trap", "Bash(trap *) ; Bash(ls *)", "Bash", cmd(`trap 'rm x' EXIT; ls`), false},
		{"quoted mention is data", "Bash(echo *)", "Bash", cmd(`echo 'rm -rf /' && echo "; rm"`), true},
		{"redirection alone", "Bash(ls *)", "Bash", cmd(`ls; > ~/.bashrc`), false},
		{"appending redirection alone", "Bash(ls *)", "Bash", cmd(`ls; >> ~/.bashrc <<< 'rm -rf /'`), false},
		{"reading a file is no command", "Bash(echo *)", "Bash", cmd(`echo "$(< notes.txt)"`), true},
		{"arithmetic only", "Bash(ls *)", "Bash", cmd(`ls && [[ -f x ]]`), true},
		{"bare Bash permits all", "Bash", "Bash", cmd(`rm -rf victim`), true},
		{"no command", "Bash(ls *)", "Bash", `{"cmd":"ls"}`, false},
		{"invalid JSON", "Bash", "Bash", `{"command":`, false},
		{"other tool", "Bash(ls *)", "Read", `{"file_path":"ls"}`, false},
		{"read rule", "Read(src/**)", "Read", `{"file_path":"src/a.go"}`, true},
		{"path rule in dir", "Edit(src/**)", "Edit", `{"file_path":"/ws/src/a.go"}`, true},
		{"path rule trailing part", "Edit(src/**)", "Edit", `{"file_path":"/ws/vendor/src/a.go"}`, false},
		{"path rule relative trailing part", "Edit(src/**)", "Edit", `{"file_path":"vendor/src/a.go"}`, false},
		{"path rule outside dir", "Edit(src/**)", "Edit", `{"file_path":"/etc/src/passwd"}`, false},
		{"path rule dot-dot", "Edit(src/**)", "Edit", `{"file_path":"/ws/../src/x"}`, false},
		{"path rule relative dot-dot", "Edit(src/**)", "Edit", `{"file_path":"src/../../src/x"}`, false},
		{"path rule dir prefix", "Edit(src/**)", "Edit", `{"file_path":"/wsx/src/a.go"}`, false},
		{"path rule absolute", "Read(//etc/hosts)", "Read", `{"file_path":"/etc/hosts"}`, true},
		{"path rule home", "Read(~/.ssh/*)", "Read", `{"file_path":"/root/.ssh/id"}`, false},
		{"read rule invalid JSON", "Read(src/**)", "Read", `{"file_path":`, false},
		{"tool case", "bash(ls *)", "Bash", cmd(`ls`), true},
		{"nil rule permits nothing", "", "Bash", cmd(`ls`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var rules []*If
			for _, src := range strings.Split(tt.rules, " ; ") {
				f, err := CompileIf(src)
				if err != nil {
					t.Fatal(err)
				}
				rules = append(rules, f)
			}
			s := NewSubjectIn("PreToolUse", tt.tool, json.RawMessage(tt.args), "/ws")
			if got := AllowedBy(s, rules...); got != tt.want {
				t.Errorf("AllowedBy(%s, %s) = %v, want %v", tt.args, tt.rules, got, tt.want)
			}
			if len(rules) == 1 {
				if got := rules[0].Allows(s); got != tt.want {
					t.Errorf("Allows = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// cmd returns Bash tool arguments for command.
func cmd(command string) string { return `{"command":` + jsonString(command) + `}` }

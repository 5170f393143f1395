package match

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ifCase is one `if` expression applied to one tool call.
type ifCase struct {
	name string
	expr string
	tool string
	args string
	want bool
}

// runIfCases compiles and matches each case on a PreToolUse subject.
func runIfCases(t *testing.T, tests []ifCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := CompileIf(tt.expr)
			if err != nil {
				t.Fatalf("CompileIf(%q): %v", tt.expr, err)
			}
			s := NewSubject("PreToolUse", tt.tool, json.RawMessage(tt.args))
			if got := f.Match(s); got != tt.want {
				t.Errorf("CompileIf(%q).Match(%s %s) = %v, want %v", tt.expr, tt.tool, tt.args, got, tt.want)
			}
		})
	}
}

func TestIfSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want Syntax
	}{
		{"", 0},
		{"   ", 0},
		{"/rm -rf/", Regex},
		{" /rm/i ", Regex},
		{"Bash(rm *)", Rule},
		{"Bash", Rule},
		{"Bash()", Rule},
		{"Write(src/**/*.go)", Rule},
		{"mcp__github__create_issue(*)", Rule},
		{`tool == "Bash"`, Condition},
		{`args.command =~ /rm/`, Condition},
		{`tool=="Bash"`, Condition},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			f, err := CompileIf(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Syntax(); got != tt.want {
				t.Errorf("Syntax() = %v, want %v", got, tt.want)
			}
			if got := f.String(); got != tt.expr && tt.want != 0 {
				t.Errorf("String() = %q, want %q", got, tt.expr)
			}
		})
	}
}

func TestSyntaxString(t *testing.T) {
	t.Parallel()
	got := []string{Syntax(0).String(), Regex.String(), Rule.String(), Condition.String()}
	if diff := cmp.Diff([]string{"none", "regex", "rule", "condition"}, got); diff != "" {
		t.Error(diff)
	}
}

func TestIfNil(t *testing.T) {
	t.Parallel()
	f, err := CompileIf("")
	if f != nil || err != nil {
		t.Fatalf("CompileIf(\"\") = %v, %v; want nil, nil", f, err)
	}
	if !f.Match(NewSubject("Stop", "", nil)) {
		t.Error("nil *If must match")
	}
	if f.String() != "" || f.Syntax() != 0 {
		t.Error("nil *If must have no source and no syntax")
	}
}

func TestIfRegex(t *testing.T) {
	t.Parallel()
	runIfCases(t, []ifCase{
		{"search", `/rm -rf/`, "Bash", `{"command":"sudo rm -rf /"}`, true},
		{"no match", `/rm -rf/`, "Bash", `{"command":"ls"}`, false},
		{"case sensitive", `/RM/`, "Bash", `{"command":"rm x"}`, false},
		{"flag i", `/RM/i`, "Bash", `{"command":"rm x"}`, true},
		{"compact json", `/"command":"ls"/`, "Bash", `{ "command" : "ls" }`, true},
		{"key order kept", `/^\{"b":1,"a":2\}$/`, "X", `{"b": 1, "a": 2}`, true},
		{"whole json", `/"path":"vendor\//`, "WriteFile", `{"path": "vendor/x.go"}`, true},
		{"no args", `/x/`, "", ``, false},
		{"empty regex", `//`, "", ``, true},
		{"invalid json used raw", `/oops/`, "X", `{oops`, true},
	})
}

func TestCompileIfErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr   string
		offset int
		msg    string // substring of Msg
	}{
		{`/(/`, 0, `bad regex "/(/"`},
		{`  /(/`, 2, `bad regex`},
		{`/abc`, 0, `no closing /`},
		{`/abc/q`, 0, `unknown regex flag`},
		{`Bash(rm *`, 9, `has no closing )`},
		{`Write([)`, 6, `bad glob`},
		{`Write({a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b})`, 6, `too many {} alternatives`},
		{`tool == "Bash" && args.command =~ /rm/ || tool == "WriteFile"`, 39, `condition mixes && and ||; use one of them`},
		{`tool == "a" || tool == "b" && tool == "c"`, 27, `condition mixes && and ||`},
		{`tool = "Bash"`, 5, `expected an operator`},
		{`tool "Bash"`, 5, `expected an operator`},
		{`== "Bash"`, 0, `expected a field name`},
		{`tool ==`, 7, `expected a value`},
		{`tool == "Bash`, 8, `unterminated string`},
		{`args.command =~ /rm`, 16, `unterminated /regex/`},
		{`args.command =~ /(/`, 16, `bad regex "("`},
		{`args.command =~ "("`, 16, `bad regex`},
		{`args.command =~ /x/z`, 16, `unknown regex flag`},
		{`args.command == /rm/`, 16, `needs the =~ operator`},
		{`args.path ~= /rm/`, 13, `takes a glob`},
		{`args.path ~= "[a-"`, 13, `bad glob`},
		{`args.path ~= "{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b}"`, 13, `too many {} alternatives`},
		{`Write({a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,{b,c}})`, 6, `too many {} alternatives`},
		{`tool == "Bash" &&`, 17, `expected a field name`},
		{`tool == "Bash" extra`, 15, `expected && or ||`},
		{`args..x == 1`, 0, `empty part`},
		{`tool == "a" & tool == "b"`, 12, `expected && or ||`},
		{`!Bash(rm -rf *)`, 0, `if has no ! (not)`},
		{` tool == "Bash" && !Bash(rm *)`, 19, `if has no ! (not)`},
		{`tool == "Bash" || Bash(curl *)`, 18, `Bash(...) is a permission rule, which a condition cannot hold`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			_, err := CompileIf(tt.expr)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("CompileIf(%q) error = %v, want a *SyntaxError", tt.expr, err)
			}
			if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("CompileIf(%q) error = {%d, %q}, want {%d, ...%q...}", tt.expr, se.Offset, se.Msg, tt.offset, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "offset ") {
				t.Errorf("Error() = %q, want an offset prefix", err.Error())
			}
		})
	}
}

// TestIfJoinedRules covers red team round 39, F5: "Bash(rm -rf *) || Bash(curl *)" is one
// rule whose pattern is "rm -rf *) || Bash(curl *", as in Claude Code, and JoinedRules says
// so, for a config loader to refuse or warn about.
func TestIfJoinedRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want Join
		ok   bool
	}{
		{`Bash(rm -rf *) || Bash(curl *)`, Join{"||", 15}, true},
		{`  Bash(rm *)&&Bash(curl *)`, Join{"&&", 12}, true},
		{`Write(.claude/**) || Edit(.env)`, Join{"||", 18}, true},
		{`Bash(a:*)|Bash(b:*)`, Join{"|", 9}, true},
		{`Bash(a:*), Bash(b:*)`, Join{",", 9}, true},
		{`Bash(rm *) && !Bash(rm -i *)`, Join{"&&", 11}, true},
		{`mcp__x__y(a) || mcp__x__z(b)`, Join{"||", 13}, true},
		// Red team round 40, F4: whatever is between the two rules.
		{`Bash(rm *) or Bash(curl *)`, Join{"or", 11}, true},
		{`Bash(rm *) OR Bash(curl *)`, Join{"OR", 11}, true},
		{`Bash(rm *); Bash(curl *)`, Join{";", 10}, true},
		{`Bash(rm *) Bash(curl *)`, Join{" ", 10}, true},
		{"Bash(rm *)\nBash(curl *)", Join{" ", 10}, true},
		{"Bash(rm *)\n  Bash(curl *)\n", Join{" ", 10}, true},
		{`Bash(rm *)Bash(curl *)`, Join{" ", 10}, true},
		{`Bash(rm *) ｜｜ Bash(curl *)`, Join{"｜｜", 11}, true},
		{`Bash(rm *)｜｜Bash(curl *)`, Join{"｜｜", 10}, true},
		{`Bash(rm *) and then Bash(curl *)`, Join{"and then", 11}, true},
		{`Bash(rm *) or !Bash(rm -i *)`, Join{"or", 11}, true},
		{`Bash(rm *) or mcp__github__create_issue(x)`, Join{"or", 11}, true},
		{`Bash(rm *) or run_shell_command(curl *)`, Join{"or", 11}, true},
		{`Bash(echo (a) b) or Bash(curl *)`, Join{"or", 17}, true},
		{`Bash(don't) or Bash(curl *)`, Join{"or", 12}, true}, // an open quote: quotes are not special
		{`Bash(echo "a") || Bash(curl *)`, Join{"||", 15}, true},
		// Parentheses of the pattern itself, balanced or quoted: one rule.
		{`Bash(echo (a) b)`, Join{}, false},
		{`Bash(python -c "print(1)")`, Join{}, false},
		{`Bash(python -c "x=')'; print(x)")`, Join{}, false},
		{`Bash(python -c 'print(")")')`, Join{}, false},
		{`Bash(echo ":)" and more)`, Join{}, false},
		{`Bash(echo \) print(x))`, Join{}, false},
		{`Bash(f() { g(1); })`, Join{}, false},
		{`Read(src/(a)/**)`, Join{}, false},
		{`Bash(case $x in a) rm *;; esac)`, Join{}, false},
		{`Bash(rm *) (curl *)`, Join{}, false}, // no tool name: one rule (see decisions.md)
		{`Bash(rm *) or 2x(y)`, Join{}, false},
		{`Bash(rm *)`, Join{}, false},
		{`Bash`, Join{}, false},
		{`Bash(echo $(date) || cat(x))`, Join{}, false}, // the ')' closes the pattern's own '('
		{`Bash(a) || b)`, Join{}, false},
		{`/x\) || Bash\(y/`, Join{}, false},
		{`tool == "Bash"`, Join{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			f, err := CompileIf(tt.expr)
			if err != nil {
				t.Fatalf("CompileIf(%q): %v", tt.expr, err)
			}
			got, ok := f.JoinedRules()
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.ok {
				t.Errorf("JoinedRules() = %v, %v, want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
	// Each stays one rule, matched as Claude Code matches it: not rm -rf, not curl.
	for _, expr := range []string{`Bash(rm -rf *) || Bash(curl *)`, `Bash(rm -rf *) or Bash(curl *)`,
		`Bash(rm -rf *) OR Bash(curl *)`, `Bash(rm -rf *); Bash(curl *)`, `Bash(rm -rf *) Bash(curl *)`,
		"Bash(rm -rf *)\nBash(curl *)", `Bash(rm -rf *) ｜｜ Bash(curl *)`} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"rm -rf x", "curl http://x"} {
			args, _ := json.Marshal(map[string]string{"command": cmd})
			if f.Match(NewSubject("PreToolUse", "Bash", args)) {
				t.Errorf("%q matched %q; want the one rule Claude Code reads", f, cmd)
			}
		}
	}
}

func TestSubjectConcurrentUse(t *testing.T) {
	t.Parallel()
	var filters []*If
	for _, expr := range []string{"Bash(rm *)", `/rm/`, `args.command =~ /rm/ && file_path == ""`, "Bash(ls:*)"} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		filters = append(filters, f)
	}
	s := NewSubject("PreToolUse", "Bash", json.RawMessage(`{"command": "ls && rm -rf x"}`))
	done := make(chan bool)
	for range 8 {
		go func() {
			ok := true
			for _, f := range filters {
				ok = ok && f.Match(s)
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("a filter did not match")
		}
	}
}

// TestIfPathRulesAnchoredAtProjectRoot: with the project root known (NewSubjectAt), a
// relative path rule is anchored there and does not fire outside it, as Claude Code 2.1.332
// anchors Write(docs/**) and Edit(/src/**) (scenario testdata/claude/if-paths of the root
// package: only <root>/docs/a.md and <root>/src/x.go were blocked). Without a root, the
// rule still matches any trailing part of the path.
func TestIfPathRulesAnchoredAtProjectRoot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cond, root, tool, path string
		want                   bool
	}{
		{"Write(docs/**)", "/w", "Write", "/w/docs/a.md", true},
		{"Write(docs/**)", "/w", "Write", "/w/sub/docs/b.md", false},
		{"Write(docs/**)", "/w", "Write", "/tmp/docs/c.md", false},
		{"Write(docs/**)", "/w", "Write", "docs/rel.md", true},
		{"Write(docs/**)", "/w", "Write", "/w/docs/../x.md", false},
		{"Write(docs/**)", "/w", "Write", "/wdocs/a.md", false},
		{"Edit(/src/**)", "/w", "Edit", "/w/src/x.go", true},
		{"Edit(/src/**)", "/w", "Edit", "/w/lib/src/y.go", false},
		{"Edit(/src/**)", "/w", "Write", "/w/src/x.go", false},
		{"Edit(//etc/**)", "/w", "Edit", "/etc/passwd", true},
		{"Write(docs/**)", "", "Write", "/tmp/docs/c.md", true},
		{"Write(docs/**)", "", "Write", "/w/sub/docs/b.md", true},
	}
	for _, tt := range tests {
		t.Run(tt.cond+" "+tt.root+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			c, err := CompileIf(tt.cond)
			if err != nil {
				t.Fatal(err)
			}
			args := []byte(`{"file_path":"` + tt.path + `"}`)
			if got := c.Match(NewSubjectAt(tt.root, "PreToolUse", tt.tool, args)); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestIfPathRulesReadLikeGitignore: a path rule's pattern is read as Claude Code 2.1.332
// reads it (testdata/claude/if-dirs of the root package), the way .gitignore reads a line:
// without a '/' but a leading "./" it names a file or directory at any depth below the root,
// and a path inside a directory it names is matched too. Deny semantics only: an allow rule
// still permits the paths its glob matches, relative to the directory, and nothing more.
func TestIfPathRulesReadLikeGitignore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, path    string
		match, allows bool
	}{
		{"Read(./.env)", "/p/.env", true, true},
		{"Read(./.env)", "/p/sub/deep/.env", true, false},
		{"Read(.env)", "/p/sub/.env", true, false},
		{"Read(././.env)", "/p/sub/.env", true, false},
		{"Read(./.env)", "/p/.envrc", false, false},
		{"Read(./.env)", "/tmp/.env", false, false},
		{"Read(/.env)", "/p/sub/.env", false, false},
		{"Read(sub/.env)", "/p/sub/.env", true, true},
		{"Read(sub/.env)", "/p/x/sub/.env", false, false},
		{"Read(secrets)", "/p/secrets/key.txt", true, false},
		{"Read(secrets/)", "/p/lib/secrets/b.txt", true, false},
		{"Read(secrets)", "/p/secretsx/d.txt", false, false},
		{"Read(./secrets/**)", "/p/secrets", true, true},
		{"Read(config/app)", "/p/config/app/key.pem", true, false},
		{"Read(*.pem)", "/p/a/b/key.pem", true, false},
		{"Read(~/.ssh)", "/home/u/.ssh/id_rsa", true, false},
		{"Read(//etc/ssl)", "/etc/ssl/private/k.pem", true, false},
		{"Edit(./.env)", "/p/sub/.env", true, false},
		{"Write(docs/**)", "/p/sub/docs/a.md", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			tool, _, _ := strings.Cut(tt.rule, "(")
			args := `{"file_path":` + jsonString(tt.path) + `}`
			s := NewSubjectAt("/p", "PreToolUse", tool, json.RawMessage(args)).WithHome("/home/u")
			s.dir = "/p"
			checkMatchAllows(t, tt.rule, s, args, tt.match, tt.allows)
		})
	}
}

// TestCompileIfOnce: an `if` compiled twice (a config's check, then the Runner) is compiled
// once and shared (issue 9); errors are not kept, and the memo stops growing at its cap.
func TestCompileIfOnce(t *testing.T) {
	a, err := CompileIf(`tool == "Bash" && args.command =~ /rm\s+-rf once/`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompileIf(`tool == "Bash" && args.command =~ /rm\s+-rf once/`)
	if a != b {
		t.Error("the same expression was compiled twice")
	}
	if _, err := CompileIf(`tool == "a" &&`); err == nil {
		t.Error("a bad expression compiled")
	}
	for i := range maxCompiledIfs + 10 {
		if _, err := CompileIf(fmt.Sprintf("tool == %q", fmt.Sprint("T", i))); err != nil {
			t.Fatal(err)
		}
	}
	compiledIfs.Lock()
	n := len(compiledIfs.m)
	compiledIfs.Unlock()
	if n > maxCompiledIfs {
		t.Errorf("%d expressions kept, cap %d", n, maxCompiledIfs)
	}
	if f, err := CompileIf("tool == \"T-after-cap\""); err != nil || !f.Match(NewSubject("PreToolUse", "T-after-cap", nil)) {
		t.Errorf("past the cap: %v, %v", f, err)
	}
}

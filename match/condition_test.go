package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestCondition(t *testing.T) {
	t.Parallel()
	const rmRoot = `tool == "Bash" && args.command =~ /rm\s+-rf\s+\//`
	runIfCases(t, []ifCase{
		// Conformance cases 01 and 02.
		{"01 rm -rf /", rmRoot, "Bash", `{"command":"rm -rf /"}`, true},
		{"02 rm -rf ./build", rmRoot, "Bash", `{"command":"rm -rf ./build"}`, false},
		{"01 other tool", rmRoot, "Shell", `{"command":"rm -rf /"}`, false},
		// Conformance cases 03 and 04: ~= is a doublestar glob.
		{"03 vendor/**", `tool == "WriteFile" && args.path ~= "vendor/**"`, "WriteFile", `{"path":"vendor/github.com/acme/lib/x.go","content":"package lib"}`, true},
		{"03 outside vendor", `tool == "WriteFile" && args.path ~= "vendor/**"`, "WriteFile", `{"path":"src/vendor.go"}`, false},
		{"04 *.py no cross", `tool == "WriteFile" && args.path ~= "*.py"`, "WriteFile", `{"path":"src/app.py","content":"print(1)"}`, false},
		{"04 **/*.py", `tool == "WriteFile" && args.path ~= "**/*.py"`, "WriteFile", `{"path":"src/app.py","content":"print(1)"}`, true},
		{"04 *.py top level", `args.path ~= "*.py"`, "WriteFile", `{"path":"app.py"}`, true},
		// Conformance case 14: ||.
		{"14 first", `tool == "ReadFile" || tool == "WriteFile"`, "ReadFile", `{"path":"README.md"}`, true},
		{"14 second", `tool == "ReadFile" || tool == "WriteFile"`, "WriteFile", `{}`, true},
		{"14 neither", `tool == "ReadFile" || tool == "WriteFile"`, "Bash", `{}`, false},
		{"and all", `tool == "Bash" && args.command == "ls" && event == "PreToolUse"`, "Bash", `{"command":"ls"}`, true},
		{"and one false", `tool == "Bash" && args.command == "ls" && event == "Stop"`, "Bash", `{"command":"ls"}`, false},
		// ==, != and case rules.
		{"tool case-insensitive", `tool == "bash"`, "Bash", `{}`, true},
		{"tool !=", `tool != "Bash"`, "ReadFile", `{}`, true},
		{"tool != same", `tool != "bash"`, "Bash", `{}`, false},
		{"args case-sensitive", `args.command == "LS"`, "Bash", `{"command":"ls"}`, false},
		{"event snake_case", `event == "pre_tool_use"`, "Bash", `{}`, true},
		{"event canonical", `event == "PreToolUse"`, "Bash", `{}`, true},
		{"event other", `event == "post_tool_use"`, "Bash", `{}`, false},
		{"event regex", `event =~ /^Pre/`, "Bash", `{}`, true},
		{"aliases", `tool_name == "Bash" && tool_input.command == "ls" && hook_event_name == "PreToolUse"`, "Bash", `{"command":"ls"}`, true},
		// Values.
		{"single quotes", `args.command == 'ls -l'`, "Bash", `{"command":"ls -l"}`, true},
		{"single quote escape", `args.q == 'it\'s'`, "X", `{"q":"it's"}`, true},
		{"double quote escapes", `args.q == "a\"b\\c\nd"`, "X", `{"q":"a\"b\\c\nd"}`, true},
		{"bare word", `args.mode == fast`, "X", `{"mode":"fast"}`, true},
		{"bare no space", `args.mode==fast&&tool==X`, "X", `{"mode":"fast"}`, true},
		{"number", `args.n == 5`, "X", `{"n":5}`, true},
		{"number quoted", `args.n == "5"`, "X", `{"n":5}`, true},
		{"number text kept", `args.n == 5.0`, "X", `{"n":5.0}`, true},
		{"number string", `args.n == 5`, "X", `{"n":"5"}`, true},
		{"bool", `args.force == true`, "X", `{"force":true}`, true},
		{"bool false", `args.force == true`, "X", `{"force":false}`, false},
		{"null", `args.x == null`, "X", `{"x":null}`, true},
		{"object text", `args.o == '{"a":1}'`, "X", `{"o":{ "a" : 1 }}`, true},
		{"whole args", `args =~ /"force":true/`, "X", `{"force": true}`, true},
		// Nested and indexed paths.
		{"nested", `args.a.b == "x"`, "X", `{"a":{"b":"x"}}`, true},
		{"index", `args.items.1 == "b"`, "X", `{"items":["a","b"]}`, true},
		{"index out of range", `args.items.2 == ""`, "X", `{"items":["a","b"]}`, true},
		{"index not number", `args.items.x == "a"`, "X", `{"items":["a"]}`, false},
		{"path through string", `args.a.b == ""`, "X", `{"a":"s"}`, true},
		// Unknown and missing fields read as "".
		{"unknown field", `nonsense == ""`, "X", `{}`, true},
		{"unknown field !=", `nonsense != ""`, "X", `{}`, false},
		{"missing arg", `args.nope == ""`, "X", `{"a":1}`, true},
		{"missing arg regex", `args.nope =~ /./`, "X", `{"a":1}`, false},
		{"no args", `args.command == ""`, "", ``, true},
		{"invalid args", `args.command == ""`, "Bash", `{oops`, true},
		// file_path.
		{"file_path", `file_path ~= "**/*.go"`, "Write", `{"file_path":"/repo/a/b.go"}`, true},
		{"file_path from path", `file_path == "a.txt"`, "WriteFile", `{"path":"a.txt"}`, true},
		{"file_path from notebook_path", `file_path ~= "*.ipynb"`, "NotebookEdit", `{"notebook_path":"n.ipynb"}`, true},
		{"file_path prefers file_path", `file_path == "a"`, "X", `{"path":"b","file_path":"a"}`, true},
		// =~ forms.
		{"regex from string", `args.command =~ "rm\s+-rf"`, "Bash", `{"command":"rm  -rf x"}`, true},
		{"regex i", `args.command =~ /RM/i`, "Bash", `{"command":"rm x"}`, true},
		{"regex unanchored", `args.command =~ /rf/`, "Bash", `{"command":"rm -rf x"}`, true},
		{"regex escaped slash", `args.p =~ /^a\/b$/`, "X", `{"p":"a/b"}`, true},
		{"regex bare word", `args.p =~ ^ab`, "X", `{"p":"abc"}`, true},
		// ~= details.
		{"glob star", `args.p ~= "src/*"`, "X", `{"p":"src/a/b"}`, false},
		{"glob class", `args.p ~= "[ab].txt"`, "X", `{"p":"b.txt"}`, true},
		{"glob braces", `args.p ~= "*.{js,ts}"`, "X", `{"p":"a.ts"}`, true},
		// Whitespace.
		{"spaces and tabs", "\ttool  ==\t\"Bash\"   ", "Bash", `{}`, true},
	})
}

func TestConditionEventOnEventWithoutTool(t *testing.T) {
	t.Parallel()
	f, err := CompileIf(`event == "session_start" && tool == ""`)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Match(NewSubject("SessionStart", "", nil)) {
		t.Error("want a match on SessionStart")
	}
	if f.Match(NewSubject("SessionEnd", "", json.RawMessage(`{}`))) {
		t.Error("want no match on SessionEnd")
	}
}

// TestFilePathEqualityReadsPaths: file_path == and != compare files, not strings: every
// spelling of the file a rule names (relative, ./, .., a symlink to it) is equal to it, and
// != does not hold for any of them (red team round 20: a deny rule `file_path ==
// "/abs/secret.txt"` let `./secret.txt` through).
func TestFilePathEqualityReadsPaths(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "secret.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip(err)
	}
	secret := filepath.Join(root, "secret.txt")
	eq := mustIf(t, `file_path == "`+secret+`"`)
	ne := mustIf(t, `file_path != "`+secret+`"`)
	rel := mustIf(t, `file_path == "secret.txt"`)
	for _, p := range []string{secret, "secret.txt", "./secret.txt", "sub/../secret.txt", root + "//secret.txt", "link.txt", filepath.Join(root, "link.txt")} {
		args, _ := json.Marshal(map[string]string{"file_path": p})
		s := NewSubjectAt(root, "PreToolUse", "Write", args).WithCwd(root)
		if !eq.Match(s) || ne.Match(s) || !rel.Match(s) {
			t.Errorf("%s: == %v, != %v, == relative %v", p, eq.Match(s), ne.Match(s), rel.Match(s))
		}
	}
	args, _ := json.Marshal(map[string]string{"file_path": "other.txt"})
	s := NewSubjectAt(root, "PreToolUse", "Write", args).WithCwd(root)
	if eq.Match(s) || !ne.Match(s) {
		t.Errorf("other.txt: == %v, != %v", eq.Match(s), ne.Match(s))
	}
}

// TestConditionFilePathEveryKey checks that the file_path field of a condition reads every
// path argument of the call, as path rules do (stop 28): `file_path`, `path` and
// `notebook_path`. With deny semantics (Match) a clause holds when it holds for any of them;
// with permit semantics (Allows) only when it holds for every one.
func TestConditionFilePathEveryKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cond, args string
		match, allows    bool
	}{
		{"glob decoy file_path", `file_path ~= "**/.env"`, `{"file_path":"/p/notes.md","path":"/p/.env"}`, true, false},
		{"glob decoy path", `file_path ~= "**/.env"`, `{"path":"/p/notes.md","file_path":"/p/.env"}`, true, false},
		{"glob notebook_path", `file_path ~= "**/.env"`, `{"file_path":"/p/a.md","notebook_path":"/p/.env"}`, true, false},
		{"glob neither", `file_path ~= "**/.env"`, `{"file_path":"/p/a.md","path":"/p/b.md"}`, false, false},
		{"glob both", `file_path ~= "/p/src/**"`, `{"file_path":"/p/src/a.go","path":"/p/src/b.go"}`, true, true},
		{"glob allow one of two", `file_path ~= "/p/src/**"`, `{"file_path":"/p/src/a.go","path":"/p/.env"}`, true, false},
		{"equal second", `file_path == "/p/.env"`, `{"file_path":"/p/a.md","path":"/p/.env"}`, true, false},
		{"not equal second", `file_path != "/p/a.md"`, `{"file_path":"/p/a.md","path":"/p/.env"}`, true, false},
		{"not equal both", `file_path != "/p/.env"`, `{"file_path":"/p/a.md","path":"/p/b.md"}`, true, true},
		{"regex second", `file_path =~ /\.env$/`, `{"file_path":"/p/a.md","path":"/p/.env"}`, true, false},
		{"with tool", `tool == "Read" && file_path ~= "/p/src/**"`, `{"file_path":"/p/src/a.go","path":"/p/.env"}`, true, false},
		{"no path", `file_path == ""`, `{"content":"x"}`, true, true},
		{"single", `file_path ~= "/p/src/**"`, `{"file_path":"/p/src/a.go"}`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkMatchAllows(t, tt.cond, NewSubjectIn("PreToolUse", "Read", json.RawMessage(tt.args), "/p"), tt.args, tt.match, tt.allows)
		})
	}
}

// checkMatchAllows compiles the if src and checks Match (a deny reading) and Allows (an
// allow reading) on s.
func checkMatchAllows(t *testing.T, src string, s *Subject, args string, match, allows bool) {
	t.Helper()
	f := mustIf(t, src)
	if got := f.Match(s); got != match {
		t.Errorf("%s.Match(%s) = %v, want %v", src, args, got, match)
	}
	if got := f.Allows(s); got != allows {
		t.Errorf("%s.Allows(%s) = %v, want %v", src, args, got, allows)
	}
}

func mustIf(t *testing.T, src string) *If {
	t.Helper()
	f, err := CompileIf(src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

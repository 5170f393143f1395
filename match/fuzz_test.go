package match

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/hookcore/hookcore/internal/shbound"
)

func FuzzCompileMatcher(f *testing.F) {
	for _, s := range []string{"", "*", "Bash", "Edit|Write", "Edit, Write", "/rm/i", "/a/b/", "mcp__github__.*",
		"Notebook.*", "Edit|", "/(/", "[", "/x/q", "é|ü", " | "} {
		f.Add(s, "Bash")
	}
	f.Fuzz(func(t *testing.T, matcher, name string) {
		m, err := CompileMatcher(matcher)
		if err != nil {
			return
		}
		got := m.Match(name)
		if m.Any() && !got {
			t.Fatalf("any matcher %q did not match %q", matcher, name)
		}
		for _, n := range m.Names() {
			if !m.Match(n) {
				t.Fatalf("matcher %q does not match its own name %q", matcher, n)
			}
		}
		if m.String() != matcher {
			t.Fatalf("String() = %q, want %q", m.String(), matcher)
		}
	})
}

func FuzzCompileIf(f *testing.F) {
	seeds := []struct{ expr, tool, args string }{
		{`tool == "Bash" && args.command =~ /rm\s+-rf\s+\//`, "Bash", `{"command":"rm -rf /"}`},
		{`tool == "WriteFile" && args.path ~= "vendor/**"`, "WriteFile", `{"path":"vendor/a/b.go"}`},
		{`tool == "ReadFile" || tool == "WriteFile"`, "ReadFile", `{"path":"README.md"}`},
		{`args.items.0 == 5 && event == "pre_tool_use"`, "X", `{"items":[5]}`},
		{`file_path ~= "**/*.py"`, "Write", `{"file_path":"/a/b.py"}`},
		{`/rm -rf/i`, "Bash", `{ "command" : "RM -RF x" }`},
		{"Bash(rm *)", "Bash", `{"command":"cd /tmp/build && ls | head -1 ; rm -rf out"}`},
		{"Bash(rm *)", "Bash", `{"command":"echo 'rm -rf /' && grep -r rm docs/"}`},
		{"Bash(npm run test:*)", "Bash", `{"command":"sudo -u x env A=1 bash -c \"eval 'find . -exec rm {} +'\""}`},
		{"Bash(rm *)", "Bash", `{"command":"echo \"unterminated"}`},
		{"Write(src/**/*.go)", "Write", `{"file_path":"/r/src/a.go"}`},
		{"Read(//etc/*)", "Read", `{"file_path":"/etc/passwd"}`},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://x.example.com"}`},
		{"Task(x*)", "Task", `{"prompt":"x"}`},
		{`args.q == "a\"b" || args.q == 'c\'d'`, "X", `{"q":"c'd"}`},
		{`tool == "a" && tool == "b" || x == y`, "X", `{}`},
		{`args.. == 1`, "X", `{}`},
		{"Bash(rm *", "Bash", `{}`},
	}
	for _, s := range seeds {
		f.Add(s.expr, s.tool, s.args)
	}
	f.Fuzz(func(t *testing.T, expr, tool, args string) {
		c, err := CompileIf(expr)
		if err != nil {
			var se *SyntaxError
			if !asSyntaxError(err, &se) {
				t.Fatalf("CompileIf(%q) error %v is not a *SyntaxError", expr, err)
			}
			if se.Offset < 0 || se.Offset > len(expr) {
				t.Fatalf("CompileIf(%q) error offset %d out of range", expr, se.Offset)
			}
			return
		}
		s := NewSubject("PreToolUse", tool, json.RawMessage(args))
		first := c.Match(s)
		if again := c.Match(s); again != first {
			t.Fatalf("CompileIf(%q).Match not stable: %v then %v", expr, first, again)
		}
	})
}

func asSyntaxError(err error, target **SyntaxError) bool {
	se, ok := err.(*SyntaxError)
	*target = se
	return ok
}

// FuzzBashRule feeds arbitrary commands to Bash permission rules, exercising the shell
// parsing and rendering.
func FuzzBashRule(f *testing.F) {
	for _, c := range []string{
		"cd /tmp/build && ls | head -1 ; rm -rf out",
		"echo 'rm -rf /' && grep -r rm docs/",
		`sudo -u root env A=1 nohup timeout 5 xargs -n1 /bin/rm -rf "$X"`,
		`bash -lc "eval 'find . -exec rm {} +'"`,
		`f() { rm -rf /; }; f $(r\m x) <(rm y) ` + "`rm z`",
		`for i in {1..3}; do echo $'\x72m' "${A:-b}" 'c'"d"; done`,
		`echo "unterminated`,
		"cat <<EOF\nrm -rf /\nEOF",
		// Nesting that crashed the parser with a fatal stack overflow, and chains that made
		// the walk deep or the texts quadratic.
		strings.Repeat("(", 200000) + "rm -rf /" + strings.Repeat(")", 200000),
		strings.Repeat("$( ", 2000) + "rm" + strings.Repeat(")", 2000),
		strings.Repeat("a|", 5000) + "rm x",
		strings.Repeat("sudo ", 100) + "rm x",
		"find . -exec find . -exec find . -exec find . -exec find . -exec rm {} \\; \\; \\; \\; \\;",
		// Bypasses: shell options, scripts on stdin, wrappers, trap and alias.
		`bash -eo pipefail --rcfile /dev/null -O extglob -xc -- 'rm -rf X'`,
		"bash <<'EOF'\nrm -rf X\nEOF\nsh <<-E\n\tr\\m $X\n\tE",
		`sudo -iu root <<< 'rm -rf X'; . /dev/stdin <<< 'rm'; source <(echo rm)`,
		`env -iS "FOO=1 r'm' \"-rf\"\\_X \${V}" --split-string='rm x' -S'\c'`,
		`su - root -c 'rm' && runuser -u x -- rm && script -qc rm /dev/null && flock f -c rm`,
		`setsid -f ionice -c2 chrt -f 1 taskset -c 0 unshare -r strace -e x -o f nsenter -t 1 chroot / busybox rm`,
		`watch -n1 'rm -rf X' | parallel -j2 rm ::: a && xargs -I{} sh -c 'echo {}'`,
		`trap -- 'rm -rf X' EXIT; alias s='sudo ' r=rm e=eval; s r -rf X; e 'rm'`,
		// Options built by expansions (red team 4).
		`find . {-exec,rm} -rf X \; ; git {-c,'alias.x=!rm -rf X',x}; {r,-}m{,-rf} X{1..3}`,
		`f=-exec; for g in src/*.ts {a,-b}; do find . $f rm "$g" \; ; sort -S1 - * "$(echo)" $g; done`,
		`declare -n r=f; read f; git grep -e x "$r" -- *; install -s --strip-prog=$r; set +B; ls {a,b}`,
		// Red team 4: streams on other descriptors, Ex commands, strace -o, m4.
		"tclsh /dev/fd/3 3<<< 'exec rm' 4<<E\n$x\nE\n{ make -f /dev/fd/3; } 3< <(printf 'a:\\n\\trm x')",
		`vim -esc ':!rm' --cmd '%s/a/\=b/' '+w !x' -S /dev/stdin -u <(echo) *; strace -fo'|rm' -E a=b true`,
		`LESSKEYIN=/dev/fd/3 less --lesskey-s=/dev/fd/3 -k x; m4 -Dx='syscmd(rm)' <<< x; exec 3<<< x`,
	} {
		f.Add(c)
	}
	rules := []string{"Bash(rm *)", "Bash(npm run test:*)", "Bash(git * --force)", "Bash(ls)"}
	var compiled []*If
	for _, r := range rules {
		c, err := CompileIf(r)
		if err != nil {
			f.Fatal(err)
		}
		compiled = append(compiled, c)
	}
	// An allow list that names no rm must never permit a line the rm guard matches (issue
	// 10 item 1): whatever deny semantics find, or cannot analyse, permit semantics refuse.
	var allow []*If
	for _, r := range []string{"Bash(ls *)", "Bash(echo *)", "Bash(cat *)", "Bash(x=*)", "Bash(bash *)", "Bash(sudo *)",
		"Bash(env *)", "Bash(alias *)", "Bash(let *)", "Bash(declare *)", "Bash(read *)", "Bash(trap *)", "Bash(eval *)"} {
		c, err := CompileIf(r)
		if err != nil {
			f.Fatal(err)
		}
		allow = append(allow, c)
	}
	f.Fuzz(func(t *testing.T, command string) {
		args, err := json.Marshal(map[string]string{"command": command})
		if err != nil {
			return
		}
		s := NewSubject("PreToolUse", "Bash", args)
		unparsable := shbound.Check(command) != nil
		for _, c := range compiled {
			if !c.Match(s) && unparsable {
				t.Fatalf("%s does not match a command too long or deep to parse (%d bytes)", c, len(command))
			}
		}
		if compiled[0].Match(s) && AllowedBy(s, allow...) {
			t.Fatalf("Bash(rm *) matches %q, yet an allow list without rm permits it", command)
		}
	})
}

// FuzzGlobsMeet: compiling any glob a call gives never panics, and the automata match at
// least what doublestar, which matches hookcore's path rules, matches: a literal path that
// doublestar matches with a glob meets that glob compiled as a rule's and as a tool's (more
// is allowed: "**/*" meets the empty path; a miss would let a call through).
func FuzzGlobsMeet(f *testing.F) {
	for _, s := range [][2]string{
		{"**/.env/**", "a/.env"}, {"src/**/*.go", "src/a/b.go"}, {"*.{go,ts}", "x.ts"},
		{"[!a-c]x", "dx"}, {"a/**", "a"}, {`\*`, "*"}, {"@(a|b)c", "bc"}, {"{a,{b,c}}d", "cd"},
		{"**", ""}, {"[", "["}, {"a[]b", "a]b"}, {"*(x)", ""},
		// Found by the fuzzer: a trailing '/' or "**/", reversed ranges, '/' in a class.
		{"a**/", "a"}, {"*/**/", "0"}, {"[1-00- 1-0]", "0"}, {"[!x-0]x", "0x"}, {"[!0][!0]", "1/"},
		{"[!1-0]", "/"}, {"[ -00- ]", "/"}, {"s?cr*", "sécret"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, p string) {
		if len(glob) > 256 || len(p) > 256 {
			return
		}
		tool := compileGlob("/p/", true, glob, true, true)
		rule := compileGlob("", false, "**/.env/**", false, false).after("/p/")
		if _, ok := globsMeet(rule, tool, true); !ok {
			t.Fatalf("globsMeet refused %q", glob)
		}
		if hasGlobMeta(p) || !doublestar.ValidatePattern(glob) || !utf8.ValidString(glob) || !utf8.ValidString(p) {
			return // doublestar reads runes; invalid UTF-8 is its own business
		}
		lit := compileGlob(p, true, "", false, false)
		asRule := compileGlob("", false, glob, false, false)
		want := doublestar.MatchUnvalidated(glob, p)
		if got, _ := globsMeet(asRule, lit, false); want && !got {
			t.Fatalf("rule %q does not meet path %q, which doublestar matches", glob, p)
		}
		if got, _ := globsMeet(lit, compileGlob("", true, glob, false, false), false); want && !got {
			t.Fatalf("tool glob %q does not meet path %q, which doublestar matches", glob, p)
		}
	})
}

// FuzzPrinted runs printf's and echo's evaluation and the substitution of their output in a
// command's text on any words: neither may panic (red team round 55).
func FuzzPrinted(f *testing.F) {
	for _, s := range []string{`%s/.%s`, `\x2`, `%.`, `%`, `\u`, `\0`, `%5.2b`, `\c`, "$(printf '%s' a)", "`echo -e x`", "$(printf"} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, format, arg string) {
		printed([]string{"printf", format, arg})
		printed([]string{"echo", "-e", format, arg})
		substPrinted("cp " + format + " " + arg)
		shellWords(format)
	})
}

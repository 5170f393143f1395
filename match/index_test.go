package match

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFoldKeyIsEqualFold: FoldKey(a) == FoldKey(b) exactly when strings.EqualFold(a, b), on
// pairs drawn from ASCII, folding specials (K, ſ, Kelvin sign), other scripts and invalid
// bytes.
func TestFoldKeyIsEqualFold(t *testing.T) {
	t.Parallel()
	atoms := []string{"a", "A", "k", "K", "\u212a", "s", "S", "ſ", "é", "É", "ß", "ẞ", "σ", "ς", "Σ", "\xff", "\xfe", "\ufffd", "_", "1", "ǅ", "ǆ", "Ǆ"}
	rng := rand.New(rand.NewPCG(3, 14))
	gen := func() string {
		var sb strings.Builder
		for k := rng.IntN(4); k >= 0; k-- {
			sb.WriteString(atoms[rng.IntN(len(atoms))])
		}
		return sb.String()
	}
	for n := 0; n < 20000; n++ {
		a, b := gen(), gen()
		if n%3 == 0 {
			b = strings.ToUpper(a)
		}
		got := string(FoldKey(nil, a)) == string(FoldKey(nil, b))
		if want := strings.EqualFold(a, b); got != want {
			t.Fatalf("FoldKey(%q) == FoldKey(%q) is %v, EqualFold %v", a, b, got, want)
		}
	}
}

// TestLiteralsCoverMatches: every value a matcher accepts has its FoldKey among the
// matcher's Literals, and the matchers that should reduce to names do.
func TestLiteralsCoverMatches(t *testing.T) {
	t.Parallel()
	matchers := map[string]bool{ // source → reduces to literals
		"Bash": true, "Edit|Write": true, "Édit": true, "^Bash$": true, "(Read|Write)": true,
		"/^(?:edit|multiedit)$/i": true, "mcp__x__(create|update)_issue": true, "/^Ta[sk]k$/": true,
		"/^ta(s)?k$/i": true, "/^\\x{FFFD}$/": true, "/^K$/i": true, "/^s$/i": true,
		"Notebook.*": false, "/ash/": false, "/^Bash/": false, "/Bash$/": false, "/^a$/m": false, "": false, "*": false,
		"Ba[a-z]h": true, "(a|b){2}": true, "[a-z]+": false, "(a|b|c|d){4}": false,
	}
	values := []string{"Bash", "bash", "BASH", "baſh", "Edit", "edit", "Édit", "édit", "Write", "Read", "MultiEdit",
		"multiedit", "mcp__x__create_issue", "mcp__x__update_issue", "Task", "Tak", "TASK", "taſk", "Tkk", "\xff", "\ufffd",
		"K", "k", "\u212a", "s", "S", "ſ", "NotebookEdit", "a", "aa", "ab", "Bach", "BaKh", "Ba\u212ah", ""}
	for src, reduces := range matchers {
		m, err := CompileMatcher(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		lits := m.Literals()
		if (lits != nil) != reduces {
			t.Errorf("%q: Literals() = %q, want reducible %v", src, lits, reduces)
			continue
		}
		if lits == nil {
			continue
		}
		for _, v := range values {
			if m.Match(v) && !slices.Contains(lits, string(FoldKey(nil, v))) {
				t.Errorf("%q matches %q, whose key %q is not in Literals %q", src, v, FoldKey(nil, v), lits)
			}
		}
	}
}

// TestIndexMatchesFilters: Hits.Match(i) equals filters[i].Match on generated Bash commands
// and arguments, for Bash rules with and without a command word, /re/ filters with and
// without a required literal, and the other syntaxes.
func TestIndexMatchesFilters(t *testing.T) {
	t.Parallel()
	srcs := []string{"Bash(rm *)", "Bash(rm -rf *)", "Bash(git push:*)", "bash(curl *)", "BASH(ls)", "Bash(*rm*)",
		"Bash(/bin/rm *)", "Bash(sudo *)", "Bash(npm run test:*)", "Bash( rm   -rf  * )", "Bash(rm:foo *)", "Bash(echo \"a b\" *)",
		"/rm -rf/", `/git\s+push/`, "/RM/i", `/"command":"ls/`, "/(foo|bar)baz+/", `/\x{FFFD}x/`, "Write(src/**)",
		`tool == "Bash" && args.command =~ /rm/`, "Bash", "Read"}
	filters := make([]*If, len(srcs))
	for i, s := range srcs {
		f, err := CompileIf(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		filters[i] = f
	}
	x := NewIndex(filters)
	rng := rand.New(rand.NewPCG(4, 14))
	words := []string{"rm", "ls", "git", "curl", "sudo rm", "/bin/rm", "npm", "echo", "env X=1 rm", "bash -c 'rm -rf x'",
		"sh -c \"git push\"", "eval rm", "\\rm", "'rm'", "r\"m\"", "$(echo rm)", "xargs rm", "find . -exec rm {} \\;",
		"rm:foo", "echo \"a b\"", "alias r=rm; r", "foobazz", "rm\t-rf", "\xffx"}
	args := []string{"", "-rf /", "push origin", "-la", "run test:unit", "x | sh", "a\tb", "\"q a\""}
	tools := []string{"Bash", "bash", "baſh", "Read", "Write"}
	for n := 0; n < 3000; n++ {
		var cmd strings.Builder
		for k := rng.IntN(3); k >= 0; k-- {
			cmd.WriteString(words[rng.IntN(len(words))] + " " + args[rng.IntN(len(args))])
			if k > 0 {
				cmd.WriteString([]string{" && ", "; ", " | ", "\n"}[rng.IntN(4)])
			}
		}
		raw, _ := json.Marshal(map[string]string{"command": cmd.String(), "file_path": "src/a.go"})
		switch n % 7 {
		case 0:
			raw, _ = json.MarshalIndent(map[string]string{"command": cmd.String()}, "", " ")
		case 1:
			raw = raw[:len(raw)-2]
		case 2:
			raw = nil
		}
		tool := tools[rng.IntN(len(tools))]
		h := x.Bind(NewSubject("PreToolUse", tool, raw))
		for i, f := range filters {
			want := f.Match(NewSubject("PreToolUse", tool, raw))
			if got := h.Match(i); got != want {
				t.Fatalf("%q on %s %q: index says %v, filter %v", srcs[i], tool, raw, got, want)
			}
		}
	}
}

// TestCompactArgsFastPath: arguments already compact are kept as they are, as json.Compact
// would; others are compacted.
func TestCompactArgsFastPath(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"a":"x y","b":[1,2]}`, `{"a":"x y","b":[1,2]}`},
		{`{"a": "x y"}`, `{"a":"x y"}`},
		{`{"a":"\" y"}`, `{"a":"\" y"}`},
		{`{"a":"\\" ,"b":1}`, `{"a":"\\","b":1}`},
		{`{"a":`, `{"a":`},
		{``, ``},
	} {
		if got := NewSubject("PreToolUse", "Bash", json.RawMessage(tt.in)).compactArgs(); got != tt.want {
			t.Errorf("compactArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestIndexConditionsMatchFilters: Hits.Match(i) equals filters[i].Match for conditions
// (the literal prefilter) and for filters whose source repeats (evaluated once per subject),
// on 3 000 generated arguments: escapes that spell the literal (\u0067it), HTML bytes that
// encoding/json escapes, non-ASCII, numbers, nested objects and arrays, invalid JSON.
func TestIndexConditionsMatchFilters(t *testing.T) {
	t.Parallel()
	srcs := []string{
		`tool == "Bash" && args.command =~ /git\s+push/`, `tool == "Bash" && args.command =~ /git\s+push/`,
		`args.command =~ /rm -rf/`, `args.command =~ /rm -rf/ || tool == "Read"`, `args.command == "make clean"`,
		`file_path == "src/a.go"`, `file_path =~ /\.env$/`, `args.opts.level == "12.5e3"`, `args.items.0 =~ /x<y/`,
		`args =~ /"n":12/`, `args =~ /push/`, `args.opts =~ /level/`, `args.command != "ls"`, `event == "PreToolUse" && args.command =~ /deploy/`,
		`args.command =~ /(?i)GIT push/`, `args.command =~ /caf.+/`, "/git push/", "/git push/", "Bash(git push *)", "Bash(git push *)",
		`args.command ~= "git*"`, `tool == "Bash"`, `tool == "Bash"`}
	filters := make([]*If, len(srcs))
	for i, s := range srcs {
		f, err := CompileIf(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		filters[i] = f
	}
	x := NewIndex(filters)
	if x.condLit[0] == nil || x.group[0] < 0 || x.group[0] != x.group[1] {
		t.Fatalf("the benchmark's condition is not prefiltered and grouped: lit %q, groups %d %d", x.condLit[0], x.group[0], x.group[1])
	}
	rng := rand.New(rand.NewPCG(5, 14))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	for n := 0; n < 3000; n++ {
		cmd := pick("git push origin", "git  push", `\u0067it push`, "git pu\\u0073h", "rm -rf /", "rm -r\\u0066 /", "make clean",
			"ls", "deploy now", "x<y", "x\\u003cy", "café", "caf\\u00e9 au lait", "GIT PUSH", "echo git push", "git\\tpush")
		obj := `{"command": "` + cmd + `"`
		if rng.IntN(2) == 0 {
			obj += `, "file_path": "` + pick("src/a.go", "src/a.go ", ".env", "src\\/a.go", "a<b.env") + `"`
		}
		if rng.IntN(2) == 0 {
			obj += `, "opts": {"level": ` + pick("12.5e3", `"12.5e3"`, "1", `{"deep": "git push"}`) + `, "n":12}`
		}
		if rng.IntN(3) == 0 {
			obj += `, "items": [` + pick(`"x<y"`, `"x\u003cy"`, "1, 2", `{"a": "x<y"}`) + `]`
		}
		obj += "}"
		switch rng.IntN(8) {
		case 0:
			obj = obj[:len(obj)-1] // invalid
		case 1:
			obj = strings.ReplaceAll(obj, ", ", ",\n  ")
		}
		tool := pick("Bash", "Read", "bash")
		raw := []byte(obj)
		h := x.Bind(NewSubject("PreToolUse", tool, raw))
		for k := range filters {
			i := rng.IntN(len(filters)) // in any order: a group's first answer may come from any member
			want := filters[i].Match(NewSubject("PreToolUse", tool, raw))
			if got := h.Match(i); got != want {
				t.Fatalf("%q on %s %s: index says %v, filter %v (round %d)", srcs[i], tool, raw, got, want, k)
			}
		}
	}
}

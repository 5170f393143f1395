package shell_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/shell"
)

// fastLineCorpus returns n generated command lines: plain lines the fast path takes, and
// their neighbours it must hand to the parser (quotes, escapes, $(...), ';' inside quotes,
// unicode spaces, tabs, CR, NUL, line continuations, assignments, keywords, wrappers,
// shells, eval, aliases), whole or with one byte inserted, replaced or dropped.
func fastLineCorpus(n int) []string {
	rng := rand.New(rand.NewPCG(14, 14))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	words := []string{"rm", "ls", "git", "curl", "cd", "make", "head", "cat", "npm", "go", "/bin/rm", "./rm",
		"sudo", "env", "command", "xargs", "nice", "nohup", "timeout", "exec", "builtin", "doas", "chroot",
		"bash", "sh", "zsh", "fish", "eval", "source", ".", "alias", "unalias", "find", "trap", "hash", "type",
		"if", "then", "fi", "for", "do", "done", "time", "let", "declare", "export", "local", "function", "in",
		"IF", "Time", "coproc", "select", "case", "esac", "while", "until", "readonly", "typeset", "nameref",
		"A=b", "FOO=1", "a+=b", "-a=b", "=x", "x=", "test", "[", "]]", "{", "}", "!", "echo", "printf"}
	args := []string{"-rf", "/", "build", "push", "origin", "main", "--force", "-la", "run", "test:unit",
		"-c", "'rm -rf /'", "\"git push\"", "rm", "-exec", "{}", "\\;", "+", "-n", "10", "--", "-i", "-u", "root",
		"A=b", "PATH=/x", "-S", "ll=rm", "'ll=rm -rf'", "x.go", "a,b", "a:b", "a+b", "%1", "@x", "~/x", "a#b", "#c",
		"*.go", "?", "[ab]", "{a,b}", "$HOME", "${X}", "$(rm x)", "`rm x`", "<(rm)", ">x", "2>&1", "<x", "&>/dev/null",
		"'a;b'", "\"a;b\"", "a\\ b", "\\rm", "r\"m\"", "'", "\"", "\\", "a\\\nb", "é", "ﬀ", "\u00a0", "x\u2003y"}
	seps := []string{" && ", "&&", " || ", "||", "; ", ";", " | ", "|", " ; ", "  &&  ", "\n", "\t", " & ", "|&",
		";;", ";&", " \r\n", "\x00", "\u00a0", " \\\n ", " # ", " ! ", "&&&", "| |", "; ;"}
	spaces := []string{" ", " ", " ", "  ", "\t", "\u00a0", "\u2003", "\r", "\x00", "\\\n", "\v", "\f"}
	plainOnly := func(xs []string) []string {
		var out []string
		for _, x := range xs {
			if strings.Trim(x, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:+=") == "" {
				out = append(out, x)
			}
		}
		return out
	}
	allWords, allArgs := words, args
	plainWords, plainArgs := plainOnly(words), plainOnly(args)
	line := func() string {
		var sb strings.Builder
		words, args, odd := allWords, allArgs, 3
		if rng.IntN(2) == 0 { // plain words: lines the fast path takes, and near misses
			words, args, odd = plainWords, plainArgs, 40
			if rng.IntN(2) == 0 {
				words = plainWords[:12] // command words only, no keywords or assignments
			}
		}
		if rng.IntN(odd*3) == 0 {
			sb.WriteString(pick(seps...))
		}
		for k := rng.IntN(4); k >= 0; k-- {
			sb.WriteString(pick(words...))
			for a := rng.IntN(4); a > 0; a-- {
				if rng.IntN(odd*3) == 0 {
					sb.WriteString(pick(spaces...))
				} else {
					sb.WriteByte(' ')
				}
				if rng.IntN(3) == 0 {
					sb.WriteString(pick(words...)) // wrappers: "sudo env A=b rm"
				} else {
					sb.WriteString(pick(args...))
				}
			}
			if k > 0 {
				if rng.IntN(odd) == 0 {
					sb.WriteString(pick(seps...))
				} else {
					sb.WriteString(pick(" && ", " || ", "; ", " | "))
				}
			}
		}
		if rng.IntN(10) == 0 {
			sb.WriteString(pick(";", " ;", " &&", " |", " ", "&"))
		}
		return sb.String()
	}
	special := "'\"\\$`;|&(){}[]<>#~!*?=\t\r\n\x00 \x7f\xff"
	out := []string{"", " ", ";", "&&", "ls", "ls;", "ls ;", "; ls", "ls &&", "ls | ", "ls && ls", "a=b", "a=b ls",
		"ls a=b", "alias ll=rm; ll -rf /", "alias ll=rm && ll", "eval rm -rf x", "bash -c rm", "sudo -u root rm",
		"env A=b rm x", "command rm x", "xargs rm", "find . -exec rm {} +", strings.Repeat("ls && ", 70) + "ls",
		strings.Repeat("sudo ", 20) + "rm", "time rm", "let x", "export A", "rm -rf /\x00", "rm\r", "rm\t-rf /"}
	for len(out) < n {
		l := line()
		switch rng.IntN(6) {
		case 0: // one byte inserted
			p := rng.IntN(len(l) + 1)
			l = l[:p] + string(special[rng.IntN(len(special))]) + l[p:]
		case 1: // one byte replaced
			if l != "" {
				p := rng.IntN(len(l))
				l = l[:p] + string(special[rng.IntN(len(special))]) + l[p+1:]
			}
		case 2: // one byte dropped
			if l != "" {
				p := rng.IntN(len(l))
				l = l[:p] + l[p+1:]
			}
		}
		out = append(out, l)
	}
	return out
}

// exampleBashRules returns the `if` filters of every example config and of a few rules of
// each shape: deny rules with and without a literal command word, allow-style prefixes.
func exampleBashRules(t testing.TB) []*match.If {
	t.Helper()
	exprs := []string{"Bash(rm *)", "Bash(rm -rf *)", "Bash(git push:*)", "Bash(curl *)", "Bash(ls)", "Bash(*rm*)",
		"Bash(sudo *)", "Bash(/bin/rm *)", "Bash(make clean)", "Bash(cd /tmp/build)", "Bash(npm run test:*)",
		"Bash(ll *)", "Bash(env *)", "Bash(xargs *)", "Bash(bash -c *)", "Bash(eval *)", "Bash(* -rf /)", "Bash"}
	paths, err := filepath.Glob("../examples/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".json" || strings.HasSuffix(p, ".test.yaml") {
			continue
		}
		set, _ := config.Load([]config.LayerPath{{Path: p, Layer: config.Explicit}})
		for _, f := range set.Files {
			for _, h := range f.Hooks {
				if h.If != "" {
					exprs = append(exprs, h.If)
				}
			}
		}
	}
	var out []*match.If
	for _, e := range exprs {
		f, err := match.CompileIf(e)
		if err != nil {
			t.Fatalf("CompileIf(%q): %v", e, err)
		}
		out = append(out, f)
	}
	return out
}

// answers is what the rules say of command: each deny answer (Match) and allow answer
// (Allows) on a fresh Bash subject, and the analysis itself.
func answers(rules []*match.If, command string) (deny, allow []bool, b *shell.Commands) {
	args, _ := json.Marshal(map[string]string{"command": command})
	s := match.NewSubject("PreToolUse", "Bash", args) // parses the command once, as the Runner does
	for _, f := range rules {
		deny = append(deny, f.Match(s))
		allow = append(allow, f.Allows(s))
	}
	return deny, allow, shell.Parse(command)
}

// TestFastLineEqualsParser: on 5 000 generated lines (fastLineCorpus) and the example
// configs' rules, the analysis with the fast path is the parser's, field for field, and so
// is every rule's deny and allow answer.
func TestFastLineEqualsParser(t *testing.T) {
	defer shell.SetFastLine(true)
	rules := exampleBashRules(t)
	plain := 0
	for i, line := range fastLineCorpus(5000) {
		if shell.IsPlainLine(line) {
			plain++
		}
		shell.SetFastLine(false)
		slowDeny, slowAllow, slow := answers(rules, line)
		shell.SetFastLine(true)
		fastDeny, fastAllow, fast := answers(rules, line)
		if same, diff := shell.SameAnalysis(slow, fast); !same {
			t.Fatalf("line %d %q: the fast path's analysis is not the parser's:\n%s", i, line, diff)
		}
		for k, f := range rules {
			if slowDeny[k] != fastDeny[k] || slowAllow[k] != fastAllow[k] {
				t.Fatalf("line %d %q, rule %s: fast deny/allow %v/%v, parser %v/%v", i, line, f,
					fastDeny[k], fastAllow[k], slowDeny[k], slowAllow[k])
			}
		}
	}
	t.Logf("%d of 5000 lines took the fast path", plain)
	// The corpus must exercise both paths.
	if plain < 500 || plain > 4500 {
		t.Fatalf("%d of 5000 lines took the fast path; the corpus does not test both", plain)
	}
}

// FuzzFastLine compares the fast path with the parser on any line.
func FuzzFastLine(f *testing.F) {
	for _, l := range fastLineCorpus(200) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		shell.SetFastLine(false)
		slow := shell.Parse(line)
		shell.SetFastLine(true)
		fast := shell.Parse(line)
		if same, diff := shell.SameAnalysis(slow, fast); !same {
			t.Fatalf("%q: the fast path's analysis is not the parser's:\n%s", line, diff)
		}
	})
}

// BenchmarkParsePlainLine: the analysis of the 4-command line of the root package's
// BenchmarkDispatchBashRules, by the fast path and by the parser.
func BenchmarkParsePlainLine(b *testing.B) {
	const line = "cd /tmp/build && ls | head -1 ; make clean"
	for _, fast := range []bool{true, false} {
		name := "parser"
		if fast {
			name = "fast"
		}
		b.Run(name, func(b *testing.B) {
			shell.SetFastLine(fast)
			defer shell.SetFastLine(true)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if shell.Parse(line).Opaque() {
					b.Fatal("opaque")
				}
			}
		})
	}
}

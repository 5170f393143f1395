package match

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTranslate pins the text Translate writes for the regexes hookcore's matchers hold (a
// translated Gemini matcher, an anchored Claude Code regex, a /re/i) and for the syntax that
// JavaScript and Rust read otherwise than RE2 or not at all.
func TestTranslate(t *testing.T) {
	t.Parallel()
	tests := []struct{ re, js, rust string }{
		{`^(?:Edit|Write)$|replace|MultiEdit|write_file`, `^(?:Edit|Write)$|replace|MultiEdit|write_file`, `^(?:Edit|Write)$|replace|MultiEdit|write_file`},
		{`^(?:Read)$|read_.*`, `^Read$|read_[^\n]*`, `^Read$|read_.*`},
		{`^(?:Notebook.*)$`, `^Notebook[^\n]*$`, `^Notebook.*$`},
		{`^(?:mcp__[^_]+__.*)$`, `^mcp__[^_]+__[^\n]*$`, `^mcp__[^_]+__.*$`},
		{`Write`, `Write`, `Write`},
		// (?i) is a class of each letter's case forms, RE2's (Unicode simple folding).
		{`(?i)^(?:bash)$`, `^[Bb][Aa][Ss\u017F][Hh]$`, `^[Bb][Aa][Ss\x{17F}][Hh]$`},
		{`(?i)k`, `[Kk\u212A]`, `[Kk\x{212A}]`},
		// Perl and POSIX classes, \Q…\E, named groups: explicit.
		{`[[:alpha:]]ash`, `[A-Za-z]ash`, `[A-Za-z]ash`},
		{`\QBa.sh\E`, `Ba\.sh`, `Ba\.sh`},
		{`(?P<n>x)\d\s\w`, `(?:x)[0-9][\t\n\u000C\r ][0-9A-Z_a-z]`, `(?:x)[0-9][\t\n\x{C}\r ][0-9A-Z_a-z]`},
		// RE2's \b is ASCII; Rust's is Unicode unless (?-u).
		{`\bEdit\B`, `\bEdit\B`, `(?-u:\b)Edit(?-u:\B)`},
		{`(?m)^a$`, `(?<![^\n])a(?![^\n])`, `(?m:^)a(?m:$)`},
		// One code point above U+FFFF is a surrogate pair in JavaScript; a repeated class
		// may run on code units.
		{`.`, `(?:[^\n\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])`, `.`},
		{`(?s)x.y`, `x(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])y`, `x(?s:.)y`},
		{`[^_]+`, `[^_]+`, `[^_]+`},
		{`\x{1F600}`, `\uD83D\uDE00`, `\x{1F600}`},
		{`[\x{1F600}-\x{1F64F}]+`, `(?:\uD83D[\uDE00-\uDE4F])+`, `[\x{1F600}-\x{1F64F}]+`},
		{`[a\x{10000}-\x{10FFFF}]`, `(?:a|[\uD800-\uDBFF][\uDC00-\uDFFF])`, `[a\x{10000}-\x{10FFFF}]`},
		{`a{2,3}b{4,}c{5}x*?`, `a{2,3}b{4,}c{5}x*?`, `a{2,3}b{4,}c{5}x*?`},
		{`[\-\]&~]#`, `[&\-\]~]#`, `[\x{26}\-\]\x{7E}]#`},
		{`[^\x00-\x{10FFFF}]`, `[^\s\S]`, `[^\s\S]`},
	}
	for _, tt := range tests {
		t.Run(tt.re, func(t *testing.T) {
			t.Parallel()
			re := regexp.MustCompile(tt.re)
			for _, f := range []struct {
				flavor Flavor
				want   string
			}{{JavaScript, tt.js}, {Rust, tt.rust}} {
				got, err := Translate(re, f.flavor)
				if err != nil || got != f.want {
					t.Errorf("Translate(%q, %s) = %q, %v; want %q", tt.re, f.flavor, got, err, f.want)
				}
			}
		})
	}
}

// TestTranslateJavaScriptNode runs what Translate writes through node's RegExp, as Claude
// Code, Gemini CLI and Copilot CLI build a matcher's (new RegExp(text).test(name)), and
// compares every answer with RE2's on the same name. Skipped where node is not installed.
func TestTranslateJavaScriptNode(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	regexes := []string{
		`^(?:Edit|Write)$|replace|MultiEdit|write_file`, `^(?:Read)$|read_.*`, `^(?:Notebook.*)$`,
		`^(?:mcp__[^_]+__.*)$`, `Edit`, `(?i)^(?:bash|mcp__x)$`, `(?i)k`, `(?i)straße`,
		`[[:alpha:]]ash`, `\QBa.sh\E`, `\d\s\w`, `\bEdit\B`, `(?m)^a$`, `^.$`, `^..$`, `(?s)^.$`,
		`^[^_]$`, `^[^_]+$`, `^\x{1F600}$`, `^[\x{1F600}-\x{1F64F}]$`, `^[\x{1F5FF}-\x{1F601}\x{10400}-\x{10FFFF}]+$`,
		`^[a\x{10000}-\x{10FFFF}]$`, `^x*?$`, `^(?:a|b|)$`, `[^\x00-\x{10FFFF}]`, `^(?:)$`, `^\.\*\+\?\(\)\[\]\{\}\|\^\$\\/$`,
		`(?i)^é$`, `^\n$`, `a$`, `^a`, `(?U)a+`,
	}
	names := []string{
		"", "Bash", "bash", "BASH", "baſh", "Edit", "NotebookEdit", "Write", "write_file", "Read", "read_x", "xread_y",
		"Notebook", "NotebookEditX", "mcp__github__create_issue", "mcp__git_hub__x", "mcp__x", "MCP__X",
		"K", "k", "\u212a", "STRASSE", "strasse", "STRAẞE", "straße", "bash", "Ba.sh", "Basha", "1 x", "1\tx", "a\nb",
		"a", "b", "ab", "\n", "\r", "\u2028", "😀", "😀😀", "😀a", "🙏", "🙐", "\U0001F5FF", "\U00010400", "\U0010FFFF",
		"x", "xx", ".*+?()[]{}|^$\\/", "é", "É", "a\n", "\na", "Edit Write",
	}
	type job struct {
		Source string   `json:"source"`
		Names  []string `json:"names"`
	}
	var jobs []job
	var want [][]bool
	for _, s := range regexes {
		re := regexp.MustCompile(s)
		js, err := Translate(re, JavaScript)
		if err != nil {
			t.Fatalf("Translate(%q): %v", s, err)
		}
		jobs = append(jobs, job{js, names})
		var w []bool
		for _, n := range names {
			w = append(w, re.MatchString(n))
		}
		want = append(want, w)
	}
	in, _ := json.Marshal(jobs)
	cmd := exec.Command(node, "-e", `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{
  const out = JSON.parse(s).map(j => { const re = new RegExp(j.source); return j.names.map(n => re.test(n)); });
  process.stdout.write(JSON.stringify(out));
});`)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got [][]bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i, s := range regexes {
		if d := cmp.Diff(want[i], got[i]); d != "" {
			var diff []string
			for j, n := range names {
				if want[i][j] != got[i][j] {
					diff = append(diff, n)
				}
			}
			t.Errorf("%q as %q: RE2 and JavaScript differ on %q", s, jobs[i].Source, diff)
		}
	}
}

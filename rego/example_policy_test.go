package rego

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// referencePolicy is the guardrails policy of examples/opa with its rm rule as it was
// before it was rewritten from a loop over the command's words into two regular expressions
// over the whole line (kept as the reference the example must decide like). Its other rules
// are the example's, copied when they change (the npm rule of red team round 2): the test
// compares the two spellings of the rm rule, not two versions of the policy.
const referencePolicy = "testdata/guardrails-reference"

// rmCorpus generates n Bash, Edit and Write inputs (seeded) written to tell two spellings
// of the guardrails policy apart: rm in every spelling of its flags (-rf, -fr, -r -f,
// --recursive, -Rf, -xr, -r-f, lone dashes), rm as a path (/bin/rm), inside other words
// (farm, rmdir, rm.sh), quoted, escaped, behind sudo and env, joined by ; && | and
// newlines, separated by tabs, vertical tabs, form feeds, carriage returns and Unicode
// spaces (which split words only at the ends of the line, where trim_space removes them),
// and npm installs and file paths for the other rules.
func rmCorpus(n int) []*hook.Input {
	r := rand.New(rand.NewPCG(20261204, 12))
	words := []string{
		"rm", "rm", "rm", "/bin/rm", "./rm", "/usr/bin/rm", "\\rm", "'rm'", `"rm"`, "sudo", "env", "LC_ALL=C", "command", "xargs",
		"-rf", "-fr", "-Rf", "-fR", "-r", "-R", "-f", "-F", "-rv", "-vf", "-xr", "-r-f", "-f-r", "--recursive", "--force",
		"--recursive=1", "--force-x", "--r", "--f", "-", "--", "-i", "-v", "-dir", "-frm", "'-rf'", `"-rf"`, "-\u00e9rf",
		"build", "dist", "/", "~", "*", "x", "farm", "rmdir", "rm.sh", "arm", "rm-rf", "rm-r", "firm", "rm/", "a/rm", "r",
		";", "&&", "||", "|", "&", "(", ")", "$(rm", "`rm", "echo", "ls", "cd /srv", "npm", "install", "ci", "i",
		"--ignore-scripts", "npm install", "npminstall", "\u0440m", "r\u200bm", "\u00a0rm", "rm\u00a0", "-rf\u00a0",
	}
	seps := []string{" ", " ", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u2003", " \u00a0 ", ";", "; ", " && ", "\u0085", ""}
	ends := []string{"", "", "", " ", "\t", "\n", "\u00a0", "\u2003 ", " \u00a0", "\v", "\u0085", "\u3000\t", "\u3000", "\u2028", "\u205f", "\u1680", "\u200b"}
	paths := []string{"/p/.env", "/p/a.go", ".env", "/p/package-lock.json", "/p/.env ", "/p/x.env", "/p/package-lock.json.bak", "/p/sub/.env"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	out := make([]*hook.Input, 0, n)
	for len(out) < n {
		in := &hook.Input{HookEventName: "PreToolUse", SessionID: "s1"}
		switch r.IntN(8) {
		case 0:
			in.ToolName = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}[r.IntN(4)]
			in.ToolInput = mustRaw(map[string]any{"file_path": pick(paths), "content": "rm -rf /"})
			out = append(out, in)
			continue
		case 1:
			in.HookEventName = pick([]string{"SessionStart", "PostToolUse"})
		}
		in.ToolName = "Bash"
		var b strings.Builder
		b.WriteString(pick(ends))
		for i := range 2 + r.IntN(6) {
			if i > 0 {
				b.WriteString(pick(seps))
			}
			if i == 1 && r.IntN(2) == 0 { // rm in the second word of half the commands
				b.WriteString(pick(words[:9]))
			} else if r.IntN(2) == 0 { // more of rm and its flags than the rest
				b.WriteString(pick(words[:31]))
			} else {
				b.WriteString(pick(words))
			}
		}
		b.WriteString(pick(ends))
		cmd := b.String()
		if r.IntN(10) == 0 { // a character somewhere made a white space character
			rs := []rune(cmd)
			rs[r.IntN(len(rs))] = []rune(" \t\n\v\u00a0")[r.IntN(5)]
			cmd = string(rs)
		}
		in.ToolInput = mustRaw(map[string]any{"command": cmd, "description": "x"})
		out = append(out, in)
	}
	return out
}

// TestExamplePolicyMatchesReference: the example policy decides like the word-by-word
// reference on the generated corpus and on TestPrefilterSound's: the same decision,
// reason, updated input and context, and the same errors, both through Execute (with the
// prefilter) and evaluated in full.
func TestExamplePolicyMatchesReference(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ex, err := New(ctx, Options{Policy: examplePolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ref, err := New(ctx, Options{Policy: referencePolicy})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	inputs := append(rmCorpus(4000), corpus(1000)...)
	denied, rewritten := 0, 0
	for _, in := range inputs {
		got, gerr := ex.Execute(ctx, in)
		want, werr := ref.Execute(ctx, in)
		gotFull, gferr := ex.evaluate(ctx, ex.prepared.Load(), in)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) ||
			fmt.Sprint(gferr) != fmt.Sprint(werr) || !reflect.DeepEqual(gotFull, want) {
			b, _ := json.Marshal(in)
			t.Fatalf("input %s (tool input %q):\nexample   %+v, %v\nevaluated %+v, %v\nreference %+v, %v", b, in.ToolInput, got, gerr, gotFull, gferr, want, werr)
		}
		if want.Permission == hook.Deny {
			denied++
		}
		if want.UpdatedInput != nil {
			rewritten++
		}
	}
	t.Logf("%d inputs: %d denied, %d rewritten", len(inputs), denied, rewritten)
	if denied < len(inputs)/20 || denied > len(inputs)*9/10 || rewritten == 0 {
		t.Errorf("the corpus tells little apart: %d of %d denied, %d rewritten", denied, len(inputs), rewritten)
	}
}

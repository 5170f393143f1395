package hookcore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// slowMatching is what matching computes, the slow way: every hook of the event tested one
// by one, its matcher with Matcher.Match and its `if` with If.Match on a Subject of its own,
// anchored at the project root as the Runner anchors it.
func slowMatching(root string, eh *eventHooks, in *hook.Input) []string {
	value := in.MatchFieldValue(eh.field)
	var out []string
	for _, c := range eh.all {
		if eh.field != "" && !c.matcher.Match(value) {
			continue
		}
		if c.cond != nil && !c.cond.Match(match.NewSubjectAt(root, string(c.event), in.ToolName, in.ToolInput)) {
			if eh.kind != hook.Gate || len(in.ToolInput) == 0 || json.Valid(in.ToolInput) {
				continue
			}
		}
		out = append(out, c.id)
	}
	return out
}

// indexedConfig exercises every index: exact names (ASCII and not), literal regex matchers,
// Bash rules with and without a literal command word, /re/ filters with and without a
// required literal, conditions, and hooks with no matcher.
const indexedConfig = `hooks:
  - {id: n1, event: pre_tool_use, matcher: Bash, action: {type: inject, message: x}}
  - {id: n2, event: pre_tool_use, matcher: "Edit|Write", action: {type: inject, message: x}}
  - {id: n3, event: pre_tool_use, matcher: "Édit", action: {type: inject, message: x}}
  - {id: n4, event: pre_tool_use, matcher: "task", action: {type: inject, message: x}}
  - {id: l1, event: pre_tool_use, matcher: "^Bash$", action: {type: inject, message: x}}
  - {id: l2, event: pre_tool_use, matcher: "(Read|Write)", action: {type: inject, message: x}}
  - {id: l3, event: pre_tool_use, matcher: "/^(?:edit|multiedit)$/i", action: {type: inject, message: x}}
  - {id: l4, event: pre_tool_use, matcher: "mcp__github__(create|update)_issue", action: {type: inject, message: x}}
  - {id: l5, event: pre_tool_use, matcher: "/^Ta[sk]k$/", action: {type: inject, message: x}}
  - {id: r1, event: pre_tool_use, matcher: "Notebook.*", action: {type: inject, message: x}}
  - {id: r2, event: pre_tool_use, matcher: "/ash/", action: {type: inject, message: x}}
  - {id: r3, event: pre_tool_use, matcher: "mcp__.*", action: {type: inject, message: x}}
  - {id: b1, event: pre_tool_use, matcher: Bash, if: "Bash(rm *)", action: {type: inject, message: x}}
  - {id: a1, event: pre_tool_use, action: {type: inject, message: x}}
  - {id: b2, event: pre_tool_use, matcher: Bash, if: "Bash(rm -rf *)", action: {type: inject, message: x}}
  - {id: b3, event: pre_tool_use, if: "Bash(git push:*)", action: {type: inject, message: x}}
  - {id: b4, event: pre_tool_use, if: "bash(curl *)", action: {type: inject, message: x}}
  - {id: b5, event: pre_tool_use, if: "Bash(*rm*)", action: {type: inject, message: x}}
  - {id: b6, event: pre_tool_use, if: "Bash(ls)", action: {type: inject, message: x}}
  - {id: b7, event: pre_tool_use, if: "Bash(/bin/rm *)", action: {type: inject, message: x}}
  - {id: b8, event: pre_tool_use, if: "Bash(sudo *)", action: {type: inject, message: x}}
  - {id: b9, event: permission_request, if: "Bash(npm run test:*)", action: {type: inject, message: x}}
  - {id: g1, event: pre_tool_use, if: "/rm -rf/", action: {type: inject, message: x}}
  - {id: g2, event: pre_tool_use, if: "/git\\s+push/", action: {type: inject, message: x}}
  - {id: g3, event: pre_tool_use, if: "/RM/i", action: {type: inject, message: x}}
  - {id: g4, event: pre_tool_use, if: "/\"command\":\"ls/", action: {type: inject, message: x}}
  - {id: g5, event: post_tool_use, if: "/(foo|bar)baz+/", action: {type: inject, message: x}}
  - {id: c1, event: pre_tool_use, if: 'tool == "Bash" && args.command =~ /rm\s+-rf/', action: {type: inject, message: x}}
  - {id: c2, event: post_tool_use, matcher: "Edit|Write", if: 'file_path ~= "**/*.go"', action: {type: inject, message: x}}
  - {id: p1, event: pre_tool_use, if: "Write(src/**)", action: {type: inject, message: x}}
  - {id: p2, event: pre_tool_use, matcher: "*", if: "WebFetch(domain:example.com)", action: {type: inject, message: x}}
  - {id: s1, event: session_start, matcher: "startup|resume", action: {type: inject, message: x}}
  - {id: s2, event: session_start, matcher: "^clear$", action: {type: inject, message: x}}
  - {id: d1, event: pre_tool_use, matcher: Bash, action: {type: command, command: 'echo "$FILE_PATH" x'}}
  - {id: d2, event: pre_tool_use, action: {type: command, command: 'echo "$FILE_PATH" x'}}
  - {id: d3, event: pre_tool_use, matcher: Edit, action: {type: command, command: 'echo x'}}
  - {id: d4, event: post_tool_use, action: {type: command, command: 'echo x'}}
  - {id: d5, event: post_tool_use, matcher: "Edit|Write", action: {type: command, command: 'echo x'}}
  - {id: d6, event: post_tool_use, matcher: "Edit", timeout: 5, action: {type: command, command: 'echo x'}}
`

// slowDupe is dupe without the twin shortcut: every matched hook with a key is compared.
func slowDupe(seen map[string]bool, c *compiled, in *hook.Input) bool {
	k, ok := c.exec.(keyer)
	if !ok {
		return false
	}
	key := c.identity + "\x00" + k.Key(in)
	if seen[key] {
		return true
	}
	seen[key] = true
	return false
}

// corpusInputs returns n generated tool calls: tool names in many spellings, Bash commands
// built from command words, wrappers, separators and quoting, arguments pretty-printed,
// compact or invalid, paths and URLs.
func corpusInputs(n int) []*hook.Input {
	rng := rand.New(rand.NewPCG(14, 3))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	tools := []string{"Bash", "bash", "BASH", "baſh", "Edit", "edit", "Édit", "édit", "Write", "Read", "MultiEdit",
		"NotebookEdit", "WebFetch", "Task", "TAſK", "taſk", "mcp__github__create_issue", "mcp__github__delete_repo", "Glob", ""}
	words := []string{"rm", "ls", "git", "curl", "sudo", "/bin/rm", "npm", "echo", "cat", "env X=1 rm", "bash -c 'rm -rf x'",
		"sh -c \"git push\"", "eval rm", "\\rm", "'rm'", "r\"m\"", "$(echo rm)", "xargs rm", "find . -exec rm {} \\;", "time rm"}
	args := []string{"", "-rf /", "-rf build", "push origin main", "push --force", "-la", "run test:unit", "x | sh",
		"a\tb", "foo\nbar", "*.go", "\"quoted arg\""}
	seps := []string{" && ", "; ", " | ", "\n", " || "}
	var out []*hook.Input
	for i := 0; i < n; i++ {
		tool := pick(tools...)
		var cmd strings.Builder
		for k := rng.IntN(3); k >= 0; k-- {
			cmd.WriteString(pick(words...))
			if a := pick(args...); a != "" {
				cmd.WriteString(" " + a)
			}
			if k > 0 {
				cmd.WriteString(pick(seps...))
			}
		}
		m := map[string]any{"command": cmd.String()}
		switch rng.IntN(4) {
		case 0:
			m = map[string]any{"file_path": pick("src/a.go", "/abs/src/b.go", "README.md", ".env"), "content": "x"}
		case 1:
			m["url"] = pick("https://example.com/x", "https://www.example.com", "http://evil.test")
		}
		var raw []byte
		switch rng.IntN(5) {
		case 0:
			raw, _ = json.MarshalIndent(m, "", "  ")
		case 1:
			raw = []byte(`{"command": ` + fmt.Sprintf("%q", cmd.String())) // invalid: unterminated
		case 2:
			raw = nil
		default:
			raw, _ = json.Marshal(m)
		}
		out = append(out, &hook.Input{SessionID: "s", ToolName: tool, ToolInput: raw,
			Source: pick("startup", "resume", "clear", "Clear", "")})
	}
	return out
}

// TestMatchingFastEqualsSlow: for every example config and one that uses every index, and
// 1 000 generated inputs on each of the config's events, matching (event table, name and
// literal index, Bash command-word index, required-literal prefilter, compact fast path)
// picks exactly the hooks the one-by-one scan picks, in the same order; and deduplication,
// which builds keys only for hooks with a twin, drops the hooks that comparing every
// matched hook's key drops.
func TestMatchingFastEqualsSlow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	custom := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(custom, []byte(indexedConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	configs := []string{custom, "examples/guardrails/hooks.yaml", "examples/minicode/hooks.yaml", "examples/claude/settings.json",
		"examples/codebot/settings.json", "examples/s08/hooks.json", "internal/demo/workspace/.hookcore/hooks.yaml"}
	inputs := corpusInputs(1000)
	for _, path := range configs {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			set, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}})
			if err := errs.Err(); err != nil {
				t.Fatal(err)
			}
			r, err := New(set, Options{ProjectDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			hs := r.hooks.Load()
			compared, dups := 0, 0
			for ev, eh := range hs.events {
				for i, in := range inputs {
					in := in.Clone()
					in.HookEventName = string(ev)
					matched, ambiguous := r.matching(context.Background(), eh, in, -1)
					if ambiguous != nil {
						continue // blocked before matching (issue 10.4); nothing to compare
					}
					var fast []string
					for _, c := range matched {
						fast = append(fast, c.id)
					}
					if diff := cmp.Diff(slowMatching(r.root, eh, in), fast); diff != "" {
						t.Fatalf("%s input %d (tool %q, args %q): matching differs from the scan (-scan +fast):\n%s", ev, i, in.ToolName, in.ToolInput, diff)
					}
					seen, seenAll := map[string]bool{}, map[string]bool{}
					for _, c := range matched {
						got, want := dupe(seen, c, in), slowDupe(seenAll, c, in)
						if got != want {
							t.Fatalf("%s input %d (tool %q, args %q): hook %s a duplicate %v, comparing every key says %v", ev, i, in.ToolName, in.ToolInput, c.id, got, want)
						}
						if want {
							dups++
						}
					}
					compared++
				}
			}
			if compared == 0 {
				t.Fatal("no event compared")
			}
			if path == custom && dups == 0 {
				t.Error("no duplicate among the inputs: the dedup comparison tests nothing")
			}
		})
	}
}

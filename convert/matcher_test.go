package convert

import (
	"bytes"
	"encoding/json"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// TestMatchersReadByTarget (new-user trial, stop 30): each matcher convert writes, read the
// way its target agent reads matchers, matches exactly the values hookcore's reading of the
// source matcher matches, over Claude Code's tool names, the target's own and names neither
// spells (MCP tools, other cases, slashes). The agents' readings, as observed with Claude
// Code 2.1.332, Codex 0.171.0 and Gemini CLI 0.61.0 (docs/decisions.md, stop 30): Claude
// Code a list of exact names for text of [A-Za-z0-9_\- ,|], else a JavaScript regex
// searched; Codex the same with [A-Za-z0-9_|] and Rust's regex (RE2 stands in for it here);
// Gemini CLI a JavaScript regex searched after trimming on tool events, the exact value on
// the others; Cursor and Copilot CLI, not observed, must agree searched and anchored. Before
// this, "/^(?:Read)$|read_.*/", hookcore's own syntax, reached Claude Code's file. The
// JavaScript regexes run in node (skipped where node is not installed).
func TestMatchersReadByTarget(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	// Names no agent spells as its own: MCP tools, other tools, text with slashes. The
	// values compared are these and those the target sends (Claude Code's own for Claude
	// Code, Codex and Cursor, the target's for Gemini CLI and Copilot CLI): "bash" is not one
	// (hookcore's "bash" is written Bash for Claude Code, which never sends "bash").
	extra := []string{"mcp__x__y", "mcp__github__push", "mcp__GitHub__push", "mcp__git-hub__push",
		"read_x", "xread_y", "a/Write/b", "/Write/", "filesystem__read_file", "rm", "confirm", "x_run_shell_command",
		"my-tool", "My-Tool", "a-my-tool", "EditX", "NotebookWrite"}
	type check struct {
		src, target, hookID, matcher, value string
		want                                bool
		got                                 func(js []bool) bool
	}
	var checks []*check
	var batch []jsCase
	js := func(source, name string) int {
		batch = append(batch, jsCase{source, name})
		return len(batch) - 1
	}
	for _, src := range []string{"matchers/.gemini/settings.json", "matchers/.claude/settings.json", "matchers.yaml"} {
		f := load(t, src)
		for _, target := range []string{"claude", "codex", "gemini", "cursor", "copilot"} {
			out, lost, err := To(f, target)
			if err != nil {
				t.Fatal(err)
			}
			written := writtenMatchers(t, target, out)
			for i := range f.Hooks {
				h := &f.Hooks[i]
				if h.Event.MatchField() == "" || target == "claude" && h.Dialect == config.Nested {
					continue // a Claude Code file for Claude Code is written as it is
				}
				m, err := h.CompileMatcher()
				if err != nil {
					t.Fatal(err)
				}
				ms, ok := written[commandLine(&h.Action)]
				if !ok {
					continue // dropped, with its line (TestGolden)
				}
				if len(ms) == 1 && ms[0] == "" && !m.Any() {
					if !slices.ContainsFunc(lost, func(l Loss) bool { return l.Hook == h.ID && strings.Contains(l.What, "matcher") }) {
						t.Errorf("%s → %s: %s: matcher %q written as none, and no line says so", src, target, h.ID, h.Matcher)
					}
					continue
				}
				natives := map[string]string{}
				if h.Event.MatchField() == "tool_name" {
					natives = bridge.ToolNames(target)
				}
				values := slices.Concat(h.Event.ClaudeValues(), extra)
				if len(natives) > 0 {
					values = slices.Concat(slices.Sorted(maps.Keys(natives)), extra)
				}
				for _, v := range values {
					claudeName := v
					if n, ok := natives[v]; ok {
						claudeName = n
					}
					c := &check{src: src, target: target, hookID: h.ID, matcher: strings.Join(ms, " / "), value: v, want: m.Match(claudeName)}
					var readers []func([]bool) bool
					for _, w := range ms {
						readers = append(readers, read(target, h.Event, w, v, js))
					}
					c.got = func(r []bool) bool {
						return slices.ContainsFunc(readers, func(f func([]bool) bool) bool { return f(r) })
					}
					checks = append(checks, c)
				}
			}
		}
	}
	results := runJS(t, node, batch)
	for _, c := range checks {
		if got := c.got(results); got != c.want {
			t.Errorf("%s → %s: %s: %s reads %q on %q as %v, hookcore's reading of the source as %v", c.src, c.target, c.hookID, c.target, c.matcher, c.value, got, c.want)
		}
	}
}

// read returns how the target agent reads matcher m on value v; a JavaScript regex is
// queued with js and its answer looked up in the batch's results.
func read(target string, e hook.Event, m, v string, js func(source, name string) int) func([]bool) bool {
	constant := func(b bool) func([]bool) bool { return func([]bool) bool { return b } }
	switch target {
	case "claude":
		switch {
		case m == "" || m == "*":
			return constant(true)
		case match.IsClaudeNameList(m):
			return constant(slices.ContainsFunc(strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }), func(n string) bool { return strings.TrimSpace(n) == v }))
		}
		i := js(m, v)
		return func(r []bool) bool { return r[i] }
	case "codex":
		switch {
		case m == "" || m == "*":
			return constant(true)
		case codexName(m):
			return constant(slices.Contains(strings.Split(m, "|"), v))
		}
		re, err := regexp.Compile(m) // RE2 for Rust's regex: what Translate writes reads alike
		return constant(err == nil && re.MatchString(v))
	case "gemini":
		m = strings.TrimSpace(m)
		switch {
		case m == "" || m == "*":
			return constant(true)
		case e != hook.PreToolUse && e != hook.PostToolUse:
			return constant(m == v)
		}
		i := js(m, v)
		return func(r []bool) bool { return r[i] }
	}
	if m == "" || m == "*" {
		return constant(true)
	}
	search, whole := js(m, v), js("^(?:"+m+")$", v)
	return func(r []bool) bool {
		if r[search] != r[whole] {
			return !r[search] // a reading that depends on anchoring: never what was meant
		}
		return r[search]
	}
}

type jsCase struct {
	Source string `json:"source"`
	Name   string `json:"name"`
}

// runJS answers new RegExp(source).test(name) for each case in node; an invalid regex is
// false, as Claude Code and Gemini CLI take it.
func runJS(t *testing.T, node string, batch []jsCase) []bool {
	t.Helper()
	in, _ := json.Marshal(batch)
	cmd := exec.Command(node, "-e", `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{
  process.stdout.write(JSON.stringify(JSON.parse(s).map(c => { try { return new RegExp(c.source).test(c.name); } catch (e) { return false; } })));
});`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var r []bool
	if err := json.Unmarshal(out, &r); err != nil || len(r) != len(batch) {
		t.Fatalf("node answered %d of %d: %v", len(r), len(batch), err)
	}
	return r
}

// writtenMatchers returns, per command, the matchers a converted file gives it ("" for
// none), from the target's JSON.
func writtenMatchers(t *testing.T, target string, out []byte) map[string][]string {
	t.Helper()
	var file struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Command string `json:"command"`
			Bash    string `json:"bash"`
			Hooks   []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(out, &file); err != nil {
		t.Fatalf("%s output: %v\n%s", target, err, out)
	}
	got := map[string][]string{}
	for event, groups := range file.Hooks {
		for _, g := range groups {
			cmds := []string{g.Command + g.Bash}
			if len(g.Hooks) > 0 {
				cmds = nil
				for _, h := range g.Hooks {
					cmds = append(cmds, h.Command)
				}
			}
			if strings.HasSuffix(event, "ShellExecution") {
				continue // Cursor's shell events are its shell tool's, with no matcher
			}
			for _, c := range cmds {
				got[c] = append(got[c], g.Matcher)
			}
		}
	}
	return got
}

// TestAnchoredCopilotNamesMapToClaudeNames (red team round 65): a Copilot CLI matcher that is
// an anchored plain name, "^bash$" as convert writes Claude Code's Bash for Copilot CLI, or
// an alternation of them, maps to Claude Code's tool names as a plain "bash" does: converted
// back to Claude Code and Codex, whose tool names are case-sensitive, it is "Bash", not
// "bash", which ran the guard for no call. A regex matcher that matches a tool only in
// another spelling gets a line.
func TestAnchoredCopilotNamesMapToClaudeNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ matcher, want string }{
		{"^bash$", "Bash"},
		{"^(?:bash|view)$", "Bash|Read"},
		{"^(bash|create)$", "Bash|Write"},
		{"bash", "Bash"},
	} {
		f := parse(t, "p/.github/hooks/h.json", config.Copilot, `{"version": 1, "hooks": {"permissionRequest": [{"type": "command", "bash": "/opt/guard/perm.sh", "matcher": "`+tc.matcher+`"}]}}`)
		for _, target := range []string{"claude", "codex"} {
			out, _, err := To(f, target)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), `"matcher": "`+tc.want+`"`) {
				t.Errorf("copilot %q → %s: want matcher %q:\n%s", tc.matcher, target, tc.want, out)
			}
		}
	}
	f := parse(t, "p/.claude/settings.json", config.Nested, `{"hooks":{"PermissionRequest":[{"matcher":"^bash$","hooks":[{"type":"command","command":"/opt/guard/perm.sh"}]}]}}`)
	for _, target := range []string{"codex", "hookcore"} {
		_, lost, err := To(f, target)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(lost, func(l Loss) bool { return strings.Contains(l.What, `matches Bash ("bash") only spelled otherwise`) }) {
			t.Errorf(`claude "^bash$" → %s: no line says it may match nothing: %v`, target, lost)
		}
	}
}

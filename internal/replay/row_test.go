package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, input, cwd, want string
	}{
		{"bash command", "Bash", `{"command":"ls -la\n  && pwd","description":"x"}`, "", "ls -la && pwd"},
		{"file under cwd", "Edit", `{"file_path":"/home/dev/project/src/a.go","old_string":"a"}`, "/home/dev/project", "src/a.go"},
		{"file outside cwd", "Read", `{"file_path":"/etc/passwd"}`, "/home/dev/project", "/etc/passwd"},
		{"minicode path", "WriteFile", `{"path":"notes.md","content":"x"}`, "", "notes.md"},
		{"grep pattern", "Grep", `{"pattern":"TODO","path":"src"}`, "", "TODO in src"},
		{"agent", "Agent", `{"description":"Audit","prompt":"long"}`, "", "Audit"},
		{"other", "mcp__x__y", `{"a": 1, "b": [true]}`, "", `{"a":1,"b":[true]}`},
		{"not an object", "X", `[1, 2]`, "", `[1, 2]`},
		{"empty", "X", ``, "", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := summarize(json.RawMessage(tt.input), tt.cwd); got != tt.want {
				t.Errorf("summarize = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCutAndPad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     string
		n     int
		cut   string
		left  string
		right string
	}{
		{"abc", 5, "abc", "abc  ", "  abc"},
		{"abcde", 5, "abcde", "abcde", "abcde"},
		{"abcdef", 5, "abcd…", "abcd…", "abcd…"},
		{"团队约定代码", 4, "团队约…", "团队约…", "团队约…"},
		{"", 3, "", "   ", "   "},
		{"abc", 0, "", "", ""},
		// A table cell is printable too: an escape sequence in a recorded tool input cannot
		// repaint the row (regression: ESC codes were printed raw).
		{"\x1b[8mhidden", 13, `\x1b[8mhidden`, `\x1b[8mhidden`, `\x1b[8mhidden`},
	}
	for _, tt := range tests {
		if got := cut(tt.s, tt.n); got != tt.cut {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.cut)
		}
		if got := pad(tt.s, tt.n, false); got != tt.left {
			t.Errorf("pad(%q, %d, left) = %q, want %q", tt.s, tt.n, got, tt.left)
		}
		if got := pad(tt.s, tt.n, true); got != tt.right {
			t.Errorf("pad(%q, %d, right) = %q, want %q", tt.s, tt.n, got, tt.right)
		}
	}
}

// TestRowDecision: one sentence of the decision table of docs/replay.md per case; a call's
// row shows the strongest decision of its events, with that event's reason.
func TestRowDecision(t *testing.T) {
	t.Parallel()
	st := func(ev hook.Event, res hook.Result) *step {
		res.Event = ev
		res.Continue = res.StopReason == "" // the cases that stop the agent give a stop reason
		return &step{ev: &transcript.Event{Event: ev, Input: &hook.Input{ToolName: "Bash"}}, res: res}
	}
	tests := []struct {
		name       string
		steps      []*step
		dec        decision
		reasonPart string
	}{
		{"nothing", []*step{st(hook.PreToolUse, hook.Result{}), st(hook.PostToolUse, hook.Result{})}, decAllowed, ""},
		{"pre block", []*step{st(hook.PreToolUse, hook.Result{Blocked: true, Reason: "no"})}, decBlocked, "no"},
		{"permission request block", []*step{st(hook.PreToolUse, hook.Result{}), st(hook.PermissionRequest, hook.Result{Blocked: true, Reason: "denied"})}, decBlocked, "denied"},
		{"ask", []*step{st(hook.PreToolUse, hook.Result{Permission: hook.Ask, Reason: "sure?"})}, decAsk, "sure?"},
		{"rewrite with reason", []*step{st(hook.PreToolUse, hook.Result{UpdatedInput: json.RawMessage(`{"command":"ls"}`), Reason: "why"})}, decRewritten, "why"},
		{"rewrite without reason", []*step{st(hook.PreToolUse, hook.Result{UpdatedInput: json.RawMessage(`{"command":"ls"}`)})}, decRewritten, "now: ls"},
		{"post block is feedback", []*step{st(hook.PreToolUse, hook.Result{}), st(hook.PostToolUse, hook.Result{Blocked: true, Reason: "lint"})}, decFeedback, "lint"},
		{"context", []*step{st(hook.PostToolUseFailure, hook.Result{AdditionalContext: "hint"})}, decContext, "context: hint"},
		{"rewrite beats later context", []*step{st(hook.PreToolUse, hook.Result{UpdatedInput: json.RawMessage(`{}`), Reason: "rw"}), st(hook.PostToolUse, hook.Result{AdditionalContext: "c"})}, decRewritten, "rw"},
		{"continue false", []*step{st(hook.PostToolUse, hook.Result{Continue: false, Blocked: true, StopReason: "halt"})}, decBlocked, "stop: halt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rw := &row{}
			for _, s := range tt.steps {
				rw.add(s)
			}
			if rw.dec != tt.dec || !strings.Contains(rw.reason, tt.reasonPart) {
				t.Errorf("decision %s (%q), want %s (%q)", rw.dec, rw.reason, tt.dec, tt.reasonPart)
			}
		})
	}
}

func TestParseExpectations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		want  []expectation // pos, call, id, decision, reason, hook
		probs []string
	}{
		{"ok", "expect:\n  - call: 3\n    decision: blocked\n    reason_contains: rm\n    hook: g\n  - tool_use_id: t1\n    decision: context\n",
			[]expectation{{pos: "e.yaml:2", call: 3, decision: decBlocked, reasonContains: "rm", hasReason: true, hook: "g"}, {pos: "e.yaml:6", id: "t1", decision: decContext}}, nil},
		{"flow style", `{"expect": [{"call": 1, "decision": "allowed"}]}`,
			[]expectation{{pos: "e.yaml:1", call: 1, decision: decAllowed}}, nil},
		{"empty list", "expect: []\n", nil, nil},
		{"empty file", "", nil, []string{"e.yaml: empty expectations file (want an expect: list)"}},
		{"not a mapping", "- 1\n", nil, []string{"e.yaml:1:1: an expectations file is a mapping with an expect: list"}},
		{"no list", "other: 1\n", nil, []string{`e.yaml:1:1: unknown key "other"`}},
		{"expect not a list", "expect: 3\n", nil, []string{"e.yaml:1:9: expect must be a list of expectations"}},
		{"item not a mapping", "expect:\n  - 3\n", nil, []string{"e.yaml:2:5: an expectation is a mapping (call or tool_use_id, decision, ...)"}},
		{"negative call", "expect:\n  - call: -1\n    decision: ask\n", nil, []string{`e.yaml:2:11: call must be a tool-call number (1, 2, ... as in the table), not "-1"`}},
		{"nested value", "expect:\n  - call: 1\n    decision: {a: 1}\n", nil, []string{"e.yaml:3:15: decision must be a single value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x, probs := parseExpectations([]byte(tt.src), "e.yaml")
			if d := cmp.Diff(tt.probs, probs); d != "" {
				t.Fatalf("problems (-want +got):\n%s", d)
			}
			if tt.probs != nil {
				if x != nil {
					t.Error("expectations returned with problems")
				}
				return
			}
			var got []expectation
			for _, ex := range x.list {
				got = append(got, *ex)
			}
			if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(expectation{}, row{})); d != "" {
				t.Errorf("expectations (-want +got):\n%s", d)
			}
		})
	}
}

// FuzzExpectations: no expectations file makes the parser panic, and a file either parses
// or yields problems, never both or neither.
func FuzzExpectations(f *testing.F) {
	f.Add([]byte("expect:\n  - call: 3\n    decision: blocked\n"))
	f.Add([]byte("expect:\n  - tool_use_id: x\n    decision: ask\n    hook: h\n    reason_contains: r\n"))
	f.Add([]byte("expect: [{call: 1, decision: allowed}]"))
	f.Add([]byte("expect:\n  - &a {call: 1, decision: allowed}\n  - *a\n"))
	f.Add([]byte("expect:\n  - <<: {call: 1}\n    decision: allowed\n"))
	f.Add([]byte("expect:\n  - call: [1\n"))
	f.Add([]byte("--- \n...\n---\nexpect: []\n"))
	f.Add([]byte("\x00\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, probs := parseExpectations(data, "f.yaml")
		if (x == nil) == (len(probs) == 0) {
			t.Fatalf("expectations %v with problems %q", x != nil, probs)
		}
	})
}

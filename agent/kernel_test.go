package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/model"
	"github.com/hookcore/hookcore/tool"
)

// recorder is an Observer that records every moment and answers with verdict.
type recorder struct {
	mu      sync.Mutex
	events  []agent.Event
	verdict func(ev *agent.Event) agent.Verdict
}

func (r *recorder) Observe(_ context.Context, ev *agent.Event) agent.Verdict {
	r.mu.Lock()
	r.events = append(r.events, *ev)
	r.mu.Unlock()
	if r.verdict != nil {
		return r.verdict(ev)
	}
	return agent.Verdict{}
}

// moments returns the recorded moments, with their main field: "SessionStart(startup)"; a
// moment that is not a valid hook.Event is marked, so every list comparison checks it.
func (r *recorder) moments() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		s := string(e.Moment)
		if !e.Moment.Valid() { // the agent reports hook events, nothing hook does not know
			s += "(NOT A HOOK EVENT)"
		}
		for _, v := range []string{e.Source, e.Reason, e.Trigger, e.Command, e.Arguments, e.Info.AgentID} {
			if v != "" {
				s += "(" + v + ")"
			}
		}
		if e.Moment == hook.UserPromptSubmit {
			s += "(" + e.Prompt + ")"
		}
		if e.Call != nil && e.Moment != hook.UserPromptSubmit {
			s += "[" + e.Call.Name + "]"
		}
		out = append(out, s)
	}
	return out
}

func scripted(t *testing.T, script string) *model.Scripted {
	t.Helper()
	turns, err := model.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	return model.NewScripted(turns...)
}

// echoTool returns its input; NeedsApproval false.
type echoTool struct{}

func (echoTool) Name() string                       { return "Echo" }
func (echoTool) Description() string                { return "echo" }
func (echoTool) Schema() json.RawMessage            { return json.RawMessage(`{"type":"object"}`) }
func (echoTool) NeedsApproval(json.RawMessage) bool { return false }
func (echoTool) Run(_ context.Context, in json.RawMessage) (json.RawMessage, error) {
	return in, nil
}

func newSession(t *testing.T, rec *recorder, script string, mod func(*agent.Options)) *agent.Session {
	t.Helper()
	o := agent.Options{Model: scripted(t, script), Observer: rec, Tools: []agent.Tool{echoTool{}}, Workspace: t.TempDir(), SessionID: "s1"}
	if mod != nil {
		mod(&o)
	}
	s, err := agent.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCommands(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".hookcore/commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".hookcore/commands/greet.md"), []byte("---\ndescription: greet\n---\nSay hello to $ARGUMENTS.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		prompt  string
		want    []string
		wantErr string
	}{
		{prompt: "/compact", want: []string{"CommandExecute(compact)", "PreCompact(manual)", "PostCompact(manual)", "SessionStart(compact)"}},
		{prompt: "/clear", want: []string{"CommandExecute(clear)", "SessionEnd(clear)", "SessionStart(clear)"}},
		// UserPromptSubmit gets the typed text first (Claude Code 2.1.332,
		// testdata/claude/commands); before, it got the expanded text after the expansion.
		{prompt: "/greet Ada Lovelace", want: []string{"UserPromptSubmit(/greet Ada Lovelace)", "UserPromptExpansion(greet)(Ada Lovelace)", "CommandExecute(greet)(Ada Lovelace)", "PreSend", "PostReceive", "MessageDisplay", "Stop", "Notification"}},
		{prompt: "/nope", wantErr: "unknown command /nope"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			s := newSession(t, rec, `[]`, func(o *agent.Options) { o.Workspace = ws })
			_, err := s.Prompt(context.Background(), tt.prompt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rec.moments()); diff != "" {
				t.Errorf("moments (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCommandPlaces: slash commands are read from Claude Code's places too, in its order:
// ~/.claude/commands (userSettings), <project>/.claude/commands (projectSettings), then
// .hookcore/commands; a name with colons is a file in subdirectories. Observed with Claude
// Code 2.1.332 (testdata/claude/commands in the root package: /greet from the project's
// .claude/commands, /hello from ~/.claude/commands, /both in both places ran the user's
// "User version of both: x", /sub:deep ran .claude/commands/sub/deep.md, /deep was no
// command). Before, only .hookcore/commands was read.
func TestCommandPlaces(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	for p, content := range map[string]string{
		filepath.Join(ws, ".claude/commands/greet.md"):    "---\ndescription: greet\n---\nSay hello to $ARGUMENTS.\n",
		filepath.Join(ws, ".claude/commands/both.md"):     "Project version of both: $ARGUMENTS\n",
		filepath.Join(ws, ".claude/commands/sub/deep.md"): "Deep command: $ARGUMENTS\n",
		filepath.Join(ws, ".hookcore/commands/own.md"):    "hookcore command: $ARGUMENTS\n",
		filepath.Join(home, ".claude/commands/hello.md"):  "User hello: $ARGUMENTS\n",
		filepath.Join(home, ".claude/commands/both.md"):   "User version of both: $ARGUMENTS\n",
		filepath.Join(ws, "secret.md"):                    "not a command\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ prompt, sent, source, err string }{
		{"/greet world", "Say hello to world.", "projectSettings", ""},
		{"/hello there", "User hello: there", "userSettings", ""},
		{"/both x", "User version of both: x", "userSettings", ""},
		{"/sub:deep y", "Deep command: y", "projectSettings", ""},
		{"/own z", "hookcore command: z", "projectSettings", ""},
		{"/deep z", "", "", "unknown command /deep"},
		{"/sub:..:..:secret", "", "", "unknown command"},
	} {
		t.Run(tt.prompt, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			s := newSession(t, rec, `[]`, func(o *agent.Options) { o.Workspace, o.HomeDir = ws, home })
			_, err := s.Prompt(context.Background(), tt.prompt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m := s.Messages(); len(m) == 0 || m[0].Text != tt.sent {
				t.Errorf("sent %+v, want %q", m, tt.sent)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, e := range rec.events {
				if e.Moment == hook.UserPromptExpansion && e.CommandSource != tt.source {
					t.Errorf("command_source %q, want %q", e.CommandSource, tt.source)
				}
				if e.Moment == hook.UserPromptSubmit && e.Prompt != tt.prompt {
					t.Errorf("UserPromptSubmit prompt %q, want the typed %q", e.Prompt, tt.prompt)
				}
			}
		})
	}
}

func TestAutoCompact(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := newSession(t, rec, `[{"tool": "Echo", "input": {"long": "`+strings.Repeat("x", 200)+`"}}]`, func(o *agent.Options) { o.ContextBudget = 100 })
	if _, err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []string{"UserPromptSubmit(go)", "PreSend", "PostReceive", "PostToolBatch", "PreCompact(auto)", "PostCompact(auto)", "SessionStart(compact)", "PreSend", "PostReceive", "MessageDisplay", "Stop", "Notification"}
	if diff := cmp.Diff(want, rec.moments()); diff != "" {
		t.Errorf("moments (-want +got):\n%s", diff)
	}
	if m := s.Messages(); !strings.Contains(m[0].Text, "compacted") {
		t.Errorf("first message after compaction = %q", m[0].Text)
	}
}

func TestTasks(t *testing.T) {
	t.Parallel()
	rec := &recorder{verdict: func(ev *agent.Event) agent.Verdict {
		switch {
		case ev.Moment == hook.TaskCreated && ev.Task.Subject == "bad":
			return agent.Verdict{Block: true, Reason: "tasks need a ticket number"}
		case ev.Moment == hook.TaskCompleted:
			return agent.Verdict{Block: true, Reason: "tests are not green"}
		}
		return agent.Verdict{}
	}}
	s := newSession(t, rec, `[
		{"tool_calls": [{"name": "TaskCreate", "input": {"subject": "bad"}}, {"name": "TaskCreate", "input": {"subject": "T-1 good"}}]},
		{"tool": "TaskUpdate", "input": {"task_id": "2", "status": "completed"}}
	]`, func(o *agent.Options) { o.Tasks = true })
	if _, err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []agent.Task{{ID: "2", Subject: "T-1 good", Status: "pending"}}
	if diff := cmp.Diff(want, s.Tasks()); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
	results := map[string]string{}
	for _, m := range s.Messages() {
		if m.Role == agent.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	if results["call_1"] != "tasks need a ticket number" || results["call_3"] != "tests are not green" {
		t.Errorf("tool results = %v", results)
	}
}

func TestSubagent(t *testing.T) {
	t.Parallel()
	rec := &recorder{verdict: func(ev *agent.Event) agent.Verdict {
		if ev.Moment == hook.SubagentStop && !ev.StopActive {
			return agent.Verdict{Block: true, Reason: "report the count"}
		}
		return agent.Verdict{}
	}}
	var mu sync.Mutex
	var infos []tool.Session
	tag := func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
		mu.Lock()
		infos = append(infos, tool.SessionFrom(ctx))
		mu.Unlock()
		return next(ctx, call.Input)
	}
	s := newSession(t, rec, `[
		{"tool": "Agent", "input": {"prompt": "count files", "subagent_type": "explorer"}},
		{"tool": "Echo", "input": {"n": 1}},
		{"text": "I looked."},
		{"text": "3 files."},
		{"text": "The sub-agent says 3 files."}
	]`, func(o *agent.Options) {
		o.Subagents = true
		o.Middleware = []tool.Middleware{tag}
	})
	out, err := s.Prompt(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if out != "The sub-agent says 3 files." {
		t.Errorf("final text = %q", out)
	}
	want := []string{"UserPromptSubmit(go)", "PreSend", "PostReceive",
		"SubagentStart(agent-1)", "PreSend(agent-1)", "PostReceive(agent-1)", "PostToolBatch(agent-1)", "PreSend(agent-1)", "PostReceive(agent-1)",
		"SubagentStop(agent-1)", "PreSend(agent-1)", "PostReceive(agent-1)", "SubagentStop(agent-1)",
		"PostToolBatch", "PreSend", "PostReceive", "MessageDisplay", "Stop", "Notification"}
	if diff := cmp.Diff(want, rec.moments()); diff != "" {
		t.Errorf("moments (-want +got):\n%s", diff)
	}
	wantInfo := []tool.Session{{ID: "s1", PermissionMode: "default"}, {ID: "s1", PermissionMode: "default", AgentID: "agent-1", AgentType: "explorer"}}
	for i := range infos {
		infos[i].Cwd = ""
	}
	if diff := cmp.Diff(wantInfo, infos); diff != "" {
		t.Errorf("tool call infos (-want +got):\n%s", diff)
	}
	for _, m := range s.Messages() {
		if m.Role == agent.RoleTool && m.ToolCallID == "call_1" && m.Text != "3 files." {
			t.Errorf("Agent tool result = %q", m.Text)
		}
	}
}

func TestStopAgentAndMaxSteps(t *testing.T) {
	t.Parallel()
	loop := `[` + strings.Repeat(`{"tool": "Echo", "input": {}},`, 10) + `{"text": "end"}]`
	rec := &recorder{}
	s := newSession(t, rec, loop, func(o *agent.Options) { o.MaxSteps = 3 })
	_, err := s.Prompt(context.Background(), "go")
	if !errors.Is(err, agent.ErrMaxSteps) {
		t.Fatalf("err = %v, want ErrMaxSteps", err)
	}
	last := rec.events[len(rec.events)-1]
	if last.Moment != hook.Error || !strings.Contains(last.Error, "too many model requests") {
		t.Errorf("last moment = %+v", last)
	}
}

func TestChainOrder(t *testing.T) {
	t.Parallel()
	var trace []string
	mw := func(name string) tool.Middleware {
		return func(ctx context.Context, call tool.Call, next tool.Func) (json.RawMessage, error) {
			trace = append(trace, name+">")
			out, err := next(ctx, json.RawMessage(fmt.Sprintf(`{"by":%q}`, name)))
			trace = append(trace, "<"+name)
			return out, err
		}
	}
	out, err := tool.Chain(mw("a"), nil, mw("b"))(context.Background(), tool.Call{Name: "T"}, func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
		trace = append(trace, "tool")
		return in, nil
	})
	if err != nil || string(out) != `{"by":"b"}` {
		t.Errorf("out = %s, %v", out, err)
	}
	if diff := cmp.Diff([]string{"a>", "b>", "tool", "<b", "<a"}, trace); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

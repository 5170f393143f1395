package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// fakeModel replies with a fixed text (or error) and records what it was asked.
type fakeModel struct {
	reply string
	err   error
	wait  bool // block until ctx is done

	mu             sync.Mutex
	system, prompt string
}

func (m *fakeModel) Complete(ctx context.Context, system, prompt string) (string, error) {
	m.mu.Lock()
	m.system, m.prompt = system, prompt
	m.mu.Unlock()
	if m.wait {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return m.reply, m.err
}

func TestParseVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reply  string
		want   verdict
		parsed bool
	}{
		{`{"ok": true}`, verdict{ok: true}, true},
		{`{"ok": false, "reason": "deletes the repo"}`, verdict{reason: "deletes the repo"}, true},
		{"```json\n{\"ok\": false, \"reason\": \"fenced\"}\n```", verdict{reason: "fenced"}, true},
		{"Let me think. The command is harmless.\n{\"ok\": true, \"reason\": \"fine\"}\nHope that helps!", verdict{ok: true, reason: "fine"}, true},
		{`Sure: {"ok":false,"reason":"has {braces} and \"quotes\""} done`, verdict{reason: `has {braces} and "quotes"`}, true},
		{`{"analysis": {"risk": "high"}, "ok": false, "reason": "outer"}`, verdict{reason: "outer"}, true},
		{`{"result": {"ok": false, "reason": "nested"}}`, verdict{reason: "nested"}, true},
		{`{"note": "first object has no verdict"} then {"ok": true}`, verdict{ok: true}, true},
		{`{"ok": false, "reason": ["a", "b"]}`, verdict{reason: `["a","b"]`}, true},
		{`{"ok": false, "reason": null}`, verdict{}, true},
		{`{"ok": false, "reason": "  padded  "}`, verdict{reason: "padded"}, true},
		{`{broken {"ok": false, "reason": "after junk"}`, verdict{reason: "after junk"}, true},
		{`The action looks fine to me.`, verdict{}, false},
		{`{"ok": "false"}`, verdict{}, false},
		{`{"ok": null}`, verdict{}, false},
		{`{"okay": false}`, verdict{}, false},
		{`{"ok": false`, verdict{}, false},
		{``, verdict{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			t.Parallel()
			got, parsed := parseVerdict(tt.reply)
			if got != tt.want || parsed != tt.parsed {
				t.Errorf("parseVerdict = %+v, %v; want %+v, %v", got, parsed, tt.want, tt.parsed)
			}
		})
	}
}

func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{`{"ok": true}`, "```json\n{\"ok\": false}\n```", `x {"ok": false, "reason": "r"} y`, `{{{{`, `{"ok": "no"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		v, found := parseVerdict(reply)
		if !found && v != (verdict{}) {
			t.Fatalf("no verdict but %+v", v)
		}
		if found && !strings.Contains(reply, `"ok"`) {
			t.Fatalf("verdict without an ok key in %q", reply)
		}
	})
}

func TestPrompt(t *testing.T) {
	t.Parallel()
	modelErr := errors.New("openai gpt-4o-mini: http 401: bad key")
	tests := []struct {
		name    string
		model   *fakeModel
		timeout time.Duration
		want    hook.Decision
		wantErr error
		logged  bool
	}{
		{name: "ok", model: &fakeModel{reply: `{"ok": true}`}},
		{name: "block", model: &fakeModel{reply: `{"ok": false, "reason": "rm -rf / is destructive"}`},
			want: hook.Decision{Block: true, Reason: "rm -rf / is destructive"}},
		{name: "block in fence with prose", model: &fakeModel{reply: "Verdict:\n```json\n{\"ok\": false, \"reason\": \"no\"}\n```"},
			want: hook.Decision{Block: true, Reason: "no"}},
		{name: "unparsable allows and logs", model: &fakeModel{reply: "I would rather not say."}, logged: true},
		{name: "model error", model: &fakeModel{err: modelErr}, wantErr: modelErr},
		{name: "timeout", model: &fakeModel{wait: true}, timeout: 50 * time.Millisecond, wantErr: hook.ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs bytes.Buffer
			x := &Prompt{HookID: "judge", Prompt: "Is this safe? $ARGUMENTS", Model: tt.model, Timeout: tt.timeout,
				Logger: slog.New(slog.NewTextHandler(&logs, nil))}
			d, err := x.Execute(context.Background(), preToolUse())
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
				if d.Block {
					t.Error("a failed judge blocked")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Output != tt.model.reply {
				t.Errorf("Output = %q, want the reply %q", d.Output, tt.model.reply)
			}
			d.Output = ""
			tt.want.ExitCode = -1
			if diff := cmp.Diff(tt.want, d); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
			if got := strings.Contains(logs.String(), "verdict"); got != tt.logged {
				t.Errorf("logged = %v, want %v: %s", got, tt.logged, logs.String())
			}
		})
	}
}

func TestPromptExpansion(t *testing.T) {
	t.Parallel()
	in := preToolUse()
	args, _ := in.MarshalJSON()
	tests := []struct{ tmpl, want string }{
		{"Judge: $ARGUMENTS", "Judge: " + string(args)},
		{"Judge ${ARGUMENTS} for $TOOL_NAME", "Judge " + string(args) + " for Write"},
		{"Is writing $FILE_PATH ok?", "Is writing a \"quoted\" <name>.go ok?\n\nHook input (JSON):\n" + string(args)},
		{"$ARGUMENTSX stays", "$ARGUMENTSX stays\n\nHook input (JSON):\n" + string(args)},
	}
	for _, tt := range tests {
		m := &fakeModel{reply: `{"ok": true}`}
		x := &Prompt{Prompt: tt.tmpl, Model: m}
		if _, err := x.Execute(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if m.prompt != tt.want {
			t.Errorf("prompt for %q:\n got %q\nwant %q", tt.tmpl, m.prompt, tt.want)
		}
		if m.system != JudgeSystemPrompt {
			t.Errorf("system prompt = %q", m.system)
		}
	}
	// The input JSON is written once and never expanded again.
	in.ToolInput = json.RawMessage(`{"command":"echo $FILE_PATH $ARGUMENTS"}`)
	m := &fakeModel{reply: `{"ok": true}`}
	(&Prompt{Prompt: "$ARGUMENTS", Model: m}).Execute(context.Background(), in)
	if !strings.Contains(m.prompt, `echo $FILE_PATH $ARGUMENTS`) {
		t.Errorf("input re-expanded: %s", m.prompt)
	}
}

func TestPromptNoModel(t *testing.T) {
	t.Parallel()
	d, err := (&Prompt{HookID: "j", Prompt: "x"}).Execute(context.Background(), preToolUse())
	if !errors.Is(err, hook.ErrNotStarted) || !strings.Contains(err.Error(), "no model configured") || d.ExitCode != -1 {
		t.Errorf("Execute = %+v, %v", d, err)
	}
}

func TestAgent(t *testing.T) {
	t.Parallel()
	var gotPrompt string
	runner := AgentRunnerFunc(func(ctx context.Context, prompt string) (string, error) {
		gotPrompt = prompt
		return "I read the file; it leaks a key.\n{\"ok\": false, \"reason\": \"hard-coded API key\"}", nil
	})
	x := &Agent{HookID: "review", Prompt: "Review $FILE_PATH for security problems.", Runner: runner}
	d, err := x.Execute(context.Background(), preToolUse())
	if err != nil {
		t.Fatal(err)
	}
	if !d.Block || d.Reason != "hard-coded API key" {
		t.Errorf("decision = %+v", d)
	}
	if !strings.HasPrefix(gotPrompt, `Review a "quoted" <name>.go for security problems.`) ||
		!strings.Contains(gotPrompt, "Hook input (JSON):") || !strings.HasSuffix(gotPrompt, AgentInstructions) {
		t.Errorf("prompt = %q", gotPrompt)
	}

	tests := []struct {
		name    string
		runner  AgentRunner
		timeout time.Duration
		wantErr error
		text    string
		block   bool
	}{
		{"no runner", nil, 0, hook.ErrNotStarted, "no agent runner configured", false},
		{"runner error", AgentRunnerFunc(func(context.Context, string) (string, error) { return "", errors.New("sub-agent crashed") }),
			0, nil, "sub-agent crashed", false},
		{"timeout", AgentRunnerFunc(func(ctx context.Context, _ string) (string, error) { <-ctx.Done(); return "", ctx.Err() }),
			50 * time.Millisecond, hook.ErrTimeout, "timeout", false},
		{"ok", AgentRunnerFunc(func(context.Context, string) (string, error) { return `All good. {"ok": true}`, nil }),
			0, nil, "", false},
		{"no verdict allows", AgentRunnerFunc(func(context.Context, string) (string, error) { return "Looks fine.", nil }),
			0, nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := (&Agent{HookID: "a", Prompt: "p", Runner: tt.runner, Timeout: tt.timeout}).Execute(context.Background(), preToolUse())
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			if (tt.text != "") != (err != nil) || (err != nil && !strings.Contains(err.Error(), tt.text)) {
				t.Fatalf("error = %v, want one containing %q", err, tt.text)
			}
			if d.Block != tt.block {
				t.Errorf("block = %v", d.Block)
			}
		})
	}
}

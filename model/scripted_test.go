package model

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/tool"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		script  string
		want    []Turn
		wantErr string
	}{
		{"strings", `["a", "b"]`, []Turn{{Text: "a"}, {Text: "b"}}, ""},
		{"text objects", `[{"text": "a"}, "b"]`, []Turn{{Text: "a"}, {Text: "b"}}, ""},
		{"tool calls", `[{"text": "t", "tool_calls": [{"name": "Bash", "input": {"command": "ls"}}, {"id": "c2", "name": "ReadFile"}]}]`,
			[]Turn{{Text: "t", ToolCalls: []tool.Call{
				{Name: "Bash", Input: json.RawMessage(`{"command": "ls"}`)},
				{ID: "c2", Name: "ReadFile"},
			}}}, ""},
		{"single tool shorthand", `[{"tool": "Bash", "input": {"command": "ls"}}]`,
			[]Turn{{ToolCalls: []tool.Call{{Name: "Bash", Input: json.RawMessage(`{"command": "ls"}`)}}}}, ""},
		{"empty", `[]`, []Turn{}, ""},
		{"not an array", `{"text": "a"}`, nil, "a script is a JSON array of turns"},
		{"unknown key", `[{"txt": "a"}]`, nil, "turn 0: want a string or an object"},
		{"number", `["a", 3]`, nil, "turn 1: want a string or an object"},
		{"nameless call", `[{"tool_calls": [{"input": {}}]}]`, nil, "turn 0: tool call 0 has no name"},
		{"input not object", `[{"tool": "Bash", "input": "ls"}]`, nil, "turn 0: tool call 0: input must be a JSON object"},
		{"input without tool", `[{"input": {}}]`, nil, "turn 0: input without tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseScript([]byte(tt.script))
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want prefix %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("turns (-want +got):\n%s", d)
			}
		})
	}
}

func TestScriptedComplete(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/s.json"
	writeFile(t, path, `["one", {"text": "two"}, {"tool": "Bash", "input": {}}]`)
	s, err := LoadScripted(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, want := range []string{"one", "two"} {
		if got, err := s.Complete(ctx, "sys", "p"); got != want || err != nil {
			t.Errorf("Complete = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := s.Complete(ctx, "", ""); err == nil || !strings.Contains(err.Error(), "tool calls (Bash)") {
		t.Errorf("tool turn: %v", err)
	}
	for range 2 {
		if got, err := s.Complete(ctx, "", ""); got != DoneText || err != nil {
			t.Errorf("used up: Complete = %q, %v; want %q", got, err, DoneText)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Complete(cancelled, "", ""); err == nil {
		t.Error("Complete on a cancelled context succeeded")
	}
}

// TestScriptedChat checks the agent's side of a script: each Chat takes the next turn, the
// request recorder sees each request, a caller's change to a reply does not change the
// script, and a used-up script says DoneText.
func TestScriptedChat(t *testing.T) {
	t.Parallel()
	s := NewScripted(Turn{Text: "t", ToolCalls: []tool.Call{{Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}}})
	var seen []string
	s.Requests = func(r *agent.Request) { seen = append(seen, r.Messages[0].Text) }
	req := &agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Text: "hi"}}}
	r, err := s.Chat(context.Background(), req)
	want := agent.Reply{Text: "t", ToolCalls: []tool.Call{{Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}}}
	if d := cmp.Diff(want, r); d != "" || err != nil {
		t.Errorf("Chat: %v; reply (-want +got):\n%s", err, d)
	}
	r.ToolCalls[0].ID = "changed"
	if s.turns[0].ToolCalls[0].ID != "" {
		t.Error("a change to the reply changed the script")
	}
	if r, err := s.Chat(context.Background(), req); r.Text != DoneText || len(r.ToolCalls) != 0 || err != nil {
		t.Errorf("used up: Chat = %+v, %v; want %q", r, err, DoneText)
	}
	if d := cmp.Diff([]string{"hi", "hi"}, seen); d != "" {
		t.Errorf("requests seen (-want +got):\n%s", d)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Chat(cancelled, req); !errors.Is(err, context.Canceled) {
		t.Errorf("Chat on a cancelled context: %v", err)
	}
}

func TestScriptedConcurrent(t *testing.T) {
	t.Parallel()
	const n = 50
	turns := make([]Turn, n)
	for i := range turns {
		turns[i] = Turn{Text: strings.Repeat("x", i+1)}
	}
	s := NewScripted(turns...)
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			got, _ := s.Complete(context.Background(), "", "")
			mu.Lock()
			seen[got] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n || s.Remaining() != 0 {
		t.Errorf("%d distinct replies, %d remaining; want %d, 0", len(seen), s.Remaining(), n)
	}
}

func FuzzParseScript(f *testing.F) {
	for _, s := range []string{`["a"]`, `[{"text":"a"}]`, `[{"tool":"Bash","input":{}}]`, `[{"tool_calls":[{"name":"x"}]}]`, `[1]`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		turns, err := ParseScript(data)
		if err != nil {
			return
		}
		for _, tr := range turns {
			for _, c := range tr.ToolCalls {
				if c.Name == "" {
					t.Fatalf("accepted a nameless tool call in %q", data)
				}
			}
		}
	})
}

func TestParseSpec(t *testing.T) {
	t.Parallel()
	tests := map[string]Spec{
		"openai:gpt-4o-mini":         {ProviderOpenAI, "gpt-4o-mini"},
		"anthropic:claude-haiku-4-5": {ProviderAnthropic, "claude-haiku-4-5"},
		"claude:claude-x":            {ProviderAnthropic, "claude-x"},
		"vllm:Qwen/Qwen2.5-7B":       {ProviderOpenAI, "Qwen/Qwen2.5-7B"},
		"scripted:a/b.json":          {ProviderScripted, "a/b.json"},
		" gpt-4o ":                   {ProviderOpenAI, "gpt-4o"},
		"o3-mini":                    {ProviderOpenAI, "o3-mini"},
		"Claude-3-5-Haiku":           {ProviderAnthropic, "Claude-3-5-Haiku"},
		"llama3.2":                   {"", "llama3.2"},
		"hf.co/org/model:Q4_K_M":     {"", "hf.co/org/model:Q4_K_M"},
		"":                           {"", ""},
	}
	for in, want := range tests {
		if got := ParseSpec(in); got != want {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", in, got, want)
		}
	}
}

package hookcore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// TestClaudeTimeouts: Claude Code's defaults for hooks of Claude Code settings files
// (research note §2.5): 600 s command/http/mcp_tool, 30 s on UserPromptSubmit, 10 s on
// MessageDisplay, 30 s prompt, 60 s agent; SessionEnd hooks capped by the shared budget.
func TestClaudeTimeouts(t *testing.T) {
	t.Parallel()
	const budget = 1500 * time.Millisecond
	tests := []struct {
		name  string
		event hook.Event
		typ   string
		set   time.Duration
		want  time.Duration
	}{
		{"command", hook.PreToolUse, config.TypeCommand, 0, 600 * time.Second},
		{"http", hook.PostToolUse, config.TypeHTTP, 0, 600 * time.Second},
		{"command on UserPromptSubmit", hook.UserPromptSubmit, config.TypeCommand, 0, 30 * time.Second},
		{"command on MessageDisplay", "MessageDisplay", config.TypeCommand, 0, 10 * time.Second},
		{"prompt", hook.Stop, config.TypePrompt, 0, 30 * time.Second},
		{"agent", hook.Stop, config.TypeAgent, 0, 60 * time.Second},
		{"mcp_tool", hook.PreToolUse, config.TypeMCPTool, 0, 600 * time.Second},
		{"mcp_tool on UserPromptSubmit", hook.UserPromptSubmit, config.TypeMCPTool, 0, 30 * time.Second},
		{"set timeout wins", hook.PreToolUse, config.TypeCommand, 5 * time.Second, 5 * time.Second},
		{"SessionEnd default is the budget", hook.SessionEnd, config.TypeCommand, 0, budget},
		{"SessionEnd longer than the budget", hook.SessionEnd, config.TypeCommand, time.Minute, budget},
		{"SessionEnd shorter than the budget", hook.SessionEnd, config.TypeCommand, time.Second, time.Second},
	}
	for _, tt := range tests {
		h := &config.Hook{Event: tt.event, Action: config.Action{Type: tt.typ}}
		if got := claudeTimeout(h, tt.set, budget); got != tt.want {
			t.Errorf("%s: timeout = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSessionEndBudget: 1.5 s, raised to the largest SessionEnd timeout of the settings
// files up to 60 s (plugin hooks do not count), or CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS.
func TestSessionEndBudget(t *testing.T) {
	t.Parallel()
	se := func(d time.Duration) config.Hook {
		return config.Hook{Event: hook.SessionEnd, Dialect: config.Nested, Action: config.Action{Type: config.TypeCommand, Timeout: d}}
	}
	tests := []struct {
		name  string
		files []*config.File
		env   []string
		want  time.Duration
	}{
		{"none", nil, []string{}, 1500 * time.Millisecond},
		{"raised", []*config.File{{Hooks: []config.Hook{se(5 * time.Second), se(0)}}}, []string{}, 5 * time.Second},
		{"capped", []*config.File{{Hooks: []config.Hook{se(5 * time.Minute)}}}, []string{}, 60 * time.Second},
		{"plugin does not count", []*config.File{{PluginRoot: "/p", Hooks: []config.Hook{se(30 * time.Second)}}}, []string{}, 1500 * time.Millisecond},
		{"env", []*config.File{{Hooks: []config.Hook{se(5 * time.Second)}}}, []string{"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS=250"}, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := sessionEndBudget(&config.Set{Files: tt.files}, tt.env); got != tt.want {
			t.Errorf("%s: budget = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestClaudeTimeoutsObserved: the timeouts Claude Code 2.1.332 applied to the command hooks
// of testdata/claude/timeouts/settings.json (peer-claude with PEER_DEBUG=1: debug.log's
// "timed out after 30000ms" on UserPromptSubmit, 1000ms for `"timeout": 1` on PreToolUse,
// 10000ms on MessageDisplay; a SessionEnd hook sleeping 3 s cut at the 1.5 s budget), in the
// file's order, are the ones hookcore compiles for them. The 600 s default and the prompt and
// agent defaults were not observed (see the scenario's observed.json).
func TestClaudeTimeoutsObserved(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "claude", "timeouts")
	var obs struct {
		ClaudeCode string `json:"claude_code"`
		Timeouts   []struct {
			Event   string  `json:"event"`
			Seconds float64 `json:"seconds"`
		} `json:"timeouts"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "observed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &obs); err != nil || obs.ClaudeCode == "" {
		t.Fatalf("observed.json: %v (version %q)", err, obs.ClaudeCode)
	}
	set, errs := config.Load([]config.LayerPath{{Path: filepath.Join(dir, "settings.json"), Layer: config.Explicit}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	budget := sessionEndBudget(set, []string{})
	var got, want []string
	for _, f := range set.Files {
		for i := range f.Hooks {
			h := &f.Hooks[i]
			got = append(got, fmt.Sprintf("%s %v", h.Event, claudeTimeout(h, h.EffectiveTimeout(), budget)))
		}
	}
	for _, o := range obs.Timeouts {
		want = append(want, fmt.Sprintf("%s %v", o.Event, time.Duration(o.Seconds*float64(time.Second))))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timeouts (-real Claude Code +hookcore):\n%s", diff)
	}
}

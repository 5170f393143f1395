//go:build !hookcore_lean

package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
)

func TestExternalProblems(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "")
	t.Setenv("HOOKCORE_MODEL", "")
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.yaml")
	os.WriteFile(filepath.Join(dir, "judge.json"), []byte(`["{\"ok\": true}"]`), 0o644)
	os.WriteFile(path, []byte(`hooks:
  - id: review
    event: post_tool_use
    action: {type: agent, prompt: "Review it"}
  - id: wh
    event: post_tool_use
    action: {type: http, url: "https://example.com/h", allowed_hosts: ["127.0.0.1"]}
  - id: gofunc
    event: pre_tool_use
    action: {type: func, name: audit}
  - id: judge
    event: pre_tool_use
    action: {type: prompt, prompt: "Judge", model: "openai:gpt-4o-mini"}
  - id: scripted
    event: pre_tool_use
    action: {type: prompt, prompt: "Judge", model: "scripted:judge.json"}
  - id: off
    event: post_tool_use
    action: {type: agent, prompt: "Review it"}
    enabled: false
`), 0o644)
	f, problems := config.ParseFile(path, config.Explicit)
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	e := &env{cwd: dir}
	var got []string
	for _, p := range e.externalProblems(f, false) {
		got = append(got, relativize(p.Error(), dir))
	}
	want := []string{
		"hooks.yaml:2:5: review: agent hook needs an agent runner, and this program has none: it would be skipped each time it fires (pass --agent-runner when the harness runs sub-agents, as hookcore run does)",
		`hooks.yaml:8:5: gofunc: warning: func hook: only a Go program that registers "audit" (hookcore.Options.Funcs) can run it; the hookcore CLI registers none`,
		"hooks.yaml:11:5: judge: warning: prompt hook cannot reach a model here (model openai:gpt-4o-mini: api key not set: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server): it would fail, and let the action through, each time it fires",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
	if n := len(e.externalProblems(f, true)); n != 2 {
		t.Errorf("with an agent runner: %d problems, want 2", n)
	}
}

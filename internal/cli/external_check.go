//go:build !hookcore_lean

package cli

import (
	"fmt"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/model"
)

// externalProblems checks what the Runner would find when it builds the prompt, agent and
// func hooks of f (issue 4), for `hookcore check`:
//
//   - error: an agent hook when the program has no agent runner (hasAgentRunner false): it
//     would be skipped every time it fires;
//   - warning: a func hook: only a Go program that registers its name can run it, and the
//     hookcore CLI registers none, so `hookcore fire` fails on it;
//   - warning: a prompt hook whose model cannot be built here (no API key in the
//     environment, a missing script file): it would fail, and let the action through, each
//     time it fires.
//
// In a Claude Code settings file both are warnings that say so: Claude Code runs its prompt
// and agent hooks itself, with its own model, and hookcore needs its own only where it runs
// that file (`hookcore fire`, under another agent). A Claude Code user's settings with an
// agent hook failed `check` (stop 25, noticed).
//
// An http hook's `allowed_hosts` entries are checked by config validation.
func (e *env) externalProblems(f *config.File, hasAgentRunner bool) config.ErrorList {
	var out config.ErrorList
	models := model.Config{Dir: e.cwd}
	claude := config.IsClaudeSettings(f.Path)
	const claudeRuns = "Claude Code runs this hook itself; where hookcore runs this file (hookcore fire, under another agent) "
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if !h.Enabled {
			continue
		}
		switch h.Action.Type {
		case config.TypeAgent:
			if !hasAgentRunner && claude {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: claudeRuns + "it needs an agent runner (--agent-runner), and without one it is skipped"})
			} else if !hasAgentRunner {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID,
					Msg: "agent hook needs an agent runner, and this program has none: it would be skipped each time it fires (pass --agent-runner when the harness runs sub-agents, as hookcore run does)"})
			}
		case config.TypeMCPTool:
			if !mcpLinked {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: "mcp_tool hook: this hookcore binary does not link the mcp_tool executor (build it with -tags mcp): it would fail, and let the action through, each time it fires"})
			}
		case config.TypeRego:
			if !regoLinked {
				// New-user trial, stop 34: check said "0 errors, 0 warnings" for
				// examples/opa/hooks.yaml, whose every event this binary then blocked.
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: "rego hook: this hookcore binary does not link the rego executor (build it with -tags rego): it would fail each time it fires, and block where its on_error says so"})
			}
		case config.TypeFunc:
			out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
				Msg: fmt.Sprintf("func hook: only a Go program that registers %q (hookcore.Options.Funcs) can run it; the hookcore CLI registers none", h.Action.Name)})
		case config.TypePrompt:
			if _, err := models.New(h.Action.Model); err != nil && claude {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: fmt.Sprintf(claudeRuns+"it cannot reach a model here (%v), and fails open", err)})
			} else if err != nil {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: fmt.Sprintf("prompt hook cannot reach a model here (%v): it would fail, and let the action through, each time it fires", err)})
			}
		}
	}
	return out
}

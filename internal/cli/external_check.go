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
// An http hook's `allowed_hosts` entries are checked by config validation.
func (e *env) externalProblems(f *config.File, hasAgentRunner bool) config.ErrorList {
	var out config.ErrorList
	models := model.Config{Dir: e.cwd}
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if !h.Enabled {
			continue
		}
		switch h.Action.Type {
		case config.TypeAgent:
			if !hasAgentRunner {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID,
					Msg: "agent hook needs an agent runner, and this program has none: it would be skipped each time it fires (pass --agent-runner when the harness runs sub-agents, as hookcore run does)"})
			}
		case config.TypeMCPTool:
			if !mcpLinked {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: "mcp_tool hook: this hookcore binary does not link the mcp_tool executor (build it with -tags mcp): it would fail, and let the action through, each time it fires"})
			}
		case config.TypeFunc:
			out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
				Msg: fmt.Sprintf("func hook: only a Go program that registers %q (hookcore.Options.Funcs) can run it; the hookcore CLI registers none", h.Action.Name)})
		case config.TypePrompt:
			if _, err := models.New(h.Action.Model); err != nil {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: fmt.Sprintf("prompt hook cannot reach a model here (%v): it would fail, and let the action through, each time it fires", err)})
			}
		}
	}
	return out
}

package cli

import (
	"fmt"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/netguard"
	"github.com/hookcore/hookcore/model"
)

// externalProblems checks what the Runner would find when it builds the http, prompt and
// agent hooks of f (issue 4), for `hookcore check`:
//
//   - error: an agent hook when the program has no agent runner (hasAgentRunner false): it
//     would be skipped every time it fires;
//   - error: an `allowed_hosts` entry that is not a host name, IP address or CIDR prefix
//     (the Runner refuses to load it);
//   - warning: a prompt hook whose model cannot be built here (no API key in the
//     environment, a missing script file): it would fail, and let the action through, each
//     time it fires.
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
					Msg: "agent hook needs an agent runner, and this program has none: it would be skipped each time it fires"})
			}
		case config.TypeHTTP:
			if _, err := netguard.New(netguard.Options{Allow: h.Action.AllowedHosts}); err != nil {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Msg: err.Error()})
			}
		case config.TypePrompt:
			if _, err := models.New(h.Action.Model); err != nil {
				out = append(out, &config.Problem{Pos: h.Pos, HookID: h.ID, Warning: true,
					Msg: fmt.Sprintf("prompt hook cannot reach a model here (%v): it would fail, and let the action through, each time it fires", err)})
			}
		}
	}
	return out
}

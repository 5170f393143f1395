package mcptool

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// Factory is the hookcore.ExecutorFactory of `type: mcp_tool` hooks (register it as
// Options.Executors[config.TypeMCPTool]; the hookcore CLI does with -tags mcp): a Tool over
// the Pool that the Runner's hook set shares (ExecutorEnv.Shared: one session, and one
// server process, per server, started on first use and stopped when Reload replaces the
// set or the Runner closes). The servers are those of env.Set.MCP (Servers); the project's
// .mcp.json servers start only when env.ProjectUntrusted is "". Hooks with other
// allowed_hosts get a Pool of their own, so a hook's allowlist opens HTTP servers for its
// own calls only. A source that does not parse is logged and left out.
func Factory(_ context.Context, h *config.Hook, env hookcore.ExecutorEnv) (hook.Executor, error) {
	key := "mcp_tool\x00" + strings.Join(env.AllowedHosts, "\x00")
	c, err := env.Shared(key, func() (io.Closer, error) {
		trusted := env.ProjectUntrusted == ""
		servers, problems := Servers(env.Set, trusted)
		for _, p := range problems {
			if env.Logger != nil {
				env.Logger.Warn("mcp servers not read", "err", p)
			}
		}
		return NewPool(servers, PoolOptions{
			ProjectTrusted: trusted, Untrusted: env.ProjectUntrusted,
			AllowedHosts: env.AllowedHosts, Dir: env.ProjectDir,
		}), nil
	})
	if err != nil {
		return nil, err
	}
	a := &h.Action
	return &Tool{HookID: h.ID, Server: a.Server, Tool: a.Tool, Input: a.Input, Timeout: env.Timeout, Pool: c.(*Pool)}, nil
}

// Servers merges the servers of set's MCP sources by name, in Claude Code's precedence:
// local scope over project over user; a plugin's are "plugin:<plugin>:<server>" (research
// note §2.5). A project server of an untrusted workspace (projectTrusted false) does not
// shadow a user or local server of the same name: a repository must not be able to switch
// off the user's mcp_tool guard by naming a server that will not start. It stays in the map
// when no other has its name, so that the hook fails saying it is untrusted. A source that
// does not parse is left out and returned as an error.
func Servers(set *config.Set, projectTrusted bool) (map[string]Server, []error) {
	out := map[string]Server{}
	if set == nil {
		return out, nil
	}
	var errs []error
	for _, scope := range []string{"user", "project", "local", "plugin"} {
		for _, src := range set.MCP {
			if src.Scope != scope {
				continue
			}
			servers, err := ParseMCPJSON(src.Data, nil, src.Layer == config.Project)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s (%s scope): %w", src.Path, scope, err))
				continue
			}
			for name, s := range servers {
				if scope == "plugin" {
					out["plugin:"+src.Plugin+":"+name] = s
					continue
				}
				if old, ok := out[name]; ok && s.Project && !projectTrusted && !old.Project {
					continue
				}
				out[name] = s
			}
		}
	}
	return out, errs
}

package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor/mcptool"
	"github.com/hookcore/hookcore/hook"
)

// mcpFactory builds the executor of an mcp_tool hook (Claude Code's MCP tool handler): an
// mcptool.Tool over the pool of MCP sessions that the Runner's hook set shares
// (ExecutorEnv.Shared: one server process per server, started on first use, stopped when
// the Runner closes). The servers are those of env.Set.MCP (mcpServers); the project's
// .mcp.json servers start only when the workspace is trusted (env.ProjectUntrusted "").
// Hooks with other allowed_hosts get a pool of their own, so a hook's allowlist opens the
// HTTP servers for its calls only.
func mcpFactory(_ context.Context, h *config.Hook, env hookcore.ExecutorEnv) (hook.Executor, error) {
	key := "mcp_tool\x00" + strings.Join(env.AllowedHosts, "\x00")
	c, err := env.Shared(key, func() (io.Closer, error) {
		trusted := env.ProjectUntrusted == ""
		servers, problems := mcpServers(env.Set, trusted)
		for _, p := range problems {
			env.Logger.Warn("mcp servers not read", "err", p)
		}
		return mcptool.NewPool(servers, mcptool.PoolOptions{
			ProjectTrusted: trusted, Untrusted: env.ProjectUntrusted,
			AllowedHosts: env.AllowedHosts, Dir: env.ProjectDir,
		}), nil
	})
	if err != nil {
		return nil, err
	}
	a := &h.Action
	return &mcptool.Tool{HookID: h.ID, Server: a.Server, Tool: a.Tool, Input: a.Input, Timeout: env.Timeout, Pool: c.(*mcptool.Pool)}, nil
}

// mcpServers merges the servers of set's MCP sources by name, in Claude Code's precedence:
// local scope over project over user; a plugin's are "plugin:<plugin>:<server>". A project
// server of an untrusted workspace does not shadow a user or local server of the same name
// (a repository must not be able to switch off the user's mcp_tool guard by naming a
// server that will not start); it stays in the map when no other has its name, so that the
// hook fails saying it is untrusted. A source that does not parse is left out, with its error.
func mcpServers(set *config.Set, projectTrusted bool) (map[string]mcptool.Server, []error) {
	out := map[string]mcptool.Server{}
	if set == nil {
		return out, nil
	}
	var errs []error
	for _, scope := range []string{"user", "project", "local", "plugin"} {
		for _, src := range set.MCP {
			if src.Scope != scope {
				continue
			}
			servers, err := mcptool.ParseMCPJSON(src.Data, nil, src.Layer == config.Project)
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

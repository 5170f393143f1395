//go:build mcp && !hookcore_lean

package cli

import (
	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/mcptool"
)

// mcpLinked says whether this binary runs `type: mcp_tool` hooks (built with -tags mcp).
const mcpLinked = true

// registerMCP adds the mcp_tool executor (package mcptool, the official MCP Go SDK).
func registerMCP(m map[string]hookcore.ExecutorFactory) { m[config.TypeMCPTool] = mcptool.Factory }

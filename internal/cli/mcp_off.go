//go:build !mcp || hookcore_lean

package cli

import "github.com/hookcore/hookcore"

// mcpLinked says whether this binary runs `type: mcp_tool` hooks. The default build does not
// link the MCP Go SDK: its package initialisation (encoding/gob, jsonschema-go) and size add
// to every hook process start (docs/decisions.md, "mcp_tool: wired, opt-in in the binary");
// build with -tags mcp for it. A default binary fails an mcp_tool hook, non-blocking, saying so.
//
//lint:ignore U1000 read by the full build (the lean hook binary has no version command)
const mcpLinked = false

// registerMCP adds nothing here.
func registerMCP(map[string]hookcore.ExecutorFactory) {}

package cli

// RegoLinked is regoLinked, for the external tests.
const RegoLinked = regoLinked

// MCPFactory is mcpFactory, the CLI's mcp_tool executor factory, for the external tests.
var MCPFactory = mcpFactory

// MCPServers is mcpServers, for the external tests.
var MCPServers = mcpServers

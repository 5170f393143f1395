//go:build !hookcore_lean

package cli

// RegoLinked is regoLinked, for the external tests.
const RegoLinked = regoLinked

// MCPLinked is mcpLinked, for the external tests.
const MCPLinked = mcpLinked

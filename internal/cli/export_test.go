//go:build !hookcore_lean

package cli

// MCPLinked is mcpLinked, for the external tests.
const MCPLinked = mcpLinked

// RegoLinked is regoLinked, for the external tests.
const RegoLinked = regoLinked

// Package hook is hookcore's vocabulary: the registry of lifecycle events, the input a hook
// receives, the decision a hook returns, the per-hook record and the merged result of one
// event, the Executor interface, and the parser of hook output envelopes.
//
// It uses the standard library only and does no I/O, so every other package can import it.
// The input follows the Claude Code hook payload (session_id, tool_name, tool_input, ...), so
// hook scripts written for Claude Code read it unchanged; the envelope parser accepts the
// output of all three source designs (codebot, the s08 teaching harness, Claude Code).
package hook

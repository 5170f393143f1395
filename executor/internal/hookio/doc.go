// Package hookio holds what the executors of package executor and of executor/command share
// about a hook's input and reply, so that neither imports the other's internals:
//
//   - the context variables ($EVENT, $TOOL_NAME, $FILE_PATH, $TOOL_ARGS.x, ...; MiniCode,
//     seed 004) and their plain-text expansion (vars.go), used by the command, http,
//     prompt, agent and inject executors;
//   - Claude Code's placeholders ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT},
//     ${CLAUDE_PLUGIN_DATA} (placeholders.go), used by the command executor and, through
//     the alias executor.Placeholders, by the root package for http urls;
//   - the input JSON a command hook reads on stdin and an http hook posts (Stdin), the
//     event of an input (Event), an error's excerpt of a reply (Excerpt) and a byte cut
//     on a UTF-8 boundary (CutUTF8) (io.go).
//
// It is internal to executor/...: its names are no public API (docs/decisions.md, "The
// command executor in executor/command").
package hookio

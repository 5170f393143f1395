// Package executor holds hookcore's executors other than the command executor, each an
// implementation of hook.Executor: HTTP (a POST to a webhook), Prompt (a model judges),
// Agent (a sub-agent judges), Inject (MiniCode prompt injection) and Func (a Go callback),
// one file each. The command executor, which runs a hook as a child process, is package
// executor/command; the names it had here (Command, ExitAction, SessionEnvFiles, ...) are
// deprecated aliases of that package's for one release (command_alias.go).
//
// Context variables ($EVENT, $TOOL_NAME, $FILE_PATH, $MESSAGE, $ERROR, $SESSION_ID, $CWD,
// $TOOL_ARGS, $TOOL_ARGS.x and their ${NAME} forms) are written in as plain text in Inject
// messages, JSON-escaped in an HTTP body template, and as plain text in Prompt and Agent
// prompts; every other $ is left alone. Claude Code's placeholders (${CLAUDE_PROJECT_DIR},
// ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA}) are expanded by Placeholders. Both are
// shared with executor/command through an internal package (executor/internal/hookio).
package executor

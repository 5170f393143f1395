// Package command is hookcore's command executor: Command, the hook.Executor that runs a
// hook as a child process (DESIGN.md section 6, "command"), with its exit-code protocol
// (ExitAction), Claude Code's CLAUDE_ENV_FILE (SessionEnvDir, SessionEnvFiles) and the
// shell-form machinery: injection-proof substitution, the arithmetic guard, direct
// execution, the launch checks and the exec size limits. The other executors (http,
// prompt, agent, inject, func) are in package executor; this package was part of it until
// issue 13 (executor keeps deprecated aliases for one release).
//
// # Running a command
//
// A command hook runs in the session's working directory, in its own process group, with
// the event input as JSON on stdin and HOOK_* variables in its environment; at its timeout
// the whole group is interrupted and then killed, its output is capped, and a grandchild left
// holding stdout open cannot hang the agent (internal/proc). Its exit code and stdout become
// a hook.Decision by the protocol documented on Command.Execute.
//
// Context variables ($EVENT, $TOOL_NAME, $FILE_PATH, $MESSAGE, $ERROR, $SESSION_ID, $CWD,
// $TOOL_ARGS, $TOOL_ARGS.x and their ${NAME} forms) are substituted injection-proof in the
// shell form: each becomes a reference to a private environment variable holding the
// value, quoted so that the value arrives as exactly one word with its exact content, bare
// or inside double quotes; inside single quotes the shell's rules apply and nothing is
// substituted. Every other $ ($HOME, $$, $1, $NO_SUCH_VAR) is the shell's. In the exec form
// (Args) and in Inject messages the values are written in as plain text.
//
// # Large values
//
// Linux lets a program be started with at most 128 KiB per argument or environment string
// and about 2 MiB in all; a hook that exec refuses could never run, and a guard would fail
// open. So a context variable over 64 KiB is split over several private variables that the
// shell joins back into one word; environment variables set from the input (HOOK_TOOL_INPUT,
// HOOK_TOOL_OUTPUT, FILE_PATH, HOOK_SESSION_ID, ...) are cut at 10 000 bytes; and when the
// arguments and environment would still be too large (an exec-form argument over 128 KiB,
// more than 1.5 MiB in all) the hook does not start, with an error wrapping
// hook.ErrInputTooLarge, on which the Runner blocks a guard's gate event.
//
// # Direct execution
//
// A shell-form command that, after substitution, is a single simple command of literal
// words — no quotes, $, ; | & < > ( ) { }, glob characters (* ? [), ~, backslash, newline
// or #, no = in the first word, and a first word that is no reserved word or builtin — is
// executed directly instead of through `sh -c`. The shell would do exactly the same (split
// on blanks, look the program up in PATH, exec it), so the behaviour is identical, and one
// fork+exec of the shell is saved per hook. The only visible difference is argv[0], which is
// the resolved path.
//
// # Launch failures
//
// A hook that cannot start is reported with hook.ErrNotStarted, never as a block: its
// working directory is missing, its program is not found, or its first command is a known
// interpreter whose script file does not exist (`python3 missing.py` exits 2, which would
// otherwise read as a deliberate block: Claude Code issue 80697), or the shell says 127.
// The shell form is parsed with mvdan.cc/sh/v3/syntax for these checks; a command that
// does not parse is simply run by sh, and so is one too long or nested too deeply to parse
// safely (more than 256 KiB, or more than 1000 nesting tokens: internal/shbound).
package command

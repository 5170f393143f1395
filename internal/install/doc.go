// Package install writes hookcore's hook entries into an agent's own settings file and
// takes them out again (`hookcore install AGENT`, `hookcore uninstall AGENT`).
//
// The merge keeps everything the user wrote: every other key of the file, in its order, and
// every other hook of every event; only entries that run `hookcore hook AGENT` (or, for
// Claude Code with --server, an http hook to .../hook/claude) are added or removed. Claude
// Code's entries are written in exec form ("command": the program, "args": ["hook",
// "claude"]), which it runs with no shell; the shell-form command lines install wrote before
// are still its own, and are replaced.
// Installing twice is installing once. A changed file is backed up beside itself
// (FILE.hookcore-TIMESTAMP.bak) and replaced atomically (a temporary file in the same
// directory, synced, renamed over it, with the old file's mode). A settings file that is a
// symbolic link stays one: the file it points to is the one replaced (in its own
// directory), the backup is made beside the link, and a link to nothing is refused. A
// --server URL is checked first (CheckServer).
package install

// Package tools holds the reference agent's built-in tools: Bash, ReadFile, WriteFile and
// EditFile (DESIGN.md section 2). The file tools are confined to a Workspace: a path that
// escapes its root, by "..", by an absolute path elsewhere or through a symbolic link, is
// an error. Bash runs in the workspace root, in its own process group, with a timeout and
// an output cap (it is not sandboxed: a command can still reach outside the root, which is
// what hooks and permission rules are for).
package tools

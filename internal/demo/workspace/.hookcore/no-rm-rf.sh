#!/bin/sh
# A PreToolUse guard: the hook's `if: Bash(rm *)` says the line may run rm; this script lets
# through only a plain "rm FILE" (which rm-to-trash then moves into .trash/) and blocks every
# other line, whatever its flags (-rf, -fr, -r -f, --recursive, x -rf) or its wrapping
# (sh -c, sudo, a variable): exit 2 blocks, stderr is the reason the model sees.
cmd=$(printf '%s' "$HOOK_TOOL_INPUT" | sed -n 's/.*"command": *"\([^"\\]*\)".*/\1/p')
if printf '%s\n' "$cmd" | grep -Eq '^rm [A-Za-z0-9._/][A-Za-z0-9._/-]*$'; then
	exit 0
fi
echo 'rm -rf is blocked in this workspace: delete single files with rm FILE (they are moved to .trash)' >&2
exit 2

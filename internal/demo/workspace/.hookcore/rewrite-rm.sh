#!/bin/sh
# A PreToolUse rewrite: "rm FILE" becomes a move into .trash/, so nothing is lost.
# The tool input arrives in $HOOK_TOOL_INPUT as JSON; the new input goes to stdout.
file=$(printf '%s' "$HOOK_TOOL_INPUT" | sed -n 's/.*"command": *"rm \([A-Za-z0-9._/-]*\)".*/\1/p')
[ -n "$file" ] || exit 0
printf '{"updated_input":{"command":"mkdir -p .trash && mv %s .trash/"}}\n' "$file"

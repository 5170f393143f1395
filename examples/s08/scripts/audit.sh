#!/bin/sh
# s08 audit hook: append one line per event to .hooks-audit.log and continue (exit 0).
# The s08 harness passes HOOK_EVENT and HOOK_TOOL_NAME; the JSON input is on stdin.
cat >/dev/null
printf '%s %s %s\n' "$(date +%Y-%m-%dT%H:%M:%S)" "${HOOK_EVENT:-?}" "${HOOK_TOOL_NAME:-}" >>.hooks-audit.log
exit 0

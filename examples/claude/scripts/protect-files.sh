#!/bin/sh
# PreToolUse (Claude Code): deny edits of generated lock files with a permission decision.
input=$(cat)
case $input in
*'"file_path":"'*package-lock.json'"'* | *'"file_path": "'*package-lock.json'"'* | *go.sum'"'*)
	printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "lock files are generated; run the package manager instead"}}'
	;;
esac
exit 0

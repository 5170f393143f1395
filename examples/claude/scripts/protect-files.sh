#!/bin/sh
# PreToolUse (Claude Code): deny edits of generated lock files (package-lock.json,
# npm-shrinkwrap.json, go.sum, in any case: a case-insensitive file system opens
# Package-Lock.json as package-lock.json) with a permission decision.
#
# It reads file_path as the agent wrote it: a symlink to a lock file, or a path spelt with
# JSON escapes (\u002d), is not recognised. hookcore's own path rules match every spelling
# (examples/guardrails/hooks.yaml); this script shows the Claude Code protocol.
input=$(cat)
lower=$(printf '%s' "$input" | tr 'A-Z' 'a-z')
case $lower in
*'"file_path":'*'package-lock.json"'* | *'"file_path":'*'npm-shrinkwrap.json"'* | *'"file_path":'*'go.sum"'*)
	printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "lock files are generated; run the package manager instead"}}'
	;;
esac
exit 0

#!/bin/bash
# Accept the workspace trust dialog (as an interactive user would) and add a user-level agent.
set -e
printf '{"projects": {"%s": {"hasTrustDialogAccepted": true}}}\n' "$PWD" > "$PEER_OUT/home/.claude.json"
mkdir -p "$PEER_OUT/home/.claude/agents"
sed 's/name: checker/name: ucheck/; s/PreToolUse-agent/PreToolUse-uagent/; s/Stop-agent/Stop-uagent/' .claude/agents/checker.md > "$PEER_OUT/home/.claude/agents/ucheck.md"

#!/bin/bash
# Runs in the workspace before Claude Code starts: accept the workspace trust dialog (as an
# interactive user would; without it the project agent's frontmatter hooks do not run) and
# install the user-level agent ucheck from home/.
set -e
printf '{"projects": {"%s": {"hasTrustDialogAccepted": true}}}\n' "$PWD" > "$PEER_OUT/home/.claude.json"
mkdir -p "$PEER_OUT/home/.claude/agents"
cp "$(dirname "$0")/home/.claude/agents/ucheck.md" "$PEER_OUT/home/.claude/agents/"

#!/usr/bin/env bash
# Stand-in for session-start.sh: the same JSON shape (SessionStart additionalContext), a
# shorter text.
cat <<'EOF'
{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "You are in 'explanatory' output style mode: provide educational insights."}}
EOF

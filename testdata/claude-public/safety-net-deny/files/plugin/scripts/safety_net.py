#!/usr/bin/env python3
"""Stand-in for kenryu42/claude-code-safety-net scripts/safety_net.py: for a command with
`git reset --hard` it prints its deny (hookSpecificOutput, permissionDecision deny, its
"BLOCKED by Safety Net" reason text) and exits 0; anything else: no output, exit 0."""
import json, sys
d = json.load(sys.stdin)
c = d.get("tool_input", {}).get("command", "")
if "git reset --hard" in c:
    r = ("BLOCKED by Safety Net\n\nReason: git reset --hard destroys uncommitted changes. Use 'git stash' first.\n\n"
         f"Command: {c}\n\nSegment: {c}\n\nIf this operation is truly needed, ask the user for explicit permission and have them run the command manually.")
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": r}}))

#!/usr/bin/env python3
"""Stand-in for governor.py `hook EVENT`: session-start and prompt print the current mode as
plain text (context); post-tool-use-failure prints a JSON additionalContext; others silent."""
import json, sys
sys.stdin.read()
ev = sys.argv[2]
if ev == "session-start":
    print("Governor mode: balanced")
elif ev == "prompt":
    print("Governor: mode balanced, 1 prompt tracked")
elif ev == "post-tool-use-failure":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "Governor: a tool failed; slow down."}}))

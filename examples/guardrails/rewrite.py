#!/usr/bin/env python3
"""PreToolUse hook for Bash: rewrite a command, then let it run.

    python3 rewrite.py pytest   # `pytest ARGS` -> `python3 -m unittest discover -s tests [-q]`
    python3 rewrite.py npm      # `npm install|ci|i ...` -> the same with --ignore-scripts

Reads the Claude Code hook input on stdin. When the rule applies, prints a
hookSpecificOutput envelope with updatedInput (the whole tool input, as Claude Code
requires), permissionDecision "allow" and the reason; otherwise prints nothing and the call
goes through unchanged. Needs only python3.
"""
import json
import re
import sys


def pytest(command):
    m = re.match(r"\s*(?:python3? -m )?pytest\b(.*)", command)
    if not m:
        return None, ""
    quiet = any(a in ("-q", "--quiet") for a in m.group(1).split())
    new = "python3 -m unittest discover -s tests" + (" -q" if quiet else "")
    return new, "pytest is not installed here; rewritten to unittest"


def npm(command):
    pattern = r"\bnpm (?:install|ci|i)\b(?![^;&|]*--ignore-scripts)"
    new, n = re.subn(pattern, lambda m: m.group(0) + " --ignore-scripts", command)
    if n == 0:
        return None, ""
    return new, "package install scripts do not run for the agent: added --ignore-scripts"


RULES = {"pytest": pytest, "npm": npm}

rule = RULES.get(sys.argv[1] if len(sys.argv) > 1 else "")
if rule is None:
    sys.exit("usage: rewrite.py pytest|npm")
event = json.load(sys.stdin)
tool_input = event.get("tool_input") or {}
new, reason = rule(tool_input.get("command", ""))
if new is None:
    sys.exit(0)
json.dump({
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": reason,
        "updatedInput": dict(tool_input, command=new),
    }
}, sys.stdout)

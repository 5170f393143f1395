#!/usr/bin/env python3
"""PreToolUse hook for Bash: rewrite a command, then let it run.

    python3 rewrite.py pytest   # `pytest ARGS` -> `python3 -m unittest discover -s tests [-q]`
    python3 rewrite.py npm      # any npm install verb or alias -> the same with --ignore-scripts
                                # (a later --ignore-scripts=false or npm_config_ignore_scripts is dropped)

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


# npm's install verbs and their aliases (npm help install, npm help ci, npm help install-test).
NPM_VERBS = ("install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|add|ci|clean-install"
             "|ic|install-clean|isntall-clean|install-test|it|install-ci-test|cit")
# One npm command: options before the verb, the verb, then everything up to the next
# separator.
NPM_SEGMENT = re.compile(r"(\bnpm(?:\s+-\S+(?:\s+(?!(?:" + NPM_VERBS + r")(?:\s|$))[^-\s]\S*)?)*\s+(?:"
                         + NPM_VERBS + r"))(?=\s|$|[;&|])([^;&|\n]*)")
# Whatever would switch the scripts back on: a later flag or an environment variable.
SCRIPTS_ON = re.compile(r"\s+-{1,2}(?:no-)?ig[a-z-]*(?:=\S*|\s+(?:true|false)\b)?")
ENV_ON = re.compile(r"\b(?:npm_config_ignore_scripts|NPM_CONFIG_IGNORE_SCRIPTS)=\S*\s*")


def npm(command):
    # Only a plain line of npm commands (and `cd DIR`) joined by && or ; is rewritten: the
    # rewrite answers "allow", so a line with anything else in it (another command, a
    # comment, an expansion, quotes) goes through the normal permission check instead (red
    # team: `touch PWNED # npm i` came back allowed).
    if re.search(r"[^A-Za-z0-9_@./:=+,;&\s-]", command) or "\n" in command:
        return None, ""
    for segment in re.split(r"&&|;", command):
        words = segment.split()
        if not words or words[0] not in ("npm", "cd") or words[0] == "cd" and len(words) != 2:
            return None, ""
    if "&" in command.replace("&&", ""):  # a background job
        return None, ""
    def add(m):  # the flag goes right after the verb; any later switch is dropped
        return m.group(1) + " --ignore-scripts" + SCRIPTS_ON.sub("", m.group(2))
    new = NPM_SEGMENT.sub(add, ENV_ON.sub("", command))
    if new == command:
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

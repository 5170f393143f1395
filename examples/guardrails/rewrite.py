#!/usr/bin/env python3
"""PreToolUse hook for Bash: rewrite a command, then let it run.

    python3 rewrite.py pytest   # `pytest ARGS` -> `python3 -m unittest discover -s tests [-q]`
    python3 rewrite.py npm      # a line of npm install commands (any verb or alias) and cd DIR
                                # -> the same with --ignore-scripts after each verb (a switch
                                # back on, --ignore-scripts=false, is dropped)

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


# npm's install verbs and their aliases (npm help install, npm help ci). install-test (it,
# cit, install-ci-test) is not one of them: it runs `npm test`, a package script that
# --ignore-scripts does not stop.
NPM_VERBS = {"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
             "isntall", "add", "ci", "clean-install", "ic", "install-clean", "isntall-clean"}
# A word that would switch the scripts back on: --ignore-scripts=false, --no-ignore-scripts,
# an abbreviation (--ig), or the flag followed by a separate true/false.
SCRIPTS_ON = re.compile(r"-{1,2}(?:no-)?ig[a-z-]*(?:=.*)?")


def npm_install(words):
    """Returns the words of one `npm [--opt[=v]...] VERB ARGS` command with --ignore-scripts
    right after the verb and any later switch dropped; None when it is not such a command."""
    k = 1
    while k < len(words) and words[k].startswith("-"):
        k += 1  # options before the verb, each one word: `npm --prefix dir i` is left alone
    if words[0] != "npm" or k == len(words) or words[k] not in NPM_VERBS:
        return None
    kept = []
    for w in words[1:]:
        if SCRIPTS_ON.fullmatch(w):
            kept.append(None)
        elif w in ("true", "false") and kept and kept[-1] is None:
            continue
        else:
            kept.append(w)
    kept = [w for w in kept if w is not None]
    verb = kept.index(words[k])
    return ["npm"] + kept[:verb + 1] + ["--ignore-scripts"] + kept[verb + 1:]


def npm(command):
    # The rewrite answers "allow", which skips the agent's permission prompt for the whole
    # line, so only a line made of npm install commands and `cd DIR`, joined by && or ;, is
    # rewritten. A line with anything else in it (another command such as `npm run clean`
    # or `npm test`, a comment, an expansion, quotes, a pipe, a background job) gets no
    # answer and goes through the normal permission check (red team: `touch PWNED # npm i`
    # and `npm i lodash && npm run clean` came back allowed).
    if not re.fullmatch(r"[A-Za-z0-9_@./:=+,^~;& -]*", command) or "&" in command.replace("&&", ""):
        return None, ""
    out = []
    for segment in re.split(r"(&&|;)", command):
        if segment in ("&&", ";"):
            out.append(segment)
            continue
        words = segment.split()
        if len(words) == 2 and words[0] == "cd":
            out.append(segment)
        elif words and (rewritten := npm_install(words)) is not None:
            out.append(" " * (len(segment) - len(segment.lstrip())) + " ".join(rewritten)
                       + " " * (len(segment) - len(segment.rstrip())))
        else:
            return None, ""
    new = "".join(out)
    if new == command:  # only cd, or every install already skips the scripts
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

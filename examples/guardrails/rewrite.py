#!/usr/bin/env python3
"""PreToolUse hook for Bash: rewrite a command, then let it run.

    python3 rewrite.py pytest   # `pytest ARGS` -> `python3 -m unittest discover -s tests [-q]`
    python3 rewrite.py npm      # a line of npm install commands (any verb or alias) of registry
                                # packages with a few harmless options, and cd DIR -> the same
                                # with --ignore-scripts after each verb (a switch back on,
                                # --ignore-scripts=false, is dropped)

Reads the Claude Code hook input on stdin. When the rule applies, prints a
hookSpecificOutput envelope with updatedInput (the whole tool input, as Claude Code
requires) and the reason; otherwise prints nothing and the call goes through unchanged.
Only the npm rewrite answers permissionDecision "allow" (no permission prompt), and only for
a call with no field but Bash's ordinary ones: the pytest rewrite runs the project's own
tests, code the model may have written, so Claude Code's permission check decides it as it
would decide the call the model wrote (red team round 45: a test file that ran a command
went through with no prompt), and a call carrying dangerouslyDisableSandbox or another field
is rewritten without the allow, since the allow would approve that field as well. Needs
only python3.
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
# A word that would switch the scripts back on, or the flag itself: --ignore-scripts=false,
# --no-ignore-scripts, an abbreviation (--ig). Each is dropped and --ignore-scripts put
# right after the verb.
SCRIPTS_ON = re.compile(r"-{1,2}(?:no-)?ig[a-z-]*(?:=.*)?")
# The options an automatically allowed install may carry: each changes only what is saved
# or how much is fetched, never where a package comes from, which program runs or where it
# is installed (red team round 2: --git=./evil.sh ran evil.sh; --userconfig, -g --prefix,
# --registry, --node-options and --script-shell were allowed as well). Exact words only:
# npm expands an abbreviation (--reg=) to the option it starts, so a prefix is refused.
SAFE_OPTIONS = {
    "--save", "-S", "--save-prod", "-P", "--save-dev", "-D", "--save-optional", "-O",
    "--save-peer", "--save-exact", "-E", "--no-save", "--no-audit", "--no-fund",
    "--prefer-offline", "--prefer-online", "--offline", "--legacy-peer-deps",
    "--strict-peer-deps", "--no-package-lock", "--package-lock-only", "--dry-run",
    "--omit=dev", "--omit=optional", "--omit=peer", "--include=dev", "--include=optional",
    "--include=peer",
}
# A package spec that names a registry package: name, @scope/name, each optionally @ a
# version, range or tag (lodash@^4.17.0, @types/node@20). Not a git+/file:/http(s): URL, a
# path (./x, ../x, /x, ~/x), a GitHub shorthand (user/repo), an alias (x@npm:y) nor a
# tarball (x.tgz: npm reads a spec ending .tgz, .tar or .tar.gz as a file), and not the
# words true or false, which npm reads as the value of the flag before them.
SPEC = re.compile(r"(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*(?:@[A-Za-z0-9._^~*+-]+)?")
TARBALL = re.compile(r".*\.(?:tgz|tar|tar\.gz)", re.IGNORECASE)


def npm_install(words):
    """Returns the words of one `npm VERB ARG...` install command, whose every ARG is a
    registry package spec or a SAFE_OPTIONS word, with --ignore-scripts right after the verb
    and any other switch of it dropped; None for any other command (an option before the
    verb, any other option or spec)."""
    if len(words) < 2 or words[0] != "npm" or words[1] not in NPM_VERBS:
        return None
    kept = []
    for w in words[2:]:
        if SCRIPTS_ON.fullmatch(w):
            continue
        if w in SAFE_OPTIONS or (SPEC.fullmatch(w) and not TARBALL.fullmatch(w)
                                 and w not in ("true", "false")):
            kept.append(w)
        else:
            return None
    return ["npm", words[1], "--ignore-scripts"] + kept


# A directory `cd` may enter on a rewritten line: relative, below the session's directory
# (no `..`, not `-`, which is the previous one), so the project's own npm configuration
# (.npmrc) is the one that applies.
CD_DIR = re.compile(r"(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_@+,][A-Za-z0-9_@.+,/-]*")


def npm(command):
    # The rewrite answers "allow", which skips the agent's permission prompt for the whole
    # line, so only a line made of npm install commands of registry packages and `cd DIR`,
    # joined by && or ;, is rewritten. A line with anything else in it (another command such
    # as `npm run clean` or `npm test`, an option that is not in SAFE_OPTIONS, a git, file or
    # URL spec, a comment, an expansion, quotes, a pipe, a background job) gets no answer and
    # goes through the normal permission check (red team: `touch PWNED # npm i` and
    # `npm i lodash && npm run clean` came back allowed; round 2: `npm i --git=./evil.sh
    # git+file:///...` ran evil.sh).
    if not re.fullmatch(r"[A-Za-z0-9_@./:=+,^~;& -]*", command) or "&" in command.replace("&&", ""):
        return None, ""
    out = []
    for segment in re.split(r"(&&|;)", command):
        if segment in ("&&", ";"):
            out.append(segment)
            continue
        words = segment.split()
        if len(words) == 2 and words[0] == "cd" and CD_DIR.fullmatch(words[1]):
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


# rule: (function, whether its rewrite may answer "allow").
RULES = {"pytest": (pytest, False), "npm": (npm, True)}
# The fields of a Bash call an "allow" may carry over: anything else (dangerouslyDisableSandbox,
# a field a later Claude Code adds) would be approved along with the rewritten command.
PLAIN_FIELDS = {"command", "description", "timeout", "run_in_background"}

rule, may_allow = RULES.get(sys.argv[1] if len(sys.argv) > 1 else "", (None, False))
if rule is None:
    sys.exit("usage: rewrite.py pytest|npm")
event = json.load(sys.stdin)
tool_input = event.get("tool_input") or {}
new, reason = rule(tool_input.get("command", ""))
if new is None:
    sys.exit(0)
out = {"hookEventName": "PreToolUse", "updatedInput": dict(tool_input, command=new)}
if may_allow and set(tool_input) <= PLAIN_FIELDS:
    out["permissionDecision"] = "allow"
    out["permissionDecisionReason"] = reason
json.dump({"hookSpecificOutput": out}, sys.stdout)

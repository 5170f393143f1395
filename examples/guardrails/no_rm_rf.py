#!/usr/bin/env python3
"""PreToolUse guard: refuse a recursive delete (rm with -r, -R or --recursive, in any
spelling: -rf, -fr, -Rf, -r -f, -rv, --recursive --force, rm x -rf).

The hook's `if: Bash(rm *)` already decided that the line may run rm: somewhere in it, after
cd &&, behind sudo or an unknown program, in sh -c '...', behind a variable, or in a way the
engine cannot read. This script does not try to find out how; it allows only a line it
understands completely, and blocks everything else:

  - the line is simple commands joined by && || ; with plain words: letters, digits and
    _ @ % + = : , . / - ~ and quotes around them; no $, backquote, backslash, redirection,
    comment, subshell, brace, newline or glob (a glob is fine after `--`, where it cannot
    become a flag);
  - each command is `rm` (or /bin/rm, /usr/bin/rm) whose options are all known and not
    recursive, or one of the few commands below that run nothing else (cd, ls, pwd, echo,
    mkdir, touch, true).

A recursive delete is refused even without -f: with no terminal on stdin (an agent's shell)
rm -r asks nothing, not even for write-protected files, so it removes what rm -rf removes.
There is no list of programs that run other programs to keep complete: anything not on the
short list above is blocked with a reason that says to write the command plainly.

Exit 2 blocks, with stderr as the reason the model sees; exit 0 allows.
"""
import json
import re
import shlex
import sys

RECURSIVE = ("recursive deletes (rm -r, rm -rf, in any spelling) are blocked in this repository: "
             "remove specific files by name, or ask the user to delete the directory")
UNCLEAR = ("this command may run rm, and the rm guard allows only plain lines: write each rm as "
           "a plain command of its own ('rm FILE...', globs after '--'), joined only to cd, ls, "
           "pwd, echo, mkdir or touch and only by && or ;, with no variables, backslashes, "
           "redirections, pipes, subshells or other programs around it")

# Commands that run no other command and delete nothing (cd is a builtin, the rest GNU
# coreutils); any other command on a line that may run rm blocks it.
PLAIN = {"cd", "ls", "pwd", "echo", "mkdir", "touch", "true"}
RM = {"rm", "/bin/rm", "/usr/bin/rm"}
SEPARATORS = {"&&", "||", ";"}
# GNU rm's options (rm --help), short and long, as written in full: an abbreviation
# (--rec) or an option rm does not have is not read, so it blocks.
SHORT = set("fiIrRdv")
LONG = {"--force", "--interactive", "--interactive=always", "--interactive=once",
        "--interactive=never", "--one-file-system", "--preserve-root", "--recursive",
        "--dir", "--verbose", "--help", "--version"}
GLOB = re.compile(r"[*?\[\]]")


def block(reason):
    print(reason, file=sys.stderr)
    sys.exit(2)


def check_rm(args):
    """Blocks a recursive rm, and an rm whose arguments it cannot read."""
    options = True
    for arg in args:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("--"):
            if arg not in LONG:
                block(UNCLEAR)
            if arg == "--recursive":
                block(RECURSIVE)
        elif options and arg.startswith("-") and arg != "-":
            if not set(arg[1:]) <= SHORT:
                block(UNCLEAR)
            if "r" in arg or "R" in arg:
                block(RECURSIVE)
        elif options and GLOB.search(arg):
            block(UNCLEAR)  # before --, a file named -rf would become a flag


try:  # an input this script cannot read is blocked, not let through (a crash would be)
    tool_input = json.load(sys.stdin).get("tool_input", {})
    command = tool_input.get("command", "") if isinstance(tool_input, dict) else None
except (ValueError, RecursionError, AttributeError):
    block(UNCLEAR)
if not isinstance(command, str) or not re.fullmatch(r"[A-Za-z0-9_@%+=:,./~*?\[\] \t'\"&|;-]*", command):
    block(UNCLEAR)
try:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    words = list(lexer)
except ValueError:  # unbalanced quotes
    block(UNCLEAR)

# A glob inside quotes is a plain character; outside quotes it expands. shlex drops the
# quotes, so a glob is allowed only where either reading is harmless: after rm's `--`.
commands, current = [], []
for word in words:
    if word in SEPARATORS:
        commands.append(current)
        current = []
    elif re.fullmatch(r"[;&|]+", word):
        block(UNCLEAR)  # a pipe, a background job, ;; or a run of operators
    else:
        current.append(word)
commands.append(current)
if len(commands) > 1 and not commands[-1] and words[-1] == ";":
    commands.pop()  # `rm x;` ends with an empty command, which bash allows
for cmd in commands:
    if not cmd:
        block(UNCLEAR)  # an empty command: a leading or dangling operator
    name, args = cmd[0], cmd[1:]
    if name in RM:
        check_rm(args)
    elif name in PLAIN and not any(GLOB.search(a) for a in args):
        continue
    else:
        block(UNCLEAR)
sys.exit(0)

#!/usr/bin/env python3
"""PreToolUse guard: refuse a recursive force-delete (rm with both -r/-R/--recursive and
-f/--force, in any spelling: -rf, -fr, -Rf, -r -f, --recursive --force, --rec --for).

The hook's `if: Bash(rm *)` already selected the calls that run rm somewhere (after cd &&,
behind sudo or env, in a pipeline, in sh -c '...', behind a variable); this script decides
on the flags. It fails closed: it allows only a command it can read plainly — simple
commands joined by && || ; | & — in which every rm is a plain `rm` word whose flags are
plain words. Anything it cannot read that way (an expansion: $, backquotes, braces, globs in
flags; a comment, a redirection; a nested shell, eval, xargs, find or any program that runs
a command string, anywhere in the line; a backslash; a subshell or compound command) is blocked, with a reason
that says to write the command plainly. Exit 2 blocks, with stderr as the reason the model
sees; exit 0 allows.
"""
import json
import re
import shlex
import sys

BLOCKED = "'rm -rf' is blocked in this repository: remove specific paths with 'rm -r PATH' instead"
UNCLEAR = ("this command runs rm in a way the guard cannot read (expansion, nested shell, eval, "
           "xargs/find, backslash or subshell): write it as a plain 'rm -r PATH' command")

# Programs that run another command line, which this script does not read.
RUNNERS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "exec", "xargs", "find",
           "env", "command", "builtin", "nohup", "time", "timeout", "nice", "sudo", "doas",
           "su", "watch", "parallel", "busybox", "source", ".", "trap", "script", "flock",
           "stdbuf", "setsid", "coproc", "setpriv", "fakeroot", "chroot", "unshare", "nsenter",
           "ssh", "tmux", "screen", "awk", "sed", "perl", "python", "python3", "node", "ruby",
           "make", "tar", "git", "npx", "npm", "vim", "vi", "ed", "gdb", "strace", "ltrace",
           # reserved words: a compound command this script does not read
           "!", "if", "then", "else", "elif", "fi", "while", "until", "do", "done", "for",
           "case", "esac", "select", "function", "[[", "]]"}
SEPARATORS = {"&&", "||", ";", "|", "&", ";;", "|&"}


def block(reason):
    print(reason, file=sys.stderr)
    sys.exit(2)


command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if not isinstance(command, str) or re.search(r"[$`\\(){}\n\r\x00*?\[#<>!]", command):
    block(UNCLEAR)
try:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    words = list(lexer)
except ValueError:  # unbalanced quotes
    block(UNCLEAR)

at_start = True
for i, word in enumerate(words):
    if word in SEPARATORS:
        at_start = True
        continue
    name = re.sub(r"^.*/", "", word)
    if at_start and "=" in word and not word.startswith("="):
        continue  # VAR=value before the command
    if name in RUNNERS:  # anywhere: `stdbuf -o0 bash -c …`, `if sh -c …`
        block(UNCLEAR)
    is_rm = name == "rm"
    at_start = False
    if not is_rm:
        continue
    recursive = force = False
    for arg in words[i + 1:]:
        if arg in SEPARATORS or arg == "--":
            break
        if not arg.startswith("-"):
            continue
        if arg.startswith("--"):
            opt = arg[2:].split("=", 1)[0]
            recursive |= len(opt) >= 1 and "recursive".startswith(opt)
            force |= len(opt) >= 1 and "force".startswith(opt)
        else:
            recursive |= "r" in arg or "R" in arg
            force |= "f" in arg
    if recursive and force:
        block(BLOCKED)
sys.exit(0)

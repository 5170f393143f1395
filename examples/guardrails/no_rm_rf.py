#!/usr/bin/env python3
"""PreToolUse guard: refuse a recursive force-delete (rm with both -r/-R/--recursive and
-f/--force, in any spelling: -rf, -fr, -Rf, -r -f, --recursive --force).

The hook's `if: Bash(rm *)` already selected the calls that run rm anywhere in the command
(after cd &&, behind sudo or env, in a pipeline, in sh -c '...'); this script decides on the
flags. Exit 2 blocks, with stderr as the reason the model sees; exit 0 allows.
"""
import json
import re
import shlex
import sys

command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
try:
    words = shlex.split(command, comments=True)
except ValueError:  # unbalanced quotes: look at the raw words
    words = command.split()

SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", "{", "}"}
for i, word in enumerate(words):
    if re.sub(r"^.*/", "", word) != "rm":
        continue
    recursive = force = False
    for arg in words[i + 1:]:
        if arg in SEPARATORS or arg == "--" or not arg.startswith("-"):
            if arg in SEPARATORS:
                break
            continue
        if arg.startswith("--"):
            recursive |= arg == "--recursive"
            force |= arg == "--force"
        else:
            recursive |= "r" in arg or "R" in arg
            force |= "f" in arg
    if recursive and force:
        print("'rm -rf' is blocked in this repository: remove specific paths with 'rm -r PATH' instead",
              file=sys.stderr)
        sys.exit(2)
sys.exit(0)

#!/usr/bin/env python3
"""Stand-in for ../shared/peer-claude/capture-hook.py, the subset these hooks use: append
EVENT to $PEER_HOOK_LOG (one line), and with --block-substr S exit 2 with the --stderr text
when S occurs in the JSON of tool_input, as the real one does."""
import argparse, json, os, sys

p = argparse.ArgumentParser()
p.add_argument("event")
p.add_argument("--block-substr")
p.add_argument("--stderr", default="blocked by peer hook")
a = p.parse_args()
data = json.loads(sys.stdin.read() or "{}")
with open(os.environ["PEER_HOOK_LOG"], "a") as f:
    f.write(a.event + "\n")
if a.block_substr and a.block_substr in json.dumps(data.get("tool_input", {})):
    sys.stderr.write(a.stderr)
    sys.exit(2)

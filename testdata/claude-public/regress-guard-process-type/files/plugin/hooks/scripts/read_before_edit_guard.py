#!/usr/bin/env python3
"""Stand-in for read_before_edit_guard.py: `pre` blocks (exit 2) an edit of a file that was
not read first; `post` records a read. Here no file was read, so the edit is blocked."""
import json, os, sys
d = json.load(sys.stdin)
log = os.path.join(os.environ.get("CLAUDE_PROJECT_DIR", "."), ".reads")
if sys.argv[1:] == ["post"]:
    open(log, "a").write(d.get("tool_input", {}).get("file_path", "") + "\n")
    sys.exit(0)
p = d.get("tool_input", {}).get("file_path", "")
if p not in (open(log).read().split() if os.path.exists(log) else []):
    print("regress-guard: read the file before editing it: " + os.path.basename(p), file=sys.stderr)
    sys.exit(2)

#!/usr/bin/env python3
"""Stand-in for disler/claude-code-hooks-mastery .claude/hooks/pre_tool_use.py: its two
blocks (the same patterns), with its messages (a .env access, a recursive forced rm), exit 2; else exit 0."""
import json, re, sys
d = json.load(sys.stdin)
tool, ti = d.get("tool_name", ""), d.get("tool_input", {})
path, command = ti.get("file_path", ""), ti.get("command", "")
env = (tool in ("Read", "Edit", "MultiEdit", "Write") and ".env" in path and not path.endswith(".env.sample")) or \
      (tool == "Bash" and any(re.search(p, command) for p in (
          r"\b\.env\b(?!\.sample)", r"cat\s+.*\.env\b(?!\.sample)", r"echo\s+.*>\s*\.env\b(?!\.sample)",
          r"touch\s+.*\.env\b(?!\.sample)", r"cp\s+.*\.env\b(?!\.sample)", r"mv\s+.*\.env\b(?!\.sample)")))
if env:
    print("BLOCKED: Access to .env files containing sensitive data is prohibited", file=sys.stderr)
    print("Use .env.sample for template files instead", file=sys.stderr)
    sys.exit(2)
if tool == "Bash" and re.search(r"\brm\s+.*-[a-z]*r[a-z]*f", " ".join(command.lower().split())):
    print("BLOCKED: Dangerous rm command detected and prevented", file=sys.stderr)
    sys.exit(2)

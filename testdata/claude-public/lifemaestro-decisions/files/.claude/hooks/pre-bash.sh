#!/usr/bin/env bash
# Stand-in for sethdf/lifemaestro .claude/hooks/pre-bash.sh: the same three answers on
# stdout, exit 0: {"decision": "block"} for a catastrophic pattern, {"decision": "ask"} for a
# destructive one (a subset of its patterns), else {"decision": "approve"}.
command=$(python3 -c 'import json,sys; print(json.load(sys.stdin).get("tool_input",{}).get("command",""))')
case "$command" in
  *"rm -rf /"*) echo '{"decision": "block", "reason": "BLOCKED: Potentially catastrophic command"}'; exit 0 ;;
  *"git reset --hard"*) echo '{"decision": "ask", "reason": "CONFIRM: This command may delete or modify data. Pattern matched: git reset --hard"}'; exit 0 ;;
esac
echo '{"decision": "approve"}'

#!/usr/bin/env bash
# Stand-in for run-hook.sh 1password-validate-mounted-env-files: a command that reads a
# 1Password-mounted env file that is not mounted gets a JSON deny with a reason; else exit 0.
in=$(cat)
case "$in" in *".env.op"*)
  printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "1Password: the mounted env file .env.op is not available; unlock 1Password and retry"}}'
esac
exit 0

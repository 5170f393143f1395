#!/bin/sh
# PostToolUse (Claude Code): gofmt the Go file that was just written.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path" *: *"\([^"]*\.go\)".*/\1/p')
if [ -n "$file" ] && command -v gofmt >/dev/null 2>&1; then
	gofmt -w "$file"
fi
exit 0

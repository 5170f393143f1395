#!/bin/sh
for a in "$0" "$@"; do printf '[%s]\n' "$a"; done >> "$CLAUDE_PROJECT_DIR/argv.txt"

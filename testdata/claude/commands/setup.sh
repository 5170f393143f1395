#!/bin/sh
mkdir -p "$PEER_OUT/home/.claude/commands"
echo 'User hello: $ARGUMENTS' > "$PEER_OUT/home/.claude/commands/hello.md"
echo 'User version of both: $ARGUMENTS' > "$PEER_OUT/home/.claude/commands/both.md"

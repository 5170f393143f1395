#!/usr/bin/env bash
# Stand-in for pre-install-scan.sh: an `npm install` of a package name one letter off a
# popular one is refused (exit 2, reason on stderr); the rest passes.
in=$(cat)
case "$in" in *"npm install left-padd"*) echo "pre-install-scan: left-padd looks like a typosquat of left-pad" >&2; exit 2 ;; esac
exit 0

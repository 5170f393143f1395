#!/usr/bin/env bash
# Stand-in for the polyglot launcher: runs the named script beside it.
exec bash "$(dirname "$0")/$1"

#!/usr/bin/env bash
# Stand-in: the original chmods .sh files and checks .json syntax; silent.
cat >/dev/null

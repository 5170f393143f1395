#!/bin/sh
echo "$1" >&2
exit 2

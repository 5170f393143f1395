#!/bin/sh
# The project's test: greet.sh must greet by name, with an exclamation mark.
got=$(sh ./greet.sh Ada)
want='Hello, Ada!'
if [ "$got" != "$want" ]; then
	echo "FAIL: sh greet.sh Ada: want '$want', got '$got'"
	exit 1
fi
echo "ok: $got"

#!/bin/sh
# s08 return-code protocol: 0 continue, 1 block, 2 inject a message.
# Block recursive deletes; the message on stderr is the reason.
input=$(cat)
case $input in
*'rm -rf'* | *'rm -fr'*)
	echo 'blocked by the s08 guard: recursive delete' >&2
	exit 1
	;;
esac
exit 0

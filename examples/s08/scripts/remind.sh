#!/bin/sh
# s08 return-code protocol: exit 2 injects the message (stderr) into the model's context
# and lets the write go ahead.
input=$(cat)
case $input in
*'/build/'*)
	echo 'remember: build/ is generated; edit the sources instead' >&2
	exit 2
	;;
esac
exit 0

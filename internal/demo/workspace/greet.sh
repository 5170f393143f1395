#!/bin/sh
# greet.sh NAME prints a greeting for NAME.
echo "Hello, world"

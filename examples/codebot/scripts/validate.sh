#!/bin/sh
# PostStopValidation (codebot): run the project's checks after the agent changed files.
# Any non-zero exit is a failure; its output goes back to the model as a reminder.
if [ -f go.mod ]; then
	exec go test ./...
fi
if [ -f Makefile ]; then
	exec make test
fi
exit 0

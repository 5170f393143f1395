#!/bin/sh
# Notification (codebot): the agent finished its reply; tell the user. Observe only.
cat >/dev/null
printf '\a' >/dev/tty 2>/dev/null
exit 0

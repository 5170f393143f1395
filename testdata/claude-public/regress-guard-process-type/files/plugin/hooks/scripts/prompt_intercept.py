#!/usr/bin/env python3
# Stand-in: lets the prompt through
import sys
sys.stdin.read()

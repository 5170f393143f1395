#!/usr/bin/env python3
# Stand-in: checks the plugin; silent
import sys
sys.stdin.read()

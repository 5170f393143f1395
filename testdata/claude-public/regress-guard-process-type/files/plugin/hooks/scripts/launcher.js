// Stand-in: never run (the entry's type is not one Claude Code knows).
process.exit(2)

# The guardrails example (examples/guardrails/hooks.yaml) as a Rego policy for hookcore's
# `type: rego` executor. The input is the hook input as Claude Code sends it; the document
# of package hookcore is the decision (deny, ask, allow, reason, updated_input,
# additional_context). Unit tests: guardrails_test.rego (opa test policy/, or go test).
package hookcore

import rego.v1

bash_command := input.tool_input.command if input.tool_name == "Bash"

# The words of a command that mentions rm at all (the cheap test first: most commands don't).
words := split(trim_space(regex.replace(bash_command, `\s+`, " ")), " ") if contains(bash_command, "rm")

# Recursive force-deletes are refused: rm with both a recursive and a force flag, in any
# spelling (-rf, -fr, -Rf, -r -f, --recursive --force), anywhere in the command line.
rm_flags contains flag if {
	some i, w in words
	regex.match(`^(.*/)?rm$`, w)
	some flag in array.slice(words, i + 1, count(words))
	startswith(flag, "-")
}

recursive if {
	some f in rm_flags
	not startswith(f, "--")
	regex.match(`[rR]`, f)
}

recursive if "--recursive" in rm_flags

force if {
	some f in rm_flags
	not startswith(f, "--")
	contains(f, "f")
}

force if "--force" in rm_flags

deny contains "'rm -rf' is blocked in this repository: remove specific paths with 'rm -r PATH' instead" if {
	recursive
	force
}

edits := {"Edit", "MultiEdit", "Write", "NotebookEdit"}

deny contains "secrets files (.env) may not be modified by the agent; ask the user to change it by hand" if {
	input.tool_name in edits
	endswith(input.tool_input.file_path, "/.env")
}

deny contains "package-lock.json is generated: run npm install instead of editing it by hand" if {
	input.tool_name in {"Edit", "MultiEdit", "Write"}
	endswith(input.tool_input.file_path, "package-lock.json")
}

# Package install scripts are a supply-chain risk: the agent's installs skip them.
npm_install if {
	contains(bash_command, "npm")
	regex.match(`\bnpm (install|ci|i)\b`, bash_command)
	not contains(bash_command, "--ignore-scripts")
}

updated_input := object.union(input.tool_input, {"command": concat("", [bash_command, " --ignore-scripts"])}) if npm_install

allow if npm_install

reason := "package install scripts do not run for the agent: added --ignore-scripts" if npm_install

additional_context := "Project notes: run the tests with `python3 -m unittest discover -s tests -q`; pytest is not installed here." if input.hook_event_name == "SessionStart"

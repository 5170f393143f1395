package config

import "github.com/goccy/go-yaml/ast"

// Claude Code handler fields (research note §2.5; observed with the real Claude Code 2.1.332
// in ../shared/peer-claude, scenario in claude_fields_test.go): asyncRewake, shell,
// statusMessage, and the exec form `command` + `args`.

// claudeField decodes a key only the Claude Code dialect has; it reports whether p was one.
// The keys are accepted in every JSON dialect (a codebot file copied from Claude Code
// settings keeps working).
func (d *decoder) claudeField(r *rawHook, p kv) bool {
	h := &r.h
	switch p.key {
	case "asyncRewake", "async_rewake":
		h.AsyncRewake, _ = d.boolean(p)
		r.at["async_rewake"] = p
	case "shell":
		h.Action.Shell, _ = d.str(p)
		r.at["action.shell"] = p
	case "statusMessage", "status_message":
		h.StatusMessage, _ = d.str(p)
		r.at["status_message"] = p
	default:
		return false
	}
	return true
}

// claudeExecForm applies Claude Code's exec form: in a Claude Code settings file, `command`
// with `args` means command is the program and args its arguments, run without a shell
// (observed: `{"command": "${CLAUDE_PROJECT_DIR}/h.sh", "args": ["$HOME", "a b"]}` runs
// h.sh with the arguments `$HOME` and `a b` as written). An empty list is exec form too:
// Claude Code 2.1.332 ran `{"command": "/x/h.py X", "args": []}` as the program "/x/h.py X",
// which failed to start (a non-blocking error), where a shell would have run h.py. Other
// dialects keep `command` and `args` exclusive. asyncRewake implies async (research note
// §2.5).
func claudeExecForm(r *rawHook) {
	h := &r.h
	if h.AsyncRewake {
		h.Async = true
	}
	args, had := r.at["action.args"]
	_, list := args.val.(*ast.SequenceNode)
	if h.Dialect != Nested || h.Action.Command == "" || len(h.Action.Args) == 0 && !(had && list) {
		return
	}
	h.Action.Args = append([]string{h.Action.Command}, h.Action.Args...)
	h.Action.Command = ""
}

// claudeShell applies Claude Code's `shell` values in a Claude Code settings file: "bash"
// is its default shell, which runs the command with /bin/sh -c like no shell field at all
// (observed with Claude Code 2.1.332 on Linux, testdata/claude/shell: with `"shell":
// "bash"` and without, the hook ran under /bin/sh, which was dash, BASH_VERSION unset).
// Other dialects keep "bash" as bash (Copilot's `bash` key).
func claudeShell(r *rawHook) {
	if r.h.Dialect == Nested && r.h.Action.Shell == "bash" {
		r.h.Action.Shell = ""
	}
}

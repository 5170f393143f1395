package hookcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// viewCall is a call a hook was given: its tool and tool input.
type viewCall struct{ Tool, Input string }

// roundFiftyGuards are the guards of TestMCPToolViews: a Bash rule, a WebFetch domain rule,
// Write and Edit guards on file paths (a condition, Claude Code rules of either tool) and a
// Read rule. Each records the calls it is given in seen.
func roundFiftyGuards(mu *sync.Mutex, seen *[]viewCall) []hookcore.Callback {
	guard := func(id, matcher, cond, reason string) hookcore.Callback {
		return hookcore.Callback{ID: id, Event: hook.PreToolUse, Matcher: matcher, If: cond,
			Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
				mu.Lock()
				defer mu.Unlock()
				*seen = append(*seen, viewCall{in.ToolName, string(in.ToolInput)})
				return hook.Decision{Block: true, Reason: reason}, nil
			}}
	}
	return []hookcore.Callback{
		guard("no-rm", "Bash", "Bash(rm *)", "no rm"),
		guard("no-evil", "WebFetch", "WebFetch(domain:evil.com)", "no evil"),
		guard("no-program", "Write|Edit", `file_path ~= "**/hookcore-hook"`, "no program"),
		guard("no-settings", "Edit", "Edit(~/.claude/settings.json)", "no settings"),
		guard("no-hookcore-dir", "Write", "Write(~/.hookcore/**)", "no hookcore dir"),
		guard("no-env-read", "Read", "Read(./.env)", "no env read"),
	}
}

// TestMCPToolViews (red team round 50, the hook command answering PreToolUse): an MCP file
// server's write_file, edit_file and move_file wrote the hook program, the agent's settings
// and the user's policy past every guard of Claude Code's file tools (the views read only
// commands and URLs); shell commands under other key names (shell_cmd, commandText), code
// in a shell language, IPython's shell escapes, arguments in a JSON string and URLs under
// other keys ran past the Bash and WebFetch guards. Each is now a view: a file path a
// Write (and Edit) or Read call, code a Bash call, a URL value a WebFetch call.
func TestMCPToolViews(t *testing.T) {
	t.Parallel()
	none := []viewCall{}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name, tool, input string
		want              string     // the reason of the block, "" for none
		seen              []viewCall // the calls the guards were given; nil: not checked
	}{
		// File tools (@modelcontextprotocol/server-filesystem's schema).
		{"write_file over the hook program", "mcp__filesystem__write_file", `{"path":"~/go/bin/hookcore-hook","content":"#!/bin/sh\nexit 0\n"}`,
			"no program", []viewCall{{"Write", `{"file_path":"~/go/bin/hookcore-hook"}`}}},
		{"write_file into the policy directory", "mcp__filesystem__write_file", `{"path":"~/.hookcore/hooks.yaml","content":"hooks: []"}`, "no hookcore dir", nil},
		{"edit_file of the settings is an Edit", "mcp__filesystem__edit_file", `{"path":"~/.claude/settings.json","edits":[{"oldText":"a","newText":"b"}]}`, "no settings", nil},
		{"move_file moves the program away", "mcp__filesystem__move_file", `{"source":"~/go/bin/hookcore-hook","destination":"/tmp/x"}`, "no program", nil},
		{"move_file writes its destination too", "mcp__filesystem__move_file", `{"source":"/tmp/evil","destination":"/home/u/go/bin/hookcore-hook"}`, "no program", nil},
		{"create_directory", "mcp__filesystem__create_directory", `{"path":"~/.hookcore/x"}`, "no hookcore dir", nil},
		{"Desktop Commander's write_file", "mcp__desktop-commander__write_file", `{"path":"/home/u/.local/bin/hookcore-hook","content":"x","mode":"rewrite"}`, "no program", nil},
		{"Desktop Commander's edit_block", "mcp__desktop-commander__edit_block", `{"file_path":"/home/u/.local/bin/hookcore-hook","old_string":"a","new_string":"b"}`, "no program", nil},
		{"Serena's relative_path", "mcp__serena__create_text_file", `{"relative_path":"bin/hookcore-hook","content":"x"}`, "no program", nil},
		{"JetBrains' pathInProject", "mcp__jetbrains__replace_file_text_by_path", `{"pathInProject":"bin/hookcore-hook","text":"x"}`, "no program", nil},
		{"git's files", "mcp__git__git_add", `{"repo_path":"/home/u/p","files":["bin/hookcore-hook"]}`, "no program", nil},
		{"a list of paths", "mcp__x__delete_files", `{"paths":["a.txt","/home/u/go/bin/hookcore-hook"]}`, "no program", nil},
		{"a nested target", "mcp__x__copy", `{"spec":{"from":"/tmp/e","to":"~/go/bin/hookcore-hook"}}`, "no program", nil},
		{"a file: URL", "mcp__x__write_resource", `{"uri":"file:///home/u/go/bin/hookcore-hook","text":"x"}`, "no program", nil},
		{"a relative path in the tool's cwd too", "mcp__x__write_file", `{"path":"hookcore-hook","cwd":"/home/u/go/bin"}`, "no program", nil},
		{"a key in odd case, as a Go server reads it", "mcp__x__write_file", `{"file_pAth":"/home/u/go/bin/hookcore-hook"}`, "no program", nil},
		{"a list of paths sent as a JSON string", "mcp__x__remove", `{"paths":"[\"a\",\"/home/u/go/bin/hookcore-hook\"]"}`, "no program", nil},
		{"a download's output", "mcp__fetch__download", `{"url":"https://ok.example/f","output":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"read_text_file is a Read", "mcp__filesystem__read_text_file", `{"path":".env"}`,
			"no env read", []viewCall{{"Read", `{"file_path":".env"}`}}},
		{"read_multiple_files", "mcp__filesystem__read_multiple_files", `{"paths":["a.go",".env"]}`, "no env read", nil},
		{"a read is no write", "mcp__filesystem__read_file", `{"path":"~/go/bin/hookcore-hook"}`, "", none},
		{"get_file_info", "mcp__filesystem__get_file_info", `{"path":"~/.hookcore/hooks.yaml"}`, "", none},
		{"directory_tree", "mcp__filesystem__directory_tree", `{"path":"~/.hookcore"}`, "", none},
		{"search_files", "mcp__filesystem__search_files", `{"path":"~/.hookcore","pattern":"*.yaml"}`, "", none},
		{"log_to_file writes (red team round 59)", "mcp__x__log_to_file", `{"path":"~/.hookcore/hooks.yaml","message":"x"}`, "no hookcore dir", nil},
		{"git_log reads", "mcp__git__git_log", `{"repo_path":"~/.hookcore"}`, "", none},
		{"a name with a reader and a writer writes", "mcp__x__read_write_file", `{"path":"~/.hookcore/a"}`, "no hookcore dir", nil},
		{"other files", "mcp__filesystem__write_file", `{"path":"/home/u/p/main.go","content":"package main"}`, "",
			[]viewCall{}},
		{"Serena's name_path is no file", "mcp__serena__replace_symbol_body", `{"name_path":"hookcore-hook","relative_path":"a.go","body":"x"}`, "", none},
		{"a number or a flag is no path", "mcp__x__write_files", `{"max_files":3,"isFile":true,"path":"a"}`, "", none},
		{"Claude Code's own tools name files they do not touch", "ReportFindings", `{"level":"low","findings":[{"file":"bin/hookcore-hook","line":1,"summary":"x"}]}`, "", none},

		// Commands under other key names.
		{"shell_cmd", "mcp__x__exec", `{"shell_cmd":"rm -rf /tmp/x"}`, "no rm", []viewCall{{"Bash", `{"command":"rm -rf /tmp/x"}`}}},
		{"bash_command", "mcp__x__exec", `{"bash_command":"rm -rf /tmp/x"}`, "no rm", nil},
		{"terminal_command", "mcp__x__exec", `{"terminal_command":"rm -rf /tmp/x"}`, "no rm", nil},
		{"run_command", "mcp__x__exec", `{"run_command":"rm -rf /tmp/x"}`, "no rm", nil},
		{"command_string", "mcp__x__exec", `{"command_string":"rm -rf /tmp/x"}`, "no rm", nil},
		{"commandText", "mcp__x__exec", `{"commandText":"rm -rf /tmp/x"}`, "no rm", nil},
		{"shellCommand", "mcp__x__exec", `{"shellCommand":"rm -rf /tmp/x"}`, "no rm", nil},
		{"cmd_line", "mcp__x__exec", `{"cmd_line":"rm -rf /tmp/x"}`, "no rm", nil},
		{"shell_commands", "mcp__x__exec", `{"shell_commands":["ls","rm -rf /tmp/x"]}`, "no rm", nil},
		{"a CI step's run", "mcp__ci__dispatch", `{"steps":[{"name":"x","run":"rm -rf /tmp/x"}]}`, "no rm", nil},
		{"an argv sent as a JSON string", "mcp__x__exec", `{"cmd":"[\"rm\",\"-rf\",\"/tmp/x\"]"}`, "no rm", nil},
		{"a command under a language key's object", "mcp__x__exec", `{"runtime":{"command":"rm -rf /tmp/x"}}`, "no rm", nil},
		{"a command in the tool's cwd", "mcp__x__exec", `{"command":"rm -rf x","cwd":"~/p"}`, "no rm",
			[]viewCall{{"Bash", `{"command":"rm -rf x"}`}}},
		{"text typed into a process", "mcp__desktop-commander__interact_with_process", `{"pid":7,"input":"rm -rf /tmp/x"}`, "no rm", nil},

		// Code.
		{"code in a shell", "mcp__code-runner__run-code", `{"code":"rm -rf /tmp/x","languageId":"shellscript"}`, "no rm", nil},
		{"code in bash", "mcp__x__run", `{"code":"rm -rf /tmp/x","language":"bash"}`, "no rm", nil},
		{"code in sh", "mcp__x__run", `{"code":"rm -rf /tmp/x","lang":"sh"}`, "no rm", nil},
		{"code in zsh", "mcp__x__run", `{"code":"rm -rf /tmp/x","language":"zsh"}`, "no rm", nil},
		{"code in shell", "mcp__x__run", `{"code":"rm -rf /tmp/x","language":"shell"}`, "no rm", nil},
		{"code in a language the model added", "mcp__code-runner__run-code", `{"code":"rm -rf /tmp/x","languageId":"shellscript","language":"python"}`, "no rm", nil},
		{"code in Python runs python3", "mcp__x__run", `{"code":"import os","language":"python"}`, "", none},
		{"a tool that names its language", "mcp__x__run_bash", `{"code":"rm -rf /tmp/x"}`, "no rm", nil},
		{"IPython's !", "mcp__ide__executeCode", `{"code":"import os\n!rm -rf /tmp/x"}`, "no rm", nil},
		{"IPython's %%bash", "mcp__ide__executeCode", `{"code":"%%bash\necho a\nrm -rf /tmp/x"}`, "no rm", nil},
		{"IPython's %sx", "mcp__ide__executeCode", `{"code":"x = 1\ny = %sx rm -rf /tmp/x"}`, "no rm", nil},
		{"IPython's %system", "mcp__ide__executeCode", `{"code":"%system rm -rf /tmp/x\nprint(1)"}`, "no rm", nil},
		{"IPython's assignment from !", "mcp__ide__executeCode", `{"code":"files = !rm -rf /tmp/x\nprint(files)"}`, "no rm", nil},
		{"IPython's %rm alias", "mcp__ide__executeCode", `{"code":"%rm -rf /tmp/x\nprint(1)"}`, "no rm", nil},
		{"IPython's automagic", "mcp__ide__executeCode", `{"code":"rm -rf /tmp/x"}`, "no rm", nil},
		{"a key that names its language", "mcp__x__format", `{"bash_code":"rm -rf /tmp/x"}`, "no rm", nil},
		{"an exit code is no code", "mcp__x__report", `{"exit_code":"rm -rf /tmp/x","zipCode":"rm -rf /tmp/x"}`, "", none},
		{"Python code is no rm", "mcp__ide__executeCode", `{"code":"import shutil\nprint(2)"}`, "", none},
		{"a code key in a tool that runs nothing", "mcp__x__format", `{"code":"rm -rf /tmp/x"}`, "", none},

		// Notebook cells (red team round 51, with the real Claude Code: Datalayer
		// jupyter-mcp-server's tools ran shell escapes past every Bash guard).
		{"insert_execute_code_cell's cell_source", "mcp__jupyter__insert_execute_code_cell", `{"cell_index":0,"cell_source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"append_execute_code_cell's cell_source", "mcp__jupyter__append_execute_code_cell", `{"cell_source":"import os\n!rm -rf /tmp/x"}`, "no rm", nil},
		{"execute_cell's cell", "mcp__jupyter__execute_cell", `{"cell":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"run_cell's source, a path key too", "mcp__x__run_cell", `{"source":"%%bash\necho a\nrm -rf /tmp/x"}`, "no rm", nil},
		{"a %sx cell", "mcp__jupyter__insert_execute_code_cell", `{"cell_index":1,"cell_source":"y = %sx rm -rf /tmp/x"}`, "no rm", nil},
		{"a %system cell", "mcp__jupyter__execute_ipython", `{"code":"%system rm -rf /tmp/x"}`, "no rm", nil},
		{"an alias cell", "mcp__jupyter__append_execute_code_cell", `{"cell_source":"%rm -rf /tmp/x\nprint(1)"}`, "no rm", nil},
		{"a cell written to run later", "mcp__jupyter__insert_cell", `{"cell_index":0,"cell_type":"code","cell_source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"overwrite_cell_source", "mcp__jupyter__overwrite_cell_source", `{"cell_index":0,"cell_source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"nbformat's cells and source lines", "mcp__nb__write", `{"notebook_path":"a.ipynb","cells":[{"cell_type":"code","source":["import os\n","!rm -rf /tmp/x\n"]}]}`, "no rm", nil},
		{"a cell's content beside a cell_index", "mcp__x__insert", `{"cell_index":2,"content":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a notebook edit writes the notebook", "mcp__jupyter__insert_cell", `{"notebook_path":"~/go/bin/hookcore-hook","cell_source":"1"}`, "no program", nil},
		{"a cell of Python is no rm", "mcp__jupyter__insert_execute_code_cell", `{"cell_index":0,"cell_source":"import shutil\nprint(2)"}`, "", none},

		// Tool roots (red team round 51: Serena's activate_project, then a relative_path).
		{"a bare relative name matches a rule on its name (its root may be set earlier)", "mcp__serena__create_text_file", `{"relative_path":"hookcore-hook"}`, "no program", nil},
		{"a relative path beside a project root", "mcp__serena__create_text_file", `{"relative_path":"settings.json","project_root":"~/.claude"}`, "no settings", nil},

		// More keys (red team round 51).
		{"file_name", "mcp__x__save", `{"file_name":"~/go/bin/hookcore-hook","data":"x"}`, "no program", nil},
		{"fileName", "mcp__x__save", `{"fileName":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"pathname", "mcp__x__save", `{"pathname":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"outfile", "mcp__x__convert", `{"infile":"a","outfile":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"outpath", "mcp__x__convert", `{"outpath":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"a notebook", "mcp__x__create", `{"notebook":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"a rename's new_name", "mcp__x__rename_file", `{"path":"~/go/bin/old","new_name":"hookcore-hook"}`, "no program", nil},
		{"a rename's newName", "mcp__x__rename", `{"filePath":"/tmp/a","newName":"~/go/bin/hookcore-hook"}`, "no program", nil},
		{"paths as a map's keys", "mcp__x__write_files", `{"files":{"~/go/bin/hookcore-hook":"#!/bin/sh"}}`, "no program", nil},
		{"a command and its arguments", "mcp__x__exec", `{"command":"rm","arguments":["-rf","/tmp/x"]}`, "no rm", []viewCall{{"Bash", `{"command":"rm '-rf' '/tmp/x'"}`}}},
		{"a binary and its arguments", "mcp__x__exec", `{"binary":"rm","arguments":["-rf","/tmp/x"]}`, "no rm", nil},
		{"a tool and its args", "mcp__x__exec", `{"tool":"rm","args":["-rf","/tmp/x"]}`, "no rm", nil},
		{"a cmd and its cmd_args", "mcp__x__exec", `{"cmd":"rm","cmd_args":["-rf","/tmp/x"]}`, "no rm", []viewCall{{"Bash", `{"command":"rm '-rf' '/tmp/x'"}`}}},
		{"a program and its parameters", "mcp__x__exec", `{"program":"rm","parameters":"-rf /tmp/x"}`, "no rm", []viewCall{{"Bash", `{"command":"'rm' -rf /tmp/x"}`}}},
		{"a command and an object of arguments", "mcp__x__exec", `{"command":"search","arguments":{"q":"x"}}`, "", none},
		{"a gateway's tool and its arguments", "mcp__gw__call", `{"tool":"search","args":{"q":"x"}}`, "", none},
		{"a shell key", "mcp__x__exec", `{"shell":"rm -rf /tmp/x"}`, "no rm", nil},
		{"a bash key", "mcp__x__exec", `{"bash":"rm -rf /tmp/x"}`, "no rm", nil},
		{"an sh key", "mcp__x__exec", `{"sh":"rm -rf /tmp/x"}`, "no rm", nil},
		{"JSON in a string after a BOM", "mcp__gw__call_tool", `{"arguments":"\ufeff{\"command\":\"rm -rf /tmp/x\"}"}`, "no rm", nil},

		// Notebook code under other keys and tool names (red team round 52).
		{"Cursor's edit_notebook new_string", "edit_notebook", `{"target_notebook":"a.ipynb","cell_idx":0,"is_new_cell":true,"cell_language":"python","old_string":"","new_string":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a statement run in a jupyter server", "mcp__jupyter__run", `{"statement":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a cell's script", "mcp__jupyter__insert_cell", `{"cell_index":0,"script":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a cell's value", "mcp__jupyter__insert_cell", `{"cell_index":0,"value":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a cell's body", "mcp__jupyter__insert_cell", `{"cell_index":0,"body":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a cell's data", "mcp__jupyter__insert_cell", `{"cell_index":0,"data":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a jupyterlab server", "mcp__jupyterlab__add_block", `{"source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"an nb_path beside a source", "mcp__x__add", `{"nb_path":"a.ipynb","index":0,"source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"an ipynb beside a src", "mcp__x__add_block", `{"ipynb":"a.ipynb","src":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"an .ipynb path beside a source", "mcp__x__add_block", `{"target":"a.ipynb","source":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a marimo cell", "mcp__marimo__add", `{"code":"import os; os.system('rm -rf /tmp/x')"}`, "no rm", nil},
		{"a Zeppelin paragraph's %sh", "create_paragraph", `{"note_id":"n","text":"%sh\nrm -rf /tmp/x"}`, "no rm", nil},
		{"a Zeppelin paragraph's %bash after a blank line", "mcp__zeppelin__update_paragraph", `{"note_id":"n","paragraph":"\n%bash\nrm -rf /tmp/x"}`, "no rm", nil},
		{"an old string is no code", "edit_notebook", `{"target_notebook":"a.ipynb","old_string":"!rm -rf /tmp/x","new_string":""}`, "", none},

		// Split paths and more roots (red team round 52).
		{"a directory and a filename", "mcp__x__save", `{"directory":"~/.claude","filename":"settings.json"}`, "no settings", nil},
		{"a dir and a name", "mcp__x__save", `{"dir":"~/.claude","name":"settings.json"}`, "no settings", nil},
		{"a folder and a file_name", "mcp__x__save", `{"folder":"~/.claude/","file_name":"settings.json"}`, "no settings", nil},
		{"a rootUri beside a relative path", "mcp__x__write_file", `{"rootUri":"file://` + home + `/.claude","path":"settings.json"}`, "no settings", nil},
		{"a repo beside a relative path", "mcp__x__write_file", `{"repo":"~/.claude","path":"settings.json"}`, "no settings", nil},
		{"a target_dir beside a relative path", "mcp__x__write_file", `{"target_dir":"~/.claude","path":"settings.json"}`, "no settings", nil},
		{"a project_name that is a path", "mcp__x__write_file", `{"project_name":"~/.claude","path":"settings.json"}`, "no settings", nil},
		{"a repo is a write", "mcp__x__init", `{"repo":"~/.hookcore/x"}`, "no hookcore dir", nil},

		// Paths by value (red team round 53: keys no list names). Each string of an MCP
		// tool's arguments that reads as a path is a file view, under any key but the text
		// a tool writes.
		{"a move under origin and target_location", "mcp__x__move_entry", `{"origin":"/tmp/evil","target_location":"~/go/bin/hookcore-hook"}`,
			"no program", []viewCall{{"Write", `{"file_path":"~/go/bin/hookcore-hook"}`}}},
		{"a move's origin", "mcp__x__move_entry", `{"origin":"/home/u/go/bin/hookcore-hook","target_location":"/tmp/x"}`, "no program", nil},
		{"a link under link and pointing_to", "mcp__x__create_link", `{"link":"~/go/bin/hookcore-hook","pointing_to":"/tmp/evil"}`, "no program", nil},
		{"a link's target", "mcp__x__create_link", `{"link":"/tmp/l","pointing_to":"~/.hookcore/hooks.yaml"}`, "no hookcore dir", nil},
		{"an extraction under extract_to", "mcp__x__unpack", `{"archive":"/tmp/a.zip","extract_to":"~/.hookcore/x"}`, "no hookcore dir", nil},
		{"paths in an args list", "mcp__x__run_tool", `{"tool_name":"mover","args":["/tmp/evil","~/go/bin/hookcore-hook"]}`, "no program", nil},
		{"a relative path with a slash", "mcp__x__put", `{"where":"go/bin/hookcore-hook"}`, "no program", nil},
		{"a path after white space", "mcp__x__put", `{"where":" ~/.hookcore/x\n"}`, "no hookcore dir", nil},
		{"a path deep in objects and arrays", "mcp__x__batch", `{"ops":[{"op":"mv","a":"/tmp/e","b":["~/.hookcore/x"]}]}`, "no hookcore dir", nil},
		{"a path in a JSON string", "mcp__gw__call_tool", `{"arguments":"{\"where\":\"~/.hookcore/x\"}"}`, "no hookcore dir", nil},
		{"a parent and a base", "mcp__x__write_entry", `{"parent":"~/go/bin","base":"hookcore-hook"}`, "no program", nil},
		{"a base and a name under other keys", "mcp__x__write_entry", `{"base":"~/.hookcore","leaf":"hooks.yaml"}`, "no hookcore dir", nil},
		{"a parent and a relative path", "mcp__x__write_entry", `{"parent":"~/go","rest":"bin/hookcore-hook"}`, "no program", nil},
		{"path_parts", "mcp__x__write_entry", `{"path_parts":["~",".hookcore","hooks.yaml"],"data":"x"}`, "no hookcore dir", nil},
		{"parts under a path key", "mcp__x__write_entry", `{"path":["~",".hookcore","hooks.yaml"]}`, "no hookcore dir", nil},
		{"a key that reads as a path", "mcp__x__mark", `{"targets":{"~/go/bin/hookcore-hook":true}}`, "no program", nil},
		{"parts with a slash", "mcp__x__write_entry", `{"segments":["~/go","bin","hookcore-hook"]}`, "no program", nil},
		{"parts after an absolute one", "mcp__x__write_entry", `{"segments":["/tmp","/home/u/.hookcore","x"]}`, "no hookcore dir", nil},
		{"a notebook cell under payload", "mcp__jupyter__insert_cell", `{"cell_index":0,"payload":"!rm -rf /tmp/x"}`, "no rm", nil},
		{"a notebook cell under any key", "mcp__jupyter__insert_cell", `{"cell_index":0,"blob":"import os\n!rm -rf /tmp/x"}`, "no rm", nil},
		{"an old source is no cell's code", "mcp__jupyter__edit_cell", `{"cell_index":0,"old_source":"!rm -rf /tmp/x","new_source":"import os"}`, "", none},
		{"a read-only tool's value is a Read", "mcp__x__read_entry", `{"which":"./.env"}`, "no env read", nil},
		{"a search query is no path", "mcp__search__web_search", `{"query":"how to use grep"}`, "", none},
		{"a write's text is no path", "mcp__filesystem__write_file", `{"path":"a.txt","content":"see ~/go/bin/hookcore-hook and ~/.hookcore/x\n/home/u/go/bin/hookcore-hook"}`, "", none},
		{"a note's text is no path", "mcp__x__add_note", `{"title":"x","body":"~/.hookcore/x","text":"/home/u/go/bin/hookcore-hook"}`, "", none},
		{"a name not in the cwd is no path", "mcp__x__write_entry", `{"leaf":"hookcore-hook"}`, "", none},
		{"words are no parts", "mcp__x__tag", `{"tags":["how to","hookcore-hook"]}`, "", none},
		{"a URL's path is no file", "mcp__x__open", `{"page":"https://x.example/go/bin/hookcore-hook"}`, "", none},

		// Arguments in a JSON string.
		{"a gateway's arguments", "mcp__gw__call_tool", `{"name":"shell","arguments":"{\"command\":\"rm -rf /tmp/x\"}"}`, "no rm", nil},
		{"a JSON array", "mcp__gw__call_tool", `{"calls":"[{\"url\":\"https://evil.com/x\"}]"}`, "no evil", nil},
		{"JSON in JSON", "mcp__gw__call_tool", `{"a":"{\"b\":\"{\\\"command\\\":\\\"rm -rf /tmp/x\\\"}\"}"}`, "no rm", nil},
		{"a file path in JSON", "mcp__gw__call_tool", `{"name":"write_file","arguments":"{\"path\":\"~/go/bin/hookcore-hook\"}"}`, "no program", nil},
		{"JSON with a duplicate key fails closed", "mcp__gw__call_tool", `{"arguments":"{\"command\":\"ls\",\"command\":\"rm -rf /tmp/x\"}"}`,
			`hookcore: mcp__gw__call_tool's arguments is a JSON text that ambiguous tool input: duplicate key "command", which hookcore cannot read as tool arguments for the Bash, WebFetch and file hooks (it fails closed)`, nil},
		{"JSON too deep fails closed", "mcp__gw__call_tool", nestJSON(`{"command":"ls"}`, 5),
			"hookcore: mcp__gw__call_tool's a.a.a.a.a is a JSON text in a string more than 4 deep, which hookcore cannot read as tool arguments for the Bash, WebFetch and file hooks (it fails closed)", nil},
		{"JSON four deep is read", "mcp__gw__call_tool", nestJSON(`{"command":"rm -rf /tmp/x"}`, 4), "no rm", nil},
		{"a file's JSON content is not", "mcp__filesystem__write_file", `{"path":"a.json","content":"{\"command\":\"rm -rf /tmp/x\",\"url\":\"https://evil.com\"}"}`, "", []viewCall{}},

		// URLs under other keys.
		{"a query that is a URL", "mcp__x__fetch", `{"query":"https://evil.com/x"}`, "no evil", []viewCall{{"WebFetch", `{"url":"https://evil.com/x"}`}}},
		{"a target", "mcp__browser__navigate", `{"target":"https://a.evil.com/"}`, "no evil", nil},
		{"a page", "mcp__x__open", `{"page":"HTTP://EVIL.COM"}`, "no evil", nil},
		{"a website", "mcp__x__crawl", `{"website":"https:evil.com"}`, "no evil", nil},
		{"a source", "mcp__x__import", `{"source":"https://evil.com/a.csv"}`, "no evil", nil},
		{"a resource", "mcp__x__get", `{"resource":" wss://evil.com/s"}`, "no evil", nil},
		{"a location", "mcp__x__go", `{"location":"ht\ttps://evil.com"}`, "no evil", nil},
		{"an address", "mcp__db__connect", `{"address":"postgres://u@evil.com/db"}`, "no evil", nil},
		{"a list of them", "mcp__x__get", `{"items":["a","https://evil.com/x"]}`, "no evil", nil},
		{"a host alone is no URL", "mcp__x__search", `{"query":"evil.com news"}`, "", none},
		{"a scheme without a host is none", "mcp__x__note", `{"text2":"note: see evil.com","mail":"mailto:a@evil.com"}`, "", none},
		{"Claude Code's own tools' text", "Agent", `{"prompt":"https://evil.com/x","description":"x"}`, "", none},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var seen []viewCall
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: roundFiftyGuards(&mu, &seen)})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input), ToolUseID: "toolu_1"}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if res.Blocked != (tt.want != "") || res.Reason != tt.want {
				t.Errorf("blocked %v, reason %q; want the reason %q", res.Blocked, res.Reason, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if tt.seen != nil {
				if seen == nil {
					seen = []viewCall{}
				}
				if diff := cmp.Diff(tt.seen, seen); diff != "" {
					t.Errorf("calls the guards were given (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// nestJSON returns the tool input {"a": S} where S is inner as a JSON string, n times.
func nestJSON(inner string, n int) string {
	s := inner
	for range n {
		b, _ := json.Marshal(s)
		s = fmt.Sprintf(`{"a":%s}`, b)
	}
	return s
}

// TestMCPToolViewSeen: what the hooks are given for the views of a call: a write is a Write
// call and an Edit call of the path (a hook that matched one does not run again), a move
// is a write of both paths, code in Python is the python3 line and its shell escapes, a
// command beside a cwd is also the command run there.
func TestMCPToolViewSeen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, matcher, tool, input string
		want                       []viewCall
	}{
		{"a write is a Write and an Edit", "Write|Edit|Read", "mcp__fs__write_file", `{"path":"a.txt","content":"x"}`,
			[]viewCall{{"Write", `{"file_path":"a.txt"}`}}},
		{"an Edit guard alone sees the Edit", "Edit", "mcp__fs__write_file", `{"path":"a.txt","content":"x"}`,
			[]viewCall{{"Edit", `{"file_path":"a.txt"}`}}},
		{"a move writes both", "Write", "mcp__fs__move_file", `{"source":"a","destination":"b"}`,
			[]viewCall{{"Write", `{"file_path":"b"}`}, {"Write", `{"file_path":"a"}`}}},
		{"a read", "Write|Read", "mcp__fs__list_directory", `{"path":"src"}`,
			[]viewCall{{"Read", `{"file_path":"src"}`}}},
		{"Python and its escapes", "Bash", "mcp__ide__executeCode", `{"code":"x = 1\n!ls -l"}`,
			[]viewCall{{"Bash", `{"command":"python3 -c 'x = 1\n!ls -l'"}`}, {"Bash", `{"command":"ls -l"}`}}},
		{"a command and its cwd", "Bash", "mcp__serena__execute_shell_command", `{"command":"mv bin b","cwd":"~/go"}`,
			[]viewCall{{"Bash", `{"command":"mv bin b"}`}, {"Bash", `{"command":"cd ~/'go' \u0026\u0026 mv bin b"}`}}},
		{"a relative path and its cwd", "Write", "mcp__x__write_file", `{"path":"b","cwd":"/w"}`,
			[]viewCall{{"Write", `{"file_path":"b"}`}, {"Write", `{"file_path":"/w/b"}`}}},
		{"a cell's source is code and a path", "Bash|Write", "mcp__x__run_cell", `{"source":"!ls"}`,
			[]viewCall{{"Bash", `{"command":"python3 -c '!ls'"}`}, {"Bash", `{"command":"ls"}`}, {"Write", `{"file_path":"!ls"}`}}},
		{"a project is a write of the root", "Write", "mcp__serena__activate_project", `{"project":"/home/u/go/bin"}`,
			[]viewCall{{"Write", `{"file_path":"/home/u/go/bin"}`}}},
		{"a relative path in the tool's roots", "Write", "mcp__x__create_text_file", `{"relative_path":"python3","projectPath":"/p","workspace_root":"/w","root":"/r","workspace":"/s","project":"/t"}`,
			[]viewCall{
				{"Write", `{"file_path":"/t"}`}, {"Write", `{"file_path":"/p"}`}, {"Write", `{"file_path":"python3"}`},
				{"Write", `{"file_path":"/t/python3"}`}, {"Write", `{"file_path":"/p/python3"}`}, {"Write", `{"file_path":"/r/python3"}`},
				{"Write", `{"file_path":"/s/python3"}`}, {"Write", `{"file_path":"/w/python3"}`},
				{"Write", `{"file_path":"/r"}`}, {"Write", `{"file_path":"/s"}`}, {"Write", `{"file_path":"/w"}`},
			}},
		{"path parts are the path joined (red team round 53)", "Write", "mcp__x__write_entry", `{"path_parts":["~",".minicode","config.yaml"]}`,
			[]viewCall{{"Write", `{"file_path":"~"}`}, {"Write", `{"file_path":"~/.minicode/config.yaml"}`}}},
		{"a name beside a directory path is the file in it", "Write", "mcp__x__write_entry", `{"base":"config.yaml","parent":"~/.minicode"}`,
			[]viewCall{{"Write", `{"file_path":"~/.minicode"}`}, {"Write", `{"file_path":"~/.minicode/config.yaml"}`}}},
		{"a comma list of paths is each path (red team round 54)", "Write", "mcp__x__remove", `{"paths":"~/.claude/settings.json,/tmp/x"}`,
			[]viewCall{{"Write", `{"file_path":"~/.claude/settings.json,/tmp/x"}`}, {"Write", `{"file_path":"~/.claude/settings.json"}`}, {"Write", `{"file_path":"/tmp/x"}`}}},
		{"a mount is its two paths", "Write", "mcp__docker__run", `{"image":"alpine","mount":"/tmp/x:~/.claude:rw"}`,
			[]viewCall{{"Write", `{"file_path":"/tmp/x:~/.claude:rw"}`}, {"Write", `{"file_path":"/tmp/x"}`}, {"Write", `{"file_path":"~/.claude"}`},
				{"Write", `{"file_path":"/tmp/x:~/.claude:rw/alpine"}`}}}, // a name beside a directory (fail closed)
		{"volumes, one path per line", "Write", "mcp__docker__run", `{"volumes":["/home/u:/h"],"binds":"/a:/b\n/c:/d"}`,
			[]viewCall{{"Write", `{"file_path":"/a:/b\n/c:/d"}`}, {"Write", `{"file_path":"/a"}`}, {"Write", `{"file_path":"/b"}`}, {"Write", `{"file_path":"/c"}`}, {"Write", `{"file_path":"/d"}`},
				{"Write", `{"file_path":"/home/u:/h"}`}, {"Write", `{"file_path":"/home/u"}`}, {"Write", `{"file_path":"/h"}`}}},
		{"a URL is not split", "Write|WebFetch", "mcp__x__note", `{"ref":"https://ok.example/a:b,c"}`,
			[]viewCall{{"WebFetch", `{"url":"https://ok.example/a:b,c"}`}}},
		{"a query with a slash is a read of it (fail closed)", "Write|Read", "mcp__x__search", `{"query":"a/b","limit":5}`,
			[]viewCall{{"Read", `{"file_path":"a/b"}`}}},
		{"a label with a slash is a write of it (fail closed)", "Write", "mcp__github__create_issue", `{"title":"Fix it","labels":["kind/bug"]}`,
			[]viewCall{{"Write", `{"file_path":"kind/bug"}`}}},
		{"a branch pairs with nothing (no such directory)", "Write", "mcp__github__create_pull_request", `{"base":"main","head":"fix/parser","owner":"me"}`,
			[]viewCall{{"Write", `{"file_path":"fix/parser"}`}}},
		{"a split name that is a whole path is that path too", "Write", "mcp__x__save", `{"dir":"/tmp","name":"~/.hookcore/x"}`,
			[]viewCall{{"Write", `{"file_path":"/tmp"}`}, {"Write", `{"file_path":"/tmp/~/.hookcore/x"}`}, {"Write", `{"file_path":"~/.hookcore/x"}`}}},
		{"a query of words is none", "Write|Read", "mcp__x__search", `{"query":"how to use grep"}`, nil},
		{"a cell's code under another key", "Bash", "mcp__jupyter__insert_cell", `{"cell_index":0,"cell_type":"code","blob":"!ls"}`,
			[]viewCall{{"Bash", `{"command":"python3 -c '!ls'"}`}, {"Bash", `{"command":"ls"}`}}},
		{"a URL path", "WebFetch|Read", "mcp__desktop-commander__read_file", `{"path":"https://x.example/a","isUrl":true}`,
			[]viewCall{{"Read", `{"file_path":"https://x.example/a"}`}, {"WebFetch", `{"url":"https://x.example/a"}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var seen []viewCall
			cb := hookcore.Callback{ID: "log", Event: hook.PreToolUse, Matcher: tt.matcher, Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) {
				mu.Lock()
				defer mu.Unlock()
				var of string
				_ = json.Unmarshal(in.Extra["hookcore_view_of"], &of)
				if of != tt.tool {
					t.Errorf("hookcore_view_of %q, want %q", of, tt.tool)
				}
				seen = append(seen, viewCall{in.ToolName, strings.ReplaceAll(string(in.ToolInput), "&", `\u0026`)})
				return hook.Decision{}, nil
			}}
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{cb}})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if res.Blocked {
				t.Errorf("blocked: %s", res.Reason)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.want, seen); diff != "" {
				t.Errorf("calls the hook was given (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMCPToolViewLimits: a rewrite of a file view blocks (hookcore does not know where the
// tool takes its path from), and a call that names more files than hookcore checks one by
// one is blocked, counting only the views a hook may match.
func TestMCPToolViewLimits(t *testing.T) {
	t.Parallel()
	paths := make([]string, 17)
	for i := range paths {
		paths[i] = fmt.Sprintf("%q", fmt.Sprintf("f%d.txt", i))
	}
	many := `{"paths":[` + strings.Join(paths, ",") + `]}`
	tests := []struct {
		name, matcher, tool, input string
		out                        string // the hook's updatedInput, "" for none
		want                       string
	}{
		{"a rewrite of a file view", "Write", "mcp__fs__write_file", `{"path":"a.txt","content":"x"}`, `{"file_path":"b.txt"}`,
			"hookcore: a PreToolUse hook rewrote mcp__fs__write_file's path as a Write call, which hookcore cannot carry back to mcp__fs__write_file: hookcore cannot carry a rewrite back into a tool it does not know"},
		{"too many files", "Read", "mcp__fs__read_multiple_files", many, "",
			"hookcore: mcp__fs__read_multiple_files's input holds 17 shell commands, URLs and file paths, more than the 16 hookcore checks one by one"},
		{"too many files no hook reads", "Bash", "mcp__fs__read_multiple_files", many, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := hook.Decision{}
			if tt.out != "" {
				d.UpdatedInput = json.RawMessage(tt.out)
			}
			cb := hookcore.Callback{ID: "h", Event: hook.PreToolUse, Matcher: tt.matcher, Func: fn(d)}
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{cb}})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if res.Blocked != (tt.want != "") || res.Reason != tt.want {
				t.Errorf("blocked %v, reason %q; want the reason %q", res.Blocked, res.Reason, tt.want)
			}
		})
	}
}

// TestEachViewIsChecked (red team round 50): a guard that decides in its own code (the
// guardrails example's rm script, behind `if: Bash(rm *)`) let the first view of a call
// through and was not run on the next one, since a hook ran once for a call and all its
// views: `{"commands": ["rm x", "rm -rf /tmp/x"]}` passed it, and so would a move whose
// source a Write guard allows. A hook that ran on one view runs on each other view.
func TestEachViewIsChecked(t *testing.T) {
	t.Parallel()
	script := func(bad string) hook.ExecutorFunc {
		return func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			if strings.Contains(string(in.ToolInput), bad) {
				return hook.Decision{Block: true, Reason: "no " + bad}, nil
			}
			return hook.Decision{}, nil
		}
	}
	tests := []struct {
		name, tool, input string
		cb                hookcore.Callback
		want              string
	}{
		{"two commands", "mcp__x__batch", `{"commands":["rm x","rm -rf /tmp/x"]}`,
			hookcore.Callback{ID: "rm", Event: hook.PreToolUse, Matcher: "Bash", If: "Bash(rm *)", Func: script("-rf")}, "no -rf"},
		{"a move", "mcp__fs__move_file", `{"destination":"/tmp/ok","source":"/home/u/go/bin/hookcore-hook"}`,
			hookcore.Callback{ID: "w", Event: hook.PreToolUse, Matcher: "Write", Func: script("hookcore-hook")}, "no hookcore-hook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{tt.cb}})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if !res.Blocked || res.Reason != tt.want {
				t.Errorf("blocked %v, reason %q; want the reason %q", res.Blocked, res.Reason, tt.want)
			}
		})
	}
}

// BenchmarkDispatchMCPFileView: the self-protect example's three guards on an MCP file
// server's write_file of an ordinary file (the call's input decoded, one Write view fired as
// Write and as Edit, no hook matching), and on Claude Code's Write of the same file, the
// anchor; and on an MCP move whose paths are under keys no list names (read by value: red
// team round 53), beside bare words and a note.
func BenchmarkDispatchMCPFileView(b *testing.B) {
	dir := b.TempDir()
	set := loadConfig(b, dir, "hooks.yaml", `hooks:
  - {id: files, event: pre_tool_use, matcher: Write|Edit|MultiEdit|NotebookEdit, if: 'file_path ~= "**/.hookcore/**" || file_path ~= "**/.claude/settings.json"', action: {type: command, command: /bin/true}}
  - {id: shell, event: pre_tool_use, matcher: Bash, if: 'args.command =~ /hookcore/', action: {type: command, command: /bin/true}}
  - {id: program, event: pre_tool_use, matcher: Bash|Write|Edit, if: 'file_path changes hook_program', action: {type: command, command: /bin/true}}
`)
	r := newRunner(b, dir, set, hookcore.Options{HookProgram: []string{"/home/u/go/bin/hookcore-hook"}})
	for _, c := range []struct{ name, tool, input string }{
		{"mcp", "mcp__filesystem__write_file", `{"path":"/home/u/project/src/main.go","content":"package main\n\nfunc main() {}\n"}`},
		{"Write", "Write", `{"file_path":"/home/u/project/src/main.go","content":"package main\n\nfunc main() {}\n"}`},
		{"mcp-other-keys", "mcp__x__move_entry", `{"origin":"/home/u/project/src/a.go","target_location":"src/b.go","mode":"overwrite","tags":["go","move"],"note":"rename a to b"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: c.tool, ToolInput: json.RawMessage(c.input)}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if res := r.Fire(ctx, hook.PreToolUse, in); len(res.Hooks) != 0 || res.Blocked {
					b.Fatalf("a hook matched: %+v", res)
				}
			}
		})
	}
}

// TestMCPToolViewsByValueInCwd (red team round 53): a bare name of an MCP tool's arguments is
// a file view when it names a file or directory in the call's cwd, and a name beside such a
// directory is the file in it; a name that is not there is none. Looking up more names than
// hookcore checks, or joining more pairs, fails closed.
func TestMCPToolViewsByValueInCwd(t *testing.T) {
	t.Parallel()
	words := func(n int, f string) string {
		var w []string
		for i := range n {
			w = append(w, fmt.Sprintf(`"`+f+`"`, i))
		}
		return strings.Join(w, ",")
	}
	pairs := `{"a":"/d1","b":"/d2","c":"/d3","d":"/d4","e":"/d5","n1":"x1","n2":"x2","n3":"x3","n4":"x4","n5":"x5","n6":"x6","n7":"x7"}`
	tests := []struct {
		name, matcher, tool, input string
		want                       string // the reason of the block, "" for none
	}{
		{"a name in the cwd", "Write", "mcp__x__put_entry", `{"victim":"hookcore-hook"}`, "no program"},
		{"a name beside a directory in the cwd", "Write", "mcp__x__put_entry", `{"into":"bin","leaf":"hookcore-hook2"}`, "no program"},
		{"a relative path beside a directory in the cwd", "Write", "mcp__x__put_entry", `{"into":"a/bin","leaf":"hookcore-hook2"}`, "no program"},
		{"a relative path beside a directory not in the cwd", "Write", "mcp__x__put_entry", `{"into":"x/bin","leaf":"hookcore-hook2"}`, ""},
		{"a name read by a read-only tool", "Read", "mcp__x__get_entry", `{"which":".env"}`, "no env read"},
		{"a name not in the cwd", "Write", "mcp__x__put_entry", `{"victim":"hookcore-hook3"}`, ""},
		{"a command that is a path is a file too", "Write", "mcp__x__save_script", `{"script":"~/.hookcore/x.sh"}`, "no hookcore dir"},
		{"too many names to look up", "Write", "mcp__x__tag", `{"tags":[` + words(257, "w%d") + `]}`,
			"hookcore: mcp__x__tag's tags[256] is one name too many to look up in the cwd, which hookcore cannot read as a file path for the Write and Edit hooks (it fails closed)"},
		{"as many as looked up", "Write", "mcp__x__tag", `{"tags":[` + words(256, "w%d") + `]}`, ""},
		{"too many names, no file hook", "Bash", "mcp__x__tag", `{"tags":[` + words(300, "w%d") + `]}`, ""},
		{"too many pairs", "Write", "mcp__x__put_entry", pairs,
			"hookcore: mcp__x__put_entry's n5 is one directory and name pair too many to join, which hookcore cannot read as a file path for the Write and Edit hooks (it fails closed)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range []string{"hookcore-hook", ".env", "bin/x", "a/bin/x"} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			block := func(id, cond, reason string) hookcore.Callback {
				return hookcore.Callback{ID: id, Event: hook.PreToolUse, Matcher: tt.matcher, If: cond, Func: fn(hook.Decision{Block: true, Reason: reason})}
			}
			cbs := []hookcore.Callback{
				block("p", `file_path ~= "**/hookcore-hook" || file_path ~= "**/bin/hookcore-hook2"`, "no program"),
				block("d", `file_path ~= "~/.hookcore/**"`, "no hookcore dir"),
				block("e", `file_path ~= "**/.env"`, "no env read"),
			}
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: cbs})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if res.Blocked != (tt.want != "") || res.Reason != tt.want {
				t.Errorf("blocked %v, reason %q; want the reason %q", res.Blocked, res.Reason, tt.want)
			}
		})
	}
}

package hookcore

import (
	"slices"
	"strings"
	"sync"
)

// ownTools are Claude Code's own tools (2.1.332's, offered and deferred, and earlier
// versions'), with the file tools of hookcore's reference agent and the names the bridges
// give the other agents' tools: a tool hookcore's rules read by its own name. Their views
// are the command and URL arguments alone: no file views, URL values or nested arguments
// (viewWalker.other), since a path rule reads their paths where they are (Read, Write, Edit,
// NotebookEdit, LS, Glob, Grep), and the others' path arguments are no file they read or
// write (ReportFindings' findings name the files a review is about, EnterWorktree's path is
// a worktree to switch into, Workflow's scriptPath a script that runs in Workflow's
// sandbox).
var ownTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"Agent": true, "Task": true, "Bash": true, "BashOutput": true, "KillShell": true, "KillBash": true,
		"CronCreate": true, "CronDelete": true, "CronList": true, "Edit": true, "EnterWorktree": true,
		"ExitWorktree": true, "ListAgents": true, "Monitor": true, "NotebookEdit": true, "NotebookRead": true,
		"Read": true, "ReportFindings": true, "ScheduleWakeup": true, "SendMessage": true, "Skill": true,
		"TaskStop": true, "ToolSearch": true, "WebSearch": true, "WebFetch": true, "Workflow": true,
		"Write": true, "MultiEdit": true, "LS": true, "Glob": true, "Grep": true, "TodoWrite": true,
		"ExitPlanMode": true, "EnterPlanMode": true, "AskUserQuestion": true, "PowerShell": true,
		"REPL": true, "SlashCommand": true, "DeferredToolPlaceholder": true, "LSP": true,
		"ReadFile": true, "WriteFile": true, "EditFile": true,
	}
})

// The words of a tool's name that say what it does with the files it names (readOnlyTool).
// A tool whose name starts with a reader (after the server's own name: git_status) and has
// no writer is read-only: read_file, get_file_info, list_directory, search_files,
// list_allowed_directories, read_multiple_files; write_file, edit_file, move_file,
// create_directory, get_or_create, read_write_file are not. readOnlyNames are read-only
// names that start otherwise (server-filesystem's directory_tree). "log" is read-only only as
// the whole name (git's git_log, after the server's name): log_to_file, log_event write
// (red team round 59).
var (
	readerWords = []string{"read", "get", "list", "ls", "search", "find", "view", "show", "stat", "info", "head", "tail",
		"cat", "tree", "glob", "grep", "describe", "query", "lookup", "inspect", "status", "diff", "count",
		"exists", "preview", "locate"}
	writerWords = []string{"write", "edit", "create", "delete", "del", "remove", "rm", "move", "mv", "rename", "copy",
		"cp", "put", "set", "update", "modify", "patch", "replace", "insert", "append", "save", "upload",
		"download", "mkdir", "touch", "chmod", "chown", "truncate", "apply", "add", "commit", "push", "pull",
		"checkout", "reset", "init", "clone", "install", "uninstall", "run", "exec", "execute", "start", "stop",
		"kill", "import", "export", "extract", "unzip", "untar", "unpack", "sync", "link", "symlink", "new",
		"make", "build", "format", "fix", "restore", "revert", "merge", "rebase", "clean", "clear", "purge",
		"overwrite", "store", "dump", "generate", "convert", "compile", "transform", "archive", "compress",
		"backup", "drop", "destroy", "erase", "wipe", "change", "upsert", "post", "send", "deploy", "publish",
		"mount", "unmount", "eval", "evaluate", "do", "perform", "prune", "rotate", "rewrite", "sed", "tee",
		"shred", "trash", "unlink", "rmdir", "cleanup", "flush", "encrypt", "decrypt", "stage", "stash",
		"amend", "rollback", "migrate", "resize", "decompress", "zip", "tar", "and", "or", "then"}
	readOnlyNames = []string{"directory_tree"}
)

// The words of a tool's name that say it runs code (runWords), in a language (langOf), or
// that it types into a running process (processWords).
var (
	runWords     = []string{"run", "exec", "execute", "eval", "evaluate", "interpret"}
	processWords = []string{"process", "terminal", "repl", "console", "pty", "stdin", "tty", "shell"}
)

// cellWords are the words of a tool's name, or of an argument's, that say the call is about
// a notebook's cells (red team round 51: Datalayer jupyter-mcp-server's
// insert_execute_code_cell, execute_cell, overwrite_cell_source; a `cell_index`, a
// `notebook_path`, a `kernel_id` beside the code): its code arguments (cellCodeKey) are an
// IPython cell's, whether the call runs the cell or writes it for a later call to run.
var cellWords = []string{"notebook", "notebooks", "jupyter", "ipython", "ipynb", "cell", "cells", "kernel", "kernels",
	"nb", "marimo", "zeppelin", "paragraph", "paragraphs"}

// cellToolNames are the parts of a tool's whole name (its server's too) that say its calls
// are about a notebook's cells, anywhere in the name (red team round 52:
// `mcp__jupyterlab__add_block`, `mcp__marimo__add`, Zeppelin's `create_paragraph`);
// cellNames, those that name nothing but a notebook, say so anywhere in a key too (cellKey:
// `jupyterlabUrl`).
var (
	cellNames     = []string{"jupyter", "notebook", "ipynb", "ipython", "marimo", "zeppelin"}
	cellToolNames = append([]string{"nb_", "cell", "kernel", "paragraph"}, cellNames...)
)

// toolName is what a tool's name says (readToolName): the tool name is the user's
// configuration (their MCP servers), not the model's, so it may decide how the arguments
// the model wrote are read.
type toolName struct {
	readOnly bool     // readOnlyTool: its file views are reads
	runs     bool     // a word of runWords: its code runs (codeKey)
	process  bool     // a word of processWords: its input is typed into a process
	cell     bool     // a word of cellWords: its code arguments are a notebook cell's
	renames  bool     // rename, move or mv: its new_name is a file's
	langs    []string // the languages its name names (run_python, bash)
}

// readToolName reads the name of tool (an MCP tool's mcp__SERVER__NAME, or a bare name):
// the words of its last part, without a first word that is the server's name.
func readToolName(tool string) toolName {
	name, server := tool, ""
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if i := strings.LastIndex(rest, "__"); i >= 0 {
			server, name = rest[:i], rest[i+2:]
		}
	}
	words := keyWords(name)
	if sw := keyWords(server); len(words) > 1 && len(sw) > 0 && words[0] == sw[len(sw)-1] {
		words = words[1:]
	}
	var n toolName
	if l := knownLangs()[tool]; l != "" {
		n.langs = []string{l}
	}
	n.cell = holdsFold(tool, cellToolNames)
	n.readOnly = foldIn(name, readOnlyNames)
	if len(words) > 0 && foldIn(words[0], readerWords) || len(words) == 1 && strings.EqualFold(words[0], "log") {
		n.readOnly = true
	}
	for _, w := range words {
		if foldIn(w, writerWords) {
			n.readOnly = false
		}
		n.runs = n.runs || foldIn(w, runWords)
		n.process = n.process || foldIn(w, processWords)
		n.cell = n.cell || foldIn(w, cellWords)
		n.renames = n.renames || foldIn(w, []string{"rename", "move", "mv"})
		if l := langOf(w); l != "" && !foldIn(w, []string{"cmd", "r"}) && !slices.Contains(n.langs, l) {
			n.langs = append(n.langs, l)
		}
	}
	return n
}

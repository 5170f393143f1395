package hookcore

import (
	"bytes"
	"strings"
)

// The argument names walkViews reads, any case (strings.EqualFold). A command-like key holds a
// shell command: a string as it is, an array of strings as an argv (its words single-quoted);
// `commands` holds a list of them (a string is one). `program` is an executable run with
// the argv `args` (an array, or a string appended as it is). A URL-like key holds a URL, or an
// array of them. `args` alone is no command: an MCP tool's `args` is as often a function's
// arguments; it is read with a `program`, or with a string `command` (an MCP server entry's
// {command, args}), beside it.
// `executable` and `exec` are `program` by other names. A key whose last word is url or uri
// (base_url, baseUrl, webhook_uri, target_urls) is URL-like too (urlKey; red team round 48:
// an MCP tool's base_url, links and executable passed the guards unread); one whose last word
// is command or cmd (shell_cmd, bashCommand), or that is command or cmd and a word for its
// text (command_string, commandText, cmd_line), is command-like (commandKey; red team round
// 50).
var (
	commandKeys = []string{"command", "cmd", "cmdline", "command_line", "commandline", "script", "shell_command", "shellcommand", "argv", "shell", "bash", "sh", "zsh"}
	urlKeys     = []string{"url", "urls", "uri", "uris", "href", "hrefs", "endpoint", "endpoints", "link", "links"}
	programKeys = []string{"program", "executable", "exec", "binary"}
	// argsKeys are the other names of a command's or a program's argument list (red team
	// round 51), read where `args` is not there and they hold a string or strings.
	argsKeys    = []string{"arguments", "cmd_args", "cmdargs", "command_args", "commandargs", "program_args", "parameters", "params"}
	urlSuffixes = []string{"url", "urls", "uri", "uris"}
	// commandWords are the last words of a command-like key; commandTexts the words after
	// a leading command or cmd that name its text.
	commandWords = []string{"command", "cmd", "cmdline", "commandline"}
	commandTexts = []string{"string", "str", "text", "line"}
)

// The file-path arguments of a tool that is not Claude Code's own (red team round 50: an MCP
// file server's write_file and move_file took the hook program away past every Write
// guard). pathWords are the last words of a key that names a file or directory: `path`
// (server-filesystem, Desktop Commander), `paths`, `file_path`, `filePath` (JetBrains),
// `relative_path` (Serena), `repo_path` (mcp-server-git), `files`, `directory`, `dir`,
// `folder`; pathKeys are names that do so whole: a move's `source` and `destination`,
// `src`, `dest`, `target`, `from`, `to`, a download's or a conversion's `output`, `out`,
// `save_as`, `location`, and JetBrains' `pathInProject`. cwdKeys name the
// directory a command runs in: read, not written, and a command beside one is also read as
// run there. notPathKeys end in path and name no file: Serena's `name_path` is a symbol's
// path in a file's outline.
var (
	pathWords   = []string{"path", "paths", "file", "files", "filename", "filenames", "filepath", "filepaths", "dir", "dirs", "dirname", "directory", "directories", "folder", "folders", "root", "roots", "pathname", "pathnames", "outfile", "outpath"}
	pathKeys    = []string{"source", "sources", "destination", "destinations", "src", "dest", "dst", "target", "targets", "from", "to", "pathinproject", "output", "out", "save_as", "saveas", "save_to", "saveto", "location", "project", "projects", "workspace", "workspaces", "notebook", "notebooks", "file_name", "file_names", "repo", "repository"}
	cwdKeys     = []string{"cwd", "workdir", "work_dir", "working_dir", "workingdir", "working_directory", "workingdirectory", "current_directory", "currentdirectory"}
	notPathKeys = []string{"name_path", "namepath"}
)

// The text a tool writes or sends (a file's content, an edit's new string, a message's body)
// is not read for URLs or nested arguments: a file of JSON or a URL written is no fetch.
var textWords = []string{"content", "contents", "text", "string", "str", "body"}

// The code a tool runs in a language (codeKey), and the language it is in (langKey): the
// code of mcp-server-code-runner's run-code `{code, languageId}`, or of a tool whose name
// says it runs code (Claude Code's `mcp__ide__executeCode {code}`, run in the IDE's Jupyter
// kernel).
var (
	codeWords = []string{"code", "snippet"}
	langWords = []string{"language", "lang", "interpreter", "runtime", "kernel"}
	langNames = []string{"id", "name"}
)

// cellCodeWords are the last words of a key that holds a notebook cell's code where the call
// is about cells (cellKey): jupyter-mcp-server's `cell_source`, `source` (nbformat's, a
// string or a list of lines), `cell`, a `cells` list, an insert's `content`, a REPL's
// `input`, and (red team round 52) Cursor's edit_notebook `new_string`, a `statement`,
// `script`, `value`, `body`, `data` or `src`, a Zeppelin `text` or `paragraph`; a key
// whose first word is old (`old_string`) is the text an edit replaces, no code. runCodeWords are those read as code in any tool whose name says it runs code,
// beside code and snippet (a run_cell's `source`, an execute's `cell`).
var (
	cellCodeWords = []string{"source", "sources", "cell", "cells", "code", "codes", "snippet", "snippets", "content", "contents", "text", "input", "lines",
		"string", "statement", "statements", "script", "scripts", "value", "values", "body", "data", "src", "paragraph", "paragraphs",
		"payload", "payloads"}
	runCodeWords = []string{"source", "sources", "cell", "cells"}
)

// keyWords returns the words of an argument name, lower case: split at '_', '-', '.' and
// spaces, and in camel case before an upper-case letter that follows a lower-case one or a
// digit, or that starts a lower-case word after an upper-case run ("URLPath" is url and
// path; "targetURLs" is target and urls).
func keyWords(k string) []string {
	var words []string
	start := 0
	flush := func(end int) {
		if end > start {
			words = append(words, strings.ToLower(k[start:end]))
		}
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			flush(i)
			start = i + 1
		case isUpper(c) && i > start:
			prev := k[i-1]
			lowerNext := i+1 < len(k) && isLower(k[i+1])
			plural := i+2 == len(k) && k[i+1] == 's' // "URLs": the s ends the run
			if isLower(prev) || isDigit(prev) || isUpper(prev) && lowerNext && !plural {
				flush(i)
				start = i
			}
		}
	}
	flush(len(k))
	return words
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// keyReadings returns the words of k in two readings: keyWords's, and split at '_', '-',
// '.' and spaces only, so that a key in odd case is read as its words too (a Go server's
// case-insensitive decoding reads `file_pAth` as file_path, which camel case splits as
// file, p, ath).
func keyReadings(k string) [2][]string {
	return [2][]string{keyWords(k), strings.FieldsFunc(k, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })}
}

// lastWordIn reports whether the last word of k, in either reading (keyReadings), is one
// of words, and k has more than that word when alone is false.
func lastWordIn(k string, words []string, alone bool) bool {
	for _, w := range keyReadings(k) {
		if len(w) > 0 && (alone || len(w) > 1) && foldIn(w[len(w)-1], words) {
			return true
		}
	}
	return false
}

// twoWords reports whether k is, in either reading, two words, the first one of first and
// the second one of second.
func twoWords(k string, first, second []string) bool {
	for _, w := range keyReadings(k) {
		if len(w) == 2 && foldIn(w[0], first) && foldIn(w[1], second) {
			return true
		}
	}
	return false
}

// urlKey reports whether k names a URL: one of urlKeys, any case, or a name whose last word
// is url, urls, uri or uris (baseUrl, webhookURL, target_urls).
func urlKey(k string) bool {
	return foldIn(k, urlKeys) || lastWordIn(k, urlSuffixes, false)
}

// commandKey reports whether k names a shell command: one of commandKeys, a name whose last
// word is command or cmd (shell_cmd, bash_command, terminalCommand), or command or cmd and a
// word for its text (command_string, commandText, cmd_line).
func commandKey(k string) bool {
	return foldIn(k, commandKeys) || lastWordIn(k, commandWords, false) || twoWords(k, []string{"command", "cmd"}, commandTexts)
}

// commandsKey reports whether k names a list of shell commands: `commands`, or a name whose
// last word is commands (shell_commands).
func commandsKey(k string) bool {
	return strings.EqualFold(k, "commands") || lastWordIn(k, []string{"commands", "cmds"}, false)
}

// pathKey reports whether k names a file or directory (pathWords, pathKeys).
func pathKey(k string) bool {
	if foldIn(k, notPathKeys) {
		return false
	}
	return foldIn(k, pathKeys) || lastWordIn(k, pathWords, true)
}

// cwdKey reports whether k names the directory a command runs in.
func cwdKey(k string) bool { return foldIn(k, cwdKeys) }

// baseNames are the words, joined, of the keys that name a tool's root (red team round 51:
// Serena's activate_project `project`, then `relative_path`s taken there): a relative path
// or a command beside one is also read as taken there (baseKey), as beside a cwd.
var baseNames = []string{"root", "rootdir", "rootpath", "projectroot", "project", "projectpath", "projectdir",
	"projectdirectory", "workspace", "workspaceroot", "workspacepath", "workspacedir", "workspacefolder",
	"basedir", "basepath", "basedirectory", "repopath", "repodir", "repositorypath", "reporoot",
	"rooturi", "rooturl", "workspaceuri", "workspacefolderuri", "projecturi", "repo", "repository",
	"targetdir", "targetdirectory", "projectname"}

// baseKey reports whether k names a tool's root (baseNames), any case and separators.
func baseKey(k string) bool {
	for _, w := range keyReadings(k) {
		if foldIn(strings.Join(w, ""), baseNames) {
			return true
		}
	}
	return false
}

// codeKey reports whether k names code: a name whose last word is code or snippet (`code`,
// `source_code`, `bash_code`, `codeSnippet`... ), and the languages its other words name
// (`bash_code`: sh). A key such as `exit_code` is code only where code runs (viewWalker).
func codeKey(k string) (langs []string, ok bool) {
	if !lastWordIn(k, codeWords, true) && !foldIn(k, []string{"codesnippet", "code_snippet"}) {
		return nil, false
	}
	for _, w := range keyReadings(k)[0] {
		if l := langOf(w); l != "" && !foldIn(w, []string{"cmd", "r", "source", "src"}) {
			langs = append(langs, l)
		}
	}
	return langs, true
}

// cellKey reports whether a word of k, in either reading, is one of cellWords, or k holds
// one of cellNames: an argument about a notebook's cells (cell_index, notebook_path,
// kernel_id, nb_path, jupyterlabUrl).
func cellKey(k string) bool {
	if holdsFold(k, cellNames) {
		return true
	}
	for _, ws := range keyReadings(k) {
		for _, w := range ws {
			if foldIn(w, cellWords) {
				return true
			}
		}
	}
	return false
}

// cellCodeKey reports whether k holds a cell's code: its last word is one of cellCodeWords
// in a call about cells (cell), or of runCodeWords in a tool that runs code (runs).
func cellCodeKey(k string, cell, runs bool) bool {
	if oldKey(k) {
		return false
	}
	return cell && lastWordIn(k, cellCodeWords, true) || runs && lastWordIn(k, runCodeWords, true)
}

// oldKey reports whether k names the text an edit replaces: its first word is old
// (`old_string`, `old_source`), and it has more.
func oldKey(k string) bool {
	w := keyWords(k)
	return len(w) > 1 && w[0] == "old"
}

// langKey reports whether k names the language of code: a name whose last word is language,
// lang, interpreter, runtime or kernel, or one of those and id or name (languageId,
// kernel_name).
func langKey(k string) bool {
	return lastWordIn(k, langWords, true) || twoWords(k, langWords, langNames)
}

// textKey reports whether k names text a tool writes or sends (textWords): its strings are
// not read for URLs or nested arguments.
func textKey(k string) bool { return lastWordIn(k, textWords, true) }

// holdsFold reports whether s holds one of words (lower case), any case.
func holdsFold(s string, words []string) bool {
	l := strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// foldIn reports whether k is one of names, any case.
func foldIn(k string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

// foldGet returns the value of m's key name in any case, and how many keys spell it.
func foldGet(m map[string]any, name string) (v any, n int) {
	for k, e := range m {
		if strings.EqualFold(k, name) {
			v, n = e, n+1
		}
	}
	return v, n
}

// foldCount returns how many keys of m spell one of names, any case, and the value of the
// last one.
func foldCount(m map[string]any, names []string) (v any, n int) {
	for _, name := range names {
		if e, c := foldGet(m, name); c > 0 {
			v, n = e, n+c
		}
	}
	return v, n
}

// scanWords are the parts mayHoldViewKey looks for in each quoted string of a tool input of
// Claude Code's own tools, any case: every key viewsOf reads there holds one of them.
var scanWords = []string{"cmd", "command", "url", "uri", "href", "endpoint", "link", "script", "argv", "program", "exec", "code", "snippet", "run"}

// mayHoldViewKey reports whether the JSON text raw may hold a key walkViews reads in one of
// Claude Code's own tools: an object key that holds one of scanWords in any ASCII case, an
// escape (\u may spell one), or one of the two non-ASCII letters that fold to an ASCII one
// (U+017F ſ is s, U+212A K is k, as strings.EqualFold and encoding/json fold them). It reads
// the string literals of raw as JSON does and looks only at keys: it spares decoding the
// input of every Read and Edit call, whatever text they write.
func mayHoldViewKey(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		j, esc := i+1, false
		for ; j < len(raw) && raw[j] != '"'; j++ {
			if raw[j] == '\\' {
				esc = true
				j++
			}
		}
		lit := raw[i+1 : min(j, len(raw))]
		k := j + 1
		for k < len(raw) && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\n' || raw[k] == '\r') {
			k++
		}
		if k >= len(raw) || raw[k] == ':' {
			if esc || bytes.Contains(lit, []byte("\u017f")) || bytes.Contains(lit, []byte("\u212a")) || foldHoldsAny(lit, scanWords) {
				return true
			}
		}
		i = j
	}
	return false
}

// foldHoldsAny reports whether s holds one of words (lower-case ASCII), any ASCII case.
func foldHoldsAny(s []byte, words []string) bool {
	for i := range s {
		c := s[i] | 0x20
		for _, w := range words {
			if c == w[0] && len(s)-i >= len(w) && asciiFold(s[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// asciiFold reports whether b is w (lower-case ASCII letters) in any ASCII case.
func asciiFold(b []byte, w string) bool {
	for i := range b {
		if b[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

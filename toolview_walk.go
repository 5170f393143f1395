package hookcore

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// maxNest is how many JSON texts inside strings walkViews decodes on the way to a value
// (a gateway's `{"arguments": "{\"command\": ...}"}` is one): a deeper one fails closed.
const maxNest = 4

// viewWalker collects the views of one call's arguments (walkViews).
type viewWalker struct {
	// other is set for a tool that is not one of ownTools: its file-path arguments are file
	// views, and so is a string that reads as a path whatever its key (toolview_values.go),
	// a string that is a URL is a WebFetch view whatever its key, and a string that is a
	// JSON object or array is read as nested arguments.
	other bool
	write bool     // other, and not read-only by its name: its file views are writes
	name  toolName // what the tool's name says, when other
	// cell is set, for a tool that is not one of ownTools, while walking a call, or the
	// part of one, about a notebook's cells (its name or a key says so: cellWords).
	cell bool
	// langs are the languages of a cell's code (python and any a key names) while cell
	// is set: a string under another key that may be code is read so (codeLike).
	langs []string
	views []toolView
	nest  int // JSON texts in strings decoded on the way to the value walked
	// cwd is the call's cwd, where a name that may be a file is looked up (exists);
	// looked holds what was found for each name, tooMany is set past maxLookups, joins
	// counts the directory and name pairs joined (pairs).
	cwd     string
	looked  map[string]lookup
	tooMany bool
	joins   int
}

// walkViews returns the views of the decoded JSON arguments v of a call of tool in the
// directory cwd (where a name may be a file: toolview_values.go), each once,
// in one order: object keys sorted. A key it reads whose value has a shape it cannot read
// (a `command` that is an object, a `url` list holding one) is a view with bad set: the
// call is blocked (viewsAsCalls), as attacker-written input hookcore cannot read is
// everywhere else, rather than let past the guards unread.
func walkViews(tool string, v any, cwd string) []toolView {
	w := viewWalker{other: !ownTools()[tool], cwd: cwd}
	if w.other {
		w.name = readToolName(tool) // Claude Code's own tools are known by their arguments
		w.write = !w.name.readOnly
		w.cell = w.name.cell
	}
	w.walk(v, "")
	seen := map[string]bool{}
	return slices.DeleteFunc(w.views, func(v toolView) bool {
		if v.bad != "" {
			return false
		}
		k := v.tool + "\x00" + string(v.input)
		dup := seen[k]
		seen[k] = true
		return dup
	})
}

// walk walks the value v at path at.
func (w *viewWalker) walk(v any, at string) {
	switch v := v.(type) {
	case map[string]any:
		w.object(v, at)
	case []any:
		for i, e := range v {
			w.walk(e, fmt.Sprintf("%s[%d]", at, i))
		}
		if w.other {
			// A path in parts (`["~", ".minicode", "config.yaml"]`) is the path joined too.
			for _, j := range joinParts(v) {
				w.file(j, at, w.write)
			}
		}
	case string:
		w.text(v, at)
	}
}

// object walks the object m at path at: each key by what it names (toolview_keys.go).
func (w *viewWalker) object(m map[string]any, at string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	args, nargs := foldGet(m, "args")
	if nargs == 0 {
		// The other names of a command's argument list are read only when they hold one
		// (a string or strings): an object under them is a function's arguments, walked.
		if a, n := foldCount(m, argsKeys); n == 1 && argvLike(a) {
			args, nargs = a, 1
		}
	}
	_, nprog := foldCount(m, programKeys)
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	// The directories a command or a relative path beside them may be in (a cwd, a tool's
	// root: baseKey), and the languages of code beside them: the model may add such a key the tool ignores, so
	// they add views and never take one away. A language that is not a string is one
	// hookcore does not know: the code is read as shell text.
	var cwds, langs []string
	dirs := map[string]string{} // the directory keys beside a file's name (splitDir)
	for _, k := range keys {
		if w.other && pathForm(strings.TrimSpace(k)) {
			// A key that reads as a path (`{"targets": {PATH: true}}`) is a file view too,
			// as a path key's map's keys are (paths); a bare name is an argument's.
			w.file(strings.TrimSpace(k), join(k), w.write)
		}
		x, isString := m[k].(string)
		if w.other && (cwdKey(k) || baseKey(k)) && isString && x != "" {
			if d, ok := rootDir(k, x); ok {
				cwds = append(cwds, d)
			}
		}
		if w.other && splitDir(k) && isString && x != "" {
			dirs[k] = x
		}
		if langKey(k) && m[k] != nil {
			langs = append(langs, langOf(x))
		}
	}
	// A call about cells, by its tool's name or a key here or above (cell_index,
	// notebook_path), runs its code as an IPython cell: Python and its shell escapes,
	// besides any language a key names.
	cell := w.cell
	for _, k := range keys {
		x, _ := m[k].(string)
		cell = cell || w.other && (cellKey(k) || strings.HasSuffix(strings.ToLower(x), ".ipynb"))
	}
	if cell != w.cell {
		defer func(c bool) { w.cell = c }(w.cell)
		w.cell = cell
	}
	runs := len(langs) > 0 || w.name.runs || len(w.name.langs) > 0 || cell
	langs = append(langs, w.name.langs...)
	if cell && !slices.Contains(langs, "python") {
		langs = append(langs, "python")
	}
	if len(langs) == 0 {
		langs = []string{""}
	}
	if cell {
		defer func(l []string) { w.langs = l }(w.langs)
		w.langs = langs
	}
	for _, k := range keys {
		p := join(k)
		switch {
		case urlKey(k):
			w.urls(m[k], p)
		case foldIn(k, programKeys):
			prog, ok := m[k].(string)
			if !ok || nprog > 1 || nargs > 1 {
				w.views = append(w.views, badView("Bash", p, m[k]))
				continue
			}
			line, ok := withArgs(shellQuote(prog), args)
			if !ok {
				w.views = append(w.views, badView("Bash", p+" args", args))
				continue
			}
			w.command(line, p, cwds)
			w.valuePaths(prog, p)
		case strings.EqualFold(k, "tool") && nprog == 0 && nargs == 1 && argvList(args) && isStr(m[k]):
			// A `tool` and its argv list (`{"tool": "rm", "args": ["-rf", "x"]}`); a tool
			// with arguments of another shape is a gateway's call, walked.
			line, _ := withArgs(shellQuote(m[k].(string)), args)
			w.command(line, p, cwds)
		case commandsKey(k):
			if l, ok := m[k].([]any); ok {
				for i, e := range l {
					w.commandValue(e, fmt.Sprintf("%s[%d]", p, i), cwds)
				}
				continue
			}
			w.commandValue(m[k], p, cwds)
		case commandKey(k):
			if s, ok := commandLine(m[k]); ok && nargs > 0 && nprog == 0 && (strings.EqualFold(k, "command") || strings.EqualFold(k, "cmd")) {
				line, ok := withArgs(s, args)
				if !ok || nargs > 1 {
					w.views = append(w.views, badView("Bash", p+" args", args))
					continue
				}
				w.command(line, p, cwds)
				w.valuePaths(m[k], p)
				continue
			}
			w.commandValue(m[k], p, cwds)
			if w.other && cellCodeKey(k, cell, runs) {
				// A cell's `script` is a shell command and a cell's code (red team round 52).
				w.cellCode(m[k], p, langs, false)
			}
		case w.other && cellCodeKey(k, cell, runs):
			// A cell's code (cell_source, source, cell, cells[].source) is code; one that
			// is a path key too (source) is a file view as well: which one the tool takes
			// it for, hookcore cannot tell, so it has both.
			kl, _ := codeKey(k)
			w.cellCode(m[k], p, append(kl, langs...), lastWordIn(k, []string{"sources", "cells", "codes", "snippets"}, true))
			if pathKey(k) {
				w.paths(m[k], p, w.write, cwds)
			}
		case isCode(k, runs):
			kl, _ := codeKey(k)
			if len(kl) > 0 && !runs {
				w.code(m[k], p, kl)
				continue
			}
			w.code(m[k], p, append(kl, langs...))
		case strings.EqualFold(k, "run") || w.name.process && foldIn(k, []string{"input", "text", "keys", "chars", "line"}):
			// `run` (a CI step's) and the text typed into a process (Desktop Commander's
			// interact_with_process input) are shell text when they are strings.
			if s, ok := m[k].(string); ok {
				w.command(s, p, cwds)
				w.valuePaths(s, p)
				continue
			}
			w.walk(m[k], p)
		case w.other && w.name.renames && (twoWords(k, []string{"new"}, []string{"name", "filename"}) || foldIn(k, []string{"newname", "newfilename"})):
			// A rename's new name (`{"path": "a/b", "new_name": "c"}`) is a file in the
			// directory of each path beside it, and in the cwds.
			dirs := slices.Clone(cwds)
			for _, o := range keys {
				if x, ok := m[o].(string); ok && o != k && pathKey(o) && strings.Contains(x, "/") {
					dirs = append(dirs, path.Dir(x))
				}
			}
			w.paths(m[k], p, w.write, dirs)
		case w.other && cwdKey(k):
			w.paths(m[k], p, false, nil)
		case w.other && pathKey(k):
			w.paths(m[k], p, w.write, append(cwds, besides(dirs, k)...))
		case w.other && len(dirs) > 0 && splitName(k):
			// A file's name beside its directory (`{"dir": D, "name": N}`) is the file D/N.
			if s, ok := m[k].(string); ok && s != "" {
				for _, d := range besides(dirs, k) {
					w.path(strings.TrimSuffix(d, "/")+"/"+s, p, w.write, nil)
				}
				w.valuePath(s, p) // a name that is a whole path (`/x`: os.path.join takes it)
				continue
			}
			w.walk(m[k], p)
		case w.other && baseKey(k) && isStr(m[k]):
			// A root such as a project_name that is a path (rootDir) is a file view too.
			if d, ok := rootDir(k, m[k].(string)); ok {
				w.paths(d, p, w.write, nil)
			}
		case textKey(k):
			if _, ok := m[k].(string); !ok {
				w.walk(m[k], p)
			}
		case w.cell && oldKey(k):
			// The text an edit replaces (`old_source`) is no cell's code (codeLike).
			w.cell = false
			w.walk(m[k], p)
			w.cell = true
		default:
			w.walk(m[k], p)
		}
	}
	if w.other {
		w.pairs(m, keys, at, cell, runs) // a name beside a directory path is the file in it too
	}
}

// The split paths of a tool that is not one of ownTools (red team round 52: `{"directory":
// "~/.minicode", "filename": "config.yaml"}`): a key whose last word is dir, dirname,
// directory or folder (splitDir) beside a relative path or a file's name (splitName: a
// key whose last word is name, filename or basename) names the file joined too.
var (
	splitDirWords  = []string{"dir", "dirname", "directory", "folder"}
	splitNameWords = []string{"name", "filename", "basename"}
)

// splitDir reports whether k names the directory of a split path.
func splitDir(k string) bool { return lastWordIn(k, splitDirWords, true) }

// splitName reports whether k names the file's name of a split path.
func splitName(k string) bool { return lastWordIn(k, splitNameWords, true) }

// besides returns the values of dirs under keys other than k, in key order.
func besides(dirs map[string]string, k string) []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if d != k {
			out = append(out, dirs[d])
		}
	}
	return out
}

// rootDir returns the directory the root key k with the value x names: the path of a file:
// URL (`rootUri`), x itself for a key that names a path, and for one that may name either
// a name or a path (`project_name`) x when it reads as a path (it has a slash, or starts
// with ~ or a dot).
func rootDir(k, x string) (string, bool) {
	if t := strings.ToLower(strings.TrimSpace(x)); strings.HasPrefix(t, "file:") {
		u, err := url.Parse(strings.TrimSpace(x))
		if err != nil || u.Path == "" {
			return "", false // a file: URL it cannot read is a bad view of its urlKey
		}
		return u.Path, true
	}
	if twoWords(k, []string{"project"}, []string{"name"}) || foldIn(k, []string{"projectname"}) {
		return x, strings.Contains(x, "/") || strings.HasPrefix(x, "~") || strings.HasPrefix(x, ".")
	}
	return x, true
}

// argvLike reports whether v is an argument list: a string or an array of strings.
func argvLike(v any) bool { return isStr(v) || argvList(v) }

// argvList reports whether v is an array of strings.
func argvList(v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	_, ok = stringsOf(l)
	return ok
}

// isStr reports whether v is a string.
func isStr(v any) bool { _, ok := v.(string); return ok }

// isCode reports whether the key k holds code that runs: a code key (codeKey) where
// something says code runs (runs), or one whose own name names a language (bash_code).
func isCode(k string, runs bool) bool {
	langs, ok := codeKey(k)
	return ok && (runs || len(langs) > 0)
}

// command appends the Bash view of the command line s from path p, and one of it run in
// each of cwds.
func (w *viewWalker) command(s, p string, cwds []string) {
	w.views = append(w.views, commandView(s, p))
	for _, c := range cwds {
		w.views = append(w.views, commandView("cd "+cdWord(c)+" && "+s, p))
	}
}

// cdWord returns the directory c as a shell word, its ~ left to the shell (a tool that
// expands it goes where the shell goes; one that does not fails).
func cdWord(c string) string {
	if rest, ok := strings.CutPrefix(c, "~/"); ok {
		return "~/" + shellQuote(rest)
	}
	if c == "~" {
		return c
	}
	return shellQuote(c)
}

// commandValue appends the views of the command-like value v at path p: a Bash call (and,
// for a string that is a JSON argv, the argv's), none for null, a number or a boolean (a
// flag, a count: confirm_command, max_cmds), a bad view for a shape that is no command.
func (w *viewWalker) commandValue(v any, p string, cwds []string) {
	if scalar(v) {
		return
	}
	if s, ok := commandLine(v); ok {
		w.command(s, p, cwds)
		w.valuePaths(v, p)
		if _, isString := v.(string); isString {
			w.nested(s, p, func(v any) { w.commandValue(v, p, cwds) })
		}
		return
	}
	w.views = append(w.views, badView("Bash", p, v))
}

// code appends the views of the code v at path p in each of langs (codeLines).
func (w *viewWalker) code(v any, p string, langs []string) {
	switch v := v.(type) {
	case nil:
	case string:
		for _, line := range codeLines(v, langs) {
			w.views = append(w.views, commandView(line, p))
		}
		w.valuePaths(v, p)
	default:
		w.views = append(w.views, badView("Bash", p, v))
	}
}

// cellCode appends the views of a cell's code v at path p in langs: a string is code; a
// list of strings is one cell's lines (nbformat's source, each line ending in its newline),
// or under a plural key (cells) a cell each; an object (a cell {cell_type, source}) or any
// other element is walked; a JSON text in a string is read as such too.
func (w *viewWalker) cellCode(v any, p string, langs []string, plural bool) {
	switch v := v.(type) {
	case string:
		w.code(v, p, langs)
		w.nested(v, p, func(x any) { w.cellCode(x, p, langs, plural) })
	case []any:
		if lines, ok := stringsOf(v); ok && !plural && len(lines) > 0 {
			w.code(strings.Join(lines, ""), p, langs)
			return
		}
		for i, e := range v {
			at := fmt.Sprintf("%s[%d]", p, i)
			if s, ok := e.(string); ok {
				w.code(s, at, langs)
				continue
			}
			w.walk(e, at)
		}
	case map[string]any:
		w.walk(v, p)
	}
}

// stringsOf returns the strings of l when it holds nothing else.
func stringsOf(l []any) ([]string, bool) {
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// urls appends the views of the URL-like value v at path p: a WebFetch call for a string
// and for each string of an array, none for null, a number or a boolean (Desktop
// Commander's isUrl, a crawler's max_urls), a bad view for any other shape. A file: URL of
// a tool that is not one of ownTools is a file view of its path too.
func (w *viewWalker) urls(v any, p string) {
	switch v := v.(type) {
	case nil, bool, float64:
	case string:
		w.views = append(w.views, toolView{tool: "WebFetch", input: marshalView(map[string]string{"url": v}), need: "url", from: p})
		if w.other && !urlValue(v) {
			w.valuePath(v, p) // a link's path (red team round 53: `{"link": PATH}`)
		}
		if w.other {
			w.fileURL(v, p)
			w.nested(v, p, func(v any) { w.urls(v, p) })
		}
	case []any:
		for i, e := range v {
			if _, ok := e.(string); !ok && !scalar(e) {
				w.views = append(w.views, badView("WebFetch", fmt.Sprintf("%s[%d]", p, i), e))
				continue
			}
			w.urls(e, fmt.Sprintf("%s[%d]", p, i))
		}
	default:
		w.views = append(w.views, badView("WebFetch", p, v))
	}
}

// scalar reports whether v is null, a number or a boolean: no command, URL or path.
func scalar(v any) bool {
	switch v.(type) {
	case nil, bool, float64:
		return true
	}
	return false
}

// fileURL appends the file view of the path of u at path p when u is a file: URL, as a
// WHATWG parser reads it (file:~/x is /~/x); a file: URL it cannot read is a bad view.
func (w *viewWalker) fileURL(u, p string) {
	t := strings.ToLower(strings.TrimLeft(u, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
	if !strings.HasPrefix(strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(t), "file:") {
		return
	}
	pu, err := url.Parse(strings.TrimSpace(u))
	fp := ""
	if err == nil {
		fp = pu.Path
		if pu.Opaque != "" {
			fp, err = url.PathUnescape("/" + pu.Opaque)
		}
	}
	if err != nil || fp == "" {
		w.views = append(w.views, toolView{tool: w.fileTool(w.write), from: p, bad: "a file: URL hookcore cannot read"})
		return
	}
	w.file(fp, p, w.write)
}

// paths appends the file views of the path-like value v at path p (a write when write is
// set): a string, each string of an array; an object is walked. A number or a boolean names
// no file a tool could be made to reach by it, and is left alone.
func (w *viewWalker) paths(v any, p string, write bool, cwds []string) {
	switch v := v.(type) {
	case string:
		w.path(v, p, write, cwds)
	case []any:
		for i, e := range v {
			at := fmt.Sprintf("%s[%d]", p, i)
			if s, ok := e.(string); ok {
				w.path(s, at, write, cwds)
				continue
			}
			w.walk(e, at)
		}
		if rootFirst(v) {
			// A path given as its parts from a root (red team round 53); a list of files,
			// which this key holds more often, is not joined (its join would be one more
			// view toward maxViews for every read of many files).
			for _, j := range joinParts(v) {
				w.file(j, p, write)
			}
		}
	case map[string]any:
		// A map from paths to what is done with each (`{"files": {PATH: TEXT}}`): each
		// key is a file view too, and the map is walked (its keys may be argument names).
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if k != "" {
				w.file(k, p+"."+k, write)
			}
		}
		w.walk(v, p)
	}
}

// path appends the file view of the file path s at p, and, when s is relative, of s in
// each of cwds; a path that is a URL (Desktop Commander's read_file {path, isUrl}) is a
// WebFetch view too, and the paths in a JSON list or object s holds are file views.
func (w *viewWalker) path(s, p string, write bool, cwds []string) {
	if s == "" {
		return
	}
	w.file(s, p, write)
	if !path.IsAbs(s) && s != "~" && !strings.HasPrefix(s, "~/") {
		for _, c := range cwds {
			w.file(strings.TrimSuffix(c, "/")+"/"+s, p, write)
		}
	}
	if urlValue(s) {
		w.urls(s, p)
	}
	w.nested(s, p, func(v any) { w.paths(v, p, write, cwds) })
}

// file appends the file view of the path s from p: a Write call {file_path} (fired as
// Edit too) for a write, else a Read call.
//
// For a tool that is not one of ownTools, a path that joins several paths is each of them
// too (red team round 54: `{"paths": "~/.claude/settings.json,/tmp/x"}` was one path no rule
// named, a mount `/tmp/x:~/.claude:rw` another): each piece of it split at commas, colons,
// semicolons and line breaks that starts as a path does (listPieces) is a view of its own.
func (w *viewWalker) file(s, p string, write bool) {
	w.views = append(w.views, toolView{tool: w.fileTool(write), input: marshalView(map[string]string{"file_path": s}), need: "file_path", from: p})
	if w.other {
		for _, piece := range listPieces(strings.TrimSpace(s)) {
			w.views = append(w.views, toolView{tool: w.fileTool(write), input: marshalView(map[string]string{"file_path": piece}), need: "file_path", from: p})
		}
	}
}

// fileTool is the tool of a file view.
func (w *viewWalker) fileTool(write bool) string {
	if write {
		return "Write"
	}
	return "Read"
}

// text reads a string argument at p under no key the views read, of a tool that is not one
// of ownTools: a URL (urlValue) is a WebFetch view, a path a file view (valuePath), a string
// that may be code in a call about cells a cell's code (codeLike; red team round 53: a
// cell under `payload`), and a JSON object or array is read as nested arguments (nested).
func (w *viewWalker) text(s, p string) {
	if !w.other {
		return
	}
	if urlValue(s) {
		w.urls(s, p)
		return
	}
	w.valuePath(s, p)
	if w.cell && codeLike(s) {
		w.code(s, p, w.langs)
	}
	w.nested(s, p, func(v any) { w.walk(v, p) })
}

// nested calls walk with the JSON object or array the string s at p holds, for a tool that
// is not one of ownTools: a gateway's `{"arguments": "{\"command\": ...}"}`, a list of
// paths or an argv sent as a JSON string. It reads up to maxNest strings deep; a JSON text
// hook.CheckToolInput rejects (duplicate keys, keys equal under case folding) or one deeper
// is a bad view of every view tool, which fails closed. Text that is not valid JSON is no
// JSON to it (JSON5 and YAML readings are not tried).
func (w *viewWalker) nested(s, p string, walk func(any)) {
	t := strings.TrimLeft(s, " \t\r\n\ufeff") // a UTF-8 BOM too: JSON.parse-less readers strip it
	if !w.other || t == "" || t[0] != '{' && t[0] != '[' || !json.Valid([]byte(t)) {
		return
	}
	if err := hook.CheckToolInput([]byte(t)); err != nil {
		w.views = append(w.views, toolView{tool: "*", from: p, bad: "a JSON text that " + err.Error()})
		return
	}
	if w.nest >= maxNest {
		w.views = append(w.views, toolView{tool: "*", from: p, bad: fmt.Sprintf("a JSON text in a string more than %d deep", maxNest)})
		return
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return
	}
	w.nest++
	walk(v)
	w.nest--
}

// specialSchemes are the WHATWG URL standard's special schemes: a URL of one has a host
// however its slashes are written (http:evil.com, https:\\evil.com).
var specialSchemes = []string{"http", "https", "ws", "wss", "ftp", "file"}

// urlValue reports whether s is an absolute URL with a host, as the WHATWG parser the agents
// share reads one (after leading and trailing C0 controls and spaces, with tabs and newlines
// removed): a special scheme and anything after it, or another scheme followed by "//"
// and a host (ssh://, postgres://). A string argument of a tool that is not one of
// ownTools that is one is a WebFetch view, whatever its key (red team round 50: a browser
// tool's `target`, a fetch tool's `query`).
func urlValue(s string) bool {
	t := strings.Trim(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	if strings.ContainsAny(t, "\t\n\r") {
		t = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(t)
	}
	i := 0
	for i < len(t) && (isLower(t[i]|0x20) || i > 0 && (isDigit(t[i]) || t[i] == '+' || t[i] == '-' || t[i] == '.')) {
		i++
	}
	if i == 0 || i == len(t) || t[i] != ':' {
		return false
	}
	if foldIn(t[:i], specialSchemes) {
		return true
	}
	rest := t[i+1:]
	return strings.HasPrefix(rest, "//") && len(rest) > 2 && rest[2] != '/'
}

package hookcore

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
)

// Codex edits files with its apply_patch tool (openai/codex PR #18391, in codex-cli 0.171.0):
// PreToolUse and PermissionRequest come with tool_name "apply_patch" and the whole patch text
// in tool_input.command, for the JSON and the freeform form of the tool alike. Its grammar
// (codex-rs/apply-patch/src/parser.rs):
//
//	*** Begin Patch
//	*** Add File: PATH        then the file's lines, each after a "+"
//	*** Delete File: PATH
//	*** Update File: PATH     then, optionally, "*** Move to: NEWPATH", then its changes
//	*** End Patch
//
// A path is relative to the session's cwd or absolute. The same text reaches Codex's shell
// tool as a heredoc (`apply_patch <<'EOF'` ... `EOF`, optionally after `cd DIR &&`), which
// Codex takes out of the shell and applies itself, after its PreToolUse of tool_name "Bash".
// To the guards each file a patch writes is a Write call (fired as Edit too; docs/decisions.md
// "Codex apply_patch as Write and Edit (stop 33)"), and a patch that hookcore cannot read
// is a write of an unknown file.

// patchTool is Codex's tool name for apply_patch.
const patchTool = "apply_patch"

// patchFile is one file a patch writes.
type patchFile struct {
	op      string // "add", "update", "delete", or "move" (an update's Move to)
	path    string // as the patch spells it
	content string // add: the new file's content
}

// The markers of the apply_patch grammar.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchDelete = "*** Delete File: "
	patchUpdate = "*** Update File: "
	patchMove   = "*** Move to: "
	patchEOF    = "*** End of File"
)

// parsePatch returns the files the apply_patch text writes, in order, as Codex's lenient
// parser reads it (the text trimmed, its marker lines trimmed; the text may be wrapped in a
// `<<'EOF'` ... `EOF` heredoc); ok is false for a text Codex would reject. The paths are as
// written: checking them is patchViews'.
func parsePatch(text string) (files []patchFile, ok bool) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r") // Rust's str::lines
	}
	body, ok := patchBody(lines)
	if !ok {
		first, last := lines[0], lines[len(lines)-1]
		if (first == "<<EOF" || first == "<<'EOF'" || first == `<<"EOF"`) && strings.HasSuffix(last, "EOF") && len(lines) >= 4 {
			body, ok = patchBody(lines[1 : len(lines)-1])
		}
	}
	if !ok {
		return nil, false
	}
	for len(body) > 0 {
		fs, n, ok := patchHunk(body)
		if !ok {
			return nil, false
		}
		files = append(files, fs...)
		body = body[n:]
	}
	return files, true
}

// patchBody returns the lines between the begin and end markers.
func patchBody(lines []string) ([]string, bool) {
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != patchBegin || strings.TrimSpace(lines[len(lines)-1]) != patchEnd {
		return nil, false
	}
	return lines[1 : len(lines)-1], true
}

// patchHunk reads the hunk at the start of lines: the files it writes and how many lines it
// takes.
func patchHunk(lines []string) ([]patchFile, int, bool) {
	head := strings.TrimSpace(lines[0])
	if p, ok := strings.CutPrefix(head, patchAdd); ok {
		n := 1
		var content strings.Builder
		for _, l := range lines[1:] {
			add, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			content.WriteString(add)
			content.WriteByte('\n')
			n++
		}
		return []patchFile{{op: "add", path: p, content: content.String()}}, n, true
	}
	if p, ok := strings.CutPrefix(head, patchDelete); ok {
		return []patchFile{{op: "delete", path: p}}, 1, true
	}
	p, ok := strings.CutPrefix(head, patchUpdate)
	if !ok {
		return nil, 0, false // not a hunk header
	}
	files := []patchFile{{op: "update", path: p}}
	n := 1
	if len(lines) > 1 {
		if to, ok := strings.CutPrefix(lines[1], patchMove); ok {
			files = append(files, patchFile{op: "move", path: to})
			n++
		}
	}
	chunks := 0
	for n < len(lines) {
		l := lines[n]
		if strings.TrimSpace(l) == "" {
			n++
			continue
		}
		if strings.HasPrefix(l, "*") {
			break
		}
		c, ok := patchChunk(lines[n:], chunks == 0)
		if !ok {
			return nil, 0, false
		}
		chunks++
		n += c
	}
	return files, n, chunks > 0 // an update with no change is rejected
}

// patchChunk returns how many lines the change at the start of lines takes: an optional "@@"
// line (required but for the first change of a file), then lines that start with " ", "+"
// or "-", or are empty, up to one that does not or past an "*** End of File".
func patchChunk(lines []string, first bool) (int, bool) {
	start := 0
	if lines[0] == "@@" || strings.HasPrefix(lines[0], "@@ ") {
		start = 1
	} else if !first {
		return 0, false
	}
	n := 0
	for _, l := range lines[start:] {
		if l == patchEOF {
			n++
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			break
		}
		n++
	}
	return start + n, n > 0
}

// patchViews returns the views of the apply_patch text: a Write view of each file it writes
// (an added file's with its content), relative to dir when dir is not empty (a shell's
// `cd DIR &&`), from p; a patch that does not parse, or a path that is empty, holds a NUL or
// a ".." part, is a Write view of an unknown file instead (unknownFileView).
func patchViews(text, dir, p string) []toolView {
	files, ok := parsePatch(text)
	if !ok {
		return []toolView{unknownFileView(p)}
	}
	var views []toolView
	seen := map[string]bool{}
	for _, f := range files {
		vs := []toolView{unknownFileView(p)}
		if paths, ok := patchPaths(f.path, dir); ok {
			vs = vs[:0]
			for _, path := range paths {
				in := map[string]string{"file_path": path}
				if f.op == "add" {
					in["content"] = f.content
				}
				vs = append(vs, toolView{tool: "Write", input: marshalView(in), need: "file_path", from: p})
			}
		}
		for _, v := range vs {
			if !seen[string(v.input)] {
				seen[string(v.input)] = true
				views = append(views, v)
			}
		}
	}
	return views
}

// patchPaths returns the paths of a file a patch names, s, as the guards read them: absolute
// as written, relative as written or joined to dir. A path "~" or "~/..." is two: the home's
// (Codex expands them since openai/codex's AbsolutePathBuf::resolve_path_against_base,
// maybe_expand_home_directory; red team round 62: ~/.bashrc passed every home-anchored
// rule) and "./~..." under dir or the cwd (older Codex joined them to the cwd); another
// "~" path is "./~..." only. ok is false for an empty path, one with a NUL byte, or one
// with a ".." part: Codex writes where the kernel resolves it, which its text alone does not
// say (through a symlink).
func patchPaths(s, dir string) ([]string, bool) {
	home := ""
	if s == "~" || strings.HasPrefix(s, "~/") {
		home = path.Clean(s) // Codex drops every '/' after "~/" and the "." parts (red team round 63: ~//.ssh/x)
	}
	if dir != "" && !strings.HasPrefix(s, "/") {
		s = strings.TrimSuffix(dir, "/") + "/" + s
	}
	if !plainPath(s) {
		return nil, false
	}
	if strings.HasPrefix(s, "~") {
		s = "./" + s
	}
	if home != "" {
		return []string{home, s}, true
	}
	return []string{s}, true
}

// unknownFileView is a Write view of a file hookcore cannot name, from p: its file_path is
// null, a path no rule can judge (match.Subject.pathValue), so every deny path rule and
// condition of a Write or Edit guard matches it, and no permit allows it.
func unknownFileView(p string) toolView {
	return toolView{tool: "Write", input: json.RawMessage(`{"file_path":null}`), need: "file_path", from: p}
}

// patchCallViews returns the views of a call of Codex's apply_patch tool with the decoded
// input m: the patch in its command (patchViews), or in input (the tool's own argument) when
// there is no command. A command that is not a string, or both keys, is a write of an unknown
// file; the other arguments, which Codex does not send, are walked as any tool's. A
// `workdir` (the key of Codex's shell tools) is the directory the patch's relative paths
// are taken in when it is a plain path (no "~", no ".." part, no NUL); any other value
// makes the patch a write of an unknown file (red team round 66: a patch adding
// settings.json with workdir ~/.claude was judged as the project's settings.json).
func patchCallViews(m map[string]any, cwd string) []toolView {
	text, ok := m["command"].(string)
	if !ok {
		// A Codex that sends the tool's own argument name.
		text, ok = m["input"].(string)
	}
	dir := ""
	if w, has := m["workdir"]; has {
		ws, isString := w.(string)
		if !isString || !plainWorkdir(ws) {
			ok = false
		}
		dir = ws
	}
	views := []toolView{unknownFileView("command")}
	if ok {
		views = patchViews(text, dir, "command")
	}
	if m["command"] != nil && m["input"] != nil {
		views = append(views, unknownFileView("input")) // two patches: which one runs?
	}
	rest := make(map[string]any, len(m))
	for k, v := range m {
		if k != "command" && k != "input" && k != "workdir" {
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		views = append(views, walkViews(patchTool, rest, cwd)...)
	}
	return views
}

// plainWorkdir reports whether the workdir d names its directory as written: a plainPath
// with no "~" (whose expansion the input does not say).
func plainWorkdir(d string) bool {
	return !strings.HasPrefix(d, "~") && plainPath(d)
}

// plainPath reports whether the path s of a patch or its workdir is one its text decides:
// not blank, no NUL byte, no ".." part (Codex writes where the kernel resolves it, which
// through a symlink its text alone does not say).
func plainPath(s string) bool {
	if strings.TrimSpace(s) == "" || strings.IndexByte(s, 0) >= 0 {
		return false
	}
	for part := range strings.SplitSeq(s, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// shellPatchViews returns the views of the apply_patch invocations in the shell command
// line cmd (a Bash call). Codex takes a line that is nothing but `apply_patch <<'EOF'` and
// its heredoc, or that after `cd DIR &&`, out of the shell and applies the patch itself
// (codex-rs/apply-patch/src/invocation.rs), and its shells have apply_patch on their PATH.
// A line that names apply_patch (or applypatch) as a word once, in one of those two shapes,
// has the views of its patch, relative to DIR; any other line that names it is a write of an
// unknown file.
func shellPatchViews(cmd string) []toolView {
	switch patchCommandWords(cmd) {
	case 0:
		return nil
	case 1:
		if body, dir, ok := patchHeredoc(cmd); ok {
			return patchViews(body, dir, "command")
		}
		if body, dir, ok := patchQuoted(cmd); ok {
			return patchViews(body, dir, "command")
		}
	}
	return []toolView{unknownFileView("command")}
}

// argvPatchViews returns the views of the apply_patch invocations in a Bash call whose
// command is an argv array (Codex's former shell tool; red team round 65: these were not
// read at all). Codex applies [apply_patch, PATCH] (applypatch, or a path ending in either)
// itself, and takes [bash|zsh|sh, -lc|-c, SCRIPT] as the line SCRIPT (shellPatchViews;
// codex-rs/apply-patch/src/invocation.rs). Any other array with a word that names
// apply_patch is a write of an unknown file, as a string command that does; an array with a
// word that is not a string is one too when the rest names apply_patch.
func argvPatchViews(raw json.RawMessage) []toolView {
	var words []json.RawMessage
	if json.Unmarshal(raw, &words) != nil {
		return nil
	}
	argv := make([]string, 0, len(words))
	named, odd := 0, false
	for _, w := range words {
		var s string
		if json.Unmarshal(w, &s) != nil {
			odd = true
			continue
		}
		named += patchCommandWords(s)
		argv = append(argv, s)
	}
	switch {
	case named == 0:
		return nil
	case odd:
	case len(argv) == 2 && (path.Base(argv[0]) == "apply_patch" || path.Base(argv[0]) == "applypatch"):
		return patchViews(argv[1], "", "command")
	case len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c"):
		switch path.Base(argv[0]) {
		case "bash", "sh", "zsh":
			return shellPatchViews(argv[2])
		}
	}
	return []toolView{unknownFileView("command")}
}

// patchQuoted returns the patch and the DIR it is applied in when the command line cmd is
// `[cd DIR && ]apply_patch 'PATCH'`: the patch as one argument in plain single quotes,
// with no single quote inside, which Codex's apply_patch applies as it is.
func patchQuoted(cmd string) (body, dir string, ok bool) {
	arg, dir, isPatch := patchHead(strings.TrimSpace(cmd))
	if !isPatch || arg == "" || (arg[0] != ' ' && arg[0] != '\t') {
		return "", "", false
	}
	arg = strings.TrimLeft(arg, " \t")
	if len(arg) < 2 || arg[0] != '\'' || arg[len(arg)-1] != '\'' || strings.Contains(arg[1:len(arg)-1], "'") {
		return "", "", false
	}
	return arg[1 : len(arg)-1], dir, true
}

// patchHead reads the head of a command line that applies a patch, `[cd DIR && ]apply_patch`
// (or applypatch) and what follows: it returns the text after the program's name, DIR (""
// without a cd), and whether head has that shape (DIR one plain word, plainDir).
func patchHead(head string) (after, dir string, ok bool) {
	if rest, isCd := strings.CutPrefix(head, "cd "); isCd {
		d, tail, found := strings.Cut(strings.TrimSpace(rest), " && ")
		if !found || !plainDir(d) {
			return "", "", false
		}
		dir, head = strings.Trim(d, "'"), strings.TrimSpace(tail)
	}
	name := "apply_patch"
	if strings.HasPrefix(head, "applypatch") {
		name = "applypatch"
	}
	after, ok = strings.CutPrefix(head, name)
	return after, dir, ok
}

// patchHeredoc returns the heredoc body of the command line cmd and the DIR it runs in when
// cmd is `[cd DIR && ]apply_patch <<WORD`, its body, and WORD (quoted or not) alone on the
// last line.
func patchHeredoc(cmd string) (body, dir string, ok bool) {
	lines := strings.Split(strings.TrimSpace(cmd), "\n")
	if len(lines) < 3 {
		return "", "", false
	}
	redir, dir, isPatch := patchHead(strings.TrimSpace(lines[0]))
	word, isHeredoc := strings.CutPrefix(strings.TrimSpace(redir), "<<")
	if !isPatch || !isHeredoc {
		return "", "", false
	}
	word = strings.TrimSpace(word)
	if len(word) >= 2 && (word[0] == '\'' || word[0] == '"') && word[len(word)-1] == word[0] {
		word = word[1 : len(word)-1]
	}
	if word == "" || !plainWord(word) || strings.TrimSpace(lines[len(lines)-1]) != word {
		return "", "", false
	}
	return strings.Join(lines[1:len(lines)-1], "\n"), dir, true
}

// plainDir reports whether the cd argument d is one word bash leaves as it is, or one such
// word in single quotes: its text is the directory.
func plainDir(d string) bool {
	if len(d) >= 2 && d[0] == '\'' && d[len(d)-1] == '\'' {
		return !strings.Contains(d[1:len(d)-1], "'")
	}
	return d != "" && !strings.HasPrefix(d, "~") && plainWord(d)
}

// plainWord reports whether s has no character bash would expand, quote or split at.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_' || c == '-' || c == '.' || c == '/' || c == '+' || c == ',' || c == ':' || c == '@' || c == '%':
		default:
			return false
		}
	}
	return true
}

// patchCommandWords counts the words apply_patch and applypatch in the command line cmd,
// where a word starts and ends: at the line's ends, a blank, an operator, a quote or a "/";
// in a line that does not spell "patch", with its quotes and backslashes taken out.
func patchCommandWords(cmd string) int {
	if !strings.Contains(cmd, "patch") && strings.ContainsAny(cmd, "'\"\\") {
		// apply_pa''tch, "apply_"patch, apply_pat\ch: bash removes the quotes.
		cmd = strings.Map(func(r rune) rune {
			if r == '\'' || r == '"' || r == '\\' {
				return -1
			}
			return r
		}, cmd)
	}
	n := 0
	for _, name := range []string{"apply_patch", "applypatch"} {
		for at := 0; ; {
			i := strings.Index(cmd[at:], name)
			if i < 0 {
				break
			}
			start, end := at+i, at+i+len(name)
			if (start == 0 || wordEdge(cmd[start-1])) && (end == len(cmd) || wordEdge(cmd[end])) {
				n++
			}
			at = end
		}
	}
	return n
}

// wordEdge reports whether c may stand next to a command word.
func wordEdge(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>', '`', '"', '\'', '/', '$', '{', '}', '=', '\\':
		return true
	}
	return false
}

// bashViews returns the views of a Bash call with the tool input raw: the files of the
// apply_patch invocations in its command (shellPatchViews). A command that cannot spell
// apply_patch (no "patch", no backslash, no single quote) is not decoded.
func bashViews(raw json.RawMessage) []toolView {
	if !bytes.Contains(raw, []byte("patch")) && !bytes.ContainsAny(raw, `\'`) {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	cmd, ok := stringAt(m, "command")
	if !ok {
		return argvPatchViews(m["command"])
	}
	return shellPatchViews(cmd)
}

package hookcore

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Paths by value (red team round 53: an MCP tool's move under `origin` and
// `target_location`, a link under `link` and `pointing_to`, an extraction under `extract_to`,
// paths in an `args` list, split under `parent` and `base` or in a `path_parts` list, passed
// every Write guard; docs/decisions.md, "Red team round 53 fixed"). The key lists name the
// servers' schemas one round at a time; the value the model writes is what a tool opens. So
// in the arguments of a tool that is not one of ownTools, a string under any key but the text
// a tool writes (textKey), a command's, a program's and code's too, is a file view when it
// reads as a path (pathForm) or names a file or directory in the call's cwd
// (viewWalker.exists), and so is an object's key that reads as a path; a list of strings is
// also the path its parts join to (joinParts), and a name beside a directory path in one
// object is also the file in it (viewWalker.pairs). The key lists still decide Read or
// Write, commands, code and URLs.
const (
	// maxLookups is how many distinct names one call's arguments may have looked up in
	// the cwd (one lstat each); past it the call's file views fail closed.
	maxLookups = 256
	// maxPairs is how many directory and name pairs of one call are joined; past it the
	// call's file views fail closed.
	maxPairs = 2 * maxViews
	// maxPathLen is the longest string read as a path by value: Linux's PATH_MAX.
	maxPathLen = 4096
)

// pathForm reports whether s (trimmed of white space by the caller) reads as a file path by
// its form: it starts with /, ~, ./ or ../ (or is . or ..), or it is a relative path with a
// slash and no white space or control byte; never a URL (urlValue, or a scheme and ://),
// never longer than maxPathLen. A search query ("how to use grep") is none; "a/b" is (a
// write of ./a/b to the guards: fail closed).
func pathForm(s string) bool {
	if s == "" || len(s) > maxPathLen {
		return false
	}
	return rootedForm(s) || strings.Contains(s, "/") && !hasSpace(s) && !urlValue(s) && !schemeSlashes(s)
}

// rootedForm reports whether s starts as a path does and nothing else (no URL starts so):
// with /, ~, ./ or ../, or is . or ..
func rootedForm(s string) bool {
	return s != "" && (s[0] == '/' || s[0] == '~' || s == "." || s == ".." ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../"))
}

// bareName reports whether s may name a file in the cwd: no slash, no white space or
// control byte, at most 255 bytes (NAME_MAX), not a URL.
func bareName(s string) bool {
	return s != "" && len(s) <= 255 && !strings.Contains(s, "/") && !hasSpace(s) && !urlValue(s)
}

// hasSpace reports whether s holds an ASCII space or control byte.
func hasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f {
			return true
		}
	}
	return false
}

// schemeSlashes reports whether s starts with a URL scheme and "://".
func schemeSlashes(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j] | 0x20
		if !(isLower(c) || j > 0 && (isDigit(s[j]) || s[j] == '+' || s[j] == '-' || s[j] == '.')) {
			return false
		}
	}
	return true
}

// valuePath appends the file view of the string s at p when it reads as a path by value: its
// form (pathForm) or a name in the cwd that exists, after trimming white space (a tool may
// trim it; one that does not opens a name that starts with a space, which no rule protects).
func (w *viewWalker) valuePath(s, p string) {
	t := strings.TrimSpace(s)
	switch {
	case pathForm(t):
		w.file(t, p, w.write)
	case bareName(t):
		if _, ok := w.exists(t, p); ok {
			w.file(t, p, w.write)
		}
	}
}

// listPieces returns the pieces of t, split at ',', ':', ';' and line breaks and trimmed of
// white space, that start as a path does (rootedForm) and are not t itself; none for a URL
// (urlValue, or a scheme and ://) or text with no separator.
func listPieces(t string) []string {
	if !strings.ContainsAny(t, ",:;\n\r") || urlValue(t) || schemeSlashes(t) {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ':' || r == ';' || r == '\n' || r == '\r' }) {
		if f = strings.TrimSpace(f); f != t && rootedForm(f) && len(f) <= maxPathLen && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// valuePaths appends, for a tool that is not one of ownTools, the file views of a command's,
// a program's or code's string v at path p that reads as a path (valuePath), or of each
// string of an argv list v: a key the views read as something else may still be a path to
// the tool (a `script` saved, an `exec` copied); a shell rule sees the Bash view, a file rule
// this one.
func (w *viewWalker) valuePaths(v any, p string) {
	if !w.other {
		return
	}
	switch v := v.(type) {
	case string:
		w.valuePath(v, p)
	case []any:
		for i, e := range v {
			if s, ok := e.(string); ok {
				w.valuePath(s, fmt.Sprintf("%s[%d]", p, i))
			}
		}
	}
}

// exists looks the name or relative path s up in the call's cwd (an lstat, once per string
// and call) and returns its mode and whether it exists. Past maxLookups strings it looks up
// no more and appends a bad file view from p, which fails the call closed when a file hook
// may match.
func (w *viewWalker) exists(s, p string) (fs.FileMode, bool) {
	if m, ok := w.looked[s]; ok {
		return m.mode, m.ok
	}
	if len(w.looked) >= maxLookups {
		if !w.tooMany {
			w.tooMany = true
			w.views = append(w.views, toolView{tool: w.fileTool(w.write), from: p, bad: "one name too many to look up in the cwd"})
		}
		return 0, false
	}
	if w.looked == nil {
		w.looked = map[string]lookup{}
	}
	var l lookup
	if fi, err := os.Lstat(filepath.Join(w.cwd, s)); err == nil {
		l = lookup{fi.Mode(), true}
	}
	w.looked[s] = l
	return l.mode, l.ok
}

// lookup is what exists found for a name.
type lookup struct {
	mode fs.FileMode
	ok   bool
}

// joinParts returns the paths the list of strings l joins to, when it is a list of two or
// more parts with no white space: the parts joined with slashes (Node's path.join), and, when
// a later part is absolute or starts with ~, the parts from the last such one (Python's
// os.path.join, Node's path.resolve); none for a join that does not read as a path.
func joinParts(l []any) []string {
	parts, ok := stringsOf(l)
	if !ok || len(parts) < 2 {
		return nil
	}
	from, n := 0, 0
	for i, s := range parts {
		if hasSpace(s) {
			return nil
		}
		if s != "" {
			n++
		}
		if i > 0 && (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~")) {
			from = i
		}
	}
	if n < 2 {
		return nil
	}
	var out []string
	if j := joinSlash(parts); pathForm(j) {
		out = append(out, j)
	}
	if from > 0 {
		if j := joinSlash(parts[from:]); pathForm(j) && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	return out
}

// rootFirst reports whether the list l starts with a root a path's parts are joined to: `/`,
// `~`, `~user`, or a string that ends in a slash.
func rootFirst(l []any) bool {
	if len(l) < 2 {
		return false
	}
	s, _ := l[0].(string)
	s = strings.TrimSpace(s)
	return s != "" && (strings.HasSuffix(s, "/") || s[0] == '~' && !strings.Contains(s, "/"))
}

// joinSlash joins the non-empty parts with one slash between each two, as written: no
// cleaning (`~/..` is the home's parent to a tool, which path.Clean would drop).
func joinSlash(parts []string) string {
	var b strings.Builder
	for _, s := range parts {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			cur := b.String()
			b.Reset()
			b.WriteString(strings.TrimRight(cur, "/"))
			b.WriteByte('/')
			s = strings.TrimLeft(s, "/")
		}
		b.WriteString(s)
	}
	return b.String()
}

// pairs appends, for the object m of a tool that is not one of ownTools, the file view of
// each name joined to each directory beside it (red team round 53: `{"parent":
// "~/.minicode", "base": "config.yaml"}`): a directory is a string that starts as a path does
// (rootedForm), or a name or relative path that is a directory in the cwd (so a branch
// `fix/parser` or a label `kind/bug` pairs with nothing); a name is a relative string with
// no white space under another key (`config.yaml`, `hooks/pre-commit`). Only the strings
// under keys that may hold a path are paired (pairKey: not a command, code, a language or
// text). Past maxPairs joins in a call, a bad file view fails it closed.
func (w *viewWalker) pairs(m map[string]any, keys []string, at string, cell, runs bool) {
	// The values first, the keys' words (which allocate) only for an object that may pair.
	var buf [8]string
	cand := buf[:0]
	for _, k := range keys {
		if s, ok := m[k].(string); ok && nameValue(strings.TrimSpace(s)) || ok && pathForm(strings.TrimSpace(s)) {
			cand = append(cand, k)
		}
	}
	if len(cand) < 2 {
		return
	}
	var dirs, names []string
	for _, k := range cand {
		if !pairKey(k, cell, runs) {
			continue
		}
		t := strings.TrimSpace(m[k].(string))
		if rootedForm(t) || (bareName(t) || pathForm(t)) && w.isDir(t, at) {
			dirs = append(dirs, k)
		}
		if nameValue(t) {
			names = append(names, k)
		}
	}
	for _, d := range dirs {
		for _, n := range names {
			if d == n {
				continue
			}
			if w.joins >= maxPairs {
				if w.joins == maxPairs {
					w.joins++ // once: the bad view blocks the call
					w.views = append(w.views, toolView{tool: w.fileTool(w.write), from: joinAt(at, n), bad: "one directory and name pair too many to join"})
				}
				return
			}
			w.joins++
			w.file(joinSlash([]string{strings.TrimSpace(m[d].(string)), strings.TrimSpace(m[n].(string))}), joinAt(at, n), w.write)
		}
	}
}

// nameValue reports whether t may be a name or a relative path that pairs joins to a
// directory: not absolute or under ~, no white space, not a URL.
func nameValue(t string) bool {
	return t != "" && t[0] != '/' && t[0] != '~' && len(t) <= maxPathLen && !hasSpace(t) && !urlValue(t) && !schemeSlashes(t)
}

// isDir reports whether the name or relative path s is a directory in the cwd (exists).
func (w *viewWalker) isDir(s, p string) bool {
	m, ok := w.exists(s, p)
	return ok && m.IsDir()
}

// joinAt returns the path of the key k in the object at path at.
func joinAt(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// pairKey reports whether a string under the key k may be a directory or a name that pairs
// joins: not a command, program, code, language or text key, nor a cell's code in a call
// about cells.
func pairKey(k string, cell, runs bool) bool {
	_, code := codeKey(k)
	return !commandKey(k) && !commandsKey(k) && !foldIn(k, programKeys) && !code && !langKey(k) && !textKey(k) &&
		!cellCodeKey(k, cell, runs) && !strings.EqualFold(k, "run")
}

// codeLike reports whether the string s, in a call about cells, may be a cell's code: it
// holds a byte no file name or identifier-like word holds (white space, !, %, (, =, ;, a
// quote...). A bare word (`code`, `markdown`, `a.ipynb`) is none.
func codeLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLower(c|0x20) || isDigit(c) || strings.IndexByte("_.-/~:@+,", c) >= 0) {
			return true
		}
	}
	return false
}

package match

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Read rules also read the calls that read files without a Read: searches (Grep, Glob, LS)
// and Gemini CLI's read_many_files, which the bridge names Read (docs/decisions.md, "Read
// rules and searches (stop 29)").
//
// A search names its files by a directory or file (its root: Grep's and Glob's `path`,
// Gemini CLI's `dir_path`; the working directory when it has none) and, for Grep and Glob,
// a glob under it. Claude Code 2.1.332 denies a search whose root its Read rule denies (a
// file, or a directory the rule names) and runs a wider one, leaving the denied files out of
// the results; a hook cannot leave them out, so a search is matched by its root, and by a
// glob that names a path the rule names: one that can match it and spells at least one byte
// of each name the rule spells (globsMeet, written), so that Grep's `glob: ".env"` and
// `".e*"` match Read(**/.env) while a search of the whole project, `*` or `**/*.go` does
// not.

// The arguments of a search: its root, and its globs (Claude Code's Grep `glob`; Gemini
// CLI's grep_search `include_pattern`, `include` before 0.61.0; Glob's `pattern`).
var (
	searchRootArgs = []string{"path", "dir_path"}
	lsRootArgs     = []string{"path", "dir_path", "file_path"}
	grepGlobArgs   = []string{"glob", "include_pattern", "include"}
	globGlobArgs   = []string{"pattern"}
)

// readManyArgs are read_many_files' lists of files and globs to read: `include` (Gemini CLI
// 0.61.0), and `paths` with `include` before it.
var readManyArgs = []string{"paths", "include"}

// searchArgs returns the root and glob arguments of the search tool, ok false for a tool
// that is not one. grep says the globs are ripgrep's (split at spaces and commas, "!x"
// excludes).
func searchArgs(tool string) (roots, globs []string, grep, ok bool) {
	switch {
	case strings.EqualFold(tool, "Grep"):
		return searchRootArgs, grepGlobArgs, true, true
	case strings.EqualFold(tool, "Glob"):
		return searchRootArgs, globGlobArgs, false, true
	case strings.EqualFold(tool, "LS"):
		return lsRootArgs, nil, false, true
	}
	return nil, nil, false, false
}

// matchSearch reports whether the Read rule r matches the search s (deny semantics): a root
// the rule matches as a path (matchForms: any spelling, a hard link), or a glob under a
// root that names a path the rule names (globNames); a search with no glob is one of "**".
// An argument that is not a string, or holds a NUL byte, matches; so does a glob with a
// ".." component or one too large to read.
func (r *rule) matchSearch(s *Subject, roots, globs []string, grep bool) bool {
	var bases []string
	for _, k := range roots {
		v, present, odd := s.pathValue(k)
		switch {
		case odd:
			return true
		case !present:
			continue
		case r.matchForms(s, v):
			return true
		}
		bases = append(bases, v)
	}
	if len(bases) == 0 {
		// No root: the search runs in the working directory (Claude Code's Grep and Glob
		// search the session's cwd; Gemini CLI's the workspace).
		base := s.cwd
		if base == "" {
			base = s.root
		}
		if base != "" && r.matchForms(s, base) {
			return true
		}
		bases = append(bases, base)
	}
	var names []string
	for _, k := range globs {
		v, present, odd := s.pathValue(k)
		if odd {
			return true
		}
		if present {
			names = append(names, searchGlobs(v, grep)...)
		}
	}
	if len(names) == 0 {
		// No glob: every file below the root, nothing spelled. It names what a rule that
		// spells no name denies (Read(./**) denies a search of the project).
		names = append(names, "**")
	}
	for _, g := range names {
		for _, b := range bases {
			if r.globNames(s, b, g, true) {
				return true
			}
		}
	}
	return false
}

// searchGlobs splits the glob argument v as the tool reads it. Claude Code's Grep splits its
// `glob` at white space and then, in a part without braces, at commas, and passes each to
// ripgrep, for which "!x" excludes (it only narrows the search: skipped). Other tools take
// v whole.
func searchGlobs(v string, grep bool) []string {
	if !grep {
		return []string{v}
	}
	var out []string
	for _, f := range strings.Fields(v) {
		parts := []string{f}
		if !strings.Contains(f, "{") || !strings.Contains(f, "}") {
			parts = strings.Split(f, ",")
		}
		for _, p := range parts {
			if p != "" && (p[0] != '!' || strings.HasPrefix(p, "!(")) {
				out = append(out, p)
			}
		}
	}
	return out
}

// matchReadMany reports whether the Read rule r matches a read of many files (Gemini CLI's
// read_many_files: `paths` and `include`, lists of paths and globs relative to the
// workspace), deny semantics: an entry that is not a string matches, as does one the rule
// matches as a path (matchForms), and a glob that can name a file the rule's pattern
// matches (globsMeet, any path: `**/*` and `src/**` can name .env) or that spells a
// directory the rule names and reaches inside it (written). An entry that ends in '/', or
// is a path to an existing directory, also names the files below it (`docs/` is docs/**),
// as the older read_many_files read a directory. A call without these arguments does not
// match.
func (r *rule) matchReadMany(s *Subject) bool {
	args, _ := s.decodedArgs()
	m, _ := args.(map[string]any)
	base := s.cwd
	if base == "" {
		base = s.root
	}
	for _, k := range readManyArgs {
		x, present := m[k]
		if !present {
			continue
		}
		list, isList := x.([]any)
		if !isList {
			list = []any{x}
		}
		for _, e := range list {
			g, isString := e.(string)
			if !isString || strings.IndexByte(g, 0) >= 0 {
				return true
			}
			dir := strings.HasSuffix(g, "/")
			g = strings.TrimRight(g, "/")
			if g == "" {
				continue
			}
			if !hasGlobMeta(g) {
				if r.matchForms(s, g) {
					return true
				}
				dir = dir || s.isDir(g)
			}
			if r.globNames(s, base, g, false) || dir && r.globNames(s, base, g+"/**", false) {
				return true
			}
		}
	}
	return false
}

// isDir reports whether the path v, relative to the working directory (else the root),
// is an existing directory in one of its spellings.
func (s *Subject) isDir(v string) bool {
	for _, f := range s.forms(v, s.root).forms {
		if fi, err := os.Stat(filepath.FromSlash(f)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// hasReadMany reports whether the call has read_many_files' arguments.
func (s *Subject) hasReadMany() bool {
	args, _ := s.decodedArgs()
	m, _ := args.(map[string]any)
	for _, k := range readManyArgs {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// hasGlobMeta reports whether g has a byte a glob gives a meaning.
func hasGlobMeta(g string) bool { return strings.ContainsAny(g, `*?[]{}\`) }

// globNames reports whether the glob g that a call gives under the directory base names a
// path the Read rule r names. For a search (search true) g is ripgrep's or a glob tool's:
// one without a '/' matches at any depth below base, and naming means globsMeet with
// written against the rule's deny glob. For read_many_files (search false) g is node-glob's,
// anchored at base: it names what the rule's pattern matches (globsMeet, any path) or what
// is inside a directory the pattern names when it spells that directory (written). Letters
// match either case (Gemini CLI's glob and read_many_files ignore it). base is tried in
// each spelling (pathForms); an absolute g is also read as it is. A g with a ".." component
// (it may leave base), or too large to run (globsMeet not ok), names every path.
func (r *rule) globNames(s *Subject, base, g string, search bool) bool {
	if g == ".." || strings.HasPrefix(g, "../") || strings.HasSuffix(g, "/..") || strings.Contains(g, "/../") {
		return true
	}
	pre := ""
	if search && !path.IsAbs(g) {
		pre = "**/"
	}
	var tools []*globNFA
	if path.IsAbs(g) {
		tools = append(tools, compileGlob("", true, g, true, true))
	}
	if base == "" {
		tools = append(tools, compileGlob("", true, pre+g, true, true))
	} else {
		for _, f := range s.forms(base, s.root).forms {
			tools = append(tools, compileGlob(strings.TrimSuffix(f, "/")+"/", true, pre+g, true, true))
		}
	}
	deny := r.anchoredNFA(r.denyNFA, r.anyDenyNFA, s.root)
	named := r.anchoredNFA(r.namedNFA, r.anyNamedNFA, s.root)
	for _, t := range tools {
		meet, ok := globsMeet(deny, t, true)
		if !ok || meet {
			return true
		}
		if !search {
			if meet, ok = globsMeet(named, t, false); !ok || meet {
				return true
			}
		}
	}
	return false
}

// anchoredNFA returns the rule's automaton placed as matchPath places the rule: an absolute
// rule as it is; a rule relative to the project, when the root is known, under root; else
// after any '/' (any, the glob "**/" + it).
func (r *rule) anchoredNFA(n, any *globNFA, root string) *globNFA {
	switch {
	case r.abs:
		return n
	case root != "" && !r.home:
		return n.after(strings.TrimSuffix(root, "/") + "/")
	}
	return any
}

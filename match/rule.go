package match

import (
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/hookcore/hookcore/shell"
)

// rule is a compiled permission rule "Tool(pattern)" (see the package doc).
type rule struct {
	tool    string
	kind    ruleKind
	arg     []string       // ruleText: argument names tried in order, nil: first string; rulePath: every path argument
	re      *regexp.Regexp // ruleBash, ruleText, ruleDomain
	bash    *shell.Rule    // ruleBash: re, for commands with words whose value is not known
	glob    string         // rulePath: the pattern, cleaned, for permit semantics
	named   string         // rulePath: the glob of what the pattern names (denyGlob)
	deny    string         // rulePath: the glob deny semantics match (denyGlob)
	anyGlob string         // rulePath, relative: "**/" + deny, the glob after any '/' or none
	abs     bool           // rulePath: the glob is absolute, match the whole path only
	home    bool           // rulePath: the pattern was ~/...: relative to a home directory

	// read is set for a Read rule: it also reads searches and read_many_files (search.go),
	// with deny and the named glob (deny without its "/**") compiled for globsMeet, as they
	// are and after any '/' (the any* forms).
	read                  bool
	denyNFA, anyDenyNFA   *globNFA
	namedNFA, anyNamedNFA *globNFA
}

type ruleKind uint8

const (
	ruleAny ruleKind = iota
	ruleBash
	rulePath
	ruleText
	ruleDomain
)

// The path arguments a path rule reads, every one present (stop 28). They are the names
// the tool and its equivalents in the other agents give the path the call reads or writes:
// `file_path` (Claude Code; Gemini CLI's read_file, write_file, replace; Cursor) and `path`
// (Copilot CLI's view, edit, create; ReadFile, WriteFile, EditFile); LS's `path` (Claude
// Code) and `dir_path` (Gemini CLI's list_directory, Gemini CLI 0.61.0); `notebook_path`.
var (
	filePathArgs     = []string{"file_path", "path"}
	dirPathArgs      = []string{"path", "dir_path", "file_path"}
	notebookPathArgs = []string{"notebook_path"}
)

// isRuleShape reports whether t is an identifier, alone or followed by '('.
func isRuleShape(t string) bool {
	i := 0
	for i < len(t) && isIdentByte(t[i], i == 0) {
		i++
	}
	return i > 0 && (i == len(t) || t[i] == '(')
}

func isIdentByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		return true
	case c >= '0' && c <= '9', c == '-':
		return !first
	}
	return false
}

// compileRule compiles t, which isRuleShape accepted and which starts at offset base of the
// original expression.
func compileRule(t string, base int) (*rule, error) {
	name, pat := t, ""
	if i := strings.IndexByte(t, '('); i >= 0 {
		if t[len(t)-1] != ')' {
			return nil, &SyntaxError{Offset: base + len(t), Msg: "permission rule " + t[:i] + "(...) has no closing )"}
		}
		name, pat = t[:i], strings.TrimSpace(t[i+1:len(t)-1])
	}
	r := &rule{tool: name}
	if pat == "" || pat == "*" {
		r.read = strings.EqualFold(name, "read") // every file: every search too
		return r, nil
	}
	patOff := base + strings.Index(t, pat)
	switch strings.ToLower(name) {
	case "bash":
		r.kind, r.re = ruleBash, textPattern(strings.Join(strings.Fields(pat), " "))
		r.bash = shell.NewRule(r.re)
	case "read":
		r.arg, r.read = filePathArgs, true
		if err := r.setPath(pat, patOff); err != nil {
			return nil, err
		}
		named := r.named
		r.denyNFA = compileGlob("", false, r.deny, false, false)
		r.anyDenyNFA = compileGlob("", false, r.anyGlob, false, false)
		r.namedNFA = compileGlob("", false, named, false, false)
		r.anyNamedNFA = compileGlob("", false, "**/"+strings.TrimPrefix(named, "**/"), false, false)
		return r, nil
	case "write", "edit", "multiedit", "readfile", "writefile", "editfile":
		r.arg = filePathArgs
		return r, r.setPath(pat, patOff)
	case "ls":
		r.arg = dirPathArgs
		return r, r.setPath(pat, patOff)
	case "notebookedit", "notebookread":
		r.arg = notebookPathArgs
		return r, r.setPath(pat, patOff)
	case "glob", "grep":
		r.kind, r.arg, r.re = ruleText, []string{"pattern"}, textPattern(pat)
	case "webfetch":
		r.kind, r.arg = ruleText, []string{"url"}
		if d, ok := strings.CutPrefix(pat, "domain:"); ok {
			r.kind = ruleDomain
			r.re = regexp.MustCompile(`(?is)^(?:.*\.)?` + starSource(canonicalDomain(d)) + `$`)
		} else {
			r.re = textPattern(pat)
		}
	default:
		r.kind, r.re = ruleText, textPattern(pat)
	}
	return r, nil
}

// setPath makes r a path rule for the glob pat, which starts at offset off.
func (r *rule) setPath(pat string, off int) error {
	r.kind = rulePath
	slashless := false
	switch {
	case strings.HasPrefix(pat, "//"):
		r.abs, pat = true, pat[1:]
	case strings.HasPrefix(pat, "~/"):
		r.home, pat = true, pat[2:]
	default:
		rest := pat
		for strings.HasPrefix(rest, "./") {
			rest = strings.TrimLeft(rest[2:], "/")
		}
		slashless = !strings.Contains(strings.TrimRight(rest, "/"), "/")
	}
	pat = strings.TrimPrefix(path.Clean(pat), "/")
	if pat == "" || pat == "." {
		pat = "**"
	}
	if r.abs {
		pat = "/" + pat
	}
	if err := checkGlob(pat); err != nil {
		return &SyntaxError{Offset: off, Msg: err.Error()}
	}
	r.glob = pat
	r.named, r.deny = denyGlob(pat, slashless)
	r.anyGlob = "**/" + strings.TrimPrefix(r.deny, "**/")
	return nil
}

// denyGlob returns the globs a path rule of the cleaned pattern pat matches with deny
// semantics, read as Claude Code 2.1.332 reads its rules, the way .gitignore reads a line
// (testdata/claude/if-dirs of the root package): named is what the pattern names — a
// pattern without a '/' but at its end, after a leading "./" (slashless), names a file or
// directory at any depth below the root ("./.env" and ".env" name <root>/sub/.env,
// "secrets" <root>/lib/secrets), so "**/" goes in front —, and deny adds what is inside a
// directory it names ("secrets" matches <root>/secrets/key.txt, "~/.ssh" ~/.ssh/id_rsa):
// "/**" at the end, which doublestar lets match the directory itself.
func denyGlob(pat string, slashless bool) (named, deny string) {
	if slashless && !strings.HasPrefix(pat, "**/") && pat != "**" {
		pat = "**/" + pat
	}
	if pat == "**" || strings.HasSuffix(pat, "/**") {
		return pat, pat
	}
	return pat, pat + "/**"
}

// textPattern compiles a pattern in which '*' matches any run of characters and everything
// else is literal; a trailing ":*" or " *" makes it a word-boundary prefix.
func textPattern(pat string) *regexp.Regexp {
	suffix := "$"
	if p, ok := strings.CutSuffix(pat, ":*"); ok {
		pat, suffix = p, `(?:\s.*)?$`
	} else if p, ok := strings.CutSuffix(pat, " *"); ok {
		pat, suffix = strings.TrimRight(p, " "), `(?:\s.*)?$`
	}
	return regexp.MustCompile(`(?s)^` + starSource(pat) + suffix)
}

// starSource returns the RE2 source for pat with each '*' as ".*" and the rest literal.
func starSource(pat string) string {
	parts := strings.Split(pat, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return strings.Join(parts, ".*")
}

func (r *rule) match(s *Subject) bool {
	if !strings.EqualFold(r.tool, s.tool) {
		return r.matchOtherTool(s)
	}
	if r.kind == ruleAny {
		return true
	}
	if _, ok := s.decodedArgs(); !ok {
		return true
	}
	if r.kind == ruleBash {
		b := s.bashCommands()
		return b != nil && b.MatchRule(r.bash)
	}
	if r.kind == rulePath {
		// Deny semantics: a call with several path arguments matches when any of them
		// matches (stop 28), a path when any spelling of it matches (an alias, a symlink),
		// and a path whose names are not all known (an odd value, a hard link) always.
		for _, k := range r.arg {
			v, present, odd := s.pathValue(k)
			if odd || present && r.matchForms(s, v) {
				return true
			}
		}
		return r.read && r.matchReadMany(s)
	}
	if r.kind == ruleDomain {
		// Deny semantics: a call that fetches several URLs matches when any host does, and
		// a call with a URL hookcore cannot read matches every domain rule (fetchHosts).
		hosts, unread := s.fetchHosts()
		if unread {
			return true
		}
		for _, h := range hosts {
			if r.re.MatchString(h) {
				return true
			}
		}
		return false
	}
	v, ok := r.mainArg(s)
	if !ok {
		return false
	}
	return r.re.MatchString(v)
}

// matchOtherTool reports whether the rule, written for another tool, matches the call s:
// a Read rule matches a search it denies (matchSearch; "Read" alone every search); no other
// rule matches.
func (r *rule) matchOtherTool(s *Subject) bool {
	if !r.read {
		return false
	}
	roots, globs, grep, ok := searchArgs(s.tool)
	switch {
	case !ok:
		return false
	case r.kind == ruleAny:
		return true
	}
	if _, valid := s.decodedArgs(); !valid {
		return true
	}
	return r.matchSearch(s, roots, globs, grep)
}

// matchForms reports whether the path rule matches the file path v with deny semantics:
// any of its spellings (pathForms), or any path when it names a file with more than one
// hard link (pathSet).
func (r *rule) matchForms(s *Subject, v string) bool {
	ps := s.forms(v, s.root)
	if ps.linked {
		return true
	}
	for _, f := range ps.forms {
		if r.matchPath(s.root, f) {
			return true
		}
	}
	return false
}

// permitsPaths reports whether the path rule permits every file path the call names
// (permit semantics, see AllowedBy): each of its path arguments that is present (r.arg)
// must be permitted, in every spelling (permitsPath, permitsForms), the way permitsHosts
// asks it of every host (stop 28: a decoy `path` next to `file_path` took the permit). A
// call with no path argument, or with an odd one (Subject.pathValue), is not permitted; nor
// is, by a Read rule, a read of many files (read_many_files' `paths` or `include`), whose
// globs it does not try to contain.
func (r *rule) permitsPaths(s *Subject) bool {
	if r.read && s.hasReadMany() {
		return false
	}
	n := 0
	for _, k := range r.arg {
		v, present, odd := s.pathValue(k)
		switch {
		case odd:
			return false
		case !present:
			continue
		case !r.permitsPath(v, s.dir) || !s.permitsForms(r, v):
			return false
		}
		n++
	}
	return n > 0
}

// permitsHosts reports whether the domain rule permits every host the call fetches
// (permit semantics, see AllowedBy); a call that names no host, or has a URL hookcore
// cannot read (fetchHosts), is not permitted.
func (r *rule) permitsHosts(s *Subject) bool {
	hosts, unread := s.fetchHosts()
	if unread {
		return false
	}
	for _, h := range hosts {
		if !r.re.MatchString(h) {
			return false
		}
	}
	return len(hosts) > 0
}

func (r *rule) mainArg(s *Subject) (string, bool) {
	if r.arg == nil {
		return s.firstStringArg()
	}
	for _, a := range r.arg {
		if v, ok := s.arg(a); ok {
			return v, true
		}
	}
	return "", false
}

// matchPath matches the cleaned path v against the rule's deny glob (denyGlob): the whole
// of it for an absolute rule; for a rule relative to the project, when the project root is
// known, the part of v under root (a path outside root does not match: Claude Code 2.1.332,
// testdata/claude/if-paths in the root package); else the path or any trailing part of it
// after a '/', which is the glob "**/" + r.deny (one match, linear in len(v); trying the glob after each '/' was quadratic in a
// model-controlled path).
func (r *rule) matchPath(root, v string) bool {
	if root != "" && !path.IsAbs(v) {
		v = path.Join(root, v)
	}
	v = path.Clean(v)
	switch {
	case r.abs:
		return doublestar.MatchUnvalidated(r.deny, v)
	case root != "" && !r.home:
		rel, ok := strings.CutPrefix(v, strings.TrimSuffix(root, "/")+"/")
		return ok && doublestar.MatchUnvalidated(r.deny, rel)
	}
	return doublestar.MatchUnvalidated(r.anyGlob, v)
}

// permitsPath reports whether the path rule permits the path v (permit semantics, see
// AllowedBy): an absolute rule the whole cleaned path; a relative rule the path relative to
// dir (a relative v is relative to dir already), which must not leave dir; a ~/ rule, whose
// home directory this package does not know, nothing. With dir "" an absolute path can not
// be placed and is not permitted by a relative rule.
func (r *rule) permitsPath(v, dir string) bool {
	v = path.Clean(v)
	switch {
	case r.abs:
		return doublestar.MatchUnvalidated(r.glob, v)
	case r.home:
		return false
	}
	if path.IsAbs(v) {
		d := path.Clean(dir)
		rel, ok := strings.CutPrefix(v, strings.TrimSuffix(d, "/")+"/")
		if dir == "" || !path.IsAbs(d) || !ok {
			return false
		}
		v = rel
	}
	if v == ".." || strings.HasPrefix(v, "../") {
		return false
	}
	return doublestar.MatchUnvalidated(r.glob, v)
}

package match

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/hookcore/hookcore/internal/text"
)

// condition is a compiled MiniCode condition (see the package doc): clauses joined by &&
// (or is false) or by || (or is true).
type condition struct {
	or      bool
	clauses []clause
}

type clause struct {
	field fieldKind
	// unknown is the field's name when it is none the language knows (it reads as empty).
	unknown string
	path    []string // fieldArgs: the path below args; empty for the whole arguments
	op      string
	value   string // ==, !=: the value (normalised for event)
	re      *regexp.Regexp
	glob    string
	name    *nameSpec // names
	// changes is what a changes clause protects: HookProgram, HookConfig or a path (as
	// written, cleaned: checkChangesPath).
	changes string
	// changed is a `tool changed hook_config` clause (tripwire.go).
	changed bool
}

type fieldKind uint8

const (
	fieldUnknown fieldKind = iota
	fieldTool
	fieldEvent
	fieldArgs
	fieldFilePath
)

// compileCondition parses expr; errors are *SyntaxError with offsets into expr.
func compileCondition(expr string) (*condition, error) {
	p := &condParser{src: expr}
	c := &condition{}
	joiner := ""
	for {
		cl, err := p.clause()
		if err != nil {
			return nil, err
		}
		c.clauses = append(c.clauses, cl)
		p.space()
		if p.i == len(p.src) {
			break
		}
		at := p.i
		op := p.peek2()
		if op != "&&" && op != "||" {
			return nil, p.errf(at, "expected && or || after a clause, found %q", p.rest(12))
		}
		if joiner != "" && op != joiner {
			return nil, p.errf(at, "condition mixes && and ||; use one of them")
		}
		joiner = op
		p.i += 2
	}
	c.or = joiner == "||"
	return c, nil
}

type condParser struct {
	src string
	i   int
}

func (p *condParser) errf(off int, format string, args ...any) error {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *condParser) space() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t' || p.src[p.i] == '\n' || p.src[p.i] == '\r') {
		p.i++
	}
}

func (p *condParser) peek2() string {
	if p.i+2 > len(p.src) {
		return p.src[p.i:]
	}
	return p.src[p.i : p.i+2]
}

// rest returns up to n runes of the remaining input, for error messages.
func (p *condParser) rest(n int) string {
	r := text.Truncate(p.src[p.i:], n, "...")
	if r == "" {
		return "end of condition"
	}
	return r
}

// clause parses "field op value".
func (p *condParser) clause() (clause, error) {
	var cl clause
	p.space()
	start := p.i
	for p.i < len(p.src) && (isIdentByte(p.src[p.i], false) && p.src[p.i] != '-' || p.src[p.i] == '.') {
		p.i++
	}
	if p.i == start {
		if p.src[start:] != "" && p.src[start] == '!' {
			return cl, p.errf(start, "if has no ! (not): a filter is one permission rule or a condition of field op value clauses, and neither can be negated; found %q", p.rest(24))
		}
		return cl, p.errf(start, "expected a field name (tool, event, args.x, file_path), found %q", p.rest(12))
	}
	if p.i < len(p.src) && p.src[p.i] == '(' {
		return cl, p.errf(start, "%s(...) is a permission rule, which a condition cannot hold: a filter is either one rule or a condition of field op value clauses", p.src[start:p.i])
	}
	if err := cl.setField(p.src[start:p.i]); err != nil {
		return cl, p.errf(start, "%v", err)
	}
	p.space()
	opAt := p.i
	switch cl.op = p.peek2(); {
	case cl.op == "==" || cl.op == "!=" || cl.op == "=~" || cl.op == "~=":
		p.i += 2
	case strings.HasPrefix(p.src[p.i:], "names") && len(p.src) > p.i+5 && strings.IndexByte(" \t\n\r\"'", p.src[p.i+5]) >= 0:
		cl.op = "names"
		p.i += 5
	case strings.HasPrefix(p.src[p.i:], "changes") && len(p.src) > p.i+7 && strings.IndexByte(" \t\n\r\"'", p.src[p.i+7]) >= 0:
		cl.op = "changes"
		p.i += 7
	case strings.HasPrefix(p.src[p.i:], "changed") && len(p.src) > p.i+7 && strings.IndexByte(" \t\n\r\"'", p.src[p.i+7]) >= 0:
		cl.op = "changed"
		p.i += 7
	default:
		return cl, p.errf(opAt, "expected an operator (==, !=, =~, ~=, names, changes, changed), found %q", p.rest(12))
	}
	p.space()
	valAt := p.i
	val, isRegex, flags, err := p.value()
	if err != nil {
		return cl, err
	}
	switch cl.op {
	case "==", "!=":
		if isRegex {
			return cl, p.errf(valAt, "a /regex/ value needs the =~ operator")
		}
		if cl.field == fieldEvent {
			val = normEvent(val)
		}
		cl.value = val
	case "=~":
		re, err := compileRegex(val, flags, false)
		if err != nil {
			return cl, p.errf(valAt, "bad regex %q: %v", val, err)
		}
		cl.re = re
	case "~=":
		if isRegex {
			return cl, p.errf(valAt, "~= takes a glob, not a /regex/ (use =~)")
		}
		if err := checkGlob(val); err != nil {
			return cl, p.errf(valAt, "%v", err)
		}
		cl.glob = val
	case "names":
		if isRegex {
			return cl, p.errf(valAt, "names takes a file name, not a /regex/")
		}
		ns, err := compileName(val)
		if err != nil {
			return cl, p.errf(valAt, "%v", err)
		}
		cl.name = ns
	case "changes":
		quoted := p.src[valAt] == '"' || p.src[valAt] == '\''
		switch {
		case isRegex || val != HookProgram && val != HookConfig && !quoted:
			return cl, p.errf(valAt, "changes takes %s (the hook program and the directories on the path to it), %s (hookcore's config files) or a quoted path, found %q", HookProgram, HookConfig, val)
		case val == HookProgram || val == HookConfig:
			cl.changes = val
		default:
			c, err := checkChangesPath(val)
			if err != nil {
				return cl, p.errf(valAt, "%v", err)
			}
			cl.changes = c
		}
		if cl.field != fieldFilePath && (cl.field != fieldArgs || len(cl.path) != 1 || cl.path[0] != "command") {
			return cl, p.errf(start, "changes reads args.command or file_path")
		}
	case "changed":
		if err := checkChanged(cl.field, p.src[valAt:p.i], isRegex); err != nil {
			return cl, p.errf(start, "%v", err)
		}
		cl.changed = true
	}
	return cl, nil
}

// setField sets the field of cl from its name.
func (cl *clause) setField(name string) error {
	parts := strings.Split(name, ".")
	for _, s := range parts {
		if s == "" {
			return fmt.Errorf("bad field name %q: empty part", name)
		}
	}
	switch parts[0] {
	case "tool", "tool_name":
		cl.field = fieldTool
	case "event", "hook_event_name":
		cl.field = fieldEvent
	case "args", "tool_input":
		cl.field, cl.path = fieldArgs, parts[1:]
		return nil
	case "file_path":
		cl.field = fieldFilePath
	default:
		cl.unknown = name
	}
	if len(parts) > 1 {
		cl.field, cl.unknown = fieldUnknown, name
	}
	return nil
}

// value parses a value: a quoted string, a /regex/flags or a bare word.
func (p *condParser) value() (val string, isRegex bool, flags string, err error) {
	start := p.i
	if p.i == len(p.src) {
		return "", false, "", p.errf(start, "expected a value, found end of condition")
	}
	switch q := p.src[p.i]; q {
	case '"', '\'':
		var sb strings.Builder
		for p.i++; p.i < len(p.src); p.i++ {
			c := p.src[p.i]
			if c == q {
				p.i++
				return sb.String(), false, "", nil
			}
			if c == '\\' && p.i+1 < len(p.src) {
				n := p.src[p.i+1]
				switch {
				case n == q || n == '\\':
					c = n
					p.i++
				case q == '"' && n == 'n':
					c = '\n'
					p.i++
				case q == '"' && n == 't':
					c = '\t'
					p.i++
				case q == '"' && n == 'r':
					c = '\r'
					p.i++
				}
			}
			sb.WriteByte(c)
		}
		return "", false, "", p.errf(start, "unterminated string")
	case '/':
		for p.i++; p.i < len(p.src); p.i++ {
			switch p.src[p.i] {
			case '\\':
				p.i++
			case '/':
				val = p.src[start+1 : p.i]
				p.i++
				fs := p.i
				for p.i < len(p.src) && isIdentByte(p.src[p.i], true) && p.src[p.i] != '_' {
					p.i++
				}
				return val, true, p.src[fs:p.i], nil
			}
		}
		return "", false, "", p.errf(start, "unterminated /regex/")
	}
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
		if s := p.peek2(); s == "&&" || s == "||" {
			break
		}
		p.i++
	}
	return p.src[start:p.i], false, "", nil
}

func (c *condition) match(s *Subject) bool { return c.eval(s, false) }

// eval reports whether the condition holds for s, with deny semantics (If.Match) or, when
// permit is set, permit semantics (AllowedBy): a clause on file_path whose path is not
// fully known (an odd value or a hard link, see Subject.pathValue and pathSet) holds for a
// deny when it is a ~=, == or != clause and never for a permit; a clause on file_path reads
// every path argument (clause.match).
func (c *condition) eval(s *Subject, permit bool) bool {
	for i := range c.clauses {
		if c.clauses[i].match(s, permit) == c.or {
			return c.or
		}
	}
	return !c.or
}

// filePathKeys are the arguments the file_path field reads, every one present (stop 28).
var filePathKeys = []string{"file_path", "path", "notebook_path"}

func (cl *clause) match(s *Subject, permit bool) bool {
	if cl.changed {
		return len(s.changed) > 0 && !permit
	}
	if cl.field != fieldFilePath {
		return cl.matchText(s, cl.text(s))
	}
	// Every path argument of the call (stop 28): with deny semantics the clause holds when it
	// holds for any of them, with permit semantics when it holds for every one. A call with
	// none has the empty file_path.
	n := 0
	for _, k := range filePathKeys {
		v, ok := s.arg(k)
		if !ok {
			continue
		}
		n++
		if cl.matchPath(s, k, v, permit) != permit {
			return !permit
		}
	}
	if n == 0 {
		return cl.matchText(s, "")
	}
	return permit
}

// matchPath reports whether the clause on file_path holds for the path argument k, whose
// text is v: a path a pattern cannot judge (pathUnknown) holds for a deny ~=, == or != and
// never for a permit.
func (cl *clause) matchPath(s *Subject, k, v string, permit bool) bool {
	if permit || cl.op == "~=" || cl.op == "==" || cl.op == "!=" {
		if cl.pathUnknown(s, k, v) {
			return !permit
		}
	}
	return cl.matchText(s, v)
}

// matchText reports whether the clause holds for the field's text v.
func (cl *clause) matchText(s *Subject, v string) bool {
	switch cl.op {
	case "==":
		return cl.equal(v) || cl.samePath(s, v)
	case "!=":
		return !cl.equal(v) && !cl.samePath(s, v)
	case "=~":
		return cl.re.MatchString(v)
	case "names":
		return cl.name.in(v, s.cwdUnknown)
	case "changes":
		switch cl.changes {
		case HookProgram:
			// The hook program's paths (program.go), then the startup paths of what the
			// hooks run (hookrun.go).
			if cl.field == fieldFilePath {
				return s.pathIsProtected(v) || s.pathIsStartup(v)
			}
			return s.lineChanges(v) || s.lineStartup(v)
		case HookConfig:
			return s.changesPaths(cl.field == fieldFilePath, v, s.config)
		}
		paths := s.clausePaths(cl.changes)
		if len(paths) == 0 {
			return v != "" // a relative path with no root nor working directory: fail closed
		}
		return s.changesPaths(cl.field == fieldFilePath, v, paths)
	default:
		if cl.field == fieldFilePath && v != "" {
			for _, f := range s.forms(v, s.root).forms {
				if doublestar.MatchUnvalidated(cl.glob, f) {
					return true
				}
			}
		}
		return doublestar.MatchUnvalidated(cl.glob, v)
	}
}

// samePath reports whether the file path v and the clause's value name the same file for
// file_path == and !=: some spelling of one (pathForms: cleaned, joined to the working
// directory or the project root, aliases, symlinks resolved) is a spelling of the other.
// `./secret.txt`, `sub/../secret.txt`, a relative path and a symlink were each not equal to
// the absolute path a rule named, and a deny rule on it let the write through (red team
// round 20).
func (cl *clause) samePath(s *Subject, v string) bool {
	if cl.field != fieldFilePath || v == "" || cl.value == "" {
		return false
	}
	want := s.forms(cl.value, s.root).forms
	for _, f := range s.forms(v, s.root).forms {
		if slices.Contains(want, f) {
			return true
		}
	}
	return false
}

func (cl *clause) equal(v string) bool {
	switch cl.field {
	case fieldTool:
		return strings.EqualFold(v, cl.value)
	case fieldEvent:
		return eventEqual(v, cl.value)
	default:
		return v == cl.value
	}
}

// text returns the field's value for s.
func (cl *clause) text(s *Subject) string {
	switch cl.field {
	case fieldTool:
		return s.tool
	case fieldEvent:
		return s.event
	case fieldArgs:
		if len(cl.path) == 0 {
			return s.compactArgs()
		}
		v, _ := s.arg(cl.path...)
		return v
	}
	return ""
}

// pathUnknown reports whether the path argument k, whose text is v, is one a path pattern
// can not judge from its text: an odd value (Subject.pathValue) or an existing file with
// more than one hard link (pathSet).
func (cl *clause) pathUnknown(s *Subject, k, v string) bool {
	if _, _, odd := s.pathValue(k); odd {
		return true
	}
	anchor := s.root
	if anchor == "" {
		anchor = s.dir // NewSubjectIn: where a permit places a relative path
	}
	return v != "" && s.forms(v, anchor).linked
}

// eventEqual reports whether normEvent(v) == norm, without allocating.
func eventEqual(v, norm string) bool {
	j := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '_' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if j >= len(norm) || norm[j] != c {
			return false
		}
		j++
	}
	return j == len(norm)
}

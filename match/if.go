package match

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Syntax is the syntax of a compiled `if` filter, told apart by the expression's shape
// (DESIGN section 5).
type Syntax uint8

const (
	// Regex is "/re/" or "/re/i": an RE2 search over the tool arguments as compact JSON
	// (codebot's argFilter), in their canonical encoding (no escapes beyond those JSON
	// requires), and over each string value holding such an escape, decoded.
	Regex Syntax = iota + 1
	// Rule is "Tool(pattern)" or "Tool": a Claude Code permission rule.
	Rule
	// Condition is a MiniCode condition: "field op value" clauses joined by && or by ||.
	Condition
)

// String returns "regex", "rule" or "condition", and "none" for the zero Syntax (the syntax
// of a nil *If).
func (s Syntax) String() string {
	switch s {
	case Regex:
		return "regex"
	case Rule:
		return "rule"
	case Condition:
		return "condition"
	default:
		return "none"
	}
}

// SyntaxError is an error in an `if` expression. Offset is the byte offset in the expression
// as given to CompileIf (0-based), so that a config loader can turn it into a column.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error returns "offset N: msg".
func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// If is a compiled `if` filter: the second level of matching, after the Matcher (DESIGN
// section 5). It is immutable and safe for concurrent use. A nil *If matches everything.
type If struct {
	src    string
	syntax Syntax
	re     *regexp.Regexp // Regex
	rule   *rule          // Rule
	cond   *condition     // Condition
	join   Join           // Rule: the operator of "Tool(a) || Tool(b)", read as one rule
}

// Join is what stands between what reads as two permission rules in the source of one Rule
// filter ("Bash(rm -rf *) || Bash(curl *)"): Op is the text between them without the white
// space around it ("||", "&&", "|", ",", "or", ";", "｜｜", ...), or " " when nothing but
// white space separates them; Offset is its byte offset in the expression as given to
// CompileIf. The zero Join means none.
type Join struct {
	Op     string
	Offset int
}

// CompileIf compiles an `if` expression. Its syntax is chosen by shape, after trimming
// surrounding spaces:
//
//   - it starts with '/': Regex, "/re/flags" with flags from "ims", searched (unanchored) in
//     the tool arguments as compact JSON.
//   - it is an identifier (letters, digits, '_', '-'), alone or followed by parentheses that
//     enclose the rest: Rule, a Claude Code permission rule.
//   - otherwise: Condition, a MiniCode condition.
//
// The package doc defines each syntax.
//
// An expression must be valid UTF-8. An empty (or all-space) expression returns a nil *If and a nil error. Every error is a
// *SyntaxError giving the byte offset of the problem.
func CompileIf(expr string) (*If, error) {
	compiledIfs.Lock()
	f, ok := compiledIfs.m[expr]
	compiledIfs.Unlock()
	if ok {
		return f, nil
	}
	f, err := compileIf(expr)
	if err == nil && f != nil {
		compiledIfs.Lock()
		if compiledIfs.m == nil {
			compiledIfs.m = map[string]*If{}
		}
		if len(compiledIfs.m) < maxCompiledIfs {
			compiledIfs.m[expr] = f
		}
		compiledIfs.Unlock()
	}
	return f, err
}

// compiledIfs memoizes CompileIf by expression: a config file's check compiles every `if`
// to validate it, and the Runner compiles it again; an *If is immutable, so one serves
// both (issue 9: the second compile was 0.8 % of a hook process). Past maxCompiledIfs
// expressions nothing more is kept, so a process that loads many configs (serve, reloaded)
// holds a bounded number.
var compiledIfs struct {
	sync.Mutex
	m map[string]*If
}

const maxCompiledIfs = 1024

func compileIf(expr string) (*If, error) {
	t := strings.TrimSpace(expr)
	if t == "" {
		return nil, nil
	}
	if !utf8.ValidString(expr) {
		return nil, &SyntaxError{Offset: invalidUTF8(expr), Msg: "expression is not valid UTF-8"}
	}
	base := strings.Index(expr, t) // offset of t in expr
	f := &If{src: expr}
	switch {
	case t[0] == '/':
		src, flags, ok := splitSlashRegex(t)
		if !ok {
			return nil, &SyntaxError{Offset: base, Msg: "regex filter has no closing /"}
		}
		re, err := compileRegex(src, flags, false)
		if err != nil {
			return nil, &SyntaxError{Offset: base, Msg: fmt.Sprintf("bad regex %q: %v", t, err)}
		}
		f.syntax, f.re = Regex, re
	case isRuleShape(t):
		r, err := compileRule(t, base)
		if err != nil {
			return nil, err
		}
		f.syntax, f.rule = Rule, r
		if j, ok := joinedRules(t); ok {
			j.Offset += base
			f.join = j
		}
	default:
		c, err := compileCondition(expr)
		if err != nil {
			return nil, err
		}
		f.syntax, f.cond = Condition, c
	}
	return f, nil
}

// Match reports whether the subject passes the filter. A nil *If matches every subject.
func (f *If) Match(s *Subject) bool {
	if f == nil {
		return true
	}
	switch f.syntax {
	case Regex:
		return s.searchArgs(f.re)
	case Rule:
		return f.rule.match(s)
	default:
		return f.cond.match(s)
	}
}

// RuleTool returns the tool name of a permission-rule filter ("Edit" for Edit(src/**)), as
// written; "" for any other syntax or a nil *If. A rule matches only calls of that tool
// (case-insensitively): Claude Code 2.1.332 ran no `if: Edit(/src/**)` hook on a Write of
// <project>/src/x.txt (testdata/claude/if-paths in the root package), although its
// permission rules let Edit(...) cover every file-editing tool. A Read rule also matches
// the searches that read what it names (RuleTools).
func (f *If) RuleTool() string {
	if f == nil || f.syntax != Rule {
		return ""
	}
	return f.rule.tool
}

// RuleTools returns the tool names whose calls a permission-rule filter may match: its own
// (RuleTool), and for a Read rule the searches Grep, Glob and LS too, whose root or glob
// it reads as Claude Code's permissions read them (docs/decisions.md, "Read rules and
// searches (stop 29)"); nil for any other syntax or a nil *If.
func (f *If) RuleTools() []string {
	if f == nil || f.syntax != Rule {
		return nil
	}
	if f.rule.read {
		return []string{f.rule.tool, "Grep", "Glob", "LS"}
	}
	return []string{f.rule.tool}
}

// JoinedRules returns the Join of a permission-rule filter whose pattern reads as two rules
// ("Bash(rm -rf *) || Bash(curl *)": a ')' that closes nothing in the pattern, outside shell
// quotes, then any text, then "Tool(" or "!Tool("), and false for any other filter. The
// text between may be any: ||, &&, |, ',', "or", ';', a fullwidth "｜｜", a space or a
// newline (red team rounds 39 and 40, F5 and F4). Such a filter is still one rule, tool Bash
// and pattern "rm -rf *) || Bash(curl *", which matches almost nothing: Claude Code's `if`
// holds exactly one rule, with no &&, || or list syntax, and a `|`-joined one never fires
// (plugins#2089). A pattern whose parentheses balance ("Bash(echo (a) b)",
// `Bash(python -c "print(1)")`) is not two rules. A config loader decides whether two rules
// are an error or a warning (docs/decisions.md, "two rules in one if").
func (f *If) JoinedRules() (Join, bool) {
	if f == nil || f.join.Op == "" {
		return Join{}, false
	}
	return f.join, true
}

// UnknownFields returns the field names of a Condition that the language does not know
// (tool, tool_name, event, hook_event_name, args and args.PATH, tool_input, file_path), in
// order: each reads as empty (seed 004: "未知字段返回空字符串，不报错"), so a clause on one
// is most likely a typo. Nil for the other syntaxes.
func (f *If) UnknownFields() []string {
	if f == nil || f.cond == nil {
		return nil
	}
	var out []string
	for _, cl := range f.cond.clauses {
		if cl.unknown != "" {
			out = append(out, cl.unknown)
		}
	}
	return out
}

// ArgKeys returns the top-level tool-input keys a Condition reads (args.command and
// tool_input.command.x give "command"), as written, in order; nil for the other syntaxes
// and for a clause on the whole arguments (args).
func (f *If) ArgKeys() []string {
	if f == nil || f.cond == nil {
		return nil
	}
	var out []string
	for _, cl := range f.cond.clauses {
		if cl.field == fieldArgs && len(cl.path) > 0 {
			out = append(out, cl.path[0])
		}
	}
	return out
}

// Syntax returns the filter's syntax; 0 ("none") for a nil *If.
func (f *If) Syntax() Syntax {
	if f == nil {
		return 0
	}
	return f.syntax
}

// String returns the filter's source text as given to CompileIf; "" for a nil *If.
func (f *If) String() string {
	if f == nil {
		return ""
	}
	return f.src
}

// invalidUTF8 returns the offset of the first invalid UTF-8 sequence in s.
func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return len(s)
}

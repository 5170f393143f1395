package match

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
)

// Subject is one tool call (or one event) as the `if` filters see it: the canonical event
// name, the tool name and the tool arguments as JSON.
//
// Build one per event with NewSubject and pass it to every filter of that event. It does the
// work the filters need lazily and at most once: compacting the arguments (for /re/ filters),
// decoding them (for conditions and rules) and parsing a Bash command (for Bash(...) rules).
// A Subject is safe for concurrent use by several goroutines.
type Subject struct {
	event string
	tool  string
	args  json.RawMessage
	root  string // the project root path rules are anchored at; "" when unknown
	dir   string // where relative path rules are anchored for permit semantics; "" unknown
	cwd   string // the call's working directory (WithCwd), for /proc/self/cwd and relative paths
	// cwdUnknown is true when the command may run in another directory than cwd
	// (WithCwdUnknown).
	cwdUnknown bool
	home       string // the user's home for ~/ in a path (WithHome); "" means $HOME

	programs []string // the hook program's paths (WithProgram), for `changes hook_program`
	startup  []string // the startup paths of what the hooks run (WithStartup), for the same
	config   []string // hookcore's config paths (WithHookConfig), for `changes hook_config`
	// changed is what of hookcore's config changed during the tool call
	// (WithConfigChanged), for `tool changed hook_config`.
	changed []string

	realMu sync.Mutex
	real   map[string]realPath // evalSymlinks, memoized

	formsMu sync.Mutex
	formsOf map[string]pathSet // pathForms by anchor and path, computed once

	compactOnce sync.Once
	compact     string
	values      []string // decoded string values whose encoding needs escapes (canonicalJSON)

	decodeOnce sync.Once
	decoded    any  // the arguments decoded with UseNumber; nil when absent
	argsOK     bool // the arguments are valid JSON (or absent)

	firstOnce sync.Once
	first     string
	firstOK   bool

	bashOnce sync.Once
	bash     *shell.Commands // nil when the arguments have no command string

	fedOnce sync.Once
	fed     []string // fedLines: the commands xargs and printf substitutions add to the line

	loopOnce sync.Once
	loops    map[string][]string // loopTexts: each for loop variable's values (shell.LoopValues)

	linkOnce  sync.Once
	links     []string // linkLines: the commands with globs' and finds' links resolved
	linksHold bool     // linkLines: a glob or find that follows links cannot be read

	hostsOnce   sync.Once
	hosts       []string // fetchHosts: the hosts a WebFetch call reaches
	hostsUnread bool     // fetchHosts: a URL of the call has a scheme and is not read
}

// bashCommands analyses the `command` argument once, for Bash permission rules (see
// "Permission rules" in the package doc; package shell does the analysis). It returns nil
// when the arguments have no string `command`.
func (s *Subject) bashCommands() *shell.Commands {
	s.bashOnce.Do(func() {
		if cmd, ok := s.arg("command"); ok {
			s.bash = shell.Parse(cmd)
		}
	})
	return s.bash
}

// NewSubject returns the Subject for one event. event is the canonical event name (as
// registered in package hook, e.g. "PreToolUse"); tool is the tool name ("" on events without
// one); args is the tool's arguments as a JSON object (nil or empty when there are none). The
// Subject keeps args without copying it; the caller must not modify it afterwards.
func NewSubject(event, tool string, args json.RawMessage) *Subject {
	return &Subject{event: event, tool: tool, args: args}
}

// NewSubjectAt is NewSubject for a project whose root is the absolute, clean directory
// root: the relative path rules of `if` ("docs/**", "/src/**") are anchored there, as
// Claude Code anchors them, and do not match paths outside it; a relative file path in the
// arguments is taken relative to root. An empty root is NewSubject.
func NewSubjectAt(root, event, tool string, args json.RawMessage) *Subject {
	return &Subject{event: event, tool: tool, args: args, root: root}
}

// WithCwd sets the working directory of the call (the hook input's cwd, absolute) and
// returns s: a file path through /proc/self/cwd (or /proc/PID/cwd), or a relative one, is
// matched in it as well (pathForms). Call it before s is used.
func (s *Subject) WithCwd(cwd string) *Subject {
	s.cwd = cwd
	return s
}

// WithCwdUnknown says that the call's command may run in a directory the hook input does
// not tell (Codex's shell tools take a workdir their hook input leaves out: red team round
// 60) and returns s. The working directory WithCwd set stays one place it may run in (the
// agent's own, which codex-cli 0.171.0 sends as the workdir), and a relative path of a Bash
// command is also a path of any other directory, and so is one after a relative cd:
// `changes` clauses on a line hold when a relative word's names may be the last names of a
// path they protect, or lead into one (`cp x settings.json` for ~/.claude/settings.json;
// `cp a.go b.go` does not), and for a write that may replace its working directory's
// entries unnamed (`tar -xf x.tar`, `cp -r d/. .`); a `names "*/NAME"` value counts every
// occurrence of NAME. Call it before s is used.
func (s *Subject) WithCwdUnknown() *Subject {
	s.cwdUnknown = true
	return s
}

// WithHome sets the home directory a file path's ~/ stands for (default $HOME) and
// returns s. Call it before s is used.
func (s *Subject) WithHome(home string) *Subject {
	s.home = home
	return s
}

// pathSet is what the path rules see of one file path: its spellings (pathForms) and
// whether one of them names an existing regular file with more than one hard link. A
// hard link is another name for the same file that no spelling of this one shows (red
// team round 2: `ln .env notes`, then Write notes), so a deny rule matches a linked path
// whatever its pattern, and a permit does not permit it.
type pathSet struct {
	forms  []string
	linked bool
}

// homePath is the home ~ stands for: WithHome's, else the user's ($HOME); "" when unknown.
func (s *Subject) homePath() string {
	if s.home != "" {
		return s.home
	}
	return homeDir()
}

// fedLines returns, once per Subject, the commands a Bash line runs beyond its own texts:
// what xargs and parallel run with their input's words (fedTexts) and the line with each
// printf or echo substitution replaced by its output (printedTexts). Every `changes` clause
// of a condition reads them (red team rounds 54, 55).
func (s *Subject) fedLines(b *shell.Commands) []string {
	s.fedOnce.Do(func() { s.fed = s.loopTexts(append(fedTexts(b), printedTexts(b.Units())...)) })
	return s.fed
}

// forms are the spellings of the file path v that path rules match (pathForms).
func (s *Subject) forms(v, anchor string) pathSet {
	home := s.homePath()
	key := anchor + "\x00" + v
	s.formsMu.Lock()
	defer s.formsMu.Unlock()
	if f, ok := s.formsOf[key]; ok {
		return f
	}
	if s.formsOf == nil {
		s.formsOf = map[string]pathSet{}
	}
	var f pathSet
	f.forms, f.linked = pathForms(v, anchor, s.cwd, home)
	s.formsOf[key] = f
	return f
}

// pathValue returns the top-level argument key as a file path. present is false when the
// arguments have no such key. odd is true when its value is not a JSON string (an array, an
// object, a number, null) or holds a NUL byte: what the tool makes of such a value is not
// known (red team round 2: Write {"file_path":["/x/.env"]} and "/x/.env\u0000" passed
// `**/.env`), so a deny rule matches it and a permit does not permit it. Path rules and
// the file_path field of a condition read every key of their list this way (stop 28).
func (s *Subject) pathValue(key string) (v string, present, odd bool) {
	args, _ := s.decodedArgs()
	m, _ := args.(map[string]any)
	x, present := m[key]
	if !present {
		return "", false, false
	}
	str, isString := x.(string)
	if !isString || strings.IndexByte(str, 0) >= 0 {
		return "", true, true
	}
	return str, true, false
}

// NewSubjectIn is NewSubject for a call made in the directory dir (an absolute path: the
// agent's workspace, the hook input's cwd). Deny semantics (If.Match) ignore dir (they use
// NewSubjectAt's project root); permit
// semantics (AllowedBy) anchor relative path rules there: Edit(src/**) permits dir/src/a.go
// and src/a.go, not dir/vendor/src/a.go nor a path outside dir.
func NewSubjectIn(event, tool string, args json.RawMessage, dir string) *Subject {
	return &Subject{event: event, tool: tool, args: args, dir: dir}
}

// compactArgs returns the arguments in their canonical encoding (canonicalJSON): compact,
// in the order written, every string re-encoded with only the escapes JSON requires, so that
// "\u0072m -rf" and "\/bin\/rm" read as "rm -rf" and "/bin/rm" to a /regex/ filter (issue
// 10.4). Arguments that are not valid JSON are returned as given, absent arguments as "".
func (s *Subject) compactArgs() string {
	s.compactOnce.Do(func() {
		c, values, ok := canonicalJSON(s.args)
		if !ok {
			s.compact = string(s.args)
			return
		}
		s.compact, s.values = c, values
	})
	return s.compact
}

// searchArgs reports whether re matches the canonical arguments (compactArgs) or any string
// value in them, decoded: a /regex/ filter written for the command ("rm\s+-rf") also finds
// it when the JSON text spells the separator with an escape JSON requires ("rm\t-rf").
func (s *Subject) searchArgs(re *regexp.Regexp) bool {
	if re.MatchString(s.compactArgs()) {
		return true
	}
	for _, v := range s.values {
		if re.MatchString(v) {
			return true
		}
	}
	return false
}

// canonicalJSON re-encodes one JSON value token by token: no white space, keys in the order
// written (duplicates kept), numbers as written, strings decoded and encoded again by
// encoding/json without HTML escaping — only '"', '\\', control characters, U+2028 and
// U+2029 are escaped, surrogate pairs become the character they spell and invalid UTF-8 or
// lone surrogates U+FFFD. values are the decoded string values (not keys) that hold a
// character the encoding escapes, in order. ok is false when raw is not exactly one JSON
// value. Unicode normalisation (NFC, confusables) is not applied.
func canonicalJSON(raw []byte) (out string, values []string, ok bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "", nil, true
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		// No escape anywhere: compacting is all there is to do (strings are kept as
		// written; U+2028, U+2029 and invalid UTF-8 stay unescaped, which only helps a
		// search), and already compact arguments need no copy through a buffer.
		if isCompact(raw) {
			return string(raw), nil, true
		}
		var b bytes.Buffer
		if !json.Valid(raw) || json.Compact(&b, raw) != nil {
			return "", nil, false
		}
		return b.String(), nil, true
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type frame struct {
		object bool
		n      int // tokens written in this container
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil || (len(stack) == 0 && b.Len() > 0) {
			return "", nil, false
		}
		if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			b.WriteByte(byte(d))
			continue
		}
		isKey := false
		if n := len(stack); n > 0 {
			f := &stack[n-1]
			switch {
			case f.object && f.n%2 == 1:
				b.WriteByte(':')
			case f.n > 0:
				b.WriteByte(',')
			}
			isKey = f.object && f.n%2 == 0
			f.n++
		}
		switch t := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(t))
			stack = append(stack, frame{object: t == '{'})
		case json.Number:
			b.WriteString(t.String())
		case string:
			start := b.Len()
			enc.Encode(t)           //nolint:errcheck // a string always encodes
			b.Truncate(b.Len() - 1) // Encode's newline
			if !isKey && b.Len()-start != len(t)+2 {
				values = append(values, t)
			}
		case bool:
			b.WriteString(strconv.FormatBool(t))
		case nil:
			b.WriteString("null")
		}
	}
	if len(stack) > 0 || b.Len() == 0 {
		return "", nil, false
	}
	return b.String(), values, true
}

// decodedArgs returns the decoded arguments (numbers as json.Number) and whether the
// arguments were valid JSON; absent arguments decode as nil and count as valid.
func (s *Subject) decodedArgs() (any, bool) {
	s.decodeOnce.Do(func() {
		if len(bytes.TrimSpace(s.args)) == 0 {
			s.argsOK = true
			return
		}
		d := json.NewDecoder(bytes.NewReader(s.args))
		d.UseNumber()
		if err := d.Decode(&s.decoded); err != nil {
			s.decoded = nil
			return
		}
		s.argsOK = true
	})
	return s.decoded, s.argsOK
}

// arg returns the argument at a path of object keys and array indexes ("items", "0"), as
// text (see jsonText), and whether it exists.
func (s *Subject) arg(path ...string) (string, bool) {
	v, _ := s.decodedArgs()
	for _, key := range path {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return "", false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	return jsonText(v), true
}

// firstStringArg returns the value of the first top-level argument, in the order written,
// whose value is a JSON string.
func (s *Subject) firstStringArg() (string, bool) {
	s.firstOnce.Do(func() {
		d := json.NewDecoder(bytes.NewReader(s.args))
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return
		}
		for d.More() {
			if _, err := d.Token(); err != nil { // key
				return
			}
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				return
			}
			var str string
			if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &str) == nil {
				s.first, s.firstOK = str, true
				return
			}
		}
	})
	return s.first, s.firstOK
}

// jsonText renders a decoded JSON value as the text filters compare: a string as itself, any
// other value as its compact JSON text (5, true, null, {"a":1}).
func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// normEvent normalises an event name for comparison: lower case, underscores dropped, so
// "PreToolUse" and "pre_tool_use" compare equal.
// Only ASCII letters are folded (event names are ASCII).
func normEvent(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

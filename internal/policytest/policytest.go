// Package policytest is `hookcore test`: unit tests of hook policies without a recorded
// session, in the spirit of `opa test` (issue 11.5). A test file is YAML:
//
//	config: [hooks.yaml]            # optional: config files, relative to this file
//	hook_program: ~/go/bin/hookcore-hook  # optional: what `changes hook_program` protects
//	hook_config: [~/.hookcore, ~/.claude/settings.json]  # optional: what `changes hook_config` protects
//	hook_runs:                      # optional: what the hooks run, instead of this machine's
//	  path: [~/go/bin, /usr/bin]    # the hooks' PATH
//	  programs: {python3: /usr/bin/python3.11, jq: /usr/bin/jq, /bin/sh: /bin/sh}
//	cases:
//	  - name: rm -rf is blocked
//	    event: PreToolUse            # any spelling hook.ParseEvent accepts
//	    input:                       # the parts of a hook input that matter
//	      tool_name: Bash
//	      tool_input: {command: "rm -rf /"}
//	    expect:
//	      blocked: true
//	      reason_contains: rm -rf
//	      permission: deny           # allow | ask | deny | "" (none)
//	      updated_input: {command: "python3 -m unittest discover -s tests"}
//	      context_contains: unittest
//	      continue: false
//	      stop_reason_contains: ...
//	      errors: 0
//	      hooks: [no-rm-rf]          # exactly these hook ids ran, in order ([]: none ran)
//
// Every expect key is optional; a case checks only what it names, and a case that names none
// (no expect:, or expect: {}) is a problem of its file, not a pass. The input's cwd defaults to
// the test file's directory (a relative cwd is relative to it), hook_event_name to the
// event, and session_id to one of the case's own ("hookcore-test-case-N", N its place in the file, from 1): each case runs as a
// new session, so no state (a once hook, a circuit breaker, a Stop block streak, an invoked
// skill) carries over from the cases before it. Cases that name the same session_id share
// that session, in file order (docs/decisions.md, "New-user trial, stop 30").
// updated_input is compared as JSON values (key order and spacing do not matter). A file's
// problems (YAML, unknown keys, an unknown event) are returned together, sorted, as file:line:col: message, and
// no case of that file runs.
package policytest

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// MaxFileSize caps a test file, in bytes (1 MiB).
const MaxFileSize = 1 << 20

// File is one parsed test file.
type File struct {
	Path   string   // as given
	Dir    string   // absolute directory of the file
	Config []string // absolute paths of the config files it names; empty: the caller's
	// HookProgram is the hook program's paths that `changes hook_program` protects in its
	// cases (hookcore.Options.HookProgram); empty: the caller's.
	HookProgram []string
	// HookConfig is hookcore's config paths that `changes hook_config` protects in its
	// cases (hookcore.Options.HookConfig: absolute, glob components allowed), as its
	// hook_config: key gives them; nil: discovery's from the test file's directory and the
	// home of the user running the tests, and ~/.hookcore (red team round 53).
	HookConfig []string
	// HookRuns is what the hooks run, as its hook_runs: key gives it; nil: the programs of
	// the config's command hooks, looked up on the machine that runs the cases.
	HookRuns *Runs
	Cases    []Case
}

// Runs is a test file's hook_runs: what the config's hooks run, as the hook command would
// find it on a machine with this PATH (red team round 50: the programs, the slots before
// them on PATH and their startup files are part of the guard), fixed so that the cases do
// not depend on the machine they run on.
type Runs struct {
	// Path is the hooks' PATH: absolute directories (~/ is the home of the user running
	// the tests).
	Path []string
	// Programs maps each program name the hooks run (python3; an absolute name such as
	// /bin/sh is not looked up in Path) to the file it resolves to, absolute; "" when it is
	// not found. Python's version comes from the file's name (python3.11).
	Programs map[string]string
}

// Case is one test case.
type Case struct {
	Name   string         `yaml:"name"`
	Event  string         `yaml:"event"`
	Input  map[string]any `yaml:"input"`
	Expect Expect         `yaml:"expect"`

	Pos     string     `yaml:"-"` // file:line of the case
	event   hook.Event // parsed Event
	session string     // the session_id the case runs in when its input names none
}

// Expect is what a case checks; nil fields are not checked.
type Expect struct {
	Blocked            *bool     `yaml:"blocked"`
	ReasonContains     *string   `yaml:"reason_contains"`
	Permission         *string   `yaml:"permission"`
	UpdatedInput       any       `yaml:"updated_input"`
	ContextContains    *string   `yaml:"context_contains"`
	Continue           *bool     `yaml:"continue"`
	StopReasonContains *string   `yaml:"stop_reason_contains"`
	Errors             *int      `yaml:"errors"`
	Hooks              *[]string `yaml:"hooks"`
}

// Parse reads the test file at path.
func Parse(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, MaxFileSize)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return parse(data, path, filepath.Dir(abs))
}

func parse(data []byte, name, dir string) (*File, error) {
	out := &File{Path: name, Dir: dir}
	doc, err := parser.ParseBytes(data, 0)
	if err != nil {
		// file:line:col: message, as config errors are (new-user trial: it printed
		// "t.yaml: [9:12] sequence end token ']' not found"); the message and the position
		// only, as config.Load's, not the source around them.
		var ye yaml.Error
		if errors.As(err, &ye) {
			if t := ye.GetToken(); t != nil && t.Position != nil {
				return nil, fmt.Errorf("%s:%d:%d: syntax error: %s", name, t.Position.Line, t.Position.Column, config.YAMLMessage(ye.GetMessage()))
			}
			return nil, fmt.Errorf("%s: syntax error: %s", name, config.YAMLMessage(ye.GetMessage()))
		}
		return nil, fmt.Errorf("%s: syntax error: %s", name, oneLine(err.Error()))
	}
	if len(doc.Docs) != 1 || doc.Docs[0].Body == nil {
		return nil, fmt.Errorf("%s: a test file is one YAML mapping with a cases: list", name)
	}
	root, ok := doc.Docs[0].Body.(*ast.MappingNode)
	if !ok {
		return nil, fmt.Errorf("%s: %s: a test file is a mapping with a cases: list", name, at(doc.Docs[0].Body))
	}
	// problems are "line:col: message", reported sorted by position, all at once.
	type problem struct {
		line, col int
		msg       string
	}
	var problems []problem
	report := func(pos, msg string) {
		var p problem
		fmt.Sscanf(pos, "%d:%d", &p.line, &p.col)
		p.msg = fmt.Sprintf("%s:%s: %s", name, pos, msg)
		problems = append(problems, p)
	}
	bad := func(n ast.Node, format string, args ...any) {
		report(at(n), fmt.Sprintf(format, args...))
	}
	var cases *ast.SequenceNode
	for _, kv := range root.Values {
		switch key := kv.Key.GetToken().Value; key {
		case "config":
			var list []string
			if err := yaml.NodeToValue(kv.Value, &list); err != nil {
				if s, ok := kv.Value.(*ast.StringNode); ok {
					list = []string{s.Value}
				} else {
					bad(kv.Value, "config: a file name or a list of them")
					continue
				}
			}
			for _, p := range list {
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, p)
				}
				out.Config = append(out.Config, p)
			}
		case "hook_program", "hook_config":
			var list []string
			if err := yaml.NodeToValue(kv.Value, &list); err != nil {
				if s, ok := kv.Value.(*ast.StringNode); ok {
					list = []string{s.Value}
				} else {
					bad(kv.Value, "%s: an absolute path or a list of them", key)
					continue
				}
			}
			for i, p := range list {
				if rest, ok := strings.CutPrefix(p, "~/"); ok {
					home, _ := os.UserHomeDir()
					p = filepath.Join(home, rest)
					list[i] = p
				}
				if !filepath.IsAbs(p) {
					bad(kv.Value, "%s: %q is not an absolute path (or ~/...)", key, p)
				}
			}
			if key == "hook_config" {
				out.HookConfig = append([]string{}, list...) // set, even empty: nothing protected
			} else {
				out.HookProgram = list
			}
		case "hook_runs":
			var raw struct {
				Path     []string          `yaml:"path"`
				Programs map[string]string `yaml:"programs"`
			}
			if err := yaml.NodeToValue(kv.Value, &raw, yaml.DisallowUnknownField()); err != nil {
				bad(kv.Value, "hook_runs: a mapping of path (a list of directories) and programs (name: file); %s", oneLine(yaml.FormatError(err, false, false)))
				continue
			}
			runs := &Runs{Programs: map[string]string{}}
			abs := func(p string) string {
				if rest, ok := strings.CutPrefix(p, "~/"); ok {
					home, _ := os.UserHomeDir()
					p = filepath.Join(home, rest)
				}
				if p != "" && !filepath.IsAbs(p) {
					bad(kv.Value, "hook_runs: %q is not an absolute path (or ~/...)", p)
				}
				return p
			}
			for _, d := range raw.Path {
				runs.Path = append(runs.Path, abs(d))
			}
			for name, file := range raw.Programs {
				if name == "" || strings.Contains(name, "/") && !filepath.IsAbs(name) {
					bad(kv.Value, "hook_runs: program %q: a name or an absolute path", name)
				}
				runs.Programs[name] = abs(file)
			}
			out.HookRuns = runs
		case "cases":
			seq, ok := kv.Value.(*ast.SequenceNode)
			if !ok {
				bad(kv.Value, "cases: a list of cases")
				continue
			}
			if len(seq.Values) == 0 {
				// An error, as a missing cases: is (new-user trial, stop 30: "0 passed, 0
				// failed" and exit 0 tested nothing).
				bad(kv.Value, "cases: the list is empty: a test file needs at least one case")
				continue
			}
			cases = seq
		default:
			bad(kv.Key, "unknown key %q (want config, hook_program, hook_config, hook_runs or cases)", key)
		}
	}
	if cases == nil && len(problems) == 0 { // not said twice for an empty or broken list
		bad(root, "no cases: list")
	}
	if cases != nil {
		for i, item := range cases.Values {
			// Unknown keys are found by hand and the case decoded without them, so that one
			// run reports all of a case's problems, a misspelt expect key and an unknown event
			// together, as check does for a config (new-user trial: the event's error showed
			// only once the key was fixed).
			unknown := unknownKeys(item, reflect.TypeFor[Case](), func(n ast.Node, key string, known []string) {
				bad(n, "unknown field %q%s", key, didYouMean(key, known))
			})
			// A value of the wrong type is said in the file's terms (new-user trial, stop
			// 33: `blocked: "yes"` printed "cannot unmarshal string into Go struct field
			// Case.Expect of type bool").
			if expectTypes(valueOf(item, "expect"), bad) {
				continue
			}
			if notScalar(item, bad, "name", "event", "cwd") {
				continue
			}
			var c Case
			if err := yaml.NodeToValue(item, &c); err != nil {
				msg := oneLine(yaml.FormatError(err, false, false))
				// The parser's own position ("[6:14] cannot unmarshal ..."), where it has one, is
				// the error's: one file:line:col, not the case's and then it (new-user trial).
				if pos, rest, ok := strings.Cut(strings.TrimPrefix(msg, "["), "] "); ok && strings.HasPrefix(msg, "[") && !strings.ContainsAny(pos, " \t") {
					report(pos, rest)
					continue
				}
				bad(item, "%s", msg)
				continue
			}
			c.Pos = name + ":" + at(item)
			c.session = fmt.Sprintf("hookcore-test-case-%d", i+1)
			if c.Name == "" {
				c.Name = c.Pos
			}
			ev, ok := hook.ParseEvent(c.Event)
			if !ok {
				bad(valueOf(item, "event"), "case %q: unknown event %q%s", c.Name, c.Event, didYouMean(c.Event, hook.EventNames()))
			}
			if reflect.ValueOf(c.Expect).IsZero() && !unknown {
				// A case without an expect asserts nothing and passed (new-user trial, stop
				// 33); a misspelt expect key is reported as unknown instead.
				bad(firstKey(item), "case has no expect: case %q checks nothing; give it an expect: mapping (blocked, permission, reason_contains, ...)", c.Name)
				ok = false
			}
			c.event = ev
			if p := c.Expect.Permission; p != nil {
				perm, pok := hook.ParsePermission(*p)
				if !pok && *p != "" {
					bad(item, "case %q: permission %q: want allow, ask, deny or \"\"", c.Name, *p)
					ok = false
				}
				*p = perm.String()
			}
			if ok && !unknown {
				out.Cases = append(out.Cases, c)
			}
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b problem) int {
			if a.line != b.line {
				return a.line - b.line
			}
			return a.col - b.col
		})
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.msg
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return out, nil
}

// didYouMean returns ` (did you mean "x"?)` for the candidate closest to word, or "".
func didYouMean(word string, candidates []string) string {
	if s := config.Suggest(word, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}

// expectTypes reports, through bad, each key of the expect mapping n whose value cannot
// decode into its field (a bool, a number, a string or a list of strings), and whether there
// was one. Other shapes are left to the decoder.
func expectTypes(n ast.Node, bad func(n ast.Node, format string, args ...any)) bool {
	m, ok := n.(*ast.MappingNode)
	if !ok {
		return false
	}
	found := false
	for _, kv := range m.Values {
		v := kv.Value
		if t, ok := v.(*ast.TagNode); ok {
			v = t.Value
		}
		var want string
		switch key := kv.Key.GetToken().Value; key {
		case "blocked", "continue":
			if _, ok := v.(*ast.BoolNode); !ok {
				want = "true or false"
			}
		case "errors":
			if _, ok := v.(*ast.IntegerNode); !ok {
				want = "a whole number"
			}
		case "reason_contains", "permission", "context_contains", "stop_reason_contains":
			switch v.(type) {
			case *ast.StringNode, *ast.LiteralNode, *ast.NullNode:
			default:
				want = "a string"
			}
		}
		if want != "" {
			bad(kv.Value, "expect.%s: want %s, got %s", kv.Key.GetToken().Value, want, shown(v))
			found = true
		}
	}
	return found
}

// shown is a value node as the message quotes it: a scalar as a Go string, a collection as
// its kind.
func shown(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode:
		return "null"
	}
	if tk := n.GetToken(); tk != nil {
		return fmt.Sprintf("%q", tk.Value)
	}
	return fmt.Sprintf("%q", n.String())
}

// unknownKeys calls bad with each key of the mapping n (and of the mappings in it that
// decode into a struct of t) that has no field of t by its yaml tag, and the keys that t
// has, and reports whether there was one. A node that is no mapping is left to the decoder.
func unknownKeys(n ast.Node, t reflect.Type, bad func(n ast.Node, key string, known []string)) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	var values []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	default:
		return false
	}
	fields := map[string]reflect.Type{}
	var known []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && tag != "" && tag != "-" {
			fields[tag] = f.Type
			known = append(known, tag)
		}
	}
	found := false
	for _, kv := range values {
		key := kv.Key.GetToken().Value
		ft, ok := fields[key]
		if !ok {
			bad(kv.Key, key, known)
			found = true
			continue
		}
		if unknownKeys(kv.Value, ft, bad) {
			found = true
		}
	}
	return found
}

// valueOf returns the value of key in the mapping n, else n itself: where a problem of that
// key is reported.
func valueOf(n ast.Node, key string) ast.Node {
	if m, ok := n.(*ast.MappingNode); ok {
		for _, kv := range m.Values {
			if kv.Key.GetToken().Value == key {
				return kv.Value
			}
		}
	}
	return n
}

// notScalar reports, with bad, each of keys of the case item whose value is a list or a
// mapping where one value goes (new-user trial, stop 34: `event: [PreToolUse]` printed
// "cannot unmarshal []interface {} into Go struct field Case.Event of type string"), and
// whether there was one.
func notScalar(item ast.Node, bad func(ast.Node, string, ...any), keys ...string) bool {
	m, ok := item.(*ast.MappingNode)
	if !ok {
		return false
	}
	found := false
	for _, kv := range m.Values {
		k := kv.Key.GetToken().Value
		if !slices.Contains(keys, k) {
			continue
		}
		switch kv.Value.Type() {
		case ast.SequenceType:
			bad(kv.Value, "%s: one value, not a list (one case per event: write the case again for another)", k)
			found = true
		case ast.MappingType:
			bad(kv.Value, "%s: one value, not a mapping", k)
			found = true
		}
	}
	return found
}

// firstKey returns the first key of the mapping n, where the case starts, else n.
func firstKey(n ast.Node) ast.Node {
	if m, ok := n.(*ast.MappingNode); ok && len(m.Values) > 0 {
		return m.Values[0].Key
	}
	return n
}

func at(n ast.Node) string {
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return "1:1"
	}
	return fmt.Sprintf("%d:%d", tk.Position.Line, tk.Position.Column)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// HookInput builds the case's hook input: its input mapping as JSON, with the defaults filled in.
func (c *Case) HookInput(dir string) (*hook.Input, error) {
	m := map[string]any{}
	for k, v := range c.Input {
		m[k] = v
	}
	if cwd, ok := m["cwd"]; !ok {
		m["cwd"] = dir
	} else if s, ok := cwd.(string); ok && s != "" && !filepath.IsAbs(s) {
		// A relative cwd names a directory beside the test file (a fixture project), so
		// the case runs the same from any working directory.
		m["cwd"] = filepath.Join(dir, s)
	}
	if _, ok := m["session_id"]; !ok {
		m["session_id"] = c.session
		if c.session == "" { // a Case made by hand, not by Parse
			m["session_id"] = "hookcore-test"
		}
	}
	m["hook_event_name"] = string(c.event)
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: input: %v", c.Pos, err)
	}
	in := &hook.Input{}
	if err := json.Unmarshal(data, in); err != nil {
		return nil, fmt.Errorf("%s: input is not a valid hook input: %v", c.Pos, err)
	}
	return in, nil
}

// Outcome is a case's verdict.
type Outcome struct {
	Case     *Case
	File     string
	Failures []string // empty: passed
	Elapsed  time.Duration
}

// Passed reports whether the case passed.
func (o *Outcome) Passed() bool { return len(o.Failures) == 0 }

// Fire runs the hooks of one event; the CLI passes its Runner's Fire.
type Fire func(event hook.Event, in *hook.Input) hook.Result

// Run runs every case of f with fire, in order.
func Run(f *File, fire Fire) []Outcome {
	out := make([]Outcome, 0, len(f.Cases))
	for i := range f.Cases {
		c := &f.Cases[i]
		o := Outcome{Case: c, File: f.Path}
		start := time.Now()
		in, err := c.HookInput(f.Dir)
		if err != nil {
			o.Failures = []string{err.Error()}
		} else {
			o.Failures = Check(c.Expect, fire(c.event, in))
		}
		o.Elapsed = time.Since(start)
		out = append(out, o)
	}
	return out
}

// Check compares a result with what a case expects and returns one message per mismatch.
func Check(x Expect, res hook.Result) []string {
	var fails []string
	failf := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	if x.Blocked != nil && res.Blocked != *x.Blocked {
		failf("blocked: want %v, got %v%s", *x.Blocked, res.Blocked, reasonNote(res))
	}
	if x.ReasonContains != nil && !strings.Contains(res.Reason, *x.ReasonContains) {
		failf("reason: want it to contain %q, got %q", *x.ReasonContains, res.Reason)
	}
	if x.Permission != nil && res.Permission.String() != *x.Permission {
		failf("permission: want %q, got %q", *x.Permission, res.Permission)
	}
	if x.UpdatedInput != nil {
		if d := jsonDiff(x.UpdatedInput, res.UpdatedInput); d != "" {
			failf("updated_input: %s", d)
		}
	}
	if x.ContextContains != nil && !strings.Contains(res.AdditionalContext, *x.ContextContains) {
		failf("additional context: want it to contain %q, got %q", *x.ContextContains, res.AdditionalContext)
	}
	if x.Continue != nil && res.Continue != *x.Continue {
		failf("continue: want %v, got %v", *x.Continue, res.Continue)
	}
	if x.StopReasonContains != nil && !strings.Contains(res.StopReason, *x.StopReasonContains) {
		failf("stop reason: want it to contain %q, got %q", *x.StopReasonContains, res.StopReason)
	}
	if x.Errors != nil && res.Errors != *x.Errors {
		failf("errors: want %d, got %d%s", *x.Errors, res.Errors, errorNote(res))
	}
	if x.Hooks != nil {
		ran := []string{}
		for _, r := range res.Hooks {
			ran = append(ran, r.ID)
		}
		if !slices.Equal(ran, *x.Hooks) {
			failf("hooks run: want [%s], got [%s]", strings.Join(*x.Hooks, ", "), strings.Join(ran, ", "))
		}
	}
	return fails
}

func reasonNote(res hook.Result) string {
	if res.Reason == "" {
		return ""
	}
	return fmt.Sprintf(" (reason %q)", res.Reason)
}

func errorNote(res hook.Result) string {
	var es []string
	for _, r := range res.Hooks {
		if r.Error != "" {
			es = append(es, r.ID+": "+r.Error)
		}
	}
	if len(es) == 0 {
		return ""
	}
	return " (" + strings.Join(es, "; ") + ")"
}

// jsonDiff compares want (decoded YAML) with got (JSON); "" when equal as JSON values.
func jsonDiff(want any, got json.RawMessage) string {
	wb, err := json.Marshal(want)
	if err != nil {
		return err.Error()
	}
	var w, g any
	_ = json.Unmarshal(wb, &w)
	if len(bytes.TrimSpace(got)) == 0 || string(bytes.TrimSpace(got)) == "null" {
		return fmt.Sprintf("want %s, got no rewrite", wb)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Sprintf("want %s, got %s", wb, got)
	}
	if !reflect.DeepEqual(w, g) {
		return fmt.Sprintf("want %s, got %s", wb, got)
	}
	return ""
}

// Summary is the closing line: "N passed, M failed".
func Summary(outs []Outcome) string {
	p, f := 0, 0
	for i := range outs {
		if outs[i].Passed() {
			p++
		} else {
			f++
		}
	}
	return fmt.Sprintf("%d passed, %d failed", p, f)
}

// WriteJUnit writes outs as a JUnit XML report, one testsuite per test file, the form CI
// systems (GitHub Actions, GitLab, Jenkins) read.
func WriteJUnit(w io.Writer, outs []Outcome) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []*suite `xml:"testsuite"`
	}
	var doc suites
	byFile := map[string]*suite{}
	for i := range outs {
		o := &outs[i]
		s := byFile[o.File]
		if s == nil {
			s = &suite{Name: o.File}
			byFile[o.File] = s
			doc.Suites = append(doc.Suites, s)
		}
		tc := testcase{Name: o.Case.Name, Classname: o.File, Time: fmt.Sprintf("%.3f", o.Elapsed.Seconds())}
		if !o.Passed() {
			tc.Failure = &failure{Message: o.Failures[0], Text: o.Case.Pos + "\n" + strings.Join(o.Failures, "\n")}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

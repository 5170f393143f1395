package rego

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/hookcore/hookcore/hook"
)

// A prefilter is derived from a compiled policy at load time. It answers "could the policy
// decide anything for this input that it does not decide for the empty input {}?" without
// calling OPA and without allocating; when the answer is no, the executor returns the
// decision it computed for {} at load.
//
// Soundness. Every definition of every rule of the policy (all modules, not only the
// queried package) whose head, body or else-chain refers to input, directly or through
// other rules and functions, must carry a guard: a necessary condition for its body to
// succeed, read from the prefix of its compiled body (the literals in the order topdown
// evaluates them), up to the first literal the analysis does not understand. Understood
// literals are bindings of input paths and rules (`x = input.a.b`, `x = data.p.r`,
// `x = data.p.r[i]`), comparisons with a string (`input.a == "s"`), contains / startswith
// / endswith with a string, `in` a literal set of strings, and rule references used as
// conditions. When every guard is false for an input, every input-dependent definition
// fails at a literal that raises no error (its arguments are undefined or strings), so
// the query's value is the one of the input-independent rules, the same as for {}.
// The query itself must not refer to input; a `with` anywhere, a non-deterministic
// builtin anywhere (time, rand, http.send, ...) or an input-dependent definition without
// a guard leaves no prefilter (every event is evaluated). Guards read the hook input by
// the JSON names of hook.Input; anything the reader is not sure of (an Extra field, an
// escaped key, a duplicate key, a non-string value) counts as "may match"; an escaped
// string value is decoded as encoding/json decodes it (on the stack when it fits).
type prefilter struct {
	guards []cond // one per input-dependent definition; the event is skipped when all are false
	// keys, when the query names a package, holds the guard of each decision key (see
	// keyGuard): the key's value can differ from its value for {} only when it holds.
	keys map[string]cond
}

// mayDecide reports whether some guard may hold for in.
func (p *prefilter) mayDecide(in *hook.Input) bool {
	for _, g := range p.guards {
		if g.may(in) {
			return true
		}
	}
	return false
}

// cond is a necessary condition on the input. may reports false only when the condition
// certainly does not hold.
type cond interface {
	may(in *hook.Input) bool
}

type anyOf []cond // false when every element is false

func (c anyOf) may(in *hook.Input) bool {
	for _, x := range c {
		if x.may(in) {
			return true
		}
	}
	return false
}

type allOf []cond // false when one element is false

func (c allOf) may(in *hook.Input) bool {
	for _, x := range c {
		if !x.may(in) {
			return false
		}
	}
	return true
}

type always struct{}

func (always) may(*hook.Input) bool { return true }

type atomOp int

const (
	opDefined atomOp = iota
	opEqual
	opContains
	opPrefix
	opSuffix
	opIn
)

// atom is a test of the value at an input path.
type atom struct {
	path []string
	op   atomOp
	lits []string // opEqual, opContains, opPrefix, opSuffix: one; opIn: the set
}

func (a atom) may(in *hook.Input) bool {
	var buf [256]byte // an escaped string is decoded here, on the stack
	v, st := lookup(in, a.path, &buf)
	switch st {
	case absent:
		return false
	case unsure:
		return true
	case other:
		return a.op == opDefined || a.op != opEqual // a non-string is defined; == "s" cannot hold; builtins: unsure of their error handling
	}
	switch a.op {
	case opEqual:
		return v == a.lits[0]
	case opContains:
		return strings.Contains(v, a.lits[0])
	case opPrefix:
		return strings.HasPrefix(v, a.lits[0])
	case opSuffix:
		return strings.HasSuffix(v, a.lits[0])
	case opIn:
		for _, l := range a.lits {
			if v == l {
				return true
			}
		}
		return false
	}
	return true // opDefined
}

type valueState int

const (
	absent valueState = iota // the path is undefined in the input document
	str                      // a string, exactly v
	other                    // defined, not a string
	unsure                   // not known without decoding
)

// lookup reads the value at path of in's JSON document (hook.Input.MarshalJSON) without
// allocating.
// An escaped string is decoded into buf when it fits (the result then points into buf).
func lookup(in *hook.Input, path []string, buf *[256]byte) (string, valueState) {
	if len(path) == 0 {
		return "", unsure
	}
	if _, ok := in.Extra[path[0]]; ok {
		return "", unsure
	}
	var s string
	switch path[0] {
	case "tool_input":
		return lookupRaw(in.ToolInput, path[1:], buf)
	case "tool_response":
		return lookupRaw(in.ToolResponse, path[1:], buf)
	case "session_id":
		s = in.SessionID
	case "transcript_path":
		s = in.TranscriptPath
	case "cwd":
		s = in.Cwd
	case "permission_mode":
		s = in.PermissionMode
	case "hook_event_name":
		s = in.HookEventName
	case "tool_name":
		s = in.ToolName
	case "tool_use_id":
		s = in.ToolUseID
	case "error":
		s = in.Error
	case "prompt":
		s = in.Prompt
	case "source":
		s = in.Source
	case "reason":
		s = in.Reason
	case "message":
		s = in.Message
	case "notification_type":
		s = in.NotificationType
	case "trigger":
		s = in.Trigger
	case "agent_id":
		s = in.AgentID
	case "agent_type":
		s = in.AgentType
	case "stop_hook_active":
		return "", unsure
	default:
		return "", absent // MarshalJSON writes the named fields and Extra, nothing else (TestInputNames)
	}
	switch {
	case s == "":
		return "", absent // MarshalJSON leaves empty strings out
	case len(path) > 1:
		return "", absent // a field of a string
	case !utf8.ValidString(s):
		return "", unsure // encoded with U+FFFD
	}
	return s, str
}

// lookupRaw follows path through the JSON value b (validated before: see inputValid).
func lookupRaw(b json.RawMessage, path []string, buf *[256]byte) (string, valueState) {
	if len(b) == 0 {
		return "", absent
	}
	for _, k := range path {
		b = trimSpace(b)
		if len(b) == 0 || b[0] != '{' {
			return "", unsure
		}
		v, found, ok := objectField(b, k)
		if !ok {
			return "", unsure
		}
		if !found {
			return "", absent
		}
		b = v
	}
	b = trimSpace(b)
	if len(b) == 0 {
		return "", unsure
	}
	if b[0] != '"' {
		return "", other
	}
	body := b[1 : len(b)-1]
	if bytes.IndexByte(body, '\\') >= 0 || !utf8.Valid(body) {
		// An escape (json.Marshal writes & < > as \u0026 ...) or a byte that decodes to
		// U+FFFD: decode it as OPA's decoder (encoding/json) does, into buf when it can.
		if d, ok := unescape(body, buf[:0]); ok {
			return unsafeString(d), str
		}
		var s string
		if json.Unmarshal(b, &s) != nil {
			return "", unsure
		}
		return s, str
	}
	return unsafeString(body), str
}

// unescape decodes the body of a JSON string (valid UTF-8, every \u escape a code point
// outside the surrogates) by appending to buf; ok is false for anything else, or when the
// result does not fit in buf's capacity.
func unescape(body, buf []byte) ([]byte, bool) {
	if !utf8.Valid(body) {
		return nil, false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			buf = append(buf, c)
		} else {
			if i+1 >= len(body) {
				return nil, false
			}
			i++
			switch body[i] {
			case '"', '\\', '/':
				buf = append(buf, body[i])
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				if i+4 >= len(body) {
					return nil, false
				}
				var r rune
				for _, h := range body[i+1 : i+5] {
					switch {
					case '0' <= h && h <= '9':
						r = r<<4 | rune(h-'0')
					case 'a' <= h && h <= 'f':
						r = r<<4 | rune(h-'a'+10)
					case 'A' <= h && h <= 'F':
						r = r<<4 | rune(h-'A'+10)
					default:
						return nil, false
					}
				}
				if utf16.IsSurrogate(r) {
					return nil, false
				}
				buf = utf8.AppendRune(buf, r)
				i += 4
			default:
				return nil, false
			}
		}
		if len(buf) == cap(buf) {
			return nil, false // full: it may have grown onto the heap
		}
	}
	return buf, true
}

// objectField finds key k in the JSON object b: its raw value, whether it is there, and ok
// false when the scanner cannot tell (an escaped key, k twice).
func objectField(b []byte, k string) (val []byte, found, ok bool) {
	i := 1
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return nil, false, false
		}
		if b[i] == '}' {
			return val, found, true
		}
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		if i >= len(b) || b[i] != '"' {
			return nil, false, false
		}
		end := skipString(b, i)
		if end < 0 {
			return nil, false, false
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, false, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false, false
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return nil, false, false
		}
		if string(key) == k {
			if found {
				return nil, false, false
			}
			val, found = b[i:vend], true
		}
		i = vend
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func trimSpace(b []byte) []byte {
	i := skipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

// skipString returns the index after the string starting at b[i] == '"', or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the JSON value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// inputValid reports whether in encodes (MarshalJSON fails on invalid raw JSON, and then
// Execute fails; the prefilter must not turn that error into a decision).
func inputValid(in *hook.Input) bool {
	if len(in.ToolInput) > 0 && !json.Valid(in.ToolInput) || len(in.ToolResponse) > 0 && !json.Valid(in.ToolResponse) {
		return false
	}
	for _, v := range in.Extra {
		if !json.Valid(v) {
			return false
		}
	}
	return true
}

// analyzer derives a prefilter from a compiler's rules.
type analyzer struct {
	c        *ast.Compiler
	dep      map[*ast.Rule]int8 // 1 visiting, 2 input-independent, 3 input-dependent
	guard    map[*ast.Rule]*defInfo
	unusable bool // a with, a non-deterministic builtin
}

// defInfo is what the analysis knows of one rule definition.
type defInfo struct {
	cond  cond
	alias []string // the definition's value is input at this path (when its body holds)
	konst []string // the definition's value is this string, or set/array of strings, always
}

// newPrefilter returns the prefilter of the compiled policy c for query, or nil when the
// policy does not allow one (see prefilter).
func newPrefilter(c *ast.Compiler, query ast.Body) *prefilter {
	a := &analyzer{c: c, dep: map[*ast.Rule]int8{}, guard: map[*ast.Rule]*defInfo{}}
	if a.refersTo(query, false) || a.unusable {
		return nil // the query reads input itself (or uses with)
	}
	var qref ast.Ref // the queried document, when the query is one data reference
	if len(query) == 1 {
		if t, ok := query[0].Terms.(*ast.Term); ok {
			if r, ok := t.Value.(ast.Ref); ok && r.IsGround() && r.HasPrefix(ast.DefaultRootRef) {
				qref = r
			}
		}
	}
	p := &prefilter{}
	for _, m := range c.Modules {
		for _, r := range m.Rules {
			for d := r; d != nil; d = d.Else {
				if !a.dependsOnInput(d) || a.harmless(d, qref) {
					continue
				}
				g := a.def(d).cond
				if _, ok := g.(always); ok {
					return nil
				}
				p.guards = append(p.guards, g)
			}
			if a.unusable {
				return nil
			}
		}
	}
	if a.unusable {
		return nil
	}
	// Chained rules repeat their conditions (every reference to bash_command carries its
	// guard): flatten, drop repeats, and keep each distinct guard once.
	seen := map[string]bool{}
	guards := p.guards[:0]
	for _, g := range p.guards {
		g = simplify(g)
		if _, ok := g.(always); ok {
			return nil
		}
		if k := fmt.Sprintf("%#v", g); !seen[k] {
			seen[k] = true
			guards = append(guards, g)
		}
	}
	p.guards = guards
	if qref != nil {
		p.keys = map[string]cond{}
		for _, key := range decisionKeyOrder {
			p.keys[key] = a.keyGuard(qref.Append(ast.StringTerm(key)), qref)
		}
		for _, r := range c.GetRulesWithPrefix(qref) {
			if ref := r.Ref(); len(ref) > len(qref) {
				if name, ok := ref[len(qref)].Value.(ast.String); ok && !decisionKeys[string(name)] {
					p.keys[string(name)] = a.keyGuard(qref.Append(ast.StringTerm(string(name))), qref)
				}
			}
		}
	}
	return p
}

// keyGuard is the guard of the document at ref (a decision key of the package qref): the
// guards of the input-dependent definitions of every rule it may read, directly or
// through other rules and functions (an over-approximation: every rule a reference may
// name). It is sound for the same reason as the whole prefilter, restricted to the rules
// the key's evaluation can reach: when it is false, each of those definitions fails at a
// literal of its guard without an error, for the event as for {} (whose guards are all
// false, or there would be no prefilter), and the others evaluate alike. A definition that
// reads the whole data document (`x := data`) makes it always{}.
func (a *analyzer) keyGuard(ref, qref ast.Ref) cond {
	seen := map[*ast.Rule]bool{}
	var guards anyOf
	var visit func(rules []*ast.Rule) bool // false: the key must always be evaluated
	visit = func(rules []*ast.Rule) bool {
		for _, r := range rules {
			for d := r; d != nil; d = d.Else {
				if seen[d] {
					continue
				}
				seen[d] = true
				if a.dependsOnInput(d) && !a.harmless(d, qref) {
					g := a.def(d).cond
					if _, ok := g.(always); ok {
						return false
					}
					guards = append(guards, g)
				}
				next, whole := a.reads(d)
				if whole || !visit(next) {
					return false
				}
			}
		}
		return true
	}
	if !visit(append(a.c.GetRules(ref), a.c.GetRulesWithPrefix(ref)...)) {
		return always{}
	}
	if g := simplify(guards); len(guards) > 0 {
		return g
	}
	return anyOf{} // reads no input-dependent rule: never differs from {}
}

// reads lists the rules definition d's references may name, and whole true when d reads
// the data document as a whole.
func (a *analyzer) reads(d *ast.Rule) (rules []*ast.Rule, whole bool) {
	var walk func(x any)
	walk = func(x any) {
		ast.WalkTerms(x, func(t *ast.Term) bool {
			switch v := t.Value.(type) {
			case ast.Var:
				if v.Equal(ast.DefaultRootDocument.Value) {
					whole = true
				}
			case ast.Ref:
				if v.HasPrefix(ast.DefaultRootRef) {
					rules = append(rules, a.c.GetRules(v.GroundPrefix())...)
				} else {
					walk(v[0])
				}
				for _, e := range v[1:] {
					walk(e)
				}
				return true
			}
			return false
		})
	}
	walk(d.Head)
	walk(d.Body)
	return rules, whole
}

// simplify flattens nested allOf and anyOf, drops repeated elements and an opDefined atom
// whose path another atom of the same allOf tests (each test needs its path defined), and
// unwraps a single element. The result holds for exactly the inputs c holds for.
func simplify(c cond) cond {
	switch v := c.(type) {
	case allOf:
		var flat allOf
		for _, x := range v {
			x = simplify(x)
			switch y := x.(type) {
			case always:
				continue
			case allOf:
				flat = append(flat, y...)
			default:
				flat = append(flat, y)
			}
		}
		flat = dedupe(flat)
		tested := map[string]bool{}
		for _, x := range flat {
			if at, ok := x.(atom); ok && at.op != opDefined {
				tested[strings.Join(at.path, "\x00")] = true
			}
		}
		out := flat[:0]
		for _, x := range flat {
			if at, ok := x.(atom); ok && at.op == opDefined && tested[strings.Join(at.path, "\x00")] {
				continue
			}
			out = append(out, x)
		}
		switch len(out) {
		case 0:
			return always{}
		case 1:
			return out[0]
		}
		return out
	case anyOf:
		var flat anyOf
		for _, x := range v {
			x = simplify(x)
			switch y := x.(type) {
			case always:
				return always{}
			case anyOf:
				flat = append(flat, y...)
			default:
				flat = append(flat, y)
			}
		}
		flat = anyOf(dedupe(flat))
		if len(flat) == 1 {
			return flat[0]
		}
		return flat
	}
	return c
}

func dedupe[S ~[]cond](xs S) S {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if k := fmt.Sprintf("%#v", x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// refersToInput walks x: a ref to input, a ref to a rule that depends on input, a call of
// such a function. It marks the analysis unusable on a with or a non-deterministic builtin.
func (a *analyzer) refersToInput(x any) bool { return a.refersTo(x, true) }

// refersTo is refersToInput; with follow false, refs to rules are not followed.
func (a *analyzer) refersTo(x any, follow bool) bool {
	found := false
	ast.WalkExprs(x, func(e *ast.Expr) bool {
		if len(e.With) > 0 {
			a.unusable = true
		}
		return false
	})
	ast.WalkTerms(x, func(t *ast.Term) bool {
		switch v := t.Value.(type) {
		case ast.Var:
			if v.Equal(ast.InputRootDocument.Value) {
				found = true
			}
		case ast.Ref:
			if b, ok := ast.BuiltinMap[v.String()]; ok {
				if b.IsNondeterministic() {
					a.unusable = true
				}
				return false
			}
			switch {
			case v.HasPrefix(ast.InputRootRef):
				found = true
			case follow && v.HasPrefix(ast.DefaultRootRef):
				for _, r := range a.c.GetRules(v.GroundPrefix()) {
					if a.dependsOnInput(r) {
						found = true
					}
				}
			}
		case ast.Call:
			if len(v) > 0 {
				if r, ok := v[0].Value.(ast.Ref); ok {
					if b, ok := ast.BuiltinMap[r.String()]; ok && b.IsNondeterministic() {
						a.unusable = true
					}
				}
			}
		}
		return false
	})
	return found
}

// dependsOnInput: d's head, body or else-chain refers to input, directly or not. The rules
// of Rego cannot recurse, so the visiting mark only guards against a surprise.
func (a *analyzer) dependsOnInput(d *ast.Rule) bool {
	switch a.dep[d] {
	case 1, 3:
		return true
	case 2:
		return false
	}
	a.dep[d] = 1
	dep := a.refersToInput(d.Head) || a.refersToInput(d.Body)
	for e := d.Else; e != nil; e = e.Else {
		dep = dep || a.refersToInput(e.Head) || a.refersToInput(e.Body)
	}
	// The other definitions of the same rule: its value is theirs together.
	a.dep[d] = 2
	if dep {
		a.dep[d] = 3
	}
	return dep
}

// decisionKeys are the keys of the query's value that apply reads.
var decisionKeys = map[string]bool{"deny": true, "ask": true, "allow": true, "reason": true, "updated_input": true, "additional_context": true, "system_message": true}

// harmless: definition d may hold for an event the prefilter skips without changing its
// decision: its value is not one apply reads (a key of the queried document other than the
// decision keys, or a rule outside it), and it cannot fail: one single-value definition
// whose body and head read only input paths, every literal a binding or a test the
// analysis understands, its value an input path or a constant (so no conflict). Helpers
// like `bash_command := input.tool_input.command if input.tool_name == "Bash"` are such.
func (a *analyzer) harmless(d *ast.Rule, qref ast.Ref) bool {
	if qref == nil || d.Else != nil || d.Default || len(d.Head.Args) > 0 || d.Head.RuleKind() != ast.SingleValue || d.Head.Value == nil {
		return false
	}
	if d.Module == nil {
		return false
	}
	path := d.Ref()
	if defs, ok := a.ruleDefs(path); !ok || len(defs) != 1 {
		return false // two definitions may conflict
	}
	switch {
	case path.HasPrefix(qref) && len(path) > len(qref):
		k, ok := path[len(qref)].Value.(ast.String)
		if !ok || decisionKeys[string(k)] {
			return false
		}
	case qref.HasPrefix(path) || path.HasPrefix(qref):
		return false
	}
	readsData := false
	ast.WalkRefs(d, func(r ast.Ref) bool {
		if r.HasPrefix(ast.DefaultRootRef) {
			readsData = true
		}
		return false
	})
	if readsData {
		return false
	}
	env := map[ast.Var]absval{}
	for _, lit := range d.Body {
		if _, ok := a.literal(lit, env); !ok {
			return false
		}
	}
	switch v := d.Head.Value.Value.(type) {
	case ast.Var:
		b, ok := env[v]
		return ok && b.path != nil
	default:
		return d.Head.Value.IsGround()
	}
}

// absval is what the analysis knows of a term bound to a variable.
type absval struct {
	path    []string    // input at this path
	konst   []string    // a string or a set/array of strings, always
	partial []*ast.Rule // a multi-value rule's definitions (its value is a set, maybe empty)
}

// def analyses one definition (memoised).
func (a *analyzer) def(d *ast.Rule) *defInfo {
	if di, ok := a.guard[d]; ok {
		return di
	}
	di := &defInfo{cond: always{}}
	a.guard[d] = di // a cycle reads "always"
	if d.Else != nil || len(d.Head.Args) > 0 {
		return di
	}
	env := map[ast.Var]absval{}
	var conj allOf
	complete := true
	for _, lit := range d.Body {
		c, ok := a.literal(lit, env)
		if _, isAlways := c.(always); c != nil && !isAlways {
			conj = append(conj, c)
		}
		if !ok {
			complete = false
			break
		}
	}
	if len(conj) > 0 {
		di.cond = conj
	}
	if complete && d.Head.Value != nil {
		switch v := d.Head.Value.Value.(type) {
		case ast.Var:
			if b, ok := env[v]; ok && b.path != nil {
				di.alias = b.path
			}
		default:
			if len(conj) == 0 && d.Head.RuleKind() == ast.SingleValue {
				di.konst = stringsLit(d.Head.Value)
			}
		}
	}
	return di
}

// ruleCond is the condition of a reference to the rule at ref (exact, ground): for a
// single-value rule, that one definition holds; for a multi-value rule, that its set is
// not empty. ok is false when ref is not one rule's path.
func (a *analyzer) ruleDefs(ref ast.Ref) ([]*ast.Rule, bool) {
	if !ref.IsGround() {
		return nil, false
	}
	defs := a.c.GetRulesExact(ref)
	if len(defs) == 0 || len(a.c.GetRulesWithPrefix(ref)) != len(defs) {
		return nil, false // not a rule, or a rule with ref-head children
	}
	for _, d := range defs {
		if len(d.Head.Args) > 0 {
			return nil, false
		}
	}
	return defs, true
}

func (a *analyzer) anyDef(defs []*ast.Rule) cond {
	var alts anyOf
	for _, d := range defs {
		if d.Default {
			return always{}
		}
		c := a.def(d).cond
		if _, ok := c.(always); ok {
			return always{}
		}
		alts = append(alts, c)
	}
	return alts
}

// term abstracts t (a ref, a string, a set of strings): the condition its evaluation needs,
// what it is, and ok false when the analysis does not know it.
func (a *analyzer) term(t *ast.Term, env map[ast.Var]absval) (cond, absval, bool) {
	switch v := t.Value.(type) {
	case ast.String, ast.Set, *ast.Array:
		if s := stringsLit(t); s != nil {
			return nil, absval{konst: s}, true
		}
		return nil, absval{}, false
	case ast.Var:
		if b, ok := env[v]; ok {
			return nil, b, true
		}
		return nil, absval{}, false
	case ast.Ref:
		if p, ok := stringPath(v[1:]); ok && v[0].Value.Compare(ast.InputRootDocument.Value) == 0 {
			return atom{path: p, op: opDefined}, absval{path: p}, true
		}
		if h, ok := v[0].Value.(ast.Var); ok {
			if b, bound := env[h]; bound && b.path != nil {
				if p, ok := stringPath(v[1:]); ok {
					full := append(append([]string(nil), b.path...), p...)
					return atom{path: full, op: opDefined}, absval{path: full}, true
				}
			}
		}
		if !v.HasPrefix(ast.DefaultRootRef) {
			return nil, absval{}, false
		}
		// data.p.r, or data.p.r[x]: the rule must hold (or its set be non-empty).
		for n := len(v); n >= 2; n-- {
			defs, ok := a.ruleDefs(v[:n])
			if !ok {
				continue
			}
			single := defs[0].Head.RuleKind() == ast.SingleValue
			if n == len(v) && !single {
				return nil, absval{partial: defs}, true // a set, maybe empty: always defined
			}
			c := a.anyDef(defs)
			if n == len(v) && len(defs) == 1 {
				di := a.def(defs[0])
				return c, absval{path: di.alias, konst: di.konst}, true
			}
			return c, absval{}, true
		}
	}
	return nil, absval{}, false
}

// literal abstracts one body literal: the condition it adds and ok false when the analysis
// stops before it (the literal is not understood).
func (a *analyzer) literal(e *ast.Expr, env map[ast.Var]absval) (cond, bool) {
	if e.Negated || len(e.With) > 0 {
		return nil, false
	}
	if t, ok := e.Terms.(*ast.Term); ok {
		if b, isBool := t.Value.(ast.Boolean); isBool && bool(b) {
			return nil, true
		}
		if r, isRef := t.Value.(ast.Ref); isRef && r.HasPrefix(ast.DefaultRootRef) {
			c, _, ok := a.term(t, env)
			return c, ok && c != nil
		}
		return nil, false
	}
	if !e.IsCall() {
		return nil, false
	}
	ops := e.Operands()
	switch e.Operator().String() {
	case ast.Equality.Name, ast.Equal.Name:
		if len(ops) != 2 {
			return nil, false
		}
		for i := range 2 {
			x, y := ops[i], ops[1-i]
			if v, isVar := x.Value.(ast.Var); isVar && !isBound(env, v) && !v.IsWildcard() {
				c, b, ok := a.term(y, env)
				if !ok {
					return nil, false
				}
				env[v] = b
				return c, true
			}
		}
		for i := range 2 {
			x, y := ops[i], ops[1-i]
			if s, isStr := y.Value.(ast.String); isStr {
				c, b, ok := a.term(x, env)
				if !ok || b.path == nil {
					return nil, false
				}
				return both(c, atom{path: b.path, op: opEqual, lits: []string{string(s)}}), true
			}
		}
	case ast.Contains.Name, ast.StartsWith.Name, ast.EndsWith.Name:
		if len(ops) != 2 {
			return nil, false
		}
		s, isStr := ops[1].Value.(ast.String)
		c, b, ok := a.term(ops[0], env)
		if !isStr || !ok || b.path == nil {
			return c, false
		}
		op := map[string]atomOp{ast.Contains.Name: opContains, ast.StartsWith.Name: opPrefix, ast.EndsWith.Name: opSuffix}[e.Operator().String()]
		return both(c, atom{path: b.path, op: op, lits: []string{string(s)}}), true
	case ast.Member.Name:
		if len(ops) != 2 {
			return nil, false
		}
		cx, bx, okx := a.term(ops[0], env)
		cs, bs, oks := a.term(ops[1], env)
		switch {
		case okx && oks && bx.path != nil && bs.konst != nil && len(bs.path) == 0:
			return both(cx, both(cs, atom{path: bx.path, op: opIn, lits: bs.konst})), true
		case okx && oks && bs.partial != nil:
			return both(cx, a.anyDef(bs.partial)), true
		}
		return both(cx, cs), false
	}
	return nil, false
}

func isBound(env map[ast.Var]absval, v ast.Var) bool {
	_, ok := env[v]
	return ok
}

func both(x, y cond) cond {
	if _, ok := x.(always); ok || x == nil {
		return y
	}
	if _, ok := y.(always); ok || y == nil {
		return x
	}
	return allOf{x, y}
}

// stringPath reads ref terms as object keys; ok is false for a variable or a non-string.
func stringPath(ts []*ast.Term) ([]string, bool) {
	p := make([]string, 0, len(ts))
	for _, t := range ts {
		s, ok := t.Value.(ast.String)
		if !ok {
			return nil, false
		}
		p = append(p, string(s))
	}
	return p, true
}

// stringsLit reads a string, or a set or array of strings; nil otherwise.
func stringsLit(t *ast.Term) []string {
	var out []string
	bad := false
	add := func(x *ast.Term) {
		if s, ok := x.Value.(ast.String); ok {
			out = append(out, string(s))
		} else {
			bad = true
		}
	}
	switch v := t.Value.(type) {
	case ast.String:
		return []string{string(v)}
	case ast.Set:
		v.Foreach(add)
	case *ast.Array:
		v.Foreach(add)
	default:
		return nil
	}
	if bad || out == nil {
		return nil
	}
	return out
}

// unsafeString views b as a string without copying; the string must not outlive b.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// String renders the prefilter as the condition an event must meet to be evaluated, e.g.
// `input.tool_name == "Bash" && contains(input.tool_input.command, "rm") || ...`.
func (p *prefilter) String() string {
	parts := make([]string, len(p.guards))
	for i, g := range p.guards {
		parts[i] = condString(g, false)
	}
	return strings.Join(parts, " || ")
}

func condString(c cond, nested bool) string {
	join := func(xs []cond, sep string) string {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = condString(x, true)
		}
		s := strings.Join(parts, sep)
		if nested && len(xs) > 1 {
			s = "(" + s + ")"
		}
		return s
	}
	switch v := c.(type) {
	case allOf:
		return join(v, " && ")
	case anyOf:
		return join(v, " || ")
	case atom:
		ref := "input." + strings.Join(v.path, ".")
		switch v.op {
		case opDefined:
			return ref
		case opEqual:
			return fmt.Sprintf("%s == %q", ref, v.lits[0])
		case opContains:
			return fmt.Sprintf("contains(%s, %q)", ref, v.lits[0])
		case opPrefix:
			return fmt.Sprintf("startswith(%s, %q)", ref, v.lits[0])
		case opSuffix:
			return fmt.Sprintf("endswith(%s, %q)", ref, v.lits[0])
		case opIn:
			q := make([]string, len(v.lits))
			for i, l := range v.lits {
				q[i] = fmt.Sprintf("%q", l)
			}
			return fmt.Sprintf("%s in {%s}", ref, strings.Join(q, ", "))
		}
	}
	return "true"
}

package replay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/hookcore/hookcore/config"
)

// Expectations is a parsed --expect file (docs/replay.md, "Expectations"):
//
//	expect:
//	  - call: 3                  # the table's tool-call number (1-based), or
//	    tool_use_id: toolu_01…   # the call's tool_use_id (exactly one of the two)
//	    decision: blocked        # allowed | blocked | rewritten | context | ask | feedback
//	    reason_contains: rm -rf  # optional: a substring of the reason
//	    hook: no-rm-rf           # optional: this hook id must have run for the call
//
// It collects the rows of the calls it names as the replay prints them, so memory is
// bounded by the number of expectations, not by the session.
type Expectations struct {
	list   []*expectation
	byCall map[int][]*expectation
	byID   map[string][]*expectation
	calls  int // highest tool-call number seen
}

type expectation struct {
	pos            string // file:line of the list item
	call           int
	id             string
	decision       decision
	reasonContains string
	hook           string
	hasReason      bool

	got *row // the call's row, once seen
}

var expectKeys = []string{"call", "tool_use_id", "decision", "reason_contains", "hook"}

// LoadExpectations reads and validates an expectations file. name is the path as the user
// gave it, used in messages. Every problem is returned at once, as "name:line:col: message";
// the expectations are nil when there is any.
func LoadExpectations(path, name string) (*Expectations, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v", name, errors.Unwrap(err))}
	}
	return parseExpectations(data, name)
}

// parseExpectations is LoadExpectations for the file's content.
func parseExpectations(data []byte, name string) (*Expectations, []string) {
	p := &expectParser{name: name}
	body, ok := p.parse(data)
	if !ok {
		return nil, p.sorted()
	}
	x := &Expectations{byCall: map[int][]*expectation{}, byID: map[string][]*expectation{}}
	root, ok := pairs(body)
	if !ok {
		p.errorf(body, "an expectations file is a mapping with an expect: list")
		return nil, p.sorted()
	}
	var list *ast.SequenceNode
	for _, kv := range root {
		if key := kv.Key.GetToken().Value; key != "expect" {
			p.unknown(kv.Key, key, []string{"expect"})
			continue
		}
		if list, ok = kv.Value.(*ast.SequenceNode); !ok {
			p.errorf(kv.Value, "expect must be a list of expectations")
		}
	}
	if list == nil {
		if len(p.probs) == 0 {
			p.errorf(body, "no expect: list")
		}
		return nil, p.sorted()
	}
	for _, item := range list.Values {
		if ex := p.item(item); ex != nil {
			x.list = append(x.list, ex)
			if ex.call > 0 {
				x.byCall[ex.call] = append(x.byCall[ex.call], ex)
			} else {
				x.byID[ex.id] = append(x.byID[ex.id], ex)
			}
		}
	}
	if len(p.probs) > 0 {
		return nil, p.sorted()
	}
	return x, nil
}

// expectParser walks the YAML AST of an expectations file, collecting problems.
type expectParser struct {
	name  string
	probs []string
	at    []int // line*1e6+col of each problem, to sort them
}

// sorted returns the problems in file order.
func (p *expectParser) sorted() []string {
	idx := make([]int, len(p.probs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return p.at[a] - p.at[b] })
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = p.probs[j]
	}
	return out
}

// parse parses data with the YAML parser, after the caps of config files (config.CheckLimits:
// size, bracket nesting, indentation), whose cost the parser cannot be trusted with.
func (p *expectParser) parse(data []byte) (body ast.Node, ok bool) {
	if len(data) > config.MaxFileSize {
		p.add(0, 0, fmt.Sprintf("expectations file is %d bytes; the limit is %d KiB", len(data), config.MaxFileSize>>10))
		return nil, false
	}
	var limit *config.Problem
	if errors.As(config.CheckLimits(p.name, data), &limit) {
		p.add(limit.Pos.Line, limit.Pos.Col, limit.Msg)
		return nil, false
	}
	file, err := func() (f *ast.File, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errors.New("unparsable document")
			}
		}()
		return parser.ParseBytes(data, 0)
	}()
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil && ye.GetToken().Position != nil {
			pos := ye.GetToken().Position
			p.add(pos.Line, pos.Column, "syntax error: "+config.YAMLMessage(ye.GetMessage()))
		} else {
			p.add(0, 0, fmt.Sprintf("syntax error: %v", err))
		}
		return nil, false
	}
	for _, doc := range file.Docs {
		if doc != nil && doc.Body != nil {
			return doc.Body, true
		}
	}
	p.add(0, 0, "empty expectations file (want an expect: list)")
	return nil, false
}

func (p *expectParser) errorf(n ast.Node, format string, args ...any) {
	line, col := 0, 0
	if n != nil {
		if t := n.GetToken(); t != nil && t.Position != nil {
			line, col = t.Position.Line, t.Position.Column
		}
	}
	p.add(line, col, fmt.Sprintf(format, args...))
}

// add records a problem at line:col (0: the file as a whole).
func (p *expectParser) add(line, col int, msg string) {
	if line == 0 {
		p.probs = append(p.probs, fmt.Sprintf("%s: %s", p.name, msg))
	} else {
		p.probs = append(p.probs, fmt.Sprintf("%s:%d:%d: %s", p.name, line, col, msg))
	}
	p.at = append(p.at, line*1_000_000+col)
}

func (p *expectParser) unknown(n ast.Node, key string, known []string) {
	msg := fmt.Sprintf("unknown key %q", key)
	if s := config.Suggest(key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	p.errorf(n, "%s", msg)
}

// item decodes one list entry; nil when it has a problem.
func (p *expectParser) item(n ast.Node) *expectation {
	kvs, ok := pairs(n)
	if !ok {
		p.errorf(n, "an expectation is a mapping (call or tool_use_id, decision, ...)")
		return nil
	}
	line := 0
	if t := n.GetToken(); t != nil && t.Position != nil {
		line = t.Position.Line
	}
	if len(kvs) > 0 {
		line = kvs[0].Key.GetToken().Position.Line
	}
	ex := &expectation{pos: fmt.Sprintf("%s:%d", p.name, line)}
	if len(kvs) > 0 {
		n = kvs[0].Key // item-level problems point at the item's first key
	}
	before := len(p.probs)
	hasDecision := false
	for _, kv := range kvs {
		key := kv.Key.GetToken().Value
		val, isScalar := scalar(kv.Value)
		if !isScalar {
			p.errorf(kv.Value, "%s must be a single value", key)
			continue
		}
		switch key {
		case "call":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				p.errorf(kv.Value, "call must be a tool-call number (1, 2, ... as in the table), not %q", val)
				continue
			}
			ex.call = n
		case "tool_use_id":
			if val == "" {
				p.errorf(kv.Value, "tool_use_id must not be empty")
			}
			ex.id = val
		case "decision":
			d, ok := parseDecision(val)
			if !ok {
				msg := fmt.Sprintf("unknown decision %q: want one of %s", val, strings.Join(decisionNames[:], ", "))
				if s := config.Suggest(val, decisionNames[:]); s != "" {
					msg = fmt.Sprintf("unknown decision %q (did you mean %q?)", val, s)
				}
				p.errorf(kv.Value, "%s", msg)
				continue
			}
			ex.decision, hasDecision = d, true
		case "reason_contains":
			ex.reasonContains, ex.hasReason = val, true
		case "hook":
			ex.hook = val
		default:
			p.unknown(kv.Key, key, expectKeys)
		}
	}
	switch {
	case ex.call > 0 && ex.id != "":
		p.errorf(n, "give call or tool_use_id, not both")
	case ex.call == 0 && ex.id == "" && len(p.probs) == before:
		p.errorf(n, "an expectation needs call (the table's number) or tool_use_id")
	}
	if !hasDecision && len(p.probs) == before {
		p.errorf(n, "an expectation needs a decision (%s)", strings.Join(decisionNames[:], ", "))
	}
	if len(p.probs) > before {
		return nil
	}
	return ex
}

// pairs returns the key/value pairs of a mapping node; ok is false for anything else.
func pairs(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, true
	}
	return nil, false
}

// scalar returns the text of a scalar node; ok is false for mappings and lists.
func scalar(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return "", true
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value, true
		}
		return "", true
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		return "", false
	}
	if t := n.GetToken(); t != nil {
		return t.Value, true
	}
	return "", true
}

// observe records a finished table row for the expectations that name its call.
func (x *Expectations) observe(rw *row) {
	if rw.index == 0 {
		return
	}
	x.calls = max(x.calls, rw.index)
	for _, ex := range x.byCall[rw.index] {
		ex.got = rw
	}
	if rw.id != "" {
		for _, ex := range x.byID[rw.id] {
			ex.got = rw
		}
	}
}

// report prints one line per unmet expectation on errw and the verdict on w; it returns
// whether every expectation was met.
func (x *Expectations) report(w, errw io.Writer) bool {
	failed := 0
	for _, ex := range x.list {
		if msg := ex.check(x.calls); msg != "" {
			failed++
			fmt.Fprintf(errw, "%s: %s\n", ex.pos, msg)
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "%d of %d expectations not met\n", failed, len(x.list))
		return false
	}
	fmt.Fprintf(w, "%d expectations met\n", len(x.list))
	return true
}

// check returns "" when the expectation is met, else what was expected and what happened.
func (ex *expectation) check(calls int) string {
	rw := ex.got
	if rw == nil {
		if ex.call > 0 {
			return fmt.Sprintf("call %d: expected %s, but the replay has only %d tool calls", ex.call, ex.decision, calls)
		}
		return fmt.Sprintf("tool_use_id %s: expected %s, but no replayed tool call has this id", ex.id, ex.decision)
	}
	what := fmt.Sprintf("call %d (%s: %s)", rw.index, rw.tool, cut(rw.summary, 50))
	var problems []string
	if rw.dec != ex.decision {
		got := rw.dec.String()
		if rw.reason != "" {
			got += fmt.Sprintf(" (%s)", cut(flatLine(rw.reason), 80))
		}
		problems = append(problems, fmt.Sprintf("expected %s, got %s", ex.decision, got))
	}
	if ex.hasReason && !strings.Contains(rw.reason, ex.reasonContains) {
		problems = append(problems, fmt.Sprintf("expected a reason containing %q, got %q", ex.reasonContains, cut(flatLine(rw.reason), 80)))
	}
	if ex.hook != "" && !slices.ContainsFunc(rw.hooks, func(h string) bool { return strings.TrimRight(h, "!?") == ex.hook }) {
		fired := "no hook ran"
		if len(rw.hooks) > 0 {
			fired = "ran: " + strings.Join(rw.hooks, ", ")
		}
		problems = append(problems, fmt.Sprintf("expected hook %s to run, %s", ex.hook, fired))
	}
	if len(problems) == 0 {
		return ""
	}
	return what + ": " + strings.Join(problems, "; ")
}

package config

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// decoder walks the YAML AST of one file. It resolves anchors, aliases, merge keys and tags,
// checks value types, and collects problems with the position of the offending node.
type decoder struct {
	path    string
	src     []byte // the source, for column arithmetic inside scalars (sourceLine)
	anchors map[string]ast.Node
	probs   ErrorList // problems of the hook being decoded (HookID filled in later)
	// shapeless: an event's hooks were not a sequence, so what the file meant to run is not
	// known (a YAML list written without its "- "): the file is Failed, not one entry broken.
	shapeless bool
	// extension is set for a Gemini CLI extension's hooks file: an event whose definitions
	// are not a list, or a definition whose hooks are not, is skipped (an error of the file
	// that leaves it loaded) rather than the file failing, as Gemini CLI 0.61.0 skips them
	// (HookRegistry.processHooksConfiguration, processHookDefinition; stop 32).
	extension bool
	// codexKeys is the absolute path of a Codex hooks file, whose hooks get their
	// [hooks.state] key (Hook.AgentKey); "" for any other file.
	codexKeys string
	// claude is set for a file read as Claude Code's settings whatever its name (a
	// --settings file: LayerPath.Claude): its event names are read exactly, as
	// IsClaudeSettings files are.
	claude bool
}

// kv is one key/value pair of a mapping, after merge keys are expanded.
type kv struct {
	key      string
	keyNode  ast.Node
	val      ast.Node // resolved; nil for a null value
	rawValue ast.Node // as written, for positions
}

func newDecoder(path string, data []byte, body ast.Node) *decoder {
	d := &decoder{path: path, src: data, anchors: map[string]ast.Node{}}
	ast.Walk(anchorCollector(d.anchors), body)
	return d
}

type anchorCollector map[string]ast.Node

func (c anchorCollector) Visit(n ast.Node) ast.Visitor {
	if a, ok := n.(*ast.AnchorNode); ok && a.Name != nil {
		if t := a.Name.GetToken(); t != nil {
			c[t.Value] = a.Value
		}
	}
	return c
}

// pos returns the position of n: for a block mapping, that of its first key.
func (d *decoder) pos(n ast.Node) Pos {
	if n == nil {
		return Pos{File: d.path}
	}
	switch m := n.(type) {
	case *ast.MappingNode:
		if !m.IsFlowStyle && len(m.Values) > 0 && m.Values[0].Key != nil {
			return d.pos(m.Values[0].Key)
		}
	case *ast.MappingValueNode:
		if m.Key != nil {
			return d.pos(m.Key)
		}
	}
	t := n.GetToken()
	if t == nil || t.Position == nil {
		return Pos{File: d.path}
	}
	return Pos{File: d.path, Line: t.Position.Line, Col: t.Position.Column}
}

func (d *decoder) errorf(n ast.Node, format string, args ...any) {
	d.probs = append(d.probs, &Problem{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) warnf(n ast.Node, format string, args ...any) {
	d.probs = append(d.probs, &Problem{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...), Warning: true})
}

// take returns the problems collected so far and starts a new list.
func (d *decoder) take() ErrorList {
	p := d.probs
	d.probs = nil
	return p
}

// resolve strips anchors and tags and follows aliases. It returns nil for a null value.
func (d *decoder) resolve(n ast.Node) ast.Node {
	for range 16 { // bounded: an alias may name an anchored alias
		switch v := n.(type) {
		case nil, *ast.NullNode:
			return nil
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			if tagIsStr(v) {
				return v
			}
			n = v.Value
		case *ast.AliasNode:
			if v.Value == nil || v.Value.GetToken() == nil {
				return nil
			}
			n = d.anchors[v.Value.GetToken().Value]
		default:
			return n
		}
	}
	return nil
}

func tagIsStr(t *ast.TagNode) bool {
	return t.Start != nil && (t.Start.Value == "!!str" || t.Start.Value == "tag:yaml.org,2002:str")
}

// kind names a node's YAML type for messages: "string", "number", "boolean", ...
func kind(n ast.Node) string {
	switch n.(type) {
	case nil:
		return "null"
	case *ast.StringNode, *ast.LiteralNode, *ast.TagNode:
		return "string"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "number"
	case *ast.BoolNode:
		return "boolean"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "mapping"
	case *ast.SequenceNode:
		return "sequence"
	}
	return "value"
}

// mapping returns the pairs of a mapping node in order, with `<<` merge keys expanded (keys
// written in the mapping win over merged ones). ok is false when n is not a mapping.
func (d *decoder) mapping(n ast.Node) (pairs []kv, ok bool) {
	var values []*ast.MappingValueNode
	switch m := d.resolve(n).(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	default:
		return nil, false
	}
	if len(values) > 0 {
		pairs = make([]kv, 0, len(values)) // one allocation rather than one per doubling
	}
	seen := map[string]bool{}
	var merged []kv
	for _, mv := range values {
		if _, isMerge := mv.Key.(*ast.MergeKeyNode); isMerge {
			src := d.resolve(mv.Value)
			srcs := []ast.Node{src}
			if seq, ok := src.(*ast.SequenceNode); ok {
				srcs = seq.Values
			}
			for _, s := range srcs {
				if _, isMap := d.resolve(s).(*ast.MappingNode); !isMap {
					d.errorf(mv.Value, "merge key << needs a mapping or a sequence of mappings")
					continue
				}
				sub, _ := d.mapping(s)
				merged = append(merged, sub...)
			}
			continue
		}
		k := scalarText(d.resolve(mv.Key))
		seen[k] = true
		pairs = append(pairs, kv{key: k, keyNode: mv.Key, val: d.resolve(mv.Value), rawValue: mv.Value})
	}
	for _, p := range merged {
		if !seen[p.key] {
			seen[p.key] = true
			pairs = append(pairs, p)
		}
	}
	return pairs, true
}

// scalarText returns the text of a scalar node ("" for anything else).
func scalarText(n ast.Node) string {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value
		}
		return ""
	case *ast.TagNode:
		if t := v.Value; t != nil && t.GetToken() != nil {
			if s, ok := t.(*ast.StringNode); ok {
				return s.Value
			}
			return t.GetToken().Value
		}
		return ""
	case nil:
		return ""
	}
	if t := n.GetToken(); t != nil {
		return t.Value
	}
	return ""
}

// str decodes a string value; null is "". Other types are an error naming the key.
func (d *decoder) str(p kv) (string, bool) {
	switch p.val.(type) {
	case nil:
		return "", true
	case *ast.StringNode, *ast.LiteralNode, *ast.TagNode:
		return scalarText(p.val), true
	}
	d.errorf(p.rawValue, "%s must be a string, not a %s", p.key, kind(p.val))
	return "", false
}

// boolean decodes a true/false value; null is false. A string such as "yes" is an error.
func (d *decoder) boolean(p kv) (bool, bool) {
	switch v := p.val.(type) {
	case nil:
		return false, true
	case *ast.BoolNode:
		return v.Value, true
	}
	d.errorf(p.rawValue, "%s must be true or false, not a %s", p.key, kind(p.val))
	return false, false
}

// scalarList decodes a sequence of scalars as strings (numbers and booleans keep their
// text); a single string is a list of one.
func (d *decoder) scalarList(p kv) []string {
	if p.val == nil {
		return nil
	}
	if _, ok := p.val.(*ast.SequenceNode); !ok {
		if s, isStr := p.val.(*ast.StringNode); isStr {
			return []string{s.Value}
		}
		d.errorf(p.rawValue, "%s must be a sequence of strings, not a %s", p.key, kind(p.val))
		return nil
	}
	var out []string
	for _, e := range p.val.(*ast.SequenceNode).Values {
		switch v := d.resolve(e).(type) {
		case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, nil:
			d.errorf(e, "%s entries must be strings, not a %s", p.key, kind(v))
		default:
			out = append(out, scalarText(v))
		}
	}
	return out
}

// stringMap decodes a mapping of scalars (http headers).
func (d *decoder) stringMap(p kv) map[string]string {
	if p.val == nil {
		return nil
	}
	pairs, ok := d.mapping(p.val)
	if !ok {
		d.errorf(p.rawValue, "%s must be a mapping, not a %s", p.key, kind(p.val))
		return nil
	}
	out := make(map[string]string, len(pairs))
	for _, q := range pairs {
		switch v := q.val.(type) {
		case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
			d.errorf(q.rawValue, "%s %q must be a string, not a %s", p.key, q.key, kind(v))
		default:
			out[q.key] = scalarText(v)
		}
	}
	return out
}

// contentPos returns the position of byte offset off inside the string value n, when the
// value is written on one line without escapes (plain or quoted), so that the column points
// at the character; otherwise it returns the position of n.
func (d *decoder) contentPos(n ast.Node, value string, off int) Pos {
	p := d.pos(n)
	s, ok := n.(*ast.StringNode)
	if !ok || off < 0 || off > len(value) {
		return p
	}
	text, ok := sourceLine(d.src, p.Line)
	if !ok {
		return p
	}
	start := p.Col - 1 // rune index of the token in its line
	if t := s.GetToken(); t.Type == token.SingleQuoteType || t.Type == token.DoubleQuoteType {
		start++
	}
	line := []rune(string(text))
	v := []rune(value)
	if start < 0 || start+len(v) > len(line) || string(line[start:start+len(v)]) != value {
		return p // escapes, folding or a multi-line value: no exact column
	}
	p.Col = start + 1 + len([]rune(value[:off]))
	return p
}

// sourceLine returns line n (from 1) of src, split at "\n" only, without it; false when src
// has fewer lines. The decoder finds it when a position needs it rather than split every file
// into lines up front: a hook process parses ~/.claude/settings.json at every event, and
// its lines were 7 KB of the event's allocations (stop 34).
func sourceLine(src []byte, n int) ([]byte, bool) {
	if n < 1 {
		return nil, false
	}
	for ; n > 1; n-- {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return nil, false
		}
		src = src[i+1:]
	}
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return src, true
}

// atoi parses an exit-code key.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// object decodes a mapping of arbitrary values (an mcp_tool action's input) as JSON-shaped
// Go values: map[string]any, []any, string, int64 or uint64, float64, bool and nil.
func (d *decoder) object(p kv) map[string]any {
	if p.val == nil {
		return nil
	}
	if _, ok := d.mapping(p.val); !ok {
		d.errorf(p.rawValue, "%s must be a mapping, not a %s", p.key, kind(p.val))
		return nil
	}
	m, _ := d.anyValue(p.val, 0).(map[string]any)
	return m
}

// anyValue decodes n as a JSON-shaped value; depth bounds the nesting (aliases included).
func (d *decoder) anyValue(n ast.Node, depth int) any {
	if depth > 64 {
		d.errorf(n, "value nested more than 64 levels deep")
		return nil
	}
	switch v := d.resolve(n).(type) {
	case nil:
		return nil
	case *ast.MappingNode, *ast.MappingValueNode:
		pairs, _ := d.mapping(v)
		m := make(map[string]any, len(pairs))
		for _, q := range pairs {
			m[q.key] = d.anyValue(q.rawValue, depth+1)
		}
		return m
	case *ast.SequenceNode:
		s := make([]any, 0, len(v.Values))
		for _, e := range v.Values {
			s = append(s, d.anyValue(e, depth+1))
		}
		return s
	case *ast.BoolNode:
		return v.Value
	case *ast.IntegerNode:
		return v.Value
	case *ast.FloatNode:
		return v.Value
	default:
		return scalarText(v)
	}
}

package config

import (
	"bytes"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// jsonAST is jsonTree; tests compare a parse without it.
var jsonAST = jsonTree

// jsonTree returns, built by a JSON scanner, the tree the YAML parser (goccy/go-yaml's
// parser.ParseBytes) builds for src: the parser took 100 µs and 1 141 allocations for
// the 1 KB a 6 KB ~/.claude/settings.json skims to, at every hook event (issue 9). src must
// be one JSON object that json.Valid accepts (isJSONObject; skimObject keeps it so): the
// scanner checks the structure it walks, not every literal. ok is false, and the caller
// runs the parser, when src holds what the parser reads its own way:
//
//   - a tab between tokens (the parser counts columns around tabs by its indentation rules);
//   - a \u escape of a high surrogate (the parser refuses one that no low surrogate follows;
//     JSON.parse takes it);
//   - a key written twice in one object (the parser's error), or a key holding . [ ] or '
//     (the parser finds duplicates by a path that spells the keys, and two different keys
//     may spell the same path);
//   - nesting past MaxFlowDepth (CheckLimits refuses it first).
//
// The tree has the parser's shapes: every object a flow *ast.MappingNode of
// *ast.MappingValueNode (whose Start is the ':'), every array a flow *ast.SequenceNode, every
// key and string an *ast.StringNode of a token.DoubleQuoteType token whose Value is the
// string decoded as the parser decodes it (a lone low surrogate, or a byte that is not UTF-8,
// is U+FFFD), and numbers, true, false and null the nodes of the parser's plain scalars
// (token.New: 1e3 and integers past uint64 are strings, as in the parser). Every token has
// the parser's Line, Column (1-based, in runes; a line ends at \n, \r or \r\n) and Offset
// (1 + the runes before it), a scalar that blanks and a line break end placed where the
// parser places it (scalar). Not set: Origin, indentation, CollectEntry, Path, comments and
// a sequence's Entries, which the config package does not read.
func jsonTree(src []byte) (body ast.Node, ok bool) {
	if bytes.IndexByte(src, '\t') >= 0 {
		return nil, false
	}
	s := &jsonScanner{src: string(src), line: 1}
	s.space()
	if s.peek() != '{' {
		return nil, false
	}
	body, ok = s.value(0)
	if !ok {
		return nil, false
	}
	if s.space(); s.i != len(s.src) {
		return nil, false
	}
	return body, true
}

// jsonScanner reads valid JSON and builds the YAML parser's tree (jsonTree). Its position
// is the byte src[i], in column col of line line (1-based, in runes), with runes runes
// before it.
type jsonScanner struct {
	src              string
	i                int
	line, col, runes int
	// items and pairs hold the values of the open arrays and objects, which get a slice of
	// their own, of the right length, when they close.
	items []ast.Node
	pairs []*ast.MappingValueNode
}

// The nodes of one key, string or collection are allocated together, with their tokens and
// positions: one allocation where the parser makes four or more.
type (
	jsonString struct {
		node ast.StringNode
		base ast.BaseNode
		tok  token.Token
		pos  token.Position
	}
	jsonPair struct {
		node     ast.MappingValueNode
		base     ast.BaseNode
		colon    token.Token
		colonPos token.Position
		key      jsonString
	}
	jsonBrackets struct {
		base             ast.BaseNode
		start, end       token.Token
		startPos, endPos token.Position
	}
	jsonMapping struct {
		node ast.MappingNode
		jsonBrackets
	}
	jsonSequence struct {
		node ast.SequenceNode
		jsonBrackets
	}
)

func (s *jsonScanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

// space skips blanks and line breaks (no tab: jsonTree has refused them).
func (s *jsonScanner) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ':
			s.col++
		case '\r':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
				s.i++
				s.runes++
			}
			fallthrough
		case '\n':
			s.line++
			s.col = 0
		default:
			return
		}
		s.i++
		s.runes++
	}
}

// pos sets p to the current position.
func (s *jsonScanner) pos(p *token.Position) *token.Position {
	*p = token.Position{Line: s.line, Column: s.col + 1, Offset: s.runes + 1}
	return p
}

// punct makes tok the one-byte token at the current position, and steps past it.
func (s *jsonScanner) punct(tok *token.Token, p *token.Position, typ token.Type, ind token.Indicator) {
	*tok = token.Token{Type: typ, CharacterType: token.CharacterTypeIndicator, Indicator: ind,
		Value: s.src[s.i : s.i+1], Position: s.pos(p)}
	s.i++
	s.col++
	s.runes++
}

// value reads the value at the current position, depth collections deep.
func (s *jsonScanner) value(depth int) (ast.Node, bool) {
	switch c := s.peek(); {
	case c == '{' || c == '[':
		if depth >= MaxFlowDepth {
			return nil, false
		}
		if c == '[' {
			return s.sequence(depth + 1)
		}
		return s.mapping(depth + 1)
	case c == '"':
		n := new(jsonString)
		return &n.node, s.str(n)
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		return s.scalar()
	}
	return nil, false
}

// sequence reads the array at the current position, depth collections deep.
func (s *jsonScanner) sequence(depth int) (ast.Node, bool) {
	c := new(jsonSequence)
	s.punct(&c.start, &c.startPos, token.SequenceStartType, token.FlowCollectionIndicator)
	open := len(s.items)
	for s.space(); s.peek() != ']'; s.space() {
		if len(s.items) > open && !s.comma() {
			return nil, false
		}
		v, ok := s.value(depth)
		if !ok {
			return nil, false
		}
		s.items = append(s.items, v)
	}
	s.punct(&c.end, &c.endPos, token.SequenceEndType, token.FlowCollectionIndicator)
	c.node = ast.SequenceNode{BaseNode: &c.base, Start: &c.start, End: &c.end, IsFlowStyle: true,
		Values: own(s.items[open:])}
	s.items = s.items[:open]
	return &c.node, true
}

// mapping reads the object at the current position, depth collections deep.
func (s *jsonScanner) mapping(depth int) (ast.Node, bool) {
	c := new(jsonMapping)
	s.punct(&c.start, &c.startPos, token.MappingStartType, token.FlowCollectionIndicator)
	open := len(s.pairs)
	var seen map[string]bool // the keys, once there are many
	for s.space(); s.peek() != '}'; s.space() {
		if len(s.pairs) > open && !s.comma() {
			return nil, false
		}
		p := new(jsonPair)
		if s.peek() != '"' || !s.str(&p.key) || !plainKey(s.pairs[open:], p.key.node.Value, &seen) {
			return nil, false
		}
		if s.space(); s.peek() != ':' {
			return nil, false
		}
		s.punct(&p.colon, &p.colonPos, token.MappingValueType, token.BlockStructureIndicator)
		s.space()
		v, ok := s.value(depth)
		if !ok {
			return nil, false
		}
		p.node = ast.MappingValueNode{BaseNode: &p.base, Start: &p.colon, Key: &p.key.node, Value: v}
		s.pairs = append(s.pairs, &p.node)
	}
	s.punct(&c.end, &c.endPos, token.MappingEndType, token.FlowCollectionIndicator)
	c.node = ast.MappingNode{BaseNode: &c.base, Start: &c.start, End: &c.end, IsFlowStyle: true,
		Values: own(s.pairs[open:])}
	s.pairs = s.pairs[:open]
	return &c.node, true
}

// own returns a copy of list: empty, not nil, when list is (as the parser's).
func own[T any](list []T) []T { return append(make([]T, 0, len(list)), list...) }

// plainKey reports whether key is neither one of the keys before it in its object (values)
// nor a key the parser's duplicate check may confuse with another (jsonTree). seen holds
// the keys once an object has more than a few.
func plainKey(values []*ast.MappingValueNode, key string, seen *map[string]bool) bool {
	if strings.ContainsAny(key, ".[]'") {
		return false
	}
	const few = 8
	if len(values) < few {
		for _, v := range values {
			if v.Key.(*ast.StringNode).Value == key {
				return false
			}
		}
		return true
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*few)
		for _, v := range values {
			(*seen)[v.Key.(*ast.StringNode).Value] = true
		}
	}
	if (*seen)[key] {
		return false
	}
	(*seen)[key] = true
	return true
}

// comma steps past the ',' and the blanks after it.
func (s *jsonScanner) comma() bool {
	if s.peek() != ',' {
		return false
	}
	s.i++
	s.col++
	s.runes++
	s.space()
	return true
}

package config

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// jsonAST is jsonTree; tests compare a parse without it.
var jsonAST = jsonTree

// jsonTree returns the tree the YAML parser (goccy/go-yaml's parser.ParseBytes) builds for
// src, built with a JSON scanner instead: the parser took 100 µs and 1 141 allocations for
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
// (1 + the runes before it). Not set: Origin, indentation, CollectEntry, Path, comments and
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

// str reads the string at the current position (its opening quote) into n.
func (s *jsonScanner) str(n *jsonString) bool {
	start := s.i
	escaped := false
	ascii := true
	i := start + 1
	for ; i < len(s.src) && s.src[i] != '"'; i++ {
		switch c := s.src[i]; {
		case c == '\\':
			escaped = true
			i++
		case c < ' ':
			return false // a line break or another control character: not JSON
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if i >= len(s.src) {
		return false
	}
	raw := s.src[start+1 : i]
	value := raw
	switch {
	case escaped:
		var ok bool
		if value, ok = unescapeJSON(raw); !ok {
			return false
		}
	case !ascii && !utf8.ValidString(raw):
		value = string([]rune(raw)) // each byte that is not UTF-8 a U+FFFD, as in the parser
	}
	n.tok = token.Token{Type: token.DoubleQuoteType, CharacterType: token.CharacterTypeIndicator,
		Indicator: token.QuotedScalarIndicator, Value: value, Position: s.pos(&n.pos)}
	n.node = ast.StringNode{BaseNode: &n.base, Token: &n.tok, Value: value}
	width := i + 1 - start
	if !ascii {
		width = utf8.RuneCountInString(s.src[start : i+1])
	}
	s.i = i + 1
	s.col += width
	s.runes += width
	return true
}

// unescapeJSON decodes raw, a JSON string's content that holds a backslash, as the YAML
// parser decodes a double-quoted scalar: the JSON escapes mean what they mean in JSON; a \u
// of a lone low surrogate and a byte that is not UTF-8 are U+FFFD. ok is false for a \u of a
// high surrogate that a \u of a low one does not follow (the parser's error), or an escape
// JSON does not have.
func unescapeJSON(raw string) (string, bool) {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				b = append(b, c)
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(raw[i:])
			b = utf8.AppendRune(b, r)
			i += n
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch e := raw[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return "", false
			}
			i += 6
			if r >= 0xD800 && r <= 0xDBFF {
				lo, ok := hex4(raw, i+2)
				if !ok || raw[i] != '\\' || raw[i+1] != 'u' || lo < 0xDC00 || lo > 0xDFFF {
					return "", false
				}
				r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
				i += 6
			}
			b = utf8.AppendRune(b, r) // a lone low surrogate is U+FFFD
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(b), true
}

// hex4 decodes the four hex digits at raw[i:].
func hex4(raw string, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(raw[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// scalar reads the number, true, false or null at the current position as the parser reads
// a plain scalar (token.New). The 0 that skimObject writes for each value it blanks, true,
// false and null are built in one allocation each, as jsonString is.
func (s *jsonScanner) scalar() (ast.Node, bool) {
	start := s.i
	for s.i < len(s.src) {
		if c := s.src[s.i]; c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' {
			break
		}
		s.i++
	}
	text := s.src[start:s.i]
	pos := token.Position{Line: s.line, Column: s.col + 1, Offset: s.runes + 1}
	// The parser places a scalar that blanks and a line break end (skimObject writes them
	// after its 0s) as far right as the blanks: at the break, less the scalar's length.
	blanks := 0
	for s.i+blanks < len(s.src) && s.src[s.i+blanks] == ' ' {
		blanks++
	}
	if s.i+blanks < len(s.src) && (s.src[s.i+blanks] == '\n' || s.src[s.i+blanks] == '\r') {
		pos.Column += blanks
		pos.Offset += blanks
	}
	s.col += s.i - start // JSON's literals are ASCII
	s.runes += s.i - start
	tok := token.Token{CharacterType: token.CharacterTypeMiscellaneous, Indicator: token.NotIndicator, Value: text}
	switch text {
	case "0":
		n := &struct {
			node ast.IntegerNode
			jsonScalar
		}{}
		n.init(tok, token.IntegerType, pos)
		n.node = ast.IntegerNode{BaseNode: &n.base, Token: &n.tok, Value: uint64(0)}
		return &n.node, true
	case "true", "false":
		n := &struct {
			node ast.BoolNode
			jsonScalar
		}{}
		n.init(tok, token.BoolType, pos)
		n.node = ast.BoolNode{BaseNode: &n.base, Token: &n.tok, Value: text == "true"}
		return &n.node, true
	case "null":
		n := &struct {
			node ast.NullNode
			jsonScalar
		}{}
		n.init(tok, token.NullType, pos)
		n.node = ast.NullNode{BaseNode: &n.base, Token: &n.tok}
		return &n.node, true
	}
	p := pos // on the heap in this case only
	tk := token.New(text, "", &p)
	switch tk.Type {
	case token.IntegerType, token.BinaryIntegerType, token.OctetIntegerType, token.HexIntegerType:
		return ast.Integer(tk), true
	case token.FloatType:
		return ast.Float(tk), true
	case token.StringType:
		return ast.String(tk), true
	}
	return nil, false // not a JSON literal
}

// jsonScalar is the rest of a literal's allocation (scalar).
type jsonScalar struct {
	base ast.BaseNode
	tok  token.Token
	pos  token.Position
}

func (n *jsonScalar) init(tok token.Token, typ token.Type, pos token.Position) {
	n.tok, n.pos = tok, pos
	n.tok.Type, n.tok.Position = typ, &n.pos
}

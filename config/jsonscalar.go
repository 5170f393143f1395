package config

import (
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

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

package config

import (
	"bytes"
	"fmt"
	"iter"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
)

// Caps on a config file, checked by CheckLimits before the YAML parser sees a byte. The YAML
// parser (github.com/goccy/go-yaml) takes time and memory quadratic in the nesting depth and
// far more than linear in the size: `hooks: ` then 100 000 `[` and as many `]` (200 KB) took
// 36 s and 15 GB, a 25 MB file 3.4 GB. A project's config file comes from the repository, so
// it must not be able to exhaust the machine of whoever runs `hookcore fire` or `list` there.
// The caps are far above any real config (the largest example is a few KiB, nested 5 deep).
const (
	// MaxFileSize caps a config file, in bytes (512 KiB). The parser peaks at about 450 bytes
	// of memory per byte of a hostile file (a flow list of 1s), so this bounds it near 250 MB.
	MaxFileSize = 512 << 10
	// MaxFlowDepth caps the nesting of flow collections ([...] and {...}, and so all of a
	// JSON file's nesting).
	MaxFlowDepth = 64
	// MaxIndent caps a line's block indentation, in columns: its leading blanks together with
	// the block indicators ("- ", "? ", ": ") that open a nested collection on the same line.
	MaxIndent = 256
	// MaxMappingKeys caps the keys of one mapping (`key:` or `? key` lines at one
	// indentation; checkMappingKeys). The parser takes time quadratic in a block mapping's
	// keys: 105 000 one-line keys (512 KiB) took 16 s, 2 000 take 19 ms (stop 23, red team
	// round 15). A JSON object written one key a line counts too (it is cheap to parse, but
	// telling it from a block mapping could be fooled); one written on one line does not.
	MaxMappingKeys = 500
	// MaxDocuments caps the document markers (`---`, `...` at the start of a line) of a
	// config file, which is one document: the parser takes time quadratic in the documents
	// (red team round 16: `--- a` lines, 512 KiB, 11.5 s).
	MaxDocuments = 16
	// MaxKeyLength caps a mapping key, in bytes (YAML's own limit for an implicit key): the
	// parser gives every node under a key a path that spells the key, so a 256 KiB key over
	// a long list took gigabytes (red team round 17).
	MaxKeyLength = 1024
	// MaxPropertyItems caps the sequence items that hold only a tag or an anchor (`- !a`):
	// each opens a nested sequence at the same column, which the indentation cap does not
	// see, and the parser's memory grows with the square of that nesting (red team round 17:
	// 50 000 lines took 3.9 GB).
	MaxPropertyItems = 256
)

// CheckLimits reports whether data, the content of the config file (or `replay --expect`
// file) at path, is within the caps the YAML parser can be trusted with: at most
// MaxFileSize bytes, flow collections nested at most MaxFlowDepth deep, and no line with a
// block indentation over MaxIndent columns. It returns nil, or a *Problem that positions
// the byte where a cap was passed (line and column, 1-based, the column counted in
// characters; a file over the size cap has no position): find it with errors.As.
//
// The check is one linear pass over the bytes and over-estimates on purpose: brackets are
// counted everywhere, inside quoted strings, block scalars and comments too (a closing
// bracket never takes the depth below 0), since skipping quotes could be fooled into
// missing real brackets. Block indentation counts spaces and tabs, and a "-", "?" or ":"
// followed by a blank, at the start of a line (`- - - x` nests three sequences).
func CheckLimits(path string, data []byte) error {
	if err := checkBytes(path, data); err != nil {
		return err
	}
	if err := checkFlowKeys(path, data); err != nil {
		return err
	}
	return checkMappingKeys(path, data)
}

// checkFlowKeys reports the first key of a flow mapping longer than MaxKeyLength whose value
// is a collection: the scalar after a `{` or a `,` (quoted, or plain up to `:`, `,`, `]`,
// `}` or a line break) that a colon and a collection (`[`, `{`, or a block `-`/`?` on the
// next line) follow. It looks after every `{` and `,`, in strings and comments too, and
// so over-estimates: a string holding `, <a thousand bytes without a comma>: ` counts as a
// long key. Plain segments end at the next delimiter and quoted ones at their closing
// quote, so the scan is linear.
func checkFlowKeys(path string, data []byte) error {
	for i := 0; i < len(data); i++ {
		if data[i] != '{' && data[i] != ',' {
			continue
		}
		j := i + 1
		for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
			j++
		}
		if j == len(data) {
			break
		}
		var end int
		if q := data[j]; q == '"' || q == '\'' {
			// To the closing quote: the next scan starts at a quote after it, so no byte is
			// scanned twice.
			if end = closeQuote(data, j+1, q); end < 0 {
				break // unclosed: a syntax error the parser reports
			}
			end++
		} else {
			end = j // to the next delimiter: each byte is scanned once, as the segments do not overlap
			for end < len(data) && !bytes.ContainsRune([]byte(":,]}\n\r"), rune(data[end])) {
				end++
			}
		}
		keyLen := end - j
		if q := data[j]; q == '"' || q == '\'' {
			keyLen -= 2 // the quotes
		}
		if keyLen <= MaxKeyLength {
			continue
		}
		k := end
		for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
			k++
		}
		if k == len(data) || data[k] != ':' {
			continue
		}
		// Only a key whose value is a collection: the parser's cost is the key spelled in
		// the path of every node under it, and a long key with one scalar value costs
		// nothing. So a string that holds `, <a thousand bytes>: b` (a script in a command)
		// is not read as a key (the new-user trial of stop 23: such a hook blocked every
		// tool call).
		v := k + 1
		for v < len(data) && (data[v] == ' ' || data[v] == '\t' || data[v] == '\n' || data[v] == '\r') {
			v++
		}
		if v < len(data) && (data[v] == '[' || data[v] == '{' || data[v] == '-' || data[v] == '?') {
			line := 1 + bytes.Count(data[:j], []byte("\n"))
			col := 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:j], '\n')+1:j])
			return &Problem{Pos: Pos{File: path, Line: line, Col: col},
				Msg: fmt.Sprintf("a key longer than %d bytes over a list or a mapping; the limit is %d", MaxKeyLength, MaxKeyLength)}
		}
	}
	return nil
}

// checkSize reports a file over MaxFileSize.
func checkSize(path string, data []byte) error {
	if len(data) > MaxFileSize {
		return &Problem{Pos: Pos{File: path},
			Msg: fmt.Sprintf("config file is %d bytes; the limit is %d KiB", len(data), MaxFileSize>>10)}
	}
	return nil
}

// checkBytes is the part of CheckLimits that does not read YAML's structure (the size, the
// brackets, the indentation), which a Codex config.toml gets too.
func checkBytes(path string, data []byte) error {
	if err := checkSize(path, data); err != nil {
		return err
	}
	line, col := 1, 0 // col: characters before the current byte on its line
	depth := 0
	atLineStart := true // still in the line's indentation
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\n' || c == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			line, col, atLineStart = line+1, 0, true // a lone CR breaks a line too, as the YAML parser reads it
			continue
		}
		if atLineStart {
			switch {
			case c == ' ' || c == '\t':
			case (c == '-' || c == '?' || c == ':') && (i+1 == len(data) || isBlank(data[i+1])):
			default:
				atLineStart = false
			}
			if atLineStart && col+1 > MaxIndent {
				return &Problem{Pos: Pos{File: path, Line: line, Col: col + 1},
					Msg: fmt.Sprintf("line indented more than %d columns; the limit is %d", MaxIndent, MaxIndent)}
			}
		}
		switch c {
		case '[', '{':
			depth++
			if depth > MaxFlowDepth {
				return &Problem{Pos: Pos{File: path, Line: line, Col: col + 1},
					Msg: fmt.Sprintf("brackets nested more than %d deep; the limit is %d", MaxFlowDepth, MaxFlowDepth)}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
		if utf8.RuneStart(c) {
			col++
		}
	}
	return nil
}

// checkMappingKeys reports the first mapping with more than MaxMappingKeys keys, at the key
// past the cap, and a file with more than MaxDocuments document markers. It reads lines
// (breaking at LF, CRLF and a lone CR, as the parser does) and over-estimates where it
// cannot tell, with no regard to brackets (red team round 16: a `[` in a comment made an
// earlier version skip every key after it):
//   - a key is a plain or quoted scalar followed by `: ` or a line-ending `:`, or a line
//     starting with the complex-key indicator `? `; a line starting with `{` or `[`, or a
//     quoted string not followed by a colon (a JSON array's entry), is not one;
//   - keys at one indentation count as one mapping until a line of lesser indentation or a
//     sequence item (`- `, or `-` alone on its line) starts another, so sibling JSON objects
//     written one key a line are apart (their braces stand on lines of lesser indentation);
//   - the text of a block scalar (`|`, `>`, after any anchor or tag) and of a quoted scalar
//     that spans lines (one whose value starts with a quote) is not read for keys.
func checkMappingKeys(path string, data []byte) error {
	type level struct{ indent, keys int }
	var stack []level
	scalar := -1   // the indentation its block scalar's text is deeper than, or -1
	var quote byte // the quote of a scalar still open at the end of the last line
	docs, props := 0, 0
	for n, line := range bytesLines(data) {
		if quote != 0 {
			if end := closeQuote(line, 0, quote); end >= 0 {
				quote = 0
			}
			continue
		}
		if (bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("..."))) && (len(line) == 3 || isBlank(line[3])) {
			if docs++; docs > MaxDocuments {
				return &Problem{Pos: Pos{File: path, Line: n + 1, Col: 1},
					Msg: fmt.Sprintf("more than %d document markers (--- or ...); a config is one document", MaxDocuments)}
			}
		}
		p, seq, complexKey := 0, -1, -1
	indicators:
		for p < len(line) {
			c := line[p]
			switch {
			case c == ' ' || c == '\t':
				p++
			case (c == '-' || c == '?' || c == ':') && (p+1 == len(line) || isBlank(line[p+1])):
				if c == '-' && seq < 0 {
					seq = p
				}
				if c == '?' && complexKey < 0 {
					complexKey = p
				}
				p++
			default:
				break indicators
			}
		}
		if scalar >= 0 && (p == len(line) || p > scalar) {
			continue // a block scalar's text (or a blank line in it)
		}
		if (p == len(line) || line[p] == '#') && seq < 0 {
			continue // blank or a comment
		}
		scalar = -1
		indent := p
		if seq >= 0 {
			indent = seq
		}
		for len(stack) > 0 && stack[len(stack)-1].indent > indent {
			stack = stack[:len(stack)-1] // deeper mappings end at a line of lesser indentation
		}
		if p == len(line) || line[p] == '#' {
			continue // a sequence item alone on its line: its mapping starts below
		}
		if seq >= 0 && (line[p] == '!' || line[p] == '&') {
			if rest := skipProperties(line[p:]); len(rest) == 0 || rest[0] == '#' {
				if props++; props > MaxPropertyItems {
					return &Problem{Pos: Pos{File: path, Line: n + 1, Col: utf8.RuneCount(line[:p]) + 1},
						Msg: fmt.Sprintf("more than %d sequence items that hold only a tag or an anchor; the limit is %d", MaxPropertyItems, MaxPropertyItems)}
				}
			}
		}
		value, isKey := keyValue(line[p:])
		if isKey && len(line[p:])-len(value) > MaxKeyLength+1 {
			return &Problem{Pos: Pos{File: path, Line: n + 1, Col: utf8.RuneCount(line[:p]) + 1},
				Msg: fmt.Sprintf("a key longer than %d bytes; the limit is %d", MaxKeyLength, MaxKeyLength)}
		}
		if complexKey >= 0 {
			p, isKey, value = complexKey, true, nil
		} else if !isKey {
			value = line[p:] // a value on its own line: a sequence item's, or a scalar's
		}
		if isKey {
			for len(stack) > 0 && stack[len(stack)-1].indent > p {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && stack[len(stack)-1].indent == p && seq < 0 {
				stack[len(stack)-1].keys++
				if stack[len(stack)-1].keys > MaxMappingKeys {
					return &Problem{Pos: Pos{File: path, Line: n + 1, Col: utf8.RuneCount(line[:p]) + 1},
						Msg: fmt.Sprintf("more than %d keys in one mapping; the limit is %d", MaxMappingKeys, MaxMappingKeys)}
				}
			} else {
				if len(stack) > 0 && stack[len(stack)-1].indent == p {
					stack = stack[:len(stack)-1] // a sequence item's mapping: a new one
				}
				stack = append(stack, level{p, 1})
			}
		}
		v := skipProperties(bytes.TrimLeft(value, " \t"))
		switch {
		case len(v) > 0 && (v[0] == '|' || v[0] == '>'):
			scalar = indent // its text is indented deeper than the key or the item
			if isKey {
				scalar = p
			}
		case len(v) > 0 && (v[0] == '"' || v[0] == '\''):
			if closeQuote(v, 1, v[0]) < 0 {
				quote = v[0] // a quoted scalar that goes on past this line
			}
		}
	}
	return nil
}

// skipProperties returns v after its leading anchor (`&name`) and tag (`!tag`, `!!str`),
// which may stand before a block scalar's indicator.
func skipProperties(v []byte) []byte {
	for len(v) > 0 && (v[0] == '&' || v[0] == '!') {
		i := bytes.IndexAny(v, " \t")
		if i < 0 {
			return nil
		}
		v = bytes.TrimLeft(v[i:], " \t")
	}
	return v
}

// closeQuote returns the index in s, from i, of the quote that closes a scalar quoted with
// q, or -1: in a double-quoted scalar a backslash escapes the next character, in a
// single-quoted one a quote is escaped by doubling it.
func closeQuote(s []byte, i int, q byte) int {
	for ; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// keyValue reports whether s, a line's content after its indentation and block indicators,
// is a mapping key (`key: value`, `key:` at the end of the line, `"key": value`), and
// returns what follows the colon. A flow collection (`{`, `[`) is not a key, and a quoted
// string is one only when a colon follows its closing quote.
func keyValue(s []byte) (value []byte, ok bool) {
	if len(s) == 0 || s[0] == '{' || s[0] == '[' {
		return nil, false
	}
	if s[0] == '"' || s[0] == '\'' {
		end := closeQuote(s, 1, s[0])
		if end < 0 {
			return nil, false
		}
		rest := bytes.TrimLeft(s[end+1:], " \t")
		if len(rest) == 0 || rest[0] != ':' {
			return nil, false // a string, not a key: `"Bash(git commit -m \"fix: x\")",`
		}
		return rest[1:], true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '#' && i > 0 && isBlank(s[i-1]):
			return nil, false // a comment before any colon
		case c == ':' && (i+1 == len(s) || isBlank(s[i+1])):
			return s[i+1:], i > 0
		}
	}
	return nil, false
}

// bytesLines yields data's lines, numbered from 0, without their line breaks: LF, CRLF or a
// lone CR. An iterator rather than a [][]byte: a hook process checks ~/.claude/settings.json
// at every event, and the slice of its lines was 15 KB of the event's allocations (stop 34).
func bytesLines(data []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		n, start := 0, 0
		for i := 0; i < len(data); i++ {
			switch data[i] {
			case '\n':
				if !yield(n, data[start:i]) {
					return
				}
				n, start = n+1, i+1
			case '\r':
				if !yield(n, data[start:i]) {
					return
				}
				if i+1 < len(data) && data[i+1] == '\n' {
					i++
				}
				n, start = n+1, i+1
			}
		}
		yield(n, data[start:])
	}
}

// isBlank reports whether c ends a block indicator: a blank or a line break.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Caps checked on the parsed document, before its hooks are decoded: decoding costs a few
// KiB per entry, and an alias stands for a whole node, so 4 bytes (`*a, `) could cost as
// much as a hook written out.
const (
	// MaxHooks caps the hook entries of one file (matcher groups count as their hooks).
	MaxHooks = 10000
	// MaxAliasExpansion caps what the aliases of one file stand for, in bytes of the nodes
	// they name (nested aliases counted as expanded): they may double a full-size file, no
	// more (the "billion laughs" of merge keys and aliases of aliases).
	MaxAliasExpansion = MaxFileSize
)

// checkAliases reports the first alias past MaxAliasExpansion as an error.
func (d *decoder) checkAliases(body ast.Node) bool {
	m := &aliasMeter{anchors: d.anchors, memo: map[string]int{}, busy: map[string]bool{}}
	total := 0
	var over ast.Node
	walk(body, func(n ast.Node) bool {
		if over != nil {
			return false
		}
		if a, ok := n.(*ast.AliasNode); ok {
			total = satAdd(total, m.anchor(a))
			if total > MaxAliasExpansion {
				over = a
			}
			return false
		}
		return true
	})
	if over != nil {
		d.errorf(over, "aliases stand for more than %d bytes; the limit is %d", MaxAliasExpansion, MaxAliasExpansion)
		return false
	}
	return true
}

// aliasMeter measures what aliases stand for: the bytes of the token values of the anchored
// node, each nested alias counted as what it names. Sizes saturate past
// MaxAliasExpansion; an anchor that names itself counts 0 inside itself.
type aliasMeter struct {
	anchors map[string]ast.Node
	memo    map[string]int
	busy    map[string]bool
}

func (m *aliasMeter) anchor(a *ast.AliasNode) int {
	if a.Value == nil || a.Value.GetToken() == nil {
		return 1
	}
	name := a.Value.GetToken().Value
	if n, ok := m.memo[name]; ok {
		return n
	}
	if m.busy[name] {
		return 1
	}
	m.busy[name] = true
	size := m.size(m.anchors[name])
	m.busy[name] = false
	m.memo[name] = size
	return size
}

func (m *aliasMeter) size(n ast.Node) int {
	total := 1
	walk(n, func(x ast.Node) bool {
		if total > MaxAliasExpansion {
			return false
		}
		if a, ok := x.(*ast.AliasNode); ok {
			total = satAdd(total, m.anchor(a))
			return false
		}
		if t := x.GetToken(); t != nil {
			total = satAdd(total, len(t.Value)+1)
		}
		return true
	})
	return total
}

// satAdd adds without passing MaxAliasExpansion+1.
func satAdd(a, b int) int { return min(a+b, MaxAliasExpansion+1) }

// walk calls f for n and, while f returns true, for its descendants.
func walk(n ast.Node, f func(ast.Node) bool) {
	if n != nil {
		ast.Walk(visitFunc(f), n)
	}
}

type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if f(n) {
		return f
	}
	return nil
}

// entries counts the hook entries under a JSON dialect's `hooks` mapping: a matcher group
// counts its hooks, any other entry 1.
func (d *decoder) entries(events []kv) int {
	count := 0
	for _, ev := range events {
		seq, ok := ev.val.(*ast.SequenceNode)
		if !ok {
			continue
		}
		for _, e := range seq.Values {
			n := 1
			if m, ok := d.resolve(e).(*ast.MappingNode); ok {
				for _, mv := range m.Values {
					if scalarText(d.resolve(mv.Key)) == "hooks" {
						if inner, ok := d.resolve(mv.Value).(*ast.SequenceNode); ok {
							n = max(len(inner.Values), 1)
						}
					}
				}
			}
			count += n
		}
	}
	return count
}

package match

import "strings"

// item is one piece of a word as a names clause reads it (see nameSpec).
type item struct {
	kind   itemKind
	c      byte      // itLit: the byte; itBrace: '{', ',' or '}'; itAny: '(' or ')' for a parenthesis
	hidden bool      // itAny: the text may be the whole name, none of it written
	lo, hi byte      // itRange: the bytes of a {a..z} range
	alts   [][]item  // itChoice: the alternatives of a brace expansion
	set    *setModel // itSet: the model of a parameter bash sets from the line's words
}

type itemKind uint8

const (
	itLit    itemKind = iota // a written byte
	itAny                    // any text
	itGlob                   // *: any text without a slash
	itGlob1                  // ? or [...]: one byte but a slash
	itRange                  // one byte of lo..hi
	itDigits                 // a number range: digits and -
	itChoice                 // one of alts
	itBrace                  // an unquoted {, , or } before parseBraces
	itBreak                  // a word break: IFS splitting inside a variable's value
	itSub                    // any part of alts[0] (its items from any one to any other)
	itSet                    // what a parameter bash sets from the line's words may give (setModel)
)

// word is one word of a text as eachWord reads it.
type word struct {
	items  []item // reused by the next word
	braces bool   // whether items holds itBrace items
	raw    string // the word's text as written
	nl     bool   // whether a newline (or the text's end) ends it
}

// eachWord calls f with each word of text, braces not yet expanded (itBrace), until f
// returns false. The items are reused. When lf is not nil, an expansion of a variable the
// line assigns is a choice between any text and the values lf holds for it (lineFacts.model).
func eachWord(text string, lf *lineFacts, f func(wd *word) bool) {
	var buf [64]item
	wd := word{items: buf[:0]}
	more, start := true, 0
	end := func(i int, nl bool) {
		if len(wd.items) > 0 && more {
			wd.raw, wd.nl = text[start:i], nl
			more = f(&wd)
		}
		wd.items, wd.braces, start = wd.items[:0], false, i+1
	}
	var params map[int]param // the } of each ${, with what it expands
	lit := func(c byte) { wd.items = append(wd.items, item{kind: itLit, c: c}) }
	any := func(c byte) {
		if n := len(wd.items); c != 0 || n == 0 || wd.items[n-1].kind != itAny || wd.items[n-1].c != 0 {
			wd.items = append(wd.items, item{kind: itAny, c: c})
		}
	}
	for i := 0; i < len(text) && more; i++ {
		c := text[i]
		next := byte(0)
		if i+1 < len(text) {
			next = text[i+1]
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if len(wd.items) == 0 {
				start = i + 1
			}
			end(i, c == '\n')
		case c == '\\':
			if next == '\n' {
				i++
			}
		case c == '\'' || c == '"':
		case c == '$':
			if i+1 < len(text) && text[i+1] == '{' && params == nil {
				params = map[int]param{}
			}
			i = dollar(text, i, &wd.items, params, lf)
		case c == '`':
			any(0)
		case c == '(' || c == ')':
			any(c)
		case strings.IndexByte("@!+*?", c) >= 0 && next == '(':
			any(0)
			i++
		case c == '*':
			if n := len(wd.items); n == 0 || wd.items[n-1].kind != itGlob {
				wd.items = append(wd.items, item{kind: itGlob})
			}
		case c == '?':
			wd.items = append(wd.items, item{kind: itGlob1})
		case c == '[':
			if j := bracketEnd(text, i); j > 0 {
				wd.items = append(wd.items, item{kind: itGlob1})
				i = j
			} else {
				lit(c)
			}
		case c == '}' && params != nil && params[i].end:
			if p := params[i]; p.bind && lf != nil && !lf.scanned {
				lf.assign(p.name, wd.items[p.val:])
			}
			any(0)
			if p := params[i]; lf != nil && lf.has(p.name) {
				wd.items = lf.wrap(wd.items, p)
			}
		case c == '{' || c == ',' || c == '}':
			wd.items = append(wd.items, item{kind: itBrace, c: c})
			wd.braces = true
		case c == '#' && isDigit(next):
			any(0)
			for i+1 < len(text) && isDigit(text[i+1]) {
				i++
			}
		case c == '%' && i+2 < len(text) && isHex(next) && isHex(text[i+2]):
			any(0)
			i += 2
		default:
			lit(c)
		}
	}
	end(len(text), true)
}

// param is a ${...} expansion: where its items start, the variable it expands and the
// operator text after the name (":1", "#X", "/X/", "@P", "" ...); bind is set for one that
// assigns its word to the variable (${x:=w}, ${x=w}), whose items start at val.
type param struct {
	end   bool
	start int
	name  string
	op    string
	bind  bool
	val   int
}

// dollar reads the expansion that starts with the $ at text[i] into *w and returns the
// index of its last byte.
func dollar(text string, i int, w *[]item, params map[int]param, lf *lineFacts) int {
	any := func() { *w = append(*w, item{kind: itAny}) }
	if i+1 >= len(text) {
		*w = append(*w, item{kind: itLit, c: '$'})
		return i
	}
	switch c := text[i+1]; {
	case c == '\'':
		return ansiC(text, i+2, w)
	case c == '"':
		// $"...": a string like "...", unless the line selects a message catalog, which
		// may translate it into any text.
		if lf != nil && lf.catalog {
			*w = append(*w, item{kind: itAny, hidden: true})
		}
		return i
	case c == '{':
		p := param{end: true, start: len(*w)}
		any()
		if j := braceEnd(text, i+1); j > 0 {
			p.name, p.op = paramName(text[i+2 : j])
			if k := binding(text[i+2:j], p.name); k > 0 {
				// ${x:=w}, ${x=w}: the word is read from where it starts, and recorded as
				// a value of x (the name and operator are not part of the expansion).
				p.bind, p.val = true, len(*w)
				params[j] = p
				return i + 1 + k
			}
			params[j] = p
		}
		return i + 1
	case c == '(' || c == '[':
		any()
		return i + 1
	case isWordByte(c) && !isDigit(c):
		j := i + 1
		for j+1 < len(text) && isWordByte(text[j+1]) {
			j++
		}
		if name := text[i+1 : j+1]; lf != nil && lf.has(name) {
			p := param{start: len(*w), name: name}
			*w = lf.wrap(append(*w, item{kind: itAny}), p)
		} else {
			any()
		}
		return j
	case isDigit(c) || c == '@' || c == '*':
		if name := text[i+1 : i+2]; lf != nil && lf.has(name) {
			p := param{start: len(*w), name: name}
			*w = lf.wrap(append(*w, item{kind: itAny}), p)
		} else {
			any()
		}
		return i + 1
	case strings.IndexByte("#?$!-", c) >= 0:
		any()
		return i + 1
	}
	*w = append(*w, item{kind: itLit, c: '$'})
	return i
}

// paramName splits the text inside ${...} into the variable's name (with no subscript) and
// the operator text after it; the name is empty for ${#x}, ${!x} and the special
// parameters but @, * and _; a positional parameter's name is its number.
func paramName(in string) (name, op string) {
	j := 0
	switch {
	case in == "":
		return "", ""
	case in[0] == '@' || in[0] == '*':
		return in[:1], in[1:]
	case isDigit(in[0]):
		for j < len(in) && isDigit(in[j]) {
			j++
		}
		return in[:j], in[j:]
	}
	for j < len(in) && isWordByte(in[j]) {
		j++
	}
	if j == 0 {
		return "", ""
	}
	name = in[:j]
	if j < len(in) && in[j] == '[' {
		if k := strings.IndexByte(in[j:], ']'); k > 0 {
			j += k + 1
		}
	}
	return name, in[j:]
}

// binding returns the length of the name and operator of in, the text inside ${...} with
// the variable name, when the expansion assigns its word to the variable (${x:=w}, ${x=w}),
// and 0 otherwise.
func binding(in, name string) int {
	if name == "" || isDigit(name[0]) || name == "@" || name == "*" || !strings.HasPrefix(in, name) {
		return 0
	}
	switch op := in[len(name):]; {
	case strings.HasPrefix(op, ":="):
		return len(name) + 2
	case strings.HasPrefix(op, "="):
		return len(name) + 1
	}
	return 0
}

// ansiC reads the $'...' string whose text starts at text[i] into *w and returns the index
// of its closing quote: a numeric escape (\0 \x \u \U \c) is any text, an escape such as
// \n a space, \' a quote, any other byte itself.
func ansiC(text string, i int, w *[]item) int {
	j := i
	for ; j < len(text) && text[j] != '\''; j++ {
		c := text[j]
		if c != '\\' || j+1 == len(text) {
			*w = append(*w, item{kind: itLit, c: c})
			continue
		}
		j++
		switch c = text[j]; {
		case strings.IndexByte("01234567xuUc", c) >= 0:
			*w = append(*w, item{kind: itAny})
			digits, ok := 2, isHex // \xHH
			switch c {
			case 'c': // \cX: one byte
				digits, ok = 1, func(byte) bool { return true }
			case 'u':
				digits = 4
			case 'U':
				digits = 8
			case 'x':
			default: // \NNN, octal: the first digit is c
				digits, ok = 2, func(b byte) bool { return '0' <= b && b <= '7' }
			}
			for ; digits > 0 && j+1 < len(text) && text[j+1] != '\'' && ok(text[j+1]); digits-- {
				j++
			}
		case strings.IndexByte("abeEfnrtv", c) >= 0:
			*w = append(*w, item{kind: itLit, c: ' '})
		default:
			*w = append(*w, item{kind: itLit, c: c})
		}
	}
	return j
}

// braceEnd returns the index of the } that closes the { at text[i], or -1.
func braceEnd(text string, i int) int {
	depth := 0
	for j := i; j < len(text); j++ {
		switch text[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// bracketEnd returns the index of the ] that closes the glob bracket expression at
// text[i] within its word, or -1.
func bracketEnd(text string, i int) int {
	j := i + 1
	if j < len(text) && (text[j] == '!' || text[j] == '^') {
		j++
	}
	if j < len(text) && text[j] == ']' {
		j++
	}
	for ; j < len(text); j++ {
		switch text[j] {
		case ']':
			return j
		case ' ', '\t', '\n', '\r':
			return -1
		}
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// parseBraces expands the brace items of a word as bash does: {a,b} (nested) is a choice,
// {a..z} a range, {x} both {x} and x (curl), {} itself, and a { or } without its pair any
// text.
func parseBraces(w []item) []item {
	var out []item
	for i := 0; i < len(w); i++ {
		it := w[i]
		if it.kind != itBrace {
			out = append(out, it)
			continue
		}
		if it.c == ',' {
			out = append(out, item{kind: itLit, c: ','})
			continue
		}
		end, commas := -1, []int(nil)
		if it.c == '{' {
			end, commas = braceGroup(w, i)
		}
		if end < 0 {
			out = append(out, item{kind: itAny})
			continue
		}
		body := w[i+1 : end]
		switch {
		case len(commas) > 0:
			ch := item{kind: itChoice}
			from := i + 1
			for _, c := range append(commas, end) {
				ch.alts = append(ch.alts, parseBraces(w[from:c]))
				from = c + 1
			}
			out = append(out, ch)
		case len(body) == 0:
			out = append(out, item{kind: itLit, c: '{'}, item{kind: itLit, c: '}'})
		default:
			if r, ok := braceRange(body); ok {
				out = append(out, r)
				break
			}
			inner := parseBraces(body)
			asIs := append(append([]item{{kind: itLit, c: '{'}}, inner...), item{kind: itLit, c: '}'})
			out = append(out, item{kind: itChoice, alts: [][]item{asIs, inner}})
		}
		i = end
	}
	return out
}

// braceGroup returns the index of the } that closes the { at w[i] and the indexes of its
// top-level commas, or -1.
func braceGroup(w []item, i int) (int, []int) {
	depth := 0
	var commas []int
	for j := i; j < len(w); j++ {
		if w[j].kind != itBrace {
			continue
		}
		switch w[j].c {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return j, commas
			}
		case ',':
			if depth == 1 {
				commas = append(commas, j)
			}
		}
	}
	return -1, nil
}

// braceRange reads a bash sequence expression, x..y or x..y..step: a range of single
// letters (each of their bytes, in ASCII order between them) or of integers.
func braceRange(body []item) (item, bool) {
	var sb strings.Builder
	for _, it := range body {
		if it.kind != itLit {
			return item{}, false
		}
		sb.WriteByte(it.c)
	}
	parts := strings.Split(sb.String(), "..")
	if len(parts) != 2 && (len(parts) != 3 || !isInt(parts[2])) {
		return item{}, false
	}
	a, b := parts[0], parts[1]
	if isInt(a) && isInt(b) {
		return item{kind: itDigits}, true
	}
	if len(a) == 1 && len(b) == 1 && isLetter(a[0]) && isLetter(b[0]) {
		lo, hi := min(a[0], b[0]), max(a[0], b[0])
		return item{kind: itRange, lo: lo, hi: hi}, true
	}
	return item{}, false
}

func isInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	s = strings.TrimPrefix(s, "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

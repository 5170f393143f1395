package shell

import "strings"

// awkLong are gawk's long options that the analysis reads (longName); see bashtext.go.
var awkLong = []string{"--source", "--file", "--exec", "--include", "--load", "--assign", "--field-separator",
	"--sandbox"}

// awk analyses awk's arguments (see the top of bashtext.go).
func (b *Commands) awk(args []word, c ctx) {
	var programs, operands []word
	fromFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		next := func() word {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return word{static: true}
		}
		switch {
		case t == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case len(t) > 1 && t[0] == '-' && !a.static:
			b.all = true // -$X may be -e or -l
			return
		case strings.HasPrefix(t, "--"):
			name, value, eq := strings.Cut(t, "=")
			v := word{text: value, static: a.static, exp: a.exp}
			switch longName(name, awkLong) {
			case "--source":
				if !eq {
					v = next()
				}
				programs = append(programs, v)
			case "--load":
				b.denyAll = true // a shared object: code
				return
			case "--sandbox":
				return // system, pipes and redirections are refused
			case "--file", "--exec", "--include", "--assign", "--field-separator":
				long := longName(name, awkLong)
				fromFile = fromFile || long == "--file" || long == "--exec"
				if !eq {
					v = next()
				}
				if (long == "--file" || long == "--exec" || long == "--include") && !b.programFile(v) {
					return
				}
			}
		case len(t) > 1 && t[0] == '-':
		short:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'e', 'f', 'E', 'i', 'v', 'F', 'W', 'l':
					v := word{text: t[j+1:], static: true}
					if j+1 == len(t) {
						v = next()
					}
					switch t[j] {
					case 'e':
						programs = append(programs, v)
					case 'f', 'E', 'i':
						fromFile = fromFile || t[j] != 'i'
						if !b.programFile(v) {
							return
						}
					case 'l':
						b.denyAll = true // a shared object: code
						return
					case 'W': // mawk -W exec FILE, -W e FILE: the program is the file
						if v.text == "exec" || v.text == "e" {
							fromFile = true
							if !b.programFile(next()) {
								return
							}
						}
					}
					break short
				case 'S':
					return // gawk --sandbox
				case 'd', 'D', 'L', 'o', 'p':
					break short // an optional argument, attached
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	if len(programs) == 0 && !fromFile && len(operands) > 0 {
		programs = operands[:1]
	}
	for _, p := range programs {
		if !b.textWord(p) {
			return
		}
		b.awkProgram(p.text, c)
		if b.all || b.denyAll {
			return
		}
	}
}

// awkToken is one token of an awk program, as far as awkProgram reads it.
type awkToken struct {
	kind byte   // 's' string, 'i' identifier, 'n' number, 'r' regular expression, else the byte itself ('|' for | and |&)
	text string // a string's value, an identifier
	alt  string // a string's value as mawk decodes it, when it differs (awkString)
}

// awkValue reports whether an awk token ends an operand, after which '/' divides and
// "…" is concatenated.
func (t awkToken) value() bool {
	switch t.kind {
	case 's', 'n', 'r', ')', ']', '$':
		return true
	case 'i':
		switch t.text {
		case "print", "printf", "return", "in", "case", "getline", "do", "else":
			return false
		}
		return true
	}
	return false
}

// awkProgram reads an awk program's tokens and analyses the commands it may run (see the
// top of bashtext.go).
func (b *Commands) awkProgram(p string, c ctx) {
	toks, ok := awkTokens(p)
	if !ok {
		b.denyAll = true
		return
	}
	at := func(k int) awkToken {
		if k >= 0 && k < len(toks) {
			return toks[k]
		}
		return awkToken{kind: ';'}
	}
	for k, t := range toks {
		if b.all || b.denyAll {
			return
		}
		switch {
		case t.kind == '@':
			b.denyAll = true // @load, or an indirect call that may be system
		case t.kind == 'i' && t.text == "system":
			// system ( "…" )
			if at(k+1).kind == '(' && at(k+2).kind == 's' && at(k+3).kind == ')' {
				b.awkCode(at(k+2), c)
			} else {
				b.denyAll = true
			}
		case t.kind == '|':
			if at(k+1).kind == 'i' && at(k+1).text == "getline" {
				// "…" | getline: the string must be the whole left operand.
				if at(k-1).kind == 's' && !at(k-2).value() {
					b.awkCode(at(k-1), c)
				} else {
					b.denyAll = true
				}
				continue
			}
			// print … | "…": the string must be the whole command.
			switch n := at(k + 2); {
			case at(k+1).kind == 's' && (n.kind == ';' || n.kind == '}' || n.kind == ')' || n.kind == '\n'):
				b.awkCode(at(k+1), c)
			default:
				b.denyAll = true
			}
		}
	}
}

// awkTokens splits an awk program into the tokens awkProgram reads: strings (decoded),
// regular expressions (skipped where an operand may start), identifiers, numbers, and
// single punctuation bytes, "||" and "&&" dropped, "|&" read as '|'. It reports false
// when a string does not end.
func awkTokens(p string) ([]awkToken, bool) {
	var toks []awkToken
	last := func() awkToken {
		if len(toks) == 0 {
			return awkToken{kind: ';'}
		}
		return toks[len(toks)-1]
	}
	for i := 0; i < len(p); {
		ch := p[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case ch == '\\' && i+1 < len(p) && p[i+1] == '\n':
			i += 2
		case ch == '#':
			i = lineEnd(p, i)
		case ch == '"':
			j := i + 1
			for ; j < len(p) && p[j] != '"'; j++ {
				if p[j] == '\\' && j+1 < len(p) {
					j++
				}
			}
			if j >= len(p) {
				return nil, false
			}
			text, alt, ok := awkString(p[i+1 : j])
			if !ok {
				return nil, false
			}
			toks = append(toks, awkToken{kind: 's', text: text, alt: alt})
			i = j + 1
		case ch == '/' && !last().value():
			if end, ok := awkRegexEnd(p, i+1); ok {
				toks = append(toks, awkToken{kind: 'r'})
				i = end + 1
				continue
			}
			toks = append(toks, awkToken{kind: '/'})
			i++
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i + 1
			for j < len(p) && isIdentByte(p[j], false) && p[j] != '-' {
				j++
			}
			toks = append(toks, awkToken{kind: 'i', text: p[i:j]})
			i = j
		case ch >= '0' && ch <= '9' || ch == '.':
			j := i + 1
			for j < len(p) && (p[j] >= '0' && p[j] <= '9' || p[j] == '.' || p[j] == 'e' || p[j] == 'x' ||
				p[j] >= 'a' && p[j] <= 'f' || p[j] >= 'A' && p[j] <= 'F') {
				j++
			}
			toks = append(toks, awkToken{kind: 'n'})
			i = j
		case (ch == '|' || ch == '&') && i+1 < len(p) && p[i+1] == ch:
			toks = append(toks, awkToken{kind: 'o'}) // || and &&: an operand follows
			i += 2
		case ch == '|':
			toks = append(toks, awkToken{kind: '|'})
			i++
			if i < len(p) && p[i] == '&' {
				i++
			}
		default:
			toks = append(toks, awkToken{kind: ch})
			i++
		}
	}
	return toks, true
}

// awkRegexEnd returns the index of the '/' that ends a regular expression starting at p[i]
// (backslash escapes and bracket expressions skipped), and false when there is none on the
// line, or the text up to it holds what a program around a division would ('"', ';', '{',
// '}', '@', "system", "getline"): the '/' is then read as a division, which reads more of
// the program, not less.
func awkRegexEnd(p string, i int) (int, bool) {
	end := sedRegexEnd(p, i, '/')
	if end < 0 {
		return 0, false
	}
	body := p[i:end]
	if strings.ContainsAny(body, "\"\n;{}@") || strings.Contains(body, "system") || strings.Contains(body, "getline") {
		return 0, false
	}
	return end, true
}

// awkCode analyses a string literal that awk runs as a command, as each awk decodes it.
func (b *Commands) awkCode(t awkToken, c ctx) {
	b.codeString(t.text, c)
	if t.alt != "" {
		b.codeString(t.alt, c)
	}
}

// awkString decodes the body of an awk string literal as awk does before system() or a
// pipe runs it (red team 5, finding 2: system("\162m -rf x") ran rm): \" \\ \/ \a \b \f
// \n \r \t \v, \NNN octal (up to three digits), \xHH hex (up to two digits); the value
// is cut at a NUL, as the C string the command becomes is. An unknown escape \X is X for
// gawk and \X for mawk: the mawk value is returned as alt when it differs. It reports false
// for \x followed by more than two hex digits, which awks read differently.
func awkString(s string) (text, alt string, ok bool) {
	var g, m strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch != '\\' || i+1 >= len(s) {
			g.WriteByte(ch)
			m.WriteByte(ch)
			continue
		}
		i++
		e := s[i]
		switch e {
		case '"', '\\', '/':
			ch = e
		case 'a':
			ch = '\a'
		case 'b':
			ch = '\b'
		case 'f':
			ch = '\f'
		case 'n':
			ch = '\n'
		case 'r':
			ch = '\r'
		case 't':
			ch = '\t'
		case 'v':
			ch = '\v'
		case '0', '1', '2', '3', '4', '5', '6', '7':
			ch = e - '0'
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				ch = ch<<3 | (s[i] - '0')
			}
		case 'x':
			n := 0
			for n < 3 && i+1+n < len(s) && isHexByte(s[i+1+n]) {
				n++
			}
			switch n {
			case 0:
				g.WriteString("\\x") // gawk and mawk keep it
				m.WriteString("\\x")
				continue
			case 3:
				return "", "", false
			}
			v := 0
			for _, d := range s[i+1 : i+1+n] {
				v = v<<4 | hexValue(byte(d))
			}
			ch = byte(v)
			i += n
		default:
			g.WriteByte(e)
			m.WriteByte('\\')
			m.WriteByte(e)
			continue
		}
		g.WriteByte(ch)
		m.WriteByte(ch)
	}
	text, alt = cutNUL(g.String()), cutNUL(m.String())
	if alt == text {
		alt = ""
	}
	return text, alt, true
}

func cutNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

package match

import "strings"

// joinedRules looks in the rule t (which isRuleShape accepted and compileRule compiled, so
// a '(' in it is closed by its last byte) for two rules written in one: a ')' in the pattern
// that closes no '(' of the pattern (strayParen), then, after any text, a tool name and '('
// (ruleNameAt). It returns the text between the two rules and its offset in t (Join).
// Whatever is between them, "||", "&&", "|", ",", "or", "OR", ";", a fullwidth "｜｜" or
// only white space (red team round 40, F4: each passed check and matched neither rule), the
// user meant two rules; Claude Code reads one, and so does the caller.
func joinedRules(t string) (Join, bool) {
	open := strings.IndexByte(t, '(')
	if open < 0 {
		return Join{}, false
	}
	pat := t[open+1 : len(t)-1]
	stray := strayParen(pat)
	if stray < 0 {
		return Join{}, false
	}
	from := open + 1 + stray + 1
	name, ok := ruleNameAt(t[:len(t)-1], from)
	if !ok {
		return Join{}, false
	}
	end := strings.LastIndexByte(t[:name], ')') + 1 // the ')' of the first rule
	between := t[end:name]
	op := strings.TrimSpace(between)
	if op == "" {
		return Join{Op: " ", Offset: end}, true
	}
	return Join{Op: op, Offset: end + strings.Index(between, op)}, true
}

// strayParen returns the offset in the pattern pat of its first ')' that closes no '(' of
// pat, or -1. Parentheses in shell quotes ('...', "...") or after a backslash outside
// single quotes do not count, so `python -c "x=')'; print(x)"` has none; when a quote is
// still open at the end of pat (an apostrophe: "don't) or Bash(x"), quotes are not
// special and every parenthesis counts.
func strayParen(pat string) int {
	if i, closed := scanParens(pat, true); closed {
		return i
	}
	i, _ := scanParens(pat, false)
	return i
}

// scanParens returns the offset of the first ')' in pat that closes no '(', or -1, and
// whether every quote is closed; with quotes false, quotes and backslashes are not special.
func scanParens(pat string, quotes bool) (stray int, closed bool) {
	stray, depth := -1, 0
	var q byte
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			}
		case quotes && c == '\\':
			i++
		case q == '"':
			if c == '"' {
				q = 0
			}
		case quotes && (c == '\'' || c == '"'):
			q = c
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			} else if stray < 0 {
				stray = i
			}
		}
	}
	return stray, q == 0
}

// ruleNameAt returns the offset in s of the first tool name at or after offset from that
// is followed by '(': a run of identifier bytes (isIdentByte: letters, digits, '_', '-',
// so mcp__server__tool too) that starts with a letter or '_', is not preceded by another
// identifier byte, and is followed by '('; a '!' just before it is included.
func ruleNameAt(s string, from int) (int, bool) {
	for k := from; k < len(s); k++ {
		if s[k] != '(' {
			continue
		}
		j := k
		for j > from && isIdentByte(s[j-1], false) {
			j--
		}
		if j == k || !isIdentByte(s[j], true) {
			continue
		}
		if j > from && s[j-1] == '!' {
			j--
		}
		return j, true
	}
	return 0, false
}

package shell

import "strings"

// splitString splits env -S's argument into words as env does: at blanks, with '...'
// and "..." quoting and backslash escapes (\_ is a blank outside quotes and a space inside
// "...", \c ends the string); a word that holds ${VAR} is not static. A string that is not
// static can not be split and reports false.
func splitString(w word) ([]word, bool) {
	if !w.static {
		return nil, false
	}
	var words []word
	var cur strings.Builder
	in, static := false, true
	end := func() {
		if in {
			words = append(words, word{text: cur.String(), static: static})
		}
		cur.Reset()
		in, static = false, true
	}
	s := w.text
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r':
			end()
		case ch == '#' && !in:
			return words, true
		case ch == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s):
					i++
					if s[i] == '_' {
						cur.WriteByte(' ')
					} else {
						cur.WriteByte(s[i])
					}
				case s[i] == '$':
					static = false
					cur.WriteByte('$')
				default:
					cur.WriteByte(s[i])
				}
			}
			if i >= len(s) {
				return nil, false
			}
		case ch == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case '_':
				end()
			case 'c':
				end()
				return words, true
			default:
				in = true
				cur.WriteByte(s[i])
			}
		case ch == '$':
			in, static = true, false
			cur.WriteByte('$')
		default:
			in = true
			cur.WriteByte(ch)
		}
	}
	end()
	return words, true
}

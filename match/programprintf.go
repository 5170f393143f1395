package match

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// printed returns what the command printf or echo words (words[0] the command; the other
// words their values, quotes removed) prints, and false when it is no such command or a
// word has an expansion of unknown value ($, `). A leading ~ of a word is kept: the shell
// expanded it before the command ran, and the checks read it as the home. Source: red team
// round 55 (`cp x $(printf '%s/.%s/%s%s' ~ claude sett ings.json)`, `printf … | xargs cp
// x`: the path is the text printed, not any word of the line).
//
// A word that starts with $HOME or ${HOME} (then a slash or its end) starts with ~ instead,
// and one that starts with $PWD or ${PWD} with . (red team round 56: `echo -e
// "$HOME/.bash\x72c" | xargs cp x` wrote ~/.bashrc): the home and the directory the checks
// read those as. A line that sets HOME or PWD first makes this name the real home: more
// blocked, never less.
func printed(words []string) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	words = append([]string{words[0]}, words[1:]...)
	for i, w := range words[1:] {
		w = knownPrefix(w)
		if strings.ContainsAny(w, "$`") {
			return "", false
		}
		words[i+1] = w
	}
	switch words[0] {
	case "printf":
		args := words[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return "", false // printf -v NAME: no output
		}
		return printfOutput(args[0], args[1:]), true
	case "echo":
		args, esc := words[1:], false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			for _, c := range args[0][1:] {
				switch c {
				case 'e':
					esc = true
				case 'E':
					esc = false
				}
			}
			args = args[1:]
		}
		out := strings.Join(args, " ")
		if esc {
			out, _ = unescapeEcho(out, true)
		}
		return out, true
	}
	return "", false
}

// printedWords returns the words and the lines of text (xargs's split of its input by
// blanks, and by lines with -I, -d '\n' or -0): the text itself when it holds none.
func printedWords(text string) []string {
	out := strings.Fields(text)
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == 0 }) {
		if l = strings.TrimSpace(l); l != "" && strings.ContainsAny(l, " \t") {
			out = append(out, l)
		}
	}
	return out
}

// printfOutput evaluates bash's printf with the format f and args: %s, %b (echo's escapes
// in the argument), %c, %q (as %s), numbers as written, %%, and the format's escapes; the
// format is reused while arguments remain. Widths are dropped (padding is blanks).
func printfOutput(f string, args []string) string {
	var sb strings.Builder
	next := func() string {
		if len(args) == 0 {
			return ""
		}
		a := args[0]
		args = args[1:]
		return a
	}
	for rounds := 0; rounds < 64; rounds++ {
		used := len(args)
		for i := 0; i < len(f); i++ {
			c := f[i]
			switch {
			case c == '\\':
				s, n, stop := escape(f[i:], false)
				sb.WriteString(s)
				i += n - 1
				if stop {
					return sb.String()
				}
			case c == '%' && i+1 < len(f):
				j := i + 1
				for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
					j++
				}
				if j >= len(f) {
					sb.WriteString(f[i:])
					i = len(f)
					continue
				}
				prec := -1
				if k := strings.IndexByte(f[i+1:j], '.'); k >= 0 {
					prec, _ = strconv.Atoi(f[i+1+k+1 : j])
				}
				cut := func(s string) string {
					if prec >= 0 && prec < len(s) {
						return s[:prec]
					}
					return s
				}
				switch f[j] {
				case '%':
					sb.WriteByte('%')
				case 's', 'q', 'Q':
					sb.WriteString(cut(next()))
				case 'b':
					s, stop := unescapeEcho(next(), false)
					sb.WriteString(cut(s))
					if stop {
						return sb.String()
					}
				case 'c':
					if a := next(); a != "" {
						sb.WriteByte(a[0])
					}
				default: // numbers and the rest, as written
					sb.WriteString(next())
				}
				i = j
			default:
				sb.WriteByte(c)
			}
		}
		if len(args) == 0 || len(args) == used {
			break
		}
	}
	return sb.String()
}

// unescapeEcho returns s with echo -e's escapes (printf's %b, which reads \NNN as octal
// too, when not echo) replaced, and whether a \c ended the output.
func unescapeEcho(s string, echo bool) (string, bool) {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			sb.WriteByte(s[i])
			continue
		}
		e, n, stop := escape(s[i:], true)
		if echo && n > 1 && s[i+1] >= '1' && s[i+1] <= '7' {
			e, n, stop = s[i:i+2], 2, false // echo -e: \NNN is no escape
		}
		sb.WriteString(e)
		i += n - 1
		if stop {
			return sb.String(), true
		}
	}
	return sb.String(), false
}

// escape reads the backslash escape at the start of s (s[0] is '\\') and returns its text,
// its length and whether it is \c (the end of the output). echo is echo -e's reading (\0NNN
// octal, \NNN too) rather than printf's format's (\NNN).
func escape(s string, echo bool) (string, int, bool) {
	if len(s) < 2 {
		return s, len(s), false
	}
	switch c := s[1]; c {
	case 'n':
		return "\n", 2, false
	case 't':
		return "\t", 2, false
	case 'r':
		return "\r", 2, false
	case 'a':
		return "\a", 2, false
	case 'b':
		return "\b", 2, false
	case 'f':
		return "\f", 2, false
	case 'v':
		return "\v", 2, false
	case 'e', 'E':
		return "\x1b", 2, false
	case '\\':
		return "\\", 2, false
	case '"', '\'', '?':
		if echo {
			return s[:2], 2, false
		}
		return string(c), 2, false
	case 'c':
		return "", 2, true
	case 'x':
		n := digits(s[2:], 2, 16)
		if n == 0 {
			return s[:2], 2, false
		}
		v, _ := strconv.ParseUint(s[2:2+n], 16, 8)
		return string([]byte{byte(v)}), 2 + n, false
	case 'u', 'U':
		max := 4
		if c == 'U' {
			max = 8
		}
		n := digits(s[2:], max, 16)
		if n == 0 {
			return s[:2], 2, false
		}
		v, _ := strconv.ParseUint(s[2:2+n], 16, 32)
		if !utf8.ValidRune(rune(v)) {
			return "", 2 + n, false
		}
		return string(rune(v)), 2 + n, false
	}
	start := 1
	if echo && s[1] == '0' {
		start = 2 // \0NNN
	}
	n := digits(s[start:], 3, 8)
	if n == 0 {
		if start == 2 {
			return "\x00", 2, false
		}
		return s[:2], 2, false
	}
	v, _ := strconv.ParseUint(s[start:start+n], 8, 16)
	return string([]byte{byte(v)}), start + n, false
}

// digits returns how many of s's first max bytes are digits of the base (8 or 16).
func digits(s string, max, base int) int {
	n := 0
	for n < len(s) && n < max {
		c := s[n]
		ok := c >= '0' && c <= '7' || base == 16 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			break
		}
		n++
	}
	return n
}

// printedTexts returns, for each of texts (simple commands as written) with a command
// substitution `$(…)` or `…` that runs printf or echo on words of known value, the text
// with the substitution replaced by what it prints (printed), for the checks to judge as
// one more command of the line; a substitution's value is otherwise any text.
func printedTexts(texts []string) []string {
	var out []string
	for _, t := range texts {
		if !strings.Contains(t, "$(") && !strings.Contains(t, "`") {
			continue
		}
		if r, ok := substPrinted(t); ok {
			out = append(out, r)
		}
	}
	return out
}

// substPrinted replaces each $(…) or `…` of t whose command printed reads by its output,
// and reports whether it replaced one.
func substPrinted(t string) (string, bool) {
	var sb strings.Builder
	done := false
	for i := 0; i < len(t); i++ {
		var body string
		var n int
		switch {
		case strings.HasPrefix(t[i:], "$(") && !strings.HasPrefix(t[i:], "$(("):
			j := strings.IndexByte(t[i+2:], ')')
			if j < 0 {
				return "", false
			}
			body, n = t[i+2:i+2+j], j+3
		case t[i] == '`':
			j := strings.IndexByte(t[i+1:], '`')
			if j < 0 {
				return "", false
			}
			body, n = t[i+1:i+1+j], j+2
		default:
			sb.WriteByte(t[i])
			continue
		}
		words, ok := shellWords(body)
		if !ok {
			sb.WriteString(t[i : i+n])
			i += n - 1
			continue
		}
		text, ok := printed(words)
		if !ok {
			sb.WriteString(t[i : i+n])
			i += n - 1
			continue
		}
		sb.WriteString(strings.TrimRight(text, "\n")) // a substitution drops trailing newlines
		done = true
		i += n - 1
	}
	return sb.String(), done
}

// shellWords splits the simple command text into its words' values: blanks separate,
// single and double quotes and backslashes are removed; false when it has an expansion
// (but a word's leading $HOME, ${HOME}, $PWD or ${PWD}, kept for printed: knownVar), a
// nested substitution or an operator.
func shellWords(text string) ([]string, bool) {
	var words []string
	var sb strings.Builder
	in, q := false, byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
				continue
			}
			sb.WriteByte(c)
		case q == '"' && c == '"':
			q = 0
		case c == '$' && sb.Len() == 0 && knownVar(text[i:]) != "":
			v := knownVar(text[i:]) // kept as written: printed reads it (knownPrefix)
			sb.WriteString(v)
			i += len(v) - 1
			in = true
		case c == '$' || c == '`' || q == 0 && strings.IndexByte("|&;<>()", c) >= 0:
			return nil, false
		case c == '\\' && i+1 < len(text):
			i++
			if q == '"' && strings.IndexByte("$`\"\\\n", text[i]) < 0 {
				sb.WriteByte('\\')
			}
			sb.WriteByte(text[i])
		case q == '"':
			sb.WriteByte(c)
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, sb.String())
				sb.Reset()
				in = false
			}
		default:
			sb.WriteByte(c)
			in = true
		}
	}
	if q != 0 {
		return nil, false
	}
	if in {
		words = append(words, sb.String())
	}
	return words, true
}

// knownPrefix rewrites a leading $HOME or ${HOME} of w as ~, and a leading $PWD or ${PWD}
// as ., when a slash or the word's end follows (printed).
func knownPrefix(w string) string {
	for _, v := range [][2]string{{"$HOME", "~"}, {"${HOME}", "~"}, {"$PWD", "."}, {"${PWD}", "."}} {
		if rest, ok := strings.CutPrefix(w, v[0]); ok && (rest == "" || rest[0] == '/') {
			return v[1] + rest
		}
	}
	return w
}

// knownVar returns the $HOME, ${HOME}, $PWD or ${PWD} that text starts with when a slash,
// a quote, a blank or the text's end follows it, else "".
func knownVar(text string) string {
	for _, v := range []string{"${HOME}", "${PWD}", "$HOME", "$PWD"} {
		if rest, ok := strings.CutPrefix(text, v); ok && (rest == "" || strings.IndexByte("/\"' \t\n", rest[0]) >= 0) {
			return v
		}
	}
	return ""
}

package config

import (
	"bytes"
	"unicode/utf8"
)

// DotEnvWords returns every word of data that a .env parser could take as a variable's name,
// once each in order of appearance: each longest run of ASCII letters, digits, '_', '.' and
// '-' (the dotenv package's key characters, [\w.-]), wherever it stands, except on a comment
// line (one whose first character other than a space or a tab is '#'). That is more than
// dotenv (which Gemini CLI 0.61.0 reads a workspace's .env with) takes as keys, so a check
// that must not miss a key misses none, whatever the spaces, quotes or line breaks around
// it (JavaScript's \s is not Go's). Lines end at \n, \r, U+2028 and U+2029, the line
// terminators of a JavaScript multiline pattern.
func DotEnvWords(data []byte) []string {
	var words []string
	seen := map[string]bool{}
	for len(data) > 0 {
		line := data
		if i := lineEnd(data); i >= 0 {
			line = data[:i]
			_, n := utf8.DecodeRune(data[i:])
			data = data[i+n:]
		} else {
			data = nil
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '#' {
			continue
		}
		start := -1
		for i := 0; i <= len(line); i++ {
			if i < len(line) && isDotEnvByte(line[i]) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if w := string(line[start:i]); !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
				start = -1
			}
		}
	}
	return words
}

// lineEnd is the index of the first line terminator of data (\n, \r, U+2028, U+2029), -1
// when there is none.
func lineEnd(data []byte) int {
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\n' || data[i] == '\r':
			return i
		case data[i] == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9):
			return i
		}
	}
	return -1
}

func isDotEnvByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '.' || b == '-'
}

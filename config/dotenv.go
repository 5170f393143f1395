package config

import (
	"bytes"
	"strings"
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
	dotEnvLines(data, func(line []string) {
		for _, w := range line {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	})
	return words
}

// DotEnvKeys returns the words of data that stand where a .env parser reads a key, once
// each in order of appearance: the first word (DotEnvWords) of each line that is no
// comment, or the second when the first is "export". They are the variables trust show
// lists of a .env; DotEnvWords, which takes the words of values too, is what the hook
// command checks.
func DotEnvKeys(data []byte) []string {
	var keys []string
	seen := map[string]bool{}
	dotEnvLines(data, func(line []string) {
		if len(line) > 1 && line[0] == "export" {
			line = line[1:]
		}
		if len(line) > 0 && !seen[line[0]] {
			seen[line[0]] = true
			keys = append(keys, line[0])
		}
	})
	return keys
}

// dotEnvLines calls fn with the words of each line of data that is no comment
// (DotEnvWords).
func dotEnvLines(data []byte, fn func(words []string)) {
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
		var words []string
		start := -1
		for i := 0; i <= len(line); i++ {
			if i < len(line) && isDotEnvByte(line[i]) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				words = append(words, string(line[start:i]))
				start = -1
			}
		}
		fn(words)
	}
}

// DotEnvMayGive reports whether a variable whose value is value may have been set from the
// .env file data by Gemini CLI 0.61.0, which reads it with the dotenv package: whether value
// occurs in data as dotenv reads it (as UTF-8, its \r\n and \r made \n), or in that text
// with the \n and \r escapes made line breaks (what dotenv does to a double-quoted value).
// Every value dotenv takes from a file is a part of one of the two (between its quotes,
// trimmed), so false means the file did not give the variable its value. Gemini CLI puts a
// variable of the file in its environment only when it has none (loadEnvironment:
// `if (!Object.hasOwn(process.env, key))`; observed with peer-gemini, stop 29: a .env's PATH,
// HOME and PYTHONPATH left the user's own in the hooks' environment), so such a value is the
// user's. An empty value, data that is not UTF-8 (Node reads a bad byte as U+FFFD), and
// data with U+2028 or U+2029 (line terminators to dotenv's quote-stripping pattern, which
// then drops the quotes around each piece of an unquoted value between them) may always
// come from the file. Not covered: the four sign-in variables Gemini CLI takes from
// an untrusted folder's file with characters removed (GEMINI_API_KEY, GOOGLE_API_KEY,
// GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION), which are no guard variables.
func DotEnvMayGive(data []byte, value string) bool {
	if value == "" || !utf8.Valid(data) || bytes.ContainsRune(data, '\u2028') || bytes.ContainsRune(data, '\u2029') {
		return true
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	if strings.Contains(text, value) {
		return true
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, `\n`, "\n"), `\r`, "\r")
	return strings.Contains(text, value)
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

package config

import (
	"bytes"
	"unicode/utf8"
)

// EncodingHint names what opens data when it is not UTF-8 text a config parser reads as
// written: "UTF-16" (a UTF-16 byte order mark, or the NUL bytes of UTF-16 text: Notepad's
// "Unicode" save), "a UTF-8 byte order mark" (which YAML skips, and JSON — Claude Code's
// JSON.parse — refuses); "" otherwise. New-user trial, stop 24: such files were reported as
// "config must be a mapping ... not a string" or "invalid character 'ï'".
func EncodingHint(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}), utf16Text(data):
		return "UTF-16"
	case bytes.HasPrefix(data, []byte("\ufeff")):
		return "a UTF-8 byte order mark"
	}
	return ""
}

// utf16Text reports whether data opens as text in UTF-16 without a byte order mark: in its
// first 64 bytes (all of them, an even number, when it is shorter), every other byte is NUL
// and no other is (ASCII, little- or big-endian).
// Bytes of another kind with a NUL among them are binary, not UTF-16 (new-user trial, stop
// 27: "\x00\x01\x02" was called UTF-16).
func utf16Text(data []byte) bool {
	n := min(len(data), 64)
	if n < 2 || n%2 != 0 { // UTF-16 text is whole 2-byte units
		return false
	}
	even, odd := 0, 0 // NUL bytes at even and at odd offsets
	for i, b := range data[:n] {
		if b == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	return even == n/2 && odd == 0 || odd == n/2 && even == 0
}

// firstInvalidUTF8 returns the 1-based line and byte column of the first byte of data that
// is not UTF-8, and that byte; bad is false when data is all UTF-8.
func firstInvalidUTF8(data []byte) (line, col int, b byte, bad bool) {
	if utf8.Valid(data) {
		return 0, 0, 0, false
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return line, i - start + 1, data[i], true
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return 0, 0, 0, false
}

package config

import "bytes"

// EncodingHint names what opens data when it is not UTF-8 text a config parser reads as
// written: "UTF-16" (a UTF-16 byte order mark, or the NUL bytes of UTF-16 text: Notepad's
// "Unicode" save), "a UTF-8 byte order mark" (which YAML skips, and JSON — Claude Code's
// JSON.parse — refuses); "" otherwise. New-user trial, stop 24: such files were reported as
// "config must be a mapping ... not a string" or "invalid character 'ï'".
func EncodingHint(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}),
		len(data) >= 2 && (data[0] == 0) != (data[1] == 0):
		return "UTF-16"
	case bytes.HasPrefix(data, []byte("\ufeff")):
		return "a UTF-8 byte order mark"
	}
	return ""
}

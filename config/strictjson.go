package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// strictJSON warns when a ".json" config file parses (the YAML parser is lenient: it takes
// trailing commas, comments and unquoted keys) but is not strict JSON, which Claude Code and
// codebot would refuse to read. The warning points at the first offending byte.
func strictJSON(path string, data []byte) ErrorList {
	if !strings.EqualFold(filepath.Ext(path), ".json") || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if json.Valid(data) {
		return nil // what Unmarshal would say, without building the document (issue 9)
	}
	var v any
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	off := int64(len(data))
	if errors.As(err, &syn) {
		off = syn.Offset - 1
	}
	if off < 0 {
		off = 0
	}
	line, col := 1, 1
	for _, r := range string(data[:off]) {
		if r == '\n' {
			line, col = line+1, 1
		} else if r != utf8.RuneError {
			col++
		}
	}
	return ErrorList{{Pos: Pos{File: path, Line: line, Col: col}, Warning: true,
		Msg: "not strict JSON (" + err.Error() + "): hookcore reads it, but Claude Code and codebot would refuse this file"}}
}
